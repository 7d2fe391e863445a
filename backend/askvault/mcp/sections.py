"""Reading one section of one note for an agent, with the index's own exclusions and no way out of the vault."""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass

from askvault.config import VaultConfig
from askvault.errors import BadRequest, NoteError, NotFound
from askvault.index.note_reader import read_note_text
from askvault.index.policy import NotePolicy
from askvault.index.privacy import IndexPrivacy
from askvault.model import Note, Section
from askvault.parse.links import LinkResolver
from askvault.parse.note import parse_note

TRAIL_SEPARATOR = " › "
MAX_PATH_CHARS = 1024
MAX_LISTED_HEADINGS = 40
_DRIVE = re.compile(r"^[A-Za-z]:")
_HEADING_MARKS = re.compile(r"^#{1,6}\s+")


@dataclass(frozen=True, slots=True)
class SectionText:
    """A section and everything under its subheadings, on the note's own line numbers."""

    path: str
    title: str
    heading_path: tuple[str, ...]
    start_line: int
    end_line: int
    text: str
    """One line per source line from `start_line` to `end_line`; readable text as the index sees it."""


def _fold(text: str) -> str:
    return " ".join(text.split()).casefold()


def trail(heading_path: tuple[str, ...] | list[str]) -> str:
    """`("Home Server", "Storage")` → `Home Server › Storage`: what `heading` accepts back."""
    return TRAIL_SEPARATOR.join(heading_path)


def vault_relative(raw: str) -> str:
    """A caller's path → a clean vault-relative POSIX path; BadRequest for anything that could leave the vault."""
    path = raw.strip()
    if not path:
        raise BadRequest("path must not be empty; give a note's path inside the vault, e.g. Homelab/Postgres.md")
    if len(path) > MAX_PATH_CHARS or "\x00" in path:
        raise BadRequest("path is not a usable note path")
    if "\\" in path:
        raise BadRequest(f"{path!r}: use forward slashes in note paths (Folder/Note.md)")
    if path.startswith(("/", "~")) or _DRIVE.match(path):
        raise BadRequest(f"{path!r} is an absolute path; give the note's path relative to the vault folder")
    parts = [part for part in path.split("/") if part not in ("", ".")]
    if ".." in parts:
        raise BadRequest(f"{path!r} leaves the vault ('..' is not allowed in note paths)")
    if not parts:
        raise BadRequest(f"{path!r} is not a note path")
    return "/".join(parts)


class NoteSections:
    """Serves sections of the notes the index may hold, straight from disk (so it works beside a sidecar too).

    Refused: paths outside the vault (absolute, `..`, or a symlink that resolves outside), files that are
    not Markdown notes, notes Obsidian's "Excluded files" or our exclude/include globs keep out (checked on
    the path asked for and on where a symlink leads), notes over the size cap, and notes that opted out in
    their frontmatter: the note policy decides each, in its words. Each refusal is a readable AskVaultError.
    What is served went through the indexer's own privacy step: sections under excluded headings are gone and
    secrets are redacted.
    """

    def __init__(self, vault: VaultConfig, policy: NotePolicy | None = None) -> None:
        self._vault = vault
        # The engine's policy when one runs in this process; else one of our own (with a sidecar there is no
        # engine here). Either reads app.json again when it changes.
        self._policy = NotePolicy(vault) if policy is None else policy

    def read(self, path: str, heading: str) -> SectionText:
        rel = self._resolve(vault_relative(path))
        note = self._parse(rel)
        return _section(note, heading)

    def _resolve(self, rel: str) -> str:
        root = os.path.realpath(self._vault.root)
        # Obsidian links leave `.md` out; accept that when the note exists.
        if not rel.lower().endswith(".md") and os.path.lexists(os.path.join(root, rel + ".md")):
            rel += ".md"
        self._check_path(rel, rel)
        real = os.path.realpath(os.path.join(root, rel))
        if not (real == root or real.startswith(root.rstrip(os.sep) + os.sep)):
            raise BadRequest(f"{rel} resolves to outside the vault; not read")
        target = os.path.relpath(real, root).replace(os.sep, "/")
        if target != rel:
            # A symlink must not bring an excluded (or hidden) note back in under another name.
            self._check_path(rel, target)
        try:
            info = os.stat(real)
        except OSError:
            raise NotFound(f"there is no note at {rel}") from None
        if not stat.S_ISREG(info.st_mode):
            raise NotFound(f"there is no note at {rel}")
        too_big = self._policy.size_rule(rel, info.st_size)
        if too_big is not None:
            raise NoteError(f"{rel} is skipped: {too_big.reason}")
        return rel

    def _check_path(self, rel: str, target: str) -> None:
        if not target.lower().endswith(".md"):
            raise BadRequest(f"{rel} is not a Markdown note")
        rule = self._policy.vault_rule(target)
        if rule is not None:
            via = "" if target == rel else f" (it links to {target})"
            raise BadRequest(f"{rel} is excluded from Ask Vault{via}: {rule.reason}")

    def _parse(self, rel: str) -> Note:
        text = read_note_text(self._vault.root, rel)
        # Link targets do not change the readable text, so no vault-wide resolver is needed here.
        note = parse_note(rel, text, LinkResolver([rel]), self._vault.opt_out_key)
        opted_out = self._policy.opt_out_rule(note)
        if opted_out is not None:
            raise BadRequest(f"{rel} is excluded from Ask Vault: {opted_out.reason}")
        return IndexPrivacy(self._vault).prepare(note).note


