"""`--set section.field=value`: override one chunking or retrieval parameter for an evaluation run (pure)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from askvault.config import ChunkParams, Config, RetrievalParams
from askvault.errors import ConfigError

SECTIONS: dict[str, type[ChunkParams] | type[RetrievalParams]] = {"chunk": ChunkParams, "retrieval": RetrievalParams}
REMOVED = frozenset(
    {
        "chunk.header_new_words_only", "chunk.header_first_chunk_only", "chunk.note_chunk",
        "chunk.boilerplate_min_notes", "retrieval.fusion", "retrieval.protect_top", "retrieval.expand_note_hits",
        "retrieval.keep_stop_words", "retrieval.neighbours", "retrieval.neighbour_anchors", "retrieval.link_hops",
        "retrieval.link_weight", "retrieval.link_seeds",
    }
)  # fmt: skip
"""Switches measured and then deleted (eval/README.md keeps their figures); named so an old command says so."""
_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def _coerce(raw: str, current: object, where: str) -> object:
    """`raw` as the type of the field's current value (bool, int, float or str)."""
    text = raw.strip()
    try:
        if isinstance(current, bool):
            if text.lower() not in _TRUE | _FALSE:
                raise ValueError(text)
            return text.lower() in _TRUE
        if isinstance(current, int):
            return int(text)
        if isinstance(current, float):
            return float(text)
    except ValueError as exc:
        raise ConfigError(f"--set {where}: {raw!r} is not a {type(current).__name__}") from exc
    return text


def parse_overrides(pairs: Sequence[str]) -> dict[str, dict[str, str]]:
    """["chunk.max_chars=900", …] → {"chunk": {"max_chars": "900"}}; a bad key is a ConfigError."""
    parsed: dict[str, dict[str, str]] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        section, dot, name = key.strip().partition(".")
        if not sep or not dot or section not in SECTIONS:
            raise ConfigError(f"--set {pair!r}: expected chunk.FIELD=VALUE or retrieval.FIELD=VALUE")
        fields = {f.name for f in dataclasses.fields(SECTIONS[section])}
        if f"{section}.{name}" in REMOVED:
            raise ConfigError(f"--set {pair!r}: {section}.{name} was removed after measurement (eval/README.md)")
        if name not in fields:
            raise ConfigError(f"--set {pair!r}: {section} has no field {name!r}; known: {', '.join(sorted(fields))}")
        parsed.setdefault(section, {})[name] = value
    return parsed


def apply_overrides(config: Config, pairs: Sequence[str]) -> Config:
    """The config with each `section.field=value` applied, typed like the field's default."""
    parsed = parse_overrides(pairs)
    chunk, retrieval = config.chunk, config.retrieval
    if "chunk" in parsed:
        values = {n: _coerce(v, getattr(chunk, n), f"chunk.{n}") for n, v in parsed["chunk"].items()}
        chunk = dataclasses.replace(chunk, **values)  # type: ignore[arg-type]
    if "retrieval" in parsed:
        values = {n: _coerce(v, getattr(retrieval, n), f"retrieval.{n}") for n, v in parsed["retrieval"].items()}
        retrieval = dataclasses.replace(retrieval, **values)  # type: ignore[arg-type]
    return dataclasses.replace(config, chunk=chunk, retrieval=retrieval)
