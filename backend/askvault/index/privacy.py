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
from collections import Counter
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass

from askvault.config import VaultConfig
from askvault.index.roots import GONE_SOURCE, Roots
from askvault.index.scan import Exclusion, VaultFilter
from askvault.model import Chunk, ChunkInfo, ChunkText, Note
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
    """`visible(chunk)`: may this indexed chunk be shown or sent now? Cheap enough for every hit (a stat or two).

    A chunk given without its text (`ChunkInfo`, as the catalog holds it) has it read through `text_of` when
    excluded headings are configured and its heading trail names none of them (the text's lines may)."""

    def __init__(self, vault: VaultConfig, text_of: Callable[[str], ChunkText | None]) -> None:
        self._vault = vault
        self._text_of = text_of
        self._headings = {heading_key(h): h for h in vault.exclude_headings if heading_key(h)}
        """Excluded heading keys → the heading as configured (named when explaining why a chunk is hidden)."""
        self._filter = VaultFilter(vault)
        self._roots = Roots(vault)
        self._root = str(vault.root)
        self._app_json: dict[str, str] = {}
        self._stamp = self._app_json_stamp(self._filter.config_dir)
        self._opted_out: dict[tuple[str, int], bool] = {}

    def _app_json_stamp(self, config_dir: str | None) -> _Stamp:
        if config_dir is None:
            return _Stamp(None, 0, 0)
        try:
            # A plain string, joined once: this runs for every hit, and a pathlib join costs more than the stat.
            path = self._app_json.get(config_dir)
            if path is None:
                path = self._app_json[config_dir] = os.path.join(self._root, config_dir, "app.json")
            info = os.stat(path)
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
        rule = self.path_rule(path)
        return None if rule is None else rule.reason

    def path_rule(self, path: str) -> Exclusion | None:
        """The rule that keeps `path` out now: a hidden folder counts as Obsidian's own exclusion (Obsidian never
        shows one), then its Excluded files, the exclude and the include globs; a source folder's own rules for its
        paths, and a source taken out of the settings hides all of its."""
        found = self._roots.split(path)
        if found is None:
            return Exclusion("source-removed", GONE_SOURCE)
        root, rel = found
        vault_filter = self._current_filter() if root.label is None else root.filter
        path = rel
        hidden = vault_filter.hidden(path)
        return Exclusion("obsidian-excluded", hidden) if hidden is not None else vault_filter.user_rule(path)

    def _excluded_heading(self, chunk: ChunkInfo) -> str | None:
        """The configured excluded heading the chunk sits under, or None."""
        if not self._headings:
            return None
        for heading in chunk.heading_path:
            if heading_key(heading) in self._headings:
                return self._headings[heading_key(heading)]
        # A short section merged into the chunk keeps its heading as a line of the text.
        if isinstance(chunk, Chunk):
            text = chunk.text
        else:
            found = self._text_of(chunk.id)
            if found is None:
                return None  # removed since it was looked up: whoever shows it finds no text to show
            text = found.text
        for line in text.split("\n"):
            if len(line) <= 300 and heading_key(line) in self._headings:
                return self._headings[heading_key(line)]
        return None

    def _under_excluded_heading(self, chunk: ChunkInfo) -> bool:
        return self._excluded_heading(chunk) is not None

    def _now_opted_out(self, chunk: ChunkInfo) -> bool:
        """True when the note changed since it was indexed and now opts out (or cannot be read: fail closed)."""
        try:
            info = os.stat(os.path.join(self._root, chunk.path))
        except OSError:
            return False  # deleted, not excluded: the next reconcile removes it
        if info.st_mtime_ns / 1e9 == chunk.mtime:
            return False
        key = (chunk.path, info.st_mtime_ns)
        cached = self._opted_out.get(key)
        if cached is not None:
            return cached
        try:
            with open(os.path.join(self._root, chunk.path), "rb") as handle:
                head = handle.read(_HEAD_BYTES)
            text = normalize_newlines(head.decode("utf-8", errors="replace").removeprefix("\ufeff"))
            result = read_frontmatter(text.split("\n"), self._vault.opt_out_key).opted_out
        except OSError:
            result = True
        if len(self._opted_out) >= _OPT_OUT_CACHE:
            self._opted_out.clear()
        self._opted_out[key] = result
        return result

    def visible(self, chunk: ChunkInfo) -> bool:
        return not (
            self.path_excluded(chunk.path) is not None
            or self._under_excluded_heading(chunk)
            or self._now_opted_out(chunk)
        )

    def hidden_rule(self, chunk: ChunkInfo) -> Exclusion | None:
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


class Redactions:
    """The redaction markers of the current index, per note, for `index.redactions` in the report and status.

    Counted as the indexer reads chunks into the catalog (which keeps no text): all of them on a rebuild, the
    notes a watcher batch touched on a patch.
    """

    def __init__(self) -> None:
        self._per_note: dict[str, Counter[str]] = {}
        self._summary: dict[str, object] = redaction_summary({})

    def recount(self, chunks: Iterable[Chunk], notes: Collection[str] | None = None) -> None:
        """Counts `chunks`' markers: those of every indexed chunk (`notes` None), or all the chunks now indexed
        of `notes` (the other notes keep their counts)."""
        kept = {} if notes is None else {path: n for path, n in self._per_note.items() if path not in notes}
        self._per_note = kept | count_markers(chunks)
        self._summary = redaction_summary(self._per_note)

    def summary(self) -> dict[str, object]:
        """`{"total", "by_kind", "notes": [{"path", "kinds"}]}` for the secrets redacted in the current index."""
        return self._summary
