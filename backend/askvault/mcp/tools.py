"""The MCP server and its three read-only tools; argument schemas come from the annotated signatures."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, InputRequiredResult, ToolAnnotations
from pydantic import Field, ValidationError

from askvault import __version__
from askvault.errors import AskVaultError
from askvault.mcp.backends import VaultBackend
from askvault.mcp.sections import MAX_PATH_CHARS, NoteSections
from askvault.mcp.shapes import (
    AskOutput,
    SearchOutput,
    SectionOutput,
    ask_output,
    search_output,
    section_output,
)
from askvault.model import SearchFilters

MAX_QUERY_CHARS = 2000
MAX_FILTER_CHARS = 1024
MAX_K = 50
READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)

INSTRUCTIONS = """\
Ask Vault searches the user's Obsidian vault "{vault}" on this machine (hybrid search: semantic + keyword).
- search_vault: find passages, including exact values (ports, IDs, names); returns ranked chunks with their
  note path, heading trail and line range.
- ask_vault: a short answer written by the user's local model from the best passages, citing them as [n].
- get_note_section: the full text of one section, e.g. to read around a search result or check a citation
  (pass the result's `path` and `heading`).
Everything is read-only. Notes the user excluded from Ask Vault are never returned.
"""

Query = Annotated[
    str,
    Field(
        min_length=1,
        max_length=MAX_QUERY_CHARS,
        description="What to look for: keywords, an exact value (a port, an ID, a file name) or a question",
    ),
]
K = Annotated[int, Field(ge=1, le=MAX_K, description="How many results to return (1-50)")]
Folder = Annotated[
    str | None,
    Field(
        max_length=MAX_FILTER_CHARS,
        description="Only notes under this vault folder, e.g. 'Homelab' or 'Projects/2026'",
    ),
]
Tag = Annotated[
    str | None,
    Field(max_length=MAX_FILTER_CHARS, description="Only notes with this tag, with or without '#', e.g. 'homelab'"),
]
Question = Annotated[
    str,
    Field(min_length=1, max_length=MAX_QUERY_CHARS, description="A question about the vault's contents, in any words"),
]
Force = Annotated[
    bool,
    Field(
        description=(
            "Answer from the closest notes even when they do not seem to cover the question (after an abstained "
            "answer, when the user wants the model's reading of them anyway)"
        )
    ),
]
NotePath = Annotated[
    str,
    Field(
        min_length=1,
        max_length=MAX_PATH_CHARS,
        description="The note's path relative to the vault folder, as search results give it: 'Homelab/Postgres.md'",
    ),
]
Heading = Annotated[
    str,
    Field(
        max_length=MAX_PATH_CHARS,
        description=(
            "The section's heading, matched without regard to case: its own text ('Backups') or the full trail "
            "from the top ('Home Server › Storage › Backups'); '' for the text before the first heading"
        ),
    ),
]


@contextmanager
def readable_errors() -> Iterator[None]:
    """Our own errors reach the agent as their message (an isError result), never as a traceback."""
    try:
        yield
    except AskVaultError as exc:
        raise ToolError(exc.message) from None


def _filters(folder: str | None, tag: str | None) -> SearchFilters | None:
    folder = (folder or "").strip().strip("/").removeprefix("./").strip("/") or None
    tag = (tag or "").strip() or None
    filters = SearchFilters(folder=folder, tag=tag)
    return None if filters.is_empty() else filters


def _text(value: str, name: str) -> str:
    value = value.strip()
    if not value:
        raise ToolError(f"{name} must not be empty")
    return value


class VaultServer(MCPServer[object]):
    """MCPServer whose argument errors read like ours: `k: Input should be less than or equal to 50`."""

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[object, Any] | None = None
    ) -> CallToolResult | InputRequiredResult:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            cause = exc.__cause__
            if not isinstance(cause, ValidationError):
                raise
            problems = "; ".join(
                f"{'.'.join(str(part) for part in error['loc']) or 'arguments'}: {error['msg']}"
                for error in cause.errors(include_url=False)
            )
            raise ToolError(f"invalid arguments for {name}: {problems}") from cause


def build_server(backend: VaultBackend, sections: NoteSections, vault_name: str) -> MCPServer[object]:
    """The server with `search_vault`, `ask_vault` and `get_note_section` bound to one vault."""
    server = VaultServer(
        name="askvault",
        title="Ask Vault",
        version=__version__,
        instructions=INSTRUCTIONS.format(vault=vault_name),
        log_level="WARNING",
    )

    @server.tool(name="search_vault", title="Search the vault", annotations=READ_ONLY)
    async def search_vault(query: Query, k: K = 8, folder: Folder = None, tag: Tag = None) -> SearchOutput:
        """Search the user's Obsidian notes: semantic and keyword search, fused by rank.

        Good for exact values (ports, IDs, container names, hashes) as well as topics. Returns the best
        chunks, best first, each with its note path, heading trail, line range, the rank each method gave
        it and its text. Use get_note_section with a result's path and heading to read more around it.
        """
        with readable_errors():
            body = await backend.search(_text(query, "query"), k, _filters(folder, tag))
            return search_output(body)

    @server.tool(name="ask_vault", title="Ask the vault", annotations=READ_ONLY)
    async def ask_vault(question: Question, force: Force = False) -> AskOutput:
        """Answer a question from the user's Obsidian notes, with numbered citations.

        Retrieves the most relevant passages, has the user's local model answer only from them, and returns
        the answer (citing sources as [n]) with the numbered sources: note path, heading trail and lines.
        When the notes do not seem to cover the question, no model is called: `abstained` is true, `reason`
        says why and `closest` lists the nearest notes with their scores (force=true answers from them anyway).
        Slower than search_vault (the model writes the answer); prefer search_vault when you will read the
        passages anyway.
        """
        with readable_errors():
            return ask_output(await backend.ask(_text(question, "question"), force=force))

    @server.tool(name="get_note_section", title="Read a note section", annotations=READ_ONLY)
    async def get_note_section(path: NotePath, heading: Heading) -> SectionOutput:
        """Read one section of a note in full: the heading's text and everything under it, subheadings included.

        Paths are relative to the vault. Notes kept out of Ask Vault (Obsidian's Excluded files, exclude or
        include patterns, `askvault: false` in the frontmatter) and anything outside the vault are refused;
        sections under excluded headings are left out and secrets are redacted, as in the index. An unknown
        heading is answered with the note's headings to choose from.
        """
        with readable_errors():
            # Reading and parsing a note is file work: keep it off the event loop.
            return section_output(await asyncio.to_thread(sections.read, path, heading))

    return server
