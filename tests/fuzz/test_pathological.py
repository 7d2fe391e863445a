"""Every pathological file through decode → parse → chunk → tokenize: no crash, no hang.

pytest-timeout guards each case against a hang or a blow-up (`HANG_GUARD` × its bound, `reliability.
pathological`); it is not a speed assertion, as test machines are shared. `python -m reliability.fuzzrun`
measures every case against the 1 s budget, the over-cap ones included, and reports the slowest.
"""

from __future__ import annotations

import pytest

from askvault.config import ChunkParams
from reliability.pathological import GENERATORS, SLOW_CASES, fixture_cases, hang_guard_s, through_pipeline

pytestmark = pytest.mark.slow

REFUSED = {
    "binary-png": "binary data",
    "binary-zip": "binary data",
    "binary-sqlite": "binary data",
    "nul-mid-file": "binary data",
    "invalid-utf8": "not valid UTF-8",
    "latin-1": "not valid UTF-8",
    "utf16-bom": "UTF-16",
}
"""Files that are not UTF-8 text notes, and the start of the reason the indexer reports for them."""

CASES = [
    pytest.param(name, id=name, marks=pytest.mark.timeout(hang_guard_s(name)))
    for name in GENERATORS
    if name not in SLOW_CASES
]


def _check(name: str, data: bytes) -> None:
    params = ChunkParams()
    outcome = through_pipeline(name.removesuffix(".md"), data, params)
    if name in REFUSED:
        assert outcome.refused is not None
        assert outcome.refused.startswith(REFUSED[name]) or REFUSED[name] in outcome.refused
        return
    assert outcome.refused is None
    assert outcome.chunks >= 1  # every note, even an empty one, can be found by its title
    assert not [w for w in outcome.warnings if "internal parser error" in w]


@pytest.mark.parametrize("name", CASES)
def test_generated_pathological_note(name: str) -> None:
    _check(name, GENERATORS[name]())


@pytest.mark.timeout(hang_guard_s())
@pytest.mark.parametrize("name", sorted(fixture_cases()))
def test_committed_pathological_note(name: str) -> None:
    _check(name, fixture_cases()[name])
