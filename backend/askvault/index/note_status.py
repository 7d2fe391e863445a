"""One vault path's place in the index: indexed (and when), or which rule keeps it out, read-only.

The note policy's rules (`index.policy`), as the indexer and the guard apply them, asked for one path: the
path rules first (a hidden folder, Obsidian's Excluded files, the exclude and include globs), then the size
cap, then what only the text can say (it cannot be read, its frontmatter opts out, every section sits under an
excluded heading). Nothing it returns holds the text or the title of a note that is not indexed.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from askvault.errors import NoteError
from askvault.index.exclusion import DANGLING, NOT_A_NOTE, Exclusion, exclusion_detail
from askvault.index.policy import NotePolicy
from askvault.index.privacy import IndexPrivacy, VisibilityGuard
from askvault.index.problems import NoteProblem
from askvault.model import ChunkInfo, Note, NoteState, NoteStatus
from askvault.parse.decode import NotText, decode_note
from askvault.parse.documents import document_kind
from askvault.parse.links import LinkResolver
from askvault.parse.note import parse_note
from askvault.redact.note import heading_key
from askvault.store.manifest.catalog import ChunkCatalog
from askvault.store.manifest.manifest import Manifest

__all__ = ["NoteStatusQuery", "exclusion_detail"]

_STATE: dict[str, NoteState] = {
    "obsidian-excluded": "excluded",
    "exclude-glob": "excluded",
    "include-glob": "excluded",
    "frontmatter-opt-out": "excluded",
    "excluded-heading": "excluded",
    "size-limit": "not_indexed",
    "not-text": "not_indexed",
    "outside-vault": "not_indexed",
    "parse-failure": "failed",
    "not-markdown": "not_indexed",
    "source-removed": "excluded",
    "pending": "not_indexed",
    "no-such-note": "missing",
}
"""Each rule's `NoteStatus.state` (docs/api.md, POST /api/explain). A note the indexer skips on purpose (too
large, binary, a symlink out of the vault) is `not_indexed` and its detail says "Skipped"; one it could not
read is `failed` — the words of `index.problems`, as `index` and /api/status use them."""


def _skipped(reason: str) -> str:
    return f"Skipped by the indexer: {reason}."


def _failed(reason: str) -> str:
    return f"Failed to index: {reason}."


class NoteStatusQuery:
    """`status(path)`: what the index knows about one note, and why it is not in it."""

    def __init__(
        self,
        policy: NotePolicy,
        catalog: ChunkCatalog,
        manifest: Manifest,
        guard: VisibilityGuard,
        problems: Callable[[str], tuple[NoteProblem, ...]] = lambda path: (),
    ) -> None:
        self._policy = policy
        self._vault = policy.vault
        self._catalog = catalog
        self._manifest = manifest
        self._guard = guard
        self._problems = problems
        """The indexer's current problems of a path (failed or skipped in the last run or watcher batch)."""
        self._privacy = IndexPrivacy(policy.vault)

    def status(self, path: str) -> NoteStatus:
        """Reads a stat, and the note itself only when it is on disk, allowed by the path rules and not indexed."""
        snapshot = self._catalog.snapshot()
        chunks = [snapshot[cid] for cid in self._catalog.by_note().get(path, ()) if cid in snapshot]
        path_rule = self._policy.path_rule(path)
        if chunks:
            return self._indexed(path, chunks) if path_rule is None else self._excluded(path, path_rule)
        on_disk = self._policy.roots.stat(path)
        if path_rule is not None and (on_disk is not None or os.path.lexists(self._vault.root / path)):
            return self._excluded(path, path_rule)
        if on_disk is None:
            return self._listed(path) or self._absent(path)
        why = self._policy.kind_reason(path)
        if why is not None:
            detail = "only Markdown notes (.md), PDFs and canvases are" if why == NOT_A_NOTE else why
            return self._out(path, "not-markdown", f"Not indexed: {detail}.")
        too_big = self._policy.size_rule(path, on_disk.size)
        if too_big is not None:
            return self._out(path, too_big.rule, _skipped(too_big.reason))
        return self._unindexed(path) if document_kind(path) == "note" else self._pending(path)

    def _listed(self, path: str) -> NoteStatus | None:
        """What the indexer last found wrong with the note (a notice is no reason it is missing)."""
        problem = next((p for p in self._problems(path) if p.kind != "notice"), None)
        if problem is None:
            return None
        if problem.kind == "failed":
            return self._out(path, "parse-failure", _failed(problem.reason))
        # The reasons are the scan's and the indexer's own words (`index.problems`).
        if problem.reason.startswith("too large"):
            rule = "size-limit"
        else:
            rule = "outside-vault" if problem.reason.startswith("symlink to outside") else "not-text"
        return self._out(path, rule, _skipped(problem.reason))

    def _absent(self, path: str) -> NoteStatus:
        """No regular file inside the vault at this path: a symlink that leads out or nowhere, or nothing."""
        found = self._policy.roots.split(path)
        if found is not None and found[0].label is not None:
            return self._out(path, "no-such-note", f"There is no file at this path in the source {found[0].label!r}.")
        full = self._vault.root / path
        try:
            os.stat(full)
        except FileNotFoundError:
            if os.path.islink(full):
                return self._out(path, "parse-failure", _failed(DANGLING))
            return self._out(path, "no-such-note", "There is no note at this path in the vault.")
        except (OSError, ValueError) as exc:
            why = exc.strerror if isinstance(exc, OSError) and exc.strerror else type(exc).__name__
            return self._out(path, "parse-failure", _failed(why))
        if os.path.islink(full) or os.path.realpath(full) != os.path.join(os.path.realpath(self._vault.root), path):
            return self._out(path, "outside-vault", _skipped("symlink to outside the vault"))
        return self._out(path, "no-such-note", "There is no note at this path in the vault.")

    def _indexed(self, path: str, chunks: list[ChunkInfo]) -> NoteStatus:
        rules = [self._guard.hidden_rule(chunk) for chunk in chunks]
        shown = [chunk for chunk, rule in zip(chunks, rules, strict=True) if rule is None]
        hidden = [rule for rule in rules if rule is not None]
        if not shown:
            return self._excluded(path, hidden[0], every_section=True)
        if self._vault.exclude_headings and all(c.heading_path == () and c.end_line == 1 for c in shown):
            # What is left may be the name-only chunk a note gets when none of its sections is indexed.
            heading = self._every_section_excluded(path)
            if heading is not None:
                return self._excluded(path, Exclusion.excluded_heading(heading), every_section=True)
        return NoteStatus(
            path=path,
            state="indexed",
            title=shown[0].title,
            chunks=len(shown),
            indexed_at=self._manifest.indexed_at(path),
            hidden=len(hidden),
            hidden_detail=(
                f"{len(hidden)} of its {len(chunks)} chunks {'is' if len(hidden) == 1 else 'are'} hidden by the "
                "current privacy rules "
                f"({hidden[0].reason})."
                if hidden
                else None
            ),
        )

    def _unindexed(self, path: str) -> NoteStatus:
        """On disk, allowed by the path rules, within the size cap, yet without chunks: ask its text why."""
        try:
            text = decode_note(self._policy.roots.read_bytes(path))
        except NotText as exc:
            return self._out(path, "not-text", _skipped(exc.message))
        except NoteError as exc:
            return self._out(path, "parse-failure", _failed(exc.message))
        except OSError as exc:
            return self._out(path, "parse-failure", _failed(exc.strerror or type(exc).__name__))
        note = parse_note(path, text, LinkResolver(()), self._vault.opt_out_key)
        opted_out = self._policy.opt_out_rule(note)
        if opted_out is not None:
            return self._excluded(path, opted_out)
        heading = self._excluded_heading_of(note)
        if heading is not None:
            return self._excluded(path, Exclusion.excluded_heading(heading), every_section=True)
        return self._pending(path)

    def _pending(self, path: str) -> NoteStatus:
        """Readable and allowed, yet without chunks: what the indexer last found wrong, else empty or not yet read."""
        listed = self._listed(path)
        if listed is not None:
            return listed
        known = self._manifest.note_stats().get(path)
        if known is not None:
            # Indexed, but nothing in it made a chunk (an empty note).
            return NoteStatus(path, "indexed", title=known.title, indexed_at=self._manifest.indexed_at(path))
        return self._out(path, "pending", "Not indexed yet: the next index run will add it.")

    def _excluded_heading_of(self, note: Note) -> str | None:
        """The configured heading that excludes every section of the note, or None when something is left."""
        if not note.sections or self._privacy.prepare(note).dropped_sections < len(note.sections):
            return None
        keys = {heading_key(h): h for h in self._vault.exclude_headings}
        trails = (h for section in note.sections for h in section.heading_path)
        return next((keys[heading_key(h)] for h in trails if heading_key(h) in keys), "")

    def _every_section_excluded(self, path: str) -> str | None:
        try:
            text = decode_note(self._policy.roots.read_bytes(path))
        except (NoteError, OSError):
            return None
        return self._excluded_heading_of(parse_note(path, text, LinkResolver(()), self._vault.opt_out_key))

    def _excluded(self, path: str, exclusion: Exclusion, *, every_section: bool = False) -> NoteStatus:
        return self._out(path, exclusion.rule, exclusion_detail(exclusion, self._vault, every_section=every_section))

    @staticmethod
    def _out(path: str, rule: str, detail: str) -> NoteStatus:
        return NoteStatus(path=path, state=_STATE[rule], rule=rule, detail=detail)
