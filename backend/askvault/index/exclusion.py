"""Why a path or a note stays out of the index or out of sight: one `Exclusion` type, each reason worded once here.

Two wordings per rule, both defined here: `Exclusion.reason`, the short one the scan report, `askvault index`,
the serve log, /api/status and the MCP refusals use, and `exclusion_detail`, the sentence explain shows. Every
surface builds its reason through these constructors, so a rule reads the same wherever it is named.
"""

from __future__ import annotations

from dataclasses import dataclass

from askvault.config import VaultConfig
from askvault.index.problems import too_large
from askvault.parse.documents import document_kind

GONE_SOURCE = "its folder is no longer a source of this vault"
"""Why a note of a source taken out of the settings is dropped (and hidden until it is)."""
NOT_A_NOTE = "not a Markdown note"
DANGLING = "symlink to a file that does not exist; fix or delete the link"
TRASH = ".trash"

__all__ = [
    "DANGLING",
    "GONE_SOURCE",
    "NOT_A_NOTE",
    "Exclusion",
    "exclusion_detail",
    "hidden_reason",
    "kind_switched_off",
]


def hidden_reason(part: str, config_dir: str | None) -> str:
    """Why a dot-folder or dot-file is never indexed (Obsidian never shows one either)."""
    if part == config_dir:
        return f"inside the Obsidian config folder {part}"
    return "in Obsidian's trash (.trash)" if part == TRASH else f"hidden ({part})"


def kind_switched_off(kind: str) -> str:
    """Why a PDF or canvas is not indexed when the setting for its kind is off."""
    return f"{kind}s are switched off ({kind}s = false)"


@dataclass(frozen=True, slots=True)
class Exclusion:
    """Which rule keeps a path (or a chunk) out of the index, for explaining it: never any of the note's text."""

    rule: str
    """`obsidian-excluded`, `exclude-glob`, `include-glob`, `excluded-heading`, `frontmatter-opt-out`,
    `size-limit` or `source-removed`."""
    reason: str
    """As the scan report words it, e.g. "exclude glob 'Private/**'"."""
    pattern: str | None = None
    """The entry that matched: an Excluded files prefix or /regex/, a glob, an excluded heading; None for a hidden
    folder, the include globs or an opt-out."""

    @classmethod
    def obsidian(cls, entry: str) -> Exclusion:
        """An entry of Obsidian's "Excluded files" (`userIgnoreFilters`): a prefix, or a /regex/."""
        return cls("obsidian-excluded", f"Obsidian Excluded files: {entry!r}", entry)

    @classmethod
    def hidden(cls, reason: str) -> Exclusion:
        """A dot-folder or dot-file (`hidden_reason`): Obsidian's own exclusion, as it never shows one."""
        return cls("obsidian-excluded", reason)

    @classmethod
    def exclude_glob(cls, glob: str | None) -> Exclusion:
        """One of our exclude globs; None when only the globs together (a negation between them) decide."""
        if glob is None:
            return cls("exclude-glob", "exclude globs")
        return cls("exclude-glob", f"exclude glob {glob!r}", glob)

    @classmethod
    def include_globs(cls) -> Exclusion:
        """Include globs are set and none of them matches."""
        return cls("include-glob", "not matched by the include globs")

    @classmethod
    def excluded_heading(cls, heading: str) -> Exclusion:
        """Under a heading the settings exclude (as configured)."""
        return cls("excluded-heading", f"under the excluded heading {heading!r}", heading)

    @classmethod
    def opted_out(cls, opt_out_key: str) -> Exclusion:
        """The note's frontmatter says `askvault: false` (or the configured key)."""
        return cls("frontmatter-opt-out", f"opted out ({opt_out_key}: false)")

    @classmethod
    def size_limit(cls, path: str, size: int, limit: int) -> Exclusion:
        """Over the size cap of its kind (`problems.too_large` words it)."""
        return cls("size-limit", too_large(size, limit, pdf=document_kind(path) == "pdf"))

    @classmethod
    def source_removed(cls) -> Exclusion:
        """Of a source folder taken out of the settings."""
        return cls("source-removed", GONE_SOURCE)


def exclusion_detail(exclusion: Exclusion, vault: VaultConfig, *, every_section: bool = False) -> str:
    """One sentence naming the rule that keeps a note out (the pattern, the key), never the note's text."""
    rule, pattern = exclusion.rule, exclusion.pattern
    if rule == "obsidian-excluded" and pattern is not None:
        return f"Excluded from the index by Obsidian's Excluded files entry `{pattern}`."
    if rule == "obsidian-excluded":
        return f"Not indexed: notes in hidden folders never are ({exclusion.reason})."
    if rule == "exclude-glob" and pattern is not None:
        return f"Excluded from the index by the pattern `{pattern}`."
    if rule == "include-glob":
        listed = ", ".join(f"`{glob}`" for glob in vault.include_globs)
        return f"Excluded from the index: it matches none of the include patterns ({listed})."
    if rule == "excluded-heading":
        where = "Every section is" if every_section else "It is"
        return f"{where} under the excluded heading `{pattern}`, so it is kept out of the index."
    if rule == "source-removed":
        return "Not shown: its folder is no longer a source of this vault; the next index run drops it."
    if rule == "frontmatter-opt-out":
        return f"Excluded from the index by its frontmatter (`{vault.opt_out_key}: false`)."
    return f"Excluded from the index ({exclusion.reason})."
