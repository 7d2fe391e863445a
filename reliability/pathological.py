"""A corpus of hostile note files: binary, broken encodings, giant lines, deep nesting, storms, YAML bombs.

Each case is generated (the large ones would be megabytes in git); `tests/fixtures/pathological/` holds the
small hand-written ones, and `reliability/redos.py` the payloads aimed at the redaction rules.
`through_pipeline` runs one file through every pure stage the indexer runs, the privacy step included.
"""

from __future__ import annotations

import codecs
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from askvault.chunk import chunk_note
from askvault.config import ChunkParams
from askvault.errors import NoteError
from askvault.parse.decode import decode_note
from askvault.parse.links import LinkResolver
from askvault.parse.note import parse_note
from askvault.redact.note import prepare_note
from askvault.store.text.tokenize import Tokenizer

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "pathological"
MB = 1024 * 1024


def _png() -> bytes:
    raw = b"\x00" + bytes(range(256)) * 64
    return b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + zlib.compress(raw) * 4


def _alias_bomb() -> bytes:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for level in range(1, 10):
        prev, name = chr(ord("a") + level - 1), chr(ord("a") + level)
        lines.append(f"{name}: &{name} [{', '.join(['*' + prev] * 9)}]")
    return ("---\n" + "\n".join(lines) + "\n---\n# Bomb\n\nBody text after the bomb.\n").encode()


