"""Driving `askvault mcp` the way agents do: the console script spawned over stdio by the SDK's client."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

from mcp.client.session import ClientSession, IncomingMessage
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.types import CallToolResult, TextContent

from askvault.mcp.shapes import AskOutput, SearchOutput, SectionOutput

ASKVAULT = Path(sys.executable).with_name("askvault")
"""The console script next to this interpreter: what an MCP client's configuration points at."""
WAIT_S = 30.0
TOOLS = {"search_vault", "ask_vault", "get_note_section"}


def isolated_env(home: Path) -> dict[str, str]:
    """No user config, no user data folder: everything under the test's own folders."""
    return {"HOME": str(home), "XDG_DATA_HOME": str(home / "xdg-data"), "XDG_CONFIG_HOME": str(home / "xdg-config")}


@dataclass
class McpClient:
    session: ClientSession
    log: Path
    stream_errors: list[Exception] = field(default_factory=list)

    async def call(self, name: str, arguments: Mapping[str, object]) -> CallToolResult:
        return await self.session.call_tool(name, dict(arguments))

    async def ok(self, name: str, arguments: Mapping[str, object]) -> dict[str, object]:
        """A successful call's structured result (which must equal the JSON in its text)."""
        result = await self.call(name, arguments)
        assert not result.is_error, _text(result)
        assert result.structured_content is not None
        assert json.loads(_text(result)) == result.structured_content
        return dict(result.structured_content)

    async def search(self, query: str, **arguments: object) -> SearchOutput:
        return SearchOutput.model_validate(await self.ok("search_vault", {"query": query, **arguments}))

    async def ask(self, question: str, **arguments: object) -> AskOutput:
        return AskOutput.model_validate(await self.ok("ask_vault", {"question": question, **arguments}))

    async def section(self, path: str, heading: str) -> SectionOutput:
        return SectionOutput.model_validate(await self.ok("get_note_section", {"path": path, "heading": heading}))

    async def error(self, name: str, arguments: Mapping[str, object]) -> str:
        """A failed call's message: an MCP tool error (isError), one readable text, no traceback."""
        result = await self.call(name, arguments)
        assert result.is_error, f"{name}({arguments}) unexpectedly succeeded: {_text(result)}"
        message = _text(result)
        assert "Traceback" not in message
        return message

    async def eventually(self, check: Callable[[], Awaitable[bool]], what: str) -> None:
        """Polls until the index caught up; the bound is generous (this is no timing assertion)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + WAIT_S
        while loop.time() < deadline:
            if await check():
                return
            await asyncio.sleep(0.1)
        raise AssertionError(f"timed out waiting for: {what}\n--- server log ---\n{self.log.read_text()}")


def _text(result: CallToolResult) -> str:
    assert len(result.content) == 1
    block = result.content[0]
    assert isinstance(block, TextContent)
    return block.text


def cli_ids(body: Mapping[str, object]) -> list[str]:
    """Result ids, in order, of `askvault search --json` (the API's search body)."""
    results = body["results"]
    assert isinstance(results, list)
    return [str(item["id"]) for item in results]


FAKE_EMBED_MODEL = "nomic-embed-text"
"""The fake Ollama's embedder, fast and deterministic; None runs the real built-in one, as a user gets it."""


def common_args(vault: Path, data_root: Path, ollama_url: str, embed_model: str | None = FAKE_EMBED_MODEL) -> list[str]:
    args = ["--vault", str(vault), "--data-dir", str(data_root), "--ollama-url", ollama_url]
    return [*args, "--embed-model", embed_model] if embed_model else args


@asynccontextmanager
async def mcp_client(
    vault: Path, data_root: Path, ollama_url: str, log: Path, *extra: str, embed_model: str | None = FAKE_EMBED_MODEL
) -> AsyncIterator[McpClient]:
    """`askvault mcp` as a subprocess, initialized; stdout must carry nothing but protocol messages."""
    params = StdioServerParameters(
        command=str(ASKVAULT),
        args=["mcp", *common_args(vault, data_root, ollama_url, embed_model), *extra],
        env=isolated_env(data_root.parent),
    )
    client: McpClient | None = None

    async def on_message(message: IncomingMessage) -> None:
        # A line on stdout that is not JSON-RPC arrives here as an exception.
        if isinstance(message, Exception) and client is not None:
            client.stream_errors.append(message)

    with log.open("w", encoding="utf-8") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write, read_timeout_seconds=WAIT_S, message_handler=on_message) as session,
        ):
            client = McpClient(session=session, log=log)
            await session.initialize()
            yield client
    assert client.stream_errors == [], client.stream_errors


async def askvault_cli(data_root: Path, *args: str) -> str:
    """One `askvault …` command as a subprocess (the fake Ollama keeps serving on this loop meanwhile)."""
    process = await asyncio.create_subprocess_exec(
        str(ASKVAULT),
        *args,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=isolated_env(data_root.parent) | {"PATH": "/usr/bin:/bin"},
    )
    out, err = await asyncio.wait_for(process.communicate(), WAIT_S * 2)
    assert process.returncode == 0, f"askvault {' '.join(args)} failed ({process.returncode}): {err.decode()}"
    return out.decode("utf-8")
