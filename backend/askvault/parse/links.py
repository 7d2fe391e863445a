"""Link targets: resolving them against the vault the way Obsidian does, and rendering them as readable text."""

from __future__ import annotations

import posixpath
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

HEADING_SEPARATOR = " › "
MAX_URL_TEXT = 100


def _stem(name: str) -> str:
    return name[:-3] if name.lower().endswith(".md") else name


def _depth_key(path: str) -> tuple[int, int, str]:
    return (path.count("/"), len(path), path)


class LinkResolver:
    """Resolves link targets to vault paths like Obsidian's `getFirstLinkpathDest`.

    Order: a `./` or `../` path relative to the linking note; the exact vault path (`.md` optional, case
    first as written, then ignoring case); the path relative to the linking note's folder; then by file
    name ignoring case, where a target with folders must match the end of the path. Several candidates by
    name: the one in the linking note's folder, else the shortest path (then alphabetical).
    """

    def __init__(self, paths: Iterable[str]) -> None:
        self._exact: set[str] = set()
        self._folded: dict[str, str] = {}
        self._notes_by_stem: dict[str, list[str]] = {}
        self._files_by_name: dict[str, list[str]] = {}
        for path in sorted(set(paths), key=_depth_key):
            self._exact.add(path)
            self._folded.setdefault(path.lower(), path)
            name = posixpath.basename(path)
            self._files_by_name.setdefault(name.lower(), []).append(path)
            if name.lower().endswith(".md"):
                self._notes_by_stem.setdefault(_stem(name).lower(), []).append(path)

    def _lookup(self, path: str) -> str | None:
        for candidate in (path, path + ".md"):
            if candidate in self._exact:
                return candidate
        for candidate in (path, path + ".md"):
            found = self._folded.get(candidate.lower())
            if found is not None:
                return found
        return None

    def resolve(self, target: str, source_path: str) -> str | None:
        """Vault path the target points to, or None. An empty target (`[[#Heading]]`) is the note itself."""
        target = target.strip()
        if not target:
            return source_path
        folder = posixpath.dirname(source_path)
        if target.startswith(("./", "../")):
            joined = posixpath.normpath(posixpath.join(folder, target))
            return None if joined.startswith("../") else self._lookup(joined)
        target = target.lstrip("/")
        if not target:
            return None
        found = self._lookup(target)
        if found is None and folder:
            found = self._lookup(posixpath.normpath(posixpath.join(folder, target)))
        return found if found is not None else self._by_name(target, folder)

    def _by_name(self, target: str, folder: str) -> str | None:
        name = posixpath.basename(target).lower()
        wanted = target.lower()
        if wanted.endswith(".md"):
            candidates = self._notes_by_stem.get(_stem(name), [])
            wanted = _stem(wanted)
        else:
            candidates = self._notes_by_stem.get(name, []) or self._files_by_name.get(name, [])
        if "/" in wanted:
            candidates = [p for p in candidates if ("/" + _stem(p).lower()).endswith("/" + wanted)]
        if not candidates:
            return None
        in_folder = [p for p in candidates if posixpath.dirname(p) == folder]
        return in_folder[0] if in_folder else candidates[0]


@dataclass(frozen=True, slots=True)
class WikiTarget:
    """The parts of `[[target#heading|alias]]` / `[[target#^block]]`."""

    target: str
    heading: str | None
    block: str | None
    alias: str | None


def split_wikilink(inner: str) -> WikiTarget:
    """Split the inside of `[[…]]`; `\\|` (the escaped pipe Obsidian writes inside tables) also separates."""
    link, bar, alias_part = inner.partition("|")
    if bar and link.endswith("\\"):
        link = link[:-1]
    alias = (alias_part.strip() or None) if bar else None
    target, _, sub = link.partition("#")
    heading: str | None = None
    block: str | None = None
    if sub:
        # `#H1#H2` names a nested heading; the last part is the one linked to.
        parts = [part.strip() for part in sub.split("#") if part.strip()]
        if parts and parts[-1].startswith("^"):
            block = parts.pop()[1:] or None
        heading = parts[-1] if parts else None
    return WikiTarget(target=target.strip(), heading=heading, block=block, alias=alias)


def note_name(target: str) -> str:
    """What Obsidian shows for a link target: the file name without folders or `.md`."""
    return _stem(posixpath.basename(target.rstrip("/")))


def is_attachment(target: str) -> bool:
    """True for targets with a non-note extension (`photo.png`, `paper.pdf`): embeds of those are dropped."""
    name = posixpath.basename(target)
    ext = name.rpartition(".")[2].lower() if "." in name else ""
    return ext not in ("", "md") and ext.isalnum() and len(ext) <= 5 and not ext.isdigit()


def link_text(target: str, heading: str | None, alias: str | None) -> str:
    """Readable text for a note link: the alias if given, else `Note › Heading` (or `Note`, or `Heading`)."""
    if alias:
        return alias
    name = note_name(target) if target else ""
    if heading:
        return f"{name}{HEADING_SEPARATOR}{heading}" if name else heading
    return name


def url_values(url: str) -> str:
    """The searchable part of an external URL: `host[:port]/path`, no scheme, credentials, query or fragment."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        port = parts.port
    except ValueError:
        return url[:MAX_URL_TEXT]
    if parts.scheme.lower() == "mailto":
        return parts.path[:MAX_URL_TEXT]
    if not host:
        return ""
    if ":" in host:
        host = f"[{host}]"
    text = host + (f":{port}" if port is not None else "") + unquote(parts.path).rstrip("/")
    if len(text) > MAX_URL_TEXT:
        cut = text.rfind("/", 0, MAX_URL_TEXT)
        text = text[: cut if cut > len(host) else MAX_URL_TEXT]
    return text


def split_url(raw: str) -> tuple[str, str]:
    """A Markdown link destination as (decoded path, decoded fragment); `<…>` brackets removed."""
    dest = raw.strip()
    if dest.startswith("<") and dest.endswith(">"):
        dest = dest[1:-1]
    path, _, fragment = dest.partition("#")
    return unquote(path), unquote(fragment)
