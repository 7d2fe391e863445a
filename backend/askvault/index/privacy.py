"""Privacy at the two places it is enforced: when a note is indexed, and again on every hit before it is shown
or sent (the index may be older than the rules: Excluded files edited in Obsidian, a changed config, a note
that opted out a moment ago).

The answer-time check (`VisibilityGuard`) needs no reindex: it re-reads Obsidian's `app.json` when that file
changes, applies the exclude and include globs and excluded headings of the running configuration, and reads
a note's frontmatter again when the note changed on disk since it was indexed.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass

from askvault.config import VaultConfig
from askvault.index.scan import Exclusion, VaultFilter
from askvault.model import Chunk, Note
from askvault.parse.decode import normalize_newlines
from askvault.parse.frontmatter import MAX_FRONTMATTER_CHARS, read_frontmatter
from askvault.redact.note import (
    Prepared,
    count_markers,
    heading_key,
    prepare_note,
    privacy_version,
    redaction_summary,
)

log = logging.getLogger(__name__)

_HEAD_BYTES = 4 * MAX_FRONTMATTER_CHARS + 4096
"""Enough of a note's start to hold any frontmatter the parser would read."""
_OPT_OUT_CACHE = 2048


class IndexPrivacy:
    """What the indexer applies to each parsed note, and the part of the fingerprint that depends on it."""

    def __init__(self, vault: VaultConfig) -> None:
        self._headings = tuple(vault.exclude_headings)
        self._seed_phrases = vault.redact_seed_phrases
        self.version = privacy_version(self._headings, seed_phrases=self._seed_phrases)

    def prepare(self, note: Note) -> Prepared:
        prepared = prepare_note(note, self._headings, seed_phrases=self._seed_phrases)
        if prepared.redactions:
            # Kinds and counts only: a secret, or a hint of one, never reaches a log.
            log.debug("redacted %s in %s", dict(prepared.redactions), note.path)
        return prepared


@dataclass(frozen=True, slots=True)
class _Stamp:
    config_dir: str | None
    mtime_ns: int
    size: int


class VisibilityGuard:
    """`visible(chunk)`: may this indexed chunk be shown or sent now? Cheap enough for every hit (a stat or two)."""

    def __init__(self, vault: VaultConfig) -> None:
        self._vault = vault
        self._headings = {heading_key(h): h for h in vault.exclude_headings if heading_key(h)}
        """Excluded heading keys → the heading as configured (named when explaining why a chunk is hidden)."""
        self._filter = VaultFilter(vault)
        self._stamp = self._app_json_stamp(self._filter.config_dir)
        self._opted_out: dict[tuple[str, int], bool] = {}

    def _app_json_stamp(self, config_dir: str | None) -> _Stamp:
        if config_dir is None:
            return _Stamp(None, 0, 0)
        try:
            info = os.stat(self._vault.root / config_dir / "app.json")
        except OSError:
            return _Stamp(config_dir, -1, -1)
        return _Stamp(config_dir, info.st_mtime_ns, info.st_size)

    def _current_filter(self) -> VaultFilter:
        stamp = self._app_json_stamp(self._filter.config_dir)
        if stamp != self._stamp:
            self._filter = VaultFilter(self._vault)
            self._stamp = self._app_json_stamp(self._filter.config_dir)
        return self._filter

    def path_excluded(self, path: str) -> str | None:
        vault_filter = self._current_filter()
        return vault_filter.hidden(path) or vault_filter.user_excluded(path)

    def path_rule(self, path: str) -> Exclusion | None:
        """The rule that keeps `path` out now: a hidden folder counts as Obsidian's own exclusion (Obsidian never
        shows one), then its Excluded files, the exclude and the include globs."""
        vault_filter = self._current_filter()
        hidden = vault_filter.hidden(path)
        return Exclusion("obsidian-excluded", hidden) if hidden is not None else vault_filter.user_rule(path)

    def _excluded_heading(self, chunk: Chunk) -> str | None:
        """The configured excluded heading the chunk sits under, or None."""
        if not self._headings:
            return None
        for heading in chunk.heading_path:
            if heading_key(heading) in self._headings:
                return self._headings[heading_key(heading)]
        # A short section merged into the chunk keeps its heading as a line of the text.
        for line in chunk.text.split("\n"):
            if len(line) <= 300 and heading_key(line) in self._headings:
                return self._headings[heading_key(line)]
        return None

    def _under_excluded_heading(self, chunk: Chunk) -> bool:
        return self._excluded_heading(chunk) is not None

    def _now_opted_out(self, chunk: Chunk) -> bool:
        """True when the note changed since it was indexed and now opts out (or cannot be read: fail closed)."""
        try:
            info = os.stat(os.path.join(self._vault.root, chunk.path))
        except OSError:
            return False  # deleted, not excluded: the next reconcile removes it
        if info.st_mtime_ns / 1e9 == chunk.mtime:
            return False
        key = (chunk.path, info.st_mtime_ns)
        cached = self._opted_out.get(key)
        if cached is not None:
            return cached
        try:
            with open(os.path.join(self._vault.root, chunk.path), "rb") as handle:
                head = handle.read(_HEAD_BYTES)
            text = normalize_newlines(head.decode("utf-8", errors="replace").removeprefix("\ufeff"))
            result = read_frontmatter(text.split("\n"), self._vault.opt_out_key).opted_out
        except OSError:
            result = True
        if len(self._opted_out) >= _OPT_OUT_CACHE:
            self._opted_out.clear()
        self._opted_out[key] = result
        return result

    def visible(self, chunk: Chunk) -> bool:
        return not (
            self.path_excluded(chunk.path) is not None
            or self._under_excluded_heading(chunk)
            or self._now_opted_out(chunk)
        )

    def hidden_rule(self, chunk: Chunk) -> Exclusion | None:
        """Why `visible(chunk)` is False, naming the rule (never the chunk's text); None when it may be shown."""
        rule = self.path_rule(chunk.path)
        if rule is not None:
            return rule
        heading = self._excluded_heading(chunk)
        if heading is not None:
            return Exclusion("excluded-heading", f"under the excluded heading {heading!r}", heading)
        if self._now_opted_out(chunk):
            return Exclusion("frontmatter-opt-out", f"opted out ({self._vault.opt_out_key}: false)")
        return None


class _SummaryCache:
    """The redaction summary of one catalog snapshot (snapshots are swapped whole, so identity is enough)."""

    def __init__(self) -> None:
        self._snapshot: Mapping[str, Chunk] | None = None
        self._summary: dict[str, object] = redaction_summary({})

    def get(self, snapshot: Mapping[str, Chunk]) -> dict[str, object]:
        if snapshot is not self._snapshot:
            self._summary = redaction_summary(count_markers(snapshot.values()))
            self._snapshot = snapshot
        return self._summary


_SUMMARIES = _SummaryCache()


def redactions_in(snapshot: Mapping[str, Chunk]) -> dict[str, object]:
    """`{"total", "by_kind", "notes": [{"path", "kinds"}]}` for the secrets redacted in the current index."""
    return _SUMMARIES.get(snapshot)
