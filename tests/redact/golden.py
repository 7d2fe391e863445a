"""The redaction golden set (`tests/fixtures/secrets/`): loading it, running it through the privacy step, and
the recall and kept-rate per kind that the README prints (`python -m tests.redact.golden`)."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import yaml

from askvault.parse.links import LinkResolver
from askvault.parse.note import parse_note
from askvault.redact.note import prepare_note

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "secrets"
_SECRET = re.compile(r"⟦(.*?)⟧", re.DOTALL)
_PATH = "Golden/Case.md"


@dataclass(frozen=True, slots=True)
class Case:
    kind: str
    lang: str
    text: str
    """The note body, markers removed."""
    secrets: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class LookAlike:
    kind: str
    text: str


@dataclass(frozen=True, slots=True)
class Outcome:
    """What the privacy step did with one case."""

    leaked: tuple[str, ...]
    """The secrets of the case that left a piece in the index."""
    kinds: Counter[str]
    """The redactions, by kind."""


def load_secrets() -> list[Case]:
    raw = yaml.safe_load((FIXTURES / "secrets.yaml").read_text(encoding="utf-8"))
    cases: list[Case] = []
    for kind, languages in raw.items():
        for lang, texts in languages.items():
            for marked in texts:
                secrets = tuple(_SECRET.findall(marked))
                cases.append(Case(kind, lang, _SECRET.sub(lambda m: m.group(1), marked).rstrip("\n"), secrets))
    return cases


def load_look_alikes() -> list[LookAlike]:
    raw = yaml.safe_load((FIXTURES / "look_alikes.yaml").read_text(encoding="utf-8"))
    return [LookAlike(kind, text.rstrip("\n")) for kind, texts in raw.items() for text in texts]


def indexed(text: str) -> tuple[str, Counter[str]]:
    """What the index would hold of a note with this body (sections and heading trails), and the redactions."""
    body = f"# Case\n\n{text}\n"
    prepared = prepare_note(parse_note(_PATH, body, LinkResolver([_PATH])))
    parts = [prepared.note.title, *prepared.note.aliases]
    for section in prepared.note.sections:
        parts.extend(section.heading_path)
        parts.append(section.text)
    return "\n".join(parts), prepared.redactions


def _pieces(secret: str, rest: str) -> list[str]:
    """The parts of a secret that must not survive: the whole, and each word of a phrase that the case's other
    text does not hold anyway (so "1. bind" keeps no seed word visible, but a list number may stay)."""
    words = [w for w in re.split(r"[\s,]+", secret) if len(w) >= 3 and not re.fullmatch(r"\d{1,2}\.?", w)]
    return [secret, *(w for w in words if w not in rest and w != secret)]


def run_case(case: Case) -> Outcome:
    text, kinds = indexed(case.text)
    rest = case.text
    for secret in case.secrets:
        rest = rest.replace(secret, " ")
    leaked = tuple(s for s in case.secrets if any(piece in text for piece in _pieces(s, rest)))
    return Outcome(leaked, kinds)


def kept(look_alike: LookAlike) -> bool:
    text, kinds = indexed(look_alike.text)
    return not kinds and "[redacted: " not in text


@dataclass(frozen=True, slots=True)
class Figures:
    recall: dict[str, tuple[int, int]]
    """kind → (secrets caught, secrets)."""
    kept: dict[str, tuple[int, int]]
    """look-alike kind → (kept, look-alikes)."""
    languages: frozenset[str]


def figures() -> Figures:
    recall: dict[str, tuple[int, int]] = {}
    for case in load_secrets():
        caught = len(case.secrets) - len(run_case(case).leaked)
        done, total = recall.get(case.kind, (0, 0))
        recall[case.kind] = (done + caught, total + len(case.secrets))
    kept_by: dict[str, tuple[int, int]] = {}
    for look_alike in load_look_alikes():
        done, total = kept_by.get(look_alike.kind, (0, 0))
        kept_by[look_alike.kind] = (done + kept(look_alike), total + 1)
    return Figures(recall, kept_by, frozenset(c.lang for c in load_secrets()))


def _rate(pair: tuple[int, int]) -> str:
    return f"{pair[0] / pair[1]:.2f}"


def report(result: Figures) -> str:
    secrets = sum(t for _, t in result.recall.values())
    caught = sum(d for d, _ in result.recall.values())
    looks = sum(t for _, t in result.kept.values())
    kept_total = sum(d for d, _ in result.kept.values())
    lines = [
        f"secrets: {caught}/{secrets} redacted (recall {caught / secrets:.2f}) in {len(result.languages)} languages",
        *(f"  {kind}: {_rate(pair)} ({pair[1]})" for kind, pair in sorted(result.recall.items())),
        f"look-alikes: {kept_total}/{looks} kept ({kept_total / looks:.2f})",
        *(f"  {kind}: {_rate(pair)} ({pair[1]})" for kind, pair in sorted(result.kept.items())),
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    print(report(figures()))
