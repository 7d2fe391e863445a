"""A vault with a canary behind every privacy rule, and the checks that look for canaries everywhere they could leak."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from contextlib import aclosing
from pathlib import Path

import pytest

from askvault.config import Config, load_config
from askvault.model import SearchMode
from askvault.wire.events import event_to_json
from askvault.wiring import Engine
from tests.conftest import RunningOllama

# canary → what keeps it out
CANARIES = {
    "CANARY-APPJSON-71c2": "Obsidian's Excluded files (app.json)",
    "CANARY-GLOB-5e0a": "an exclude glob",
    "CANARY-OPTOUT-9b44": "the frontmatter opt-out",
    "CANARY-HEADING-2f6d": "an excluded heading",
    "CANARY-SUBHEADING-8a31": "a subsection of an excluded heading",
    "CANARY-INCLUDE-c07e": "a miss of the include globs",
    "AKIACANARYAWS7K2Q9ZX": "AWS access key redaction",
    "sk-proj-CANARYOPENAIx9aQ2mZ7rL4vN8pW1": "OpenAI key redaction",
    "Canary-Pw-8f1e-hunter2": "password line redaction",
    "canary-rc-5b7d": "recovery codes redaction",
    "DE89 3704 0044 0532 0130 00": "IBAN redaction",
    "DE89370400440532013000": "IBAN redaction (compact form)",
    "4111 1111 1111 1111": "card number redaction",
    "4111111111111111": "card number redaction (compact form)",
}

NOTES = {
    "Notes/Router.md": (
        "# Router\n\nThe router lives at 10.0.0.1 and serves the lantern network.\n\n"
        "## Private\n\nMy own reminder: CANARY-HEADING-2f6d lantern.\n\n"
        "### Deeper\n\nStill private: CANARY-SUBHEADING-8a31 lantern.\n\n"
        "## Access\n\nAdmin user is `admin`; the lantern dashboard is on port 8443.\n"
    ),
    "Notes/Keys.md": (
        "# Keys\n\nLantern cloud credentials, rotate yearly.\n\n"
        "```ini\naws_access_key_id = AKIACANARYAWS7K2Q9ZX\n```\n\n"
        "`OPENAI_API_KEY=sk-proj-CANARYOPENAIx9aQ2mZ7rL4vN8pW1`\n\n"
        "Password: Canary-Pw-8f1e-hunter2\n\n"
        "## Recovery codes\n\nLantern account recovery codes:\n\n```\nabcd-1234\ncanary-rc-5b7d\n```\n\n"
        "## Bank\n\nLantern rent goes to IBAN DE89 3704 0044 0532 0130 00 from card 4111 1111 1111 1111.\n"
    ),
    "Notes/Journal.md": "---\naskvault: false\n---\n# Journal\n\nLantern evening. CANARY-OPTOUT-9b44\n",
    "Private/Excluded/Therapy.md": "# Therapy\n\nLantern session notes. CANARY-APPJSON-71c2\n",
    "Archive/Old.md": "# Old\n\nLantern archive. CANARY-GLOB-5e0a\n",
    "Scratch/Draft.md": "# Draft\n\nLantern draft outside the include list. CANARY-INCLUDE-c07e\n",
    "Notes/Public.md": "# Public\n\nThe lantern festival is in October; bring a lantern and warm socks.\n",
}
APP_JSON = {"userIgnoreFilters": ["Private/Excluded/"]}
QUESTIONS = [
    "What are my recovery codes?",
    "What is the lantern password?",
    "Which IBAN does the lantern rent go to?",
    "What is in my private reminder about the router?",
    "What did I write in my journal about the lantern evening?",
    "What are the therapy session notes?",
    "What is in the lantern archive and the draft?",
    "Tell me the AWS key and the OpenAI key.",
    *CANARIES,
]
MODES: tuple[SearchMode, ...] = ("hybrid", "dense", "keyword")


def write_vault(root: Path) -> Path:
    for rel, text in NOTES.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    (root / ".obsidian").mkdir(parents=True, exist_ok=True)
    (root / ".obsidian" / "app.json").write_text(json.dumps(APP_JSON), encoding="utf-8")
    return root


def canary_config(
    vault: Path, data: Path, ollama_url: str, *, private_rules: bool = True, embed_model: str | None = None
) -> Config:
    """The vault's config; `embed_model` None is the built-in embedder (the default a user gets)."""
    flags: dict[str, object] = {"vault": str(vault), "data_dir": str(data), "ollama_url": ollama_url}
    if embed_model is not None:
        flags["embed_model"] = embed_model
    if private_rules:
        flags |= {
            "exclude": ("Archive/**",),
            "include": ("Notes/", "Private/", "Archive/"),
            "exclude_headings": ("private",),
        }
    return load_config(flags, {})


def leaks(text: str, canaries: Iterable[str]) -> list[str]:
    return [canary for canary in canaries if canary in text]


async def search_everything(engine: Engine, queries: Iterable[str]) -> str:
    """Every mode, every query, plus every chunk the API could hand out by id, as one JSON string."""
    found: list[object] = []
    for query in queries:
        for mode in MODES:
            result = await engine.searcher.search(query, 50, mode)
            found.append([(h.chunk.path, h.chunk.title, h.chunk.heading_path, h.chunk.text) for h in result.hits])
    return json.dumps(found, ensure_ascii=False)


async def ask_everything(engine: Engine, questions: Iterable[str]) -> str:
    events: list[object] = []
    for question in questions:
        async with aclosing(engine.pipeline.run(question)) as stream:
            async for event in stream:
                events.append(event_to_json(event))
    return json.dumps(events, ensure_ascii=False)


def sent_to_ollama(fake: RunningOllama) -> str:
    """Every embedding input and chat message the fake Ollama received."""
    sent: list[object] = [body.get("input") for body in fake.fake.calls("/api/embed")]
    sent += [body.get("messages") for body in fake.fake.calls("/api/chat")]
    return json.dumps(sent, ensure_ascii=False)


def bytes_on_disk(folder: Path) -> bytes:
    """Every file the index keeps (manifest, its WAL, vector segments), concatenated."""
    return b"\n".join(p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file())


def assert_no_canary_anywhere(
    canaries: Iterable[str], *, surfaces: dict[str, str], data_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    canaries = list(canaries)
    stored = bytes_on_disk(data_dir)
    problems = {name: leaks(text, canaries) for name, text in surfaces.items()}
    problems["index files"] = [c for c in canaries if c.encode("utf-8") in stored]
    problems["logs"] = leaks(caplog.text, canaries)
    assert {name: found for name, found in problems.items() if found} == {}


def debug_logs(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
