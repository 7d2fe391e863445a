"""Privacy at the two places it is enforced: when a note is indexed, and again on every hit before it is shown
or sent (the index may be older than the rules: Excluded files edited in Obsidian, a changed config, a note
that opted out a moment ago).

The answer-time check (`VisibilityGuard`) needs no reindex: the note policy (`index.policy`) it asks reads
Obsidian's `app.json` again when that file changes and applies the exclude and include globs of the running
configuration, and reads a note's frontmatter again when the note changed on disk since it was indexed; the
guard adds the excluded headings.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Collection, Iterable

from askvault.config import VaultConfig
from askvault.index.exclusion import Exclusion
from askvault.index.policy import NotePolicy
from askvault.model import Chunk, ChunkInfo, ChunkText, Note
from askvault.redact.note import (
    Prepared,
    count_markers,
    heading_key,
    prepare_note,
    privacy_version,
    redaction_summary,
)

log = logging.getLogger(__name__)


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


class VisibilityGuard:
    """`visible(chunk)`: may this indexed chunk be shown or sent now? Cheap enough for every hit (a stat or two).

    The path rules and the opt-out are the note policy's; the excluded headings are the guard's own, as they
    hide chunks, not notes. A chunk given without its text (`ChunkInfo`, as the catalog holds it) has it read
    through `text_of` when excluded headings are configured and its heading trail names none of them (the
    text's lines may)."""

    def __init__(self, policy: NotePolicy, text_of: Callable[[str], ChunkText | None]) -> None:
        self.policy = policy
        self._text_of = text_of
        self._headings = {heading_key(h): h for h in policy.vault.exclude_headings if heading_key(h)}
        """Excluded heading keys → the heading as configured (named when explaining why a chunk is hidden)."""

    def path_excluded(self, path: str) -> str | None:
        rule = self.path_rule(path)
        return None if rule is None else rule.reason

    def path_rule(self, path: str) -> Exclusion | None:
        """The rule that keeps `path` out now (`NotePolicy.path_rule`)."""
        return self.policy.path_rule(path)

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
        return self.policy.opted_out_since(chunk.path, chunk.mtime)

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
            return Exclusion.excluded_heading(heading)
        if self._now_opted_out(chunk):
            return self.policy.opted_out()
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