GENERATORS: dict[str, Callable[[], bytes]] = {
    "binary-png": _png,
    "binary-zip": lambda: b"PK\x03\x04\x14\x00\x00\x00\x08\x00" + zlib.compress(b"x" * 50_000),
    "binary-sqlite": lambda: b"SQLite format 3\x00" + bytes(4096),
    "nul-mid-file": lambda: b"# Title\n\nSome text\x00and more after a NUL.\n",
    "invalid-utf8": lambda: b"# Caf\xe9\n\nBroken \xff\xfe bytes \xc3\x28 here.\n",
    "latin-1": lambda: "# Résumé\n\nÄrger über Öl und Straße.\n".encode("latin-1"),
    "utf16-bom": lambda: codecs.BOM_UTF16_LE + "# Title\n\nText.\n".encode("utf-16-le"),
    "utf8-bom-frontmatter": lambda: codecs.BOM_UTF8 + b"---\ntitle: With BOM\ntags: [bom]\n---\n# Body\n\nText.\n",
    "cr-only-line-ends": lambda: b"# A\r\rFirst paragraph.\rSecond line.\r## B\r\rMore text.\r",
    "mixed-line-ends": lambda: b"# A\r\nOne\rTwo\nThree\r\n\r## B\n\rFour\r\n",
    "single-line-10mb-over-cap": lambda: b"word " * (2 * MB),
    "single-line-4mb-at-cap": lambda: b"word " * (4 * MB // 5 - 1),
    "single-line-3mb-no-spaces": lambda: b"x" * (3 * MB),
    "lines-20k": lambda: b"l\n" * 20_000,
    "lines-200k": lambda: b"l\n" * 200_000,
    "lines-2m-at-cap": lambda: b"l\n" * (2 * MB - 1),
    "list-items-1m-at-cap": lambda: b"- a\n" * (MB - 1),
    "comment-over-2m-lines-at-cap": lambda: b"%% open\n" + b"l\n" * (2 * MB - 8) + b"%%\n",
    "distinct-words-at-cap": lambda: b"".join(b"w%d\n" % i for i in range(480_000)),
    "nested-lists-10k": lambda: ("- " * 10_000 + "x\n").encode(),
    "nested-list-staircase-2k": lambda: "\n".join("  " * i + f"- item {i}" for i in range(2_000)).encode(),
    "nested-quotes-10k": lambda: (">" * 10_000 + " deep quote\n").encode(),
    "nested-quote-staircase-2800": lambda: "\n".join(">" * i + " line" for i in range(1, 2_801)).encode(),
    "nested-callouts-10k": lambda: ("> " * 10_000 + "[!note] deepest\n").encode(),
    "nested-callout-staircase-2k": lambda: "\n".join("> " * i + f"[!note] {i}" for i in range(1, 2_001)).encode(),
    "nested-brackets-10k": lambda: ("[" * 10_000 + "x" + "]" * 10_000).encode(),
    "unclosed-fence": lambda: b"# Code\n\n```python\n" + b"print('never closed')\n" * 20_000,
    "unclosed-frontmatter": lambda: b"---\ntitle: Never closed\ntags: [a, b\n\n# Heading\n\nBody.\n",
    "unclosed-comment": lambda: b"# Note\n\nVisible %% hidden forever\n" + b"more hidden text\n" * 5_000,
    "unclosed-html-comment": lambda: b"# Note\n\n<!-- open\n" + b"inside the comment\n" * 5_000,
    "yaml-alias-bomb": _alias_bomb,
    "yaml-python-tag": lambda: b"---\nx: !!python/object/apply:os.system ['echo pwned']\n---\n# Tagged\n\nText.\n",
    "yaml-odd-scalars": lambda: b"---\nn: .nan\ni: 1" + b"0" * 5000 + b"\nd: 2024-02-30\nt: 12:30:00\n---\n# S\n",
    "yaml-deep-flow": lambda: b"---\nx: " + b"[" * 5_000 + b"]" * 5_000 + b"\n---\n# Deep\n",
    "frontmatter-10mb-over-cap": lambda: b"---\n" + b"".join(b"k%d: v\n" % i for i in range(1_200_000)) + b"---\n",
    "frontmatter-60k": lambda: b"---\n" + b"".join(b"key%d: value %d\n" % (i, i) for i in range(4_000)) + b"---\n",
    "frontmatter-1mb": lambda: b"---\n" + b"".join(b"key%d: value %d\n" % (i, i) for i in range(60_000)) + b"---\n",
    "wikilink-storm-10k": lambda: b"[[" * 10_000,
    "closed-wikilinks-10k": lambda: b" ".join(b"[[Note %d|alias]]" % i for i in range(10_000)),
    "embed-storm-10k": lambda: b"![[" * 10_000 + b"x" + b"]]" * 10_000,
    "bracket-storm-100k": lambda: b"[" * 100_000,
    "backtick-storm-100k": lambda: b"`" * 100_000,
    "backtick-pairs-50k": lambda: b"`a` ``b`` " * 50_000,
    "fence-storm": lambda: b"```\n" * 50_000,
    "link-title-unclosed": lambda: b'[a](b "' * 20_000,
    "emphasis-storm": lambda: b"*a _b " * 50_000,
    "tag-storm": lambda: b" ".join(b"#tag%d" % i for i in range(50_000)),
    "heading-storm-5k": lambda: b"".join(b"#" * (1 + i % 6) + b" H%d\n" % i for i in range(5_000)),
    "heading-storm-50k": lambda: b"".join(b"#" * (1 + i % 6) + b" H%d\n" % i for i in range(50_000)),
    "table-10k-columns": lambda: b"|" + b"c|" * 10_000 + b"\n|" + b"-|" * 10_000 + b"\n|" + b"v|" * 10_000 + b"\n",
    "whitespace-staircase": lambda: b"".join(b" " * i + b"x\n" for i in range(2_800)),
    "data-uri-image": lambda: b"![img](data:image/png;base64," + b"A" * (2 * MB) + b")\n",
    "control-and-bidi": lambda: "# T\n\n\u202eevil\u202c \u200b\u200d\ufeff \U000e0041 \x01\x1f\x7f text\n".encode(),
    "camel-case-storm": lambda: b"aB" * 200_000,
    "one-huge-token": lambda: b"a" * 500_000,
    "dotted-compound-storm": lambda: b".".join([b"a1"] * 200_000),
    "empty": lambda: b"",
    "only-frontmatter": lambda: b"---\ntitle: Only\n---\n",
    "only-whitespace": lambda: b" \n\t\n   \n",
}


BUDGET_S = 1.0
"""What one note may cost through parse, chunk and tokenize; every note the indexer reads stays under it."""
HANG_GUARD = 15
"""The tests' pytest-timeout is this many times a case's bound: a guard against a hang or a quadratic blow-up,
not a speed assertion (test machines are shared and noisy; `python -m reliability.fuzzrun` measures the budget)."""
BOUND_S = 2 * BUDGET_S
"""The budget with room for a busy machine: what `reliability.fuzzrun` reports against."""
SLOW_BOUNDS_S = {
    # The 4 MiB notes that are read as plain text (`parse.plain`: markdown-it-py costs 25-90 µs a line) or
    # tokenized word by word take 0.2-0.7 s (`python -m reliability.fuzzrun`); their test bound leaves room for
    # a busy machine. The over-cap cases never reach the parser (the indexer refuses them by size); the 13 MB
    # frontmatter one takes ~2 s in the tokenizer (1.2M distinct words).
    "lines-2m-at-cap": 10.0,
    "list-items-1m-at-cap": 10.0,
    "comment-over-2m-lines-at-cap": 10.0,
    "distinct-words-at-cap": 10.0,  # the tokenizer's floor: ~1.5 µs for each distinct word
    "single-line-10mb-over-cap": 10.0,
    "frontmatter-10mb-over-cap": 60.0,
}
SLOW_CASES = frozenset({"frontmatter-10mb-over-cap"})
"""Seconds each (and never a note the indexer reads): run by `python -m reliability.fuzzrun`, not by `make test`."""


def bound_s(name: str) -> float:
    return SLOW_BOUNDS_S.get(name, BOUND_S)


def hang_guard_s(name: str | None = None) -> float:
    """The pytest-timeout for a case (`HANG_GUARD` × its bound)."""
    return HANG_GUARD * (bound_s(name) if name is not None else BOUND_S)


def generated_cases() -> dict[str, bytes]:
    return {name: make() for name, make in GENERATORS.items()}


def fixture_cases() -> dict[str, bytes]:
    """The committed small files, by file name."""
    return {p.name: p.read_bytes() for p in sorted(FIXTURES.glob("*.md"))}


@dataclass(frozen=True, slots=True)
class Outcome:
    """What the pipeline did with one file."""

    refused: str | None
    """The NoteError message when the file is not a text note (binary, wrong encoding)."""
    chunks: int
    terms: int
    warnings: tuple[str, ...]
    seconds: float
    redact_seconds: float = 0.0
    """Of `seconds`, the privacy step (excluded headings and secret redaction)."""


def through_pipeline(name: str, data: bytes, params: ChunkParams | None = None) -> Outcome:
    """decode → parse → redact → chunk → tokenize, as the indexer runs them on one note."""
    started = time.perf_counter()
    try:
        text = decode_note(data)
    except NoteError as exc:
        return Outcome(exc.message, 0, 0, (), time.perf_counter() - started)
    path = f"Fuzz/{name}.md"
    note = parse_note(path, text, LinkResolver({path, "Fuzz/A.md", "Fuzz/B.md"}))
    redacting = time.perf_counter()
    prepared = prepare_note(note).note
    redacted = time.perf_counter() - redacting
    chunks = chunk_note(prepared, params or ChunkParams())
    tokenizer = Tokenizer()
    terms = sum(len(tokenizer.tokenize(chunk.index_text)) for chunk in chunks)
    return Outcome(None, len(chunks), terms, note.warnings, time.perf_counter() - started, redacted)
