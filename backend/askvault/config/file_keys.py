"""The keys of a config file checked against the known ones, so a misspelt setting is said, not silently skipped."""

from __future__ import annotations

import difflib
import logging
from collections.abc import Mapping
from pathlib import Path

from askvault.errors import ConfigError

log = logging.getLogger("askvault.config")

RETIRED_KEYS = frozenset(
    {
        "header_new_words_only", "header_first_chunk_only", "note_chunk", "boilerplate_min_notes", "fusion",
        "protect_top", "expand_note_hits", "keep_stop_words", "neighbours", "neighbour_anchors", "link_hops",
        "link_weight", "link_seeds",
    }
)  # fmt: skip
"""Switches deleted after measurement (eval/README.md): a config file that still sets one loads, the key ignored."""


def check_keys(data: Mapping[str, object], path: Path, known: frozenset[str]) -> None:
    """Refuses a key that is not in `known`, naming the closest known one: a misspelt key would otherwise be
    ignored in silence and the setting the user meant quietly not apply."""
    for key, value in data.items():
        if key in known:
            continue
        if key in RETIRED_KEYS:
            log.warning("config file %s: %r was removed after measurement and is ignored", path, key)
            continue
        close = difflib.get_close_matches(key, sorted(known), n=1)
        if isinstance(value, dict):
            # The file is flat, and a [section] (a TOML table) would swallow every key written under it.
            inner = [str(name) for name in value if name in known]
            example = (inner or close or ["ollama_url"])[0]
            raise ConfigError(
                f"config file {path}: [{key}] is a section, but the config file has none; write its keys at the top "
                f"level, above any [section] line (e.g. {example} = ...)"
            )
        if close:
            raise ConfigError(f"config file {path}: unknown key {key!r}; did you mean {close[0]!r}?")
        raise ConfigError(f"config file {path}: unknown key {key!r}; the keys are {', '.join(sorted(known))}")