def _wanted(heading: str) -> tuple[str, ...]:
    cleaned = _HEADING_MARKS.sub("", heading.strip())
    parts = tuple(_fold(part) for part in re.split(r"\s*›\s*", cleaned))
    return () if parts == ("",) else parts


def _section(note: Note, heading: str) -> SectionText:
    sections = note.sections
    wanted = _wanted(heading)
    if not wanted:
        index = next((i for i, s in enumerate(sections) if not s.heading_path), None)
        if index is None:
            raise NotFound(f"{note.path} has no text before its first heading; {_headings(note)}")
        return _assemble(note, index)
    if any(not part for part in wanted):
        raise BadRequest(f"heading {heading!r} has an empty part; write a trail as 'Heading › Subheading'")
    folded = [tuple(_fold(h) for h in s.heading_path) for s in sections]
    # The full trail first, then the last heading alone; duplicates resolve to the first, as in Obsidian.
    exact = [i for i, path in enumerate(folded) if path == wanted]
    if exact:
        return _assemble(note, exact[0])
    if len(wanted) == 1:
        by_name = [i for i, path in enumerate(folded) if path and path[-1] == wanted[0]]
        trails = list(dict.fromkeys(sections[i].heading_path for i in by_name))
        if len(trails) > 1:
            options = "; ".join(trail(t) for t in trails)
            raise BadRequest(f"heading {heading!r} is ambiguous in {note.path}; give the full trail, one of: {options}")
        if by_name:
            return _assemble(note, by_name[0])
    raise NotFound(f"no heading {heading!r} in {note.path}; {_headings(note)}")


def _headings(note: Note) -> str:
    trails = [trail(s.heading_path) for s in note.sections if s.heading_path]
    if not trails:
        return "the note has no headings (use heading '' for its text)"
    shown = trails[:MAX_LISTED_HEADINGS]
    more = f" … and {len(trails) - len(shown)} more" if len(trails) > len(shown) else ""
    return "its headings are: " + "; ".join(shown) + more


def _assemble(note: Note, index: int) -> SectionText:
    """The section and the subsections under it (as Obsidian embeds `[[Note#Heading]]`), gaps kept blank."""
    first = note.sections[index]
    run: list[Section] = [first]
    if first.level > 0:
        for section in note.sections[index + 1 :]:
            if section.level <= first.level:
                break
            run.append(section)
    lines: list[str] = []
    for section in run:
        # Blank lines between sections (and in place of a dropped excluded subsection) keep the numbering.
        lines += [""] * max(section.start_line - first.start_line - len(lines), 0)
        lines += section.text.split("\n")
    return SectionText(note.path, note.title, first.heading_path, first.start_line, run[-1].end_line, "\n".join(lines))
