"""Every redaction ReDoS payload (`reliability/redos.py`) through the pipeline: no crash, no hang.

The pytest-timeout is a hang guard (`reliability.pathological.hang_guard_s`), not a speed assertion: `python -m
reliability.fuzzrun --redos` measures each payload against the 1 s budget and reports the slowest redaction.
"""

from __future__ import annotations

import pytest

from askvault.parse.decode import decode_note
from askvault.redact.engine import redact
from reliability.pathological import hang_guard_s, through_pipeline
from reliability.redos import CAP_BYTES, REDOS

pytestmark = pytest.mark.slow


@pytest.mark.timeout(hang_guard_s())
@pytest.mark.parametrize("name", list(REDOS))
def test_redaction_payload_at_the_size_cap_stays_within_the_budget(name: str) -> None:
    data = REDOS[name]()
    assert CAP_BYTES - 256 <= len(data) <= CAP_BYTES
    outcome = through_pipeline(name, data)
    assert outcome.refused is None
    assert outcome.chunks >= 1


@pytest.mark.timeout(hang_guard_s())
@pytest.mark.parametrize("name", ["redos-codes-annotated", "redos-inline-values", "redos-seed-listed-runs"])
def test_past_the_match_cap_a_rule_fails_closed_and_keeps_the_lines(name: str) -> None:
    text = decode_note(REDOS[name]())
    result = redact(text, recovery_section=text.startswith("## Recovery"))
    assert result.text.count("\n") == text.count("\n")
    assert len(result.text) < len(text) // 2  # the tail past the cap went as one finding
