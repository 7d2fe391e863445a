"""Deterministic synthetic vaults and queries: Zipfian words with identifiers and numbers, notes of 1-n sections.

Note `i` depends only on (seed, i), never on how many notes are written, so the 10k-note vault is the first
10k notes of any larger one. Each section is one chunk (200-1,200 chars of text: above the chunker's merge
threshold, below its split size), so a vault's chunk count is known before it is chunked; `expected_chunks`
says what was generated and the indexer's own count is what the figures report.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

SYLLABLES = (
    "ka", "lo", "mi", "ne", "ru", "ta", "vo", "zi", "be", "do", "fu", "ga",
    "hi", "jo", "pe", "se", "mar", "tol", "quin", "dre", "sal", "vek", "nor", "bis",
)  # fmt: skip
FUNCTION_WORDS = (
    "the", "of", "and", "to", "in", "a", "is", "that", "for", "it", "as", "with", "on", "be", "this", "by",
    "are", "or", "from", "at", "not", "but", "can", "which", "we", "an", "will", "have", "if", "when",
)  # fmt: skip
VOCABULARY_SIZE = 50_000
ZIPF_S = 1.07
FOLDERS = 20
MAX_SECTIONS = 12


@dataclass(frozen=True, slots=True)
class Vocabulary:
    words: tuple[str, ...]
    cumulative: npt.NDArray[np.float64]

    def sample(self, rng: np.random.Generator, count: int) -> list[str]:
        picks = np.searchsorted(self.cumulative, rng.random(count))
        return [self.words[i] for i in picks.tolist()]


def _identifier(rng: np.random.Generator, parts: list[str]) -> str:
    kind = int(rng.integers(0, 6))
    if kind == 0:
        return "_".join(parts[:2])  # snake_case setting
    if kind == 1:
        return parts[0] + parts[1].capitalize()  # camelCase
    if kind == 2:
        return f"v{rng.integers(0, 10)}.{rng.integers(0, 30)}.{rng.integers(0, 100)}"  # a version
    if kind == 3:
        alphabet = np.array(list("abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"))
        return "".join(rng.choice(alphabet, 16).tolist())  # a random id
    if kind == 4:
        return f"/etc/{parts[0]}/{parts[1]}.conf"  # a path
    return f"{parts[0]}-{parts[1]}.local:{rng.integers(1024, 65535)}"  # a host and port


@cache
def vocabulary(seed: int) -> Vocabulary:
    """Function words at the top ranks, then pseudo-words; every 20th rank an identifier, every 50th a number."""
    rng = np.random.default_rng([seed, 0])
    syllables = np.array(SYLLABLES)
    plain: set[str] = set()
    while len(plain) < VOCABULARY_SIZE:
        picks = rng.integers(0, len(syllables), size=(VOCABULARY_SIZE, 4))
        lengths = rng.integers(2, 5, size=VOCABULARY_SIZE)
        plain.update("".join(syllables[row[:n]]) for row, n in zip(picks, lengths, strict=True))
    pool = sorted(plain)
    order = rng.permutation(len(pool))
    words: list[str] = list(FUNCTION_WORDS)
    taken = 0
    while len(words) < VOCABULARY_SIZE:
        rank = len(words)
        if rank % 50 == 11:
            words.append(str(int(rng.integers(10, 99_999))))
        elif rank % 20 == 7:
            words.append(_identifier(rng, [pool[order[taken]], pool[order[taken + 1]]]))
            taken += 2
        else:
            words.append(pool[order[taken]])
            taken += 1
    weights = 1.0 / np.arange(1, len(words) + 1, dtype=np.float64) ** ZIPF_S
    return Vocabulary(words=tuple(words), cumulative=np.cumsum(weights / weights.sum()))


def _sentence(vocab: Vocabulary, rng: np.random.Generator) -> str:
    words = vocab.sample(rng, int(np.clip(rng.normal(16, 6), 4, 40)))
    return words[0].capitalize() + " " + " ".join(words[1:]) + "."


def _paragraph(vocab: Vocabulary, rng: np.random.Generator, budget: int) -> str:
    text = _sentence(vocab, rng)
    while len(text) < budget:
        text += " " + _sentence(vocab, rng)
    return text


def _section_text(vocab: Vocabulary, rng: np.random.Generator, note: int) -> str:
    """200-1,200 chars in 1-3 paragraphs, sometimes with a list, a code span or a link to an earlier note."""
    target = int(np.clip(rng.lognormal(6.2, 0.45), 220, 1100))
    paragraphs: list[str] = []
    size = 0
    while size < target:
        budget = min(target - size, int(np.clip(rng.normal(380, 120), 120, 700)))
        roll = rng.random()
        if roll < 0.12:
            items = ["- " + " ".join(vocab.sample(rng, int(rng.integers(3, 9)))) for _ in range(rng.integers(2, 6))]
            block = "\n".join(items)
        elif roll < 0.2:
            block = _paragraph(vocab, rng, budget) + f" Set `{vocab.sample(rng, 1)[0]}` first."
        elif roll < 0.3 and note > 0:
            block = _paragraph(vocab, rng, budget) + f" See [[{note_title(int(rng.integers(0, note)))}]]."
        else:
            block = _paragraph(vocab, rng, budget)
        block = block[:1150]
        paragraphs.append(block)
        size += len(block) + 2
    text = "\n\n".join(paragraphs)
    return text if len(text) <= 1200 else text[:1200].rsplit(" ", 1)[0]


def note_title(index: int) -> str:
    return f"Note {index:06d}"


def note_path(index: int) -> str:
    return f"Area {index % FOLDERS:02d}/{note_title(index)}.md"


def sections_of(index: int, seed: int) -> int:
    """How many sections (= chunks) note `index` has: geometric, mean ≈ 2, capped."""
    rng = np.random.default_rng([seed, 1, index])
    return min(int(rng.geometric(0.5)), MAX_SECTIONS)


def note_text(index: int, seed: int) -> str:
    vocab = vocabulary(seed)
    rng = np.random.default_rng([seed, 2, index])
    parts: list[str] = []
    if rng.random() < 0.5:
        tags = ", ".join(f"topic-{t}" for t in rng.integers(0, 40, size=int(rng.integers(1, 4))).tolist())
        parts.append(f"---\ntags: [{tags}]\ncreated: 2025-{1 + index % 12:02d}-{1 + index % 28:02d}\n---")
    sections = sections_of(index, seed)
    parts.append(_section_text(vocab, rng, index))  # the text before the first heading
    for number in range(1, sections):
        level = "##" if number == 1 or rng.random() < 0.7 else "###"
        heading = " ".join(vocab.sample(rng, int(rng.integers(1, 4)))).capitalize()
        parts.append(f"{level} {heading} {number}\n\n{_section_text(vocab, rng, index)}")
    return "\n\n".join(parts) + "\n"


def notes_for_chunks(chunks: int, seed: int) -> int:
    """The number of leading notes whose sections add up to at least `chunks`."""
    total = notes = 0
    while total < chunks:
        total += sections_of(notes, seed)
        notes += 1
    return notes


def expected_chunks(notes: int, seed: int) -> int:
    return sum(sections_of(i, seed) for i in range(notes))


def write_vault(root: Path, notes: int, seed: int) -> Path:
    """Writes notes 0..notes-1 (and an `.obsidian` folder) under a fresh `root`."""
    if root.exists():
        shutil.rmtree(root)
    (root / ".obsidian").mkdir(parents=True)
    for folder in range(min(FOLDERS, notes)):
        (root / f"Area {folder:02d}").mkdir()
    for index in range(notes):
        (root / note_path(index)).write_text(note_text(index, seed), encoding="utf-8")
    return root


def queries(count: int, seed: int) -> list[str]:
    """Questions people type: 2-4 words from the middle ranks (names, tools, topics), a third with an identifier
    or a number, a few with a very common word; the same list for every corpus size."""
    vocab = vocabulary(seed)
    rng = np.random.default_rng([seed, 3])
    result: list[str] = []
    for _ in range(count):
        words = [vocab.words[i] for i in rng.integers(100, 20_000, size=int(rng.integers(2, 5))).tolist()]
        if rng.random() < 0.33:
            words.append(vocab.words[20 * int(rng.integers(1, 1000)) + 7])
        if rng.random() < 0.2:
            words.insert(0, vocab.words[int(rng.integers(30, 100))])
        result.append(" ".join(words))
    return result
