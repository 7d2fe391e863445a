"""Exact identifiers: whole-token literal matching, and the ranking of the candidates that hold them."""

from __future__ import annotations

import random

import pytest
import regex

from askvault.model import Chunk
from askvault.retrieve.identifiers import IdentifierTerms, exact_ranking, held, holds_whole, identifier_terms, may_hold

HELD: list[tuple[str, str, list[str], tuple[str, ...]]] = [
    ("table-row", "| 10.0.0.41 | kodi-livingroom | DHCP |", ["kodi-livingroom"], ("kodi-livingroom",)),
    ("case-ignored", "Host KODI-LivingRoom is the NUC", ["kodi-livingroom"], ("kodi-livingroom",)),
    ("parts-are-not-the-whole", "kodi runs in the livingroom", ["kodi-livingroom"], ()),
    ("spaced-is-not-hyphenated", "kodi livingroom", ["kodi-livingroom"], ()),
    ("longer-value-is-another", "kodi-livingroom-2 and 10.0.0.410", ["kodi-livingroom", "10.0.0.41"], ()),
    ("url-piece-counts", "http://kodi-livingroom:8080/jsonrpc", ["kodi-livingroom"], ("kodi-livingroom",)),
    ("sentence-end-counts", "It is 10.0.0.41.", ["10.0.0.41"], ("10.0.0.41",)),
    ("code-span-counts", "set `container_name: pg-main`", ["container_name", "pg-main"], ("container_name", "pg-main")),
    ("css-dashes-before", "--hp-accent: #e0a458;", ["hp-accent"], ("hp-accent",)),
    ("inside-a-word-is-not", "sha2560 and xn8n", ["sha256", "n8n"], ()),
    ("unstemmed", "the ports 5433 and 54330", ["5433"], ("5433",)),
    ("compatibility-forms", "ＩＮＣ－０２１４ was the outage", ["inc-0214"], ("inc-0214",)),
]


@pytest.mark.parametrize(("text", "names", "expected"), [(t, n, e) for _, t, n, e in HELD], ids=[i for i, *_ in HELD])
def test_held(text: str, names: list[str], expected: tuple[str, ...]) -> None:
    assert held(text, names) == expected


def chunk(chunk_id: str, text: str) -> Chunk:
    return Chunk(chunk_id, f"{chunk_id}.md", chunk_id, (), 1, 1, text, text)


CHUNKS = {
    c.id: c
    for c in [
        chunk("workflow", "Kodi cleanup in the living room: kodi, kodi, kodi."),
        chunk("ip-plan", "| 10.0.0.41 | kodi-livingroom | DHCP reservation |"),
        chunk("overview", "| kodi-livingroom | Media player | 10.0.0.41 |"),
        chunk("disk", "| kodi-livingroom | /storage | 37 % |"),
    ]
}

RANKINGS: list[tuple[str, list[str], list[str], list[str]]] = [
    ("no-identifiers", ["workflow", "ip-plan"], [], []),
    ("holders-in-fused-order", ["workflow", "disk", "ip-plan"], ["kodi-livingroom"], ["disk", "ip-plan"]),
    (
        "more-identifiers-first",
        ["disk", "ip-plan", "overview"],
        ["kodi-livingroom", "10.0.0.41"],
        ["ip-plan", "overview", "disk"],
    ),
    ("unknown-ids-skipped", ["gone", "ip-plan", "ip-plan"], ["kodi-livingroom"], ["ip-plan"]),
    ("none-hold-it", ["workflow"], ["kodi-livingroom"], []),
]


@pytest.mark.parametrize(
    ("candidates", "names", "expected"), [(c, n, e) for _, c, n, e in RANKINGS], ids=[i for i, *_ in RANKINGS]
)
def test_exact_ranking(candidates: list[str], names: list[str], expected: list[str]) -> None:
    ranking, found = exact_ranking(candidates, CHUNKS, names)
    assert ranking == expected
    assert set(found) == set(expected)
    assert all(found[chunk_id] for chunk_id in expected)


KODI = identifier_terms(["kodi-livingroom", "kodi", "livingroom"])
PORT = identifier_terms(["5433"])


@pytest.mark.parametrize(
    ("terms", "expected"),
    [
        pytest.param(
            ["kodi-livingroom", "kodi", "livingroom"], ("kodi-livingroom", {"kodi", "livingroom"}), id="parts"
        ),
        pytest.param(["5433"], ("5433", set()), id="whole-only"),
        pytest.param([], None, id="no-terms"),
    ],
)
def test_identifier_terms(terms: list[str], expected: tuple[str, set[str]] | None) -> None:
    found = identifier_terms(terms)
    assert found == (None if expected is None else (expected[0], frozenset(expected[1])))


@pytest.mark.parametrize(
    ("held_terms", "wanted", "may"),
    [
        pytest.param(None, [PORT], True, id="not-in-the-index"),
        pytest.param(frozenset({"kodi-livingroom", "cron"}), [KODI], True, id="the-whole-term"),
        pytest.param(frozenset({"kodi", "livingroom"}), [KODI], True, id="every-part"),
        pytest.param(frozenset({"kodi"}), [KODI], False, id="one-part"),
        pytest.param(frozenset({"cron"}), [KODI, PORT], False, id="none"),
        pytest.param(frozenset({"5433"}), [KODI, PORT], True, id="the-second"),
        pytest.param(frozenset(), [None], True, id="an-identifier-without-terms"),
        pytest.param(frozenset({"kodi", "livingroom"}), [], False, id="nothing-wanted"),
    ],
)
def test_may_hold(held_terms: frozenset[str] | None, wanted: list[IdentifierTerms], may: bool) -> None:
    assert may_hold(held_terms, wanted) is may


def reference_pattern(identifier: str) -> regex.Pattern[str]:
    """The definition as one pattern: not glued on either side by a letter or digit, or a weak joiner before one."""
    alnum, weak = r"[\p{L}\p{N}]", r"[._\-~+]"
    return regex.compile(rf"(?<!{alnum}|{alnum}{weak}){regex.escape(identifier)}(?!{alnum}|{weak}{alnum})")


@pytest.mark.parametrize("seed", range(20))
def test_holds_whole_is_the_pattern(seed: int) -> None:
    draw = random.Random(seed)
    alphabet = "ab1-._~+/:@= é٣x"
    for _ in range(300):
        identifier = "".join(draw.choice("ab1-.") for _ in range(draw.randint(1, 3)))
        text = "".join(draw.choice(alphabet) for _ in range(draw.randint(0, 14)))
        assert holds_whole(text, identifier) is (reference_pattern(identifier).search(text) is not None), (
            identifier,
            text,
        )
