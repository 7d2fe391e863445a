"""`askvault mcp` on its own index, over stdio with the SDK's client: tools, schemas, results, refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import RunningOllama
from tests.fakes.ollama_server import ChatScript
from tests.mcp.harness import TOOLS, McpClient, askvault_cli, cli_ids, common_args, mcp_client
from tests.mcp.vaults import CANARY, EXCLUDE_GLOB, EXCLUDED, VaultOnDisk, build_vault

pytestmark = pytest.mark.slow

EXCLUDE = ("--exclude", EXCLUDE_GLOB)


@pytest.fixture
def vault(tmp_path: Path) -> VaultOnDisk:
    return build_vault(tmp_path)


async def index_with_cli(vault: VaultOnDisk, ollama: RunningOllama) -> None:
    await askvault_cli(vault.data_root, "index", *common_args(vault.root, vault.data_root, ollama.url), *EXCLUDE)


async def dense_ready(client: McpClient) -> bool:
    return bool((await client.search("port 5433")).counts.get("dense"))


async def fully_indexed(client: McpClient) -> bool:
    """Both legs find the Postgres note: the server's own first index run has finished."""
    found = await client.search("port 5433")
    return bool(found.counts.get("dense")) and any(hit.keyword_rank for hit in found.results)


async def test_lists_three_read_only_tools_with_schemas(vault: VaultOnDisk, fake_ollama: RunningOllama) -> None:
    async with mcp_client(vault.root, vault.data_root, fake_ollama.url, vault.root.parent / "mcp.log") as client:
        assert client.session.initialize_result is not None
        assert 'Obsidian vault "vault"' in (client.session.initialize_result.instructions or "")
        tools = {tool.name: tool for tool in (await client.session.list_tools()).tools}
    assert set(tools) == TOOLS
    for tool in tools.values():
        assert tool.description
        assert len(tool.description) > 80
        assert tool.output_schema is not None
        assert tool.output_schema["type"] == "object"
        assert tool.annotations is not None
        assert tool.annotations.read_only_hint is True
        for name, schema in tool.input_schema["properties"].items():
            assert schema.get("description"), f"{tool.name}.{name} has no description"
    search = tools["search_vault"].input_schema
    assert search["required"] == ["query"]
    assert search["properties"]["k"] == {
        "default": 8,
        "description": "How many results to return (1-50)",
        "maximum": 50,
        "minimum": 1,
        "title": "K",
        "type": "integer",
    }
    assert {"folder", "tag"} <= set(search["properties"])
    assert tools["ask_vault"].input_schema["required"] == ["question"]
    assert tools["ask_vault"].input_schema["properties"]["force"]["default"] is False
    assert tools["get_note_section"].input_schema["required"] == ["path", "heading"]
    ask_schema = tools["ask_vault"].output_schema
    assert ask_schema is not None
    assert set(ask_schema["properties"]) >= {"answer", "citations", "sources", "abstained", "reason", "closest"}


# (query, folder, tag)
QUERIES: list[tuple[str, str | None, str | None]] = [
    ("port 5433", None, None),
    ("kodi maintenance workflow", None, None),
    ("port", "Homelab", "homelab"),
]


@pytest.mark.timeout(300)
async def test_search_matches_the_cli(vault: VaultOnDisk, fake_ollama: RunningOllama) -> None:
    # No embedder named anywhere: the CLI indexes with the built-in one and MCP uses the one the index remembers.
    args = common_args(vault.root, vault.data_root, fake_ollama.url, embed_model=None)
    await askvault_cli(vault.data_root, "index", *args, *EXCLUDE)
    expected: dict[str, list[str]] = {}
    for query, folder, tag in QUERIES:
        filters = [*(("--folder", folder) if folder else ()), *(("--tag", tag) if tag else ())]
        out = await askvault_cli(vault.data_root, "search", query, *filters, "--json", *args, *EXCLUDE)
        expected[query] = cli_ids(json.loads(out))
        assert expected[query], query
    assert not fake_ollama.fake.calls("/api/embed")
    log = vault.root.parent / "mcp.log"
    async with mcp_client(vault.root, vault.data_root, fake_ollama.url, log, *EXCLUDE, embed_model=None) as client:
        # Keyword search answers at once; semantic search joins once the stored vectors are open.
        await client.eventually(lambda: dense_ready(client), "semantic search to come back")
        for query, folder, tag in QUERIES:
            found = await client.search(query, folder=folder, tag=tag)
            assert [hit.id for hit in found.results] == expected[query], query
        top = await client.search("port 5433", k=1)
    [hit] = top.results
    assert hit.rank == 1
    assert hit.path == "Homelab/Postgres.md"
    assert hit.heading == " › ".join(hit.heading_path)
    assert hit.dense_rank is not None
    assert hit.keyword_rank is not None
    assert hit.start_line <= hit.end_line
    assert "5433" in hit.text


async def test_ask_answers_with_numbered_sources(vault: VaultOnDisk, fake_ollama: RunningOllama) -> None:
    fake_ollama.fake.scripts.append(ChatScript(tokens=["Postgres listens on ", "port 5433 [1]."]))
    async with mcp_client(vault.root, vault.data_root, fake_ollama.url, vault.root.parent / "mcp.log") as client:
        # Never indexed before: the server indexes the vault in the background and answers meanwhile.
        await client.eventually(lambda: fully_indexed(client), "the first index run")
        answer = await client.ask("Which port does Postgres listen on?")
        fake_ollama.fake.chat_models.clear()
        missing = await client.error("ask_vault", {"question": "Which port does Postgres listen on?"})
    assert answer.answer == "Postgres listens on port 5433 [1]."
    assert answer.citations == [1]
    assert answer.no_results is False
    assert [source.n for source in answer.sources] == list(range(1, len(answer.sources) + 1))
    first = answer.sources[0]
    assert first.cited is True
    assert first.path == "Homelab/Postgres.md"
    assert first.heading == " › ".join(first.heading_path)
    assert first.start_line <= first.end_line
    # The model got the question with the numbered sources, as the sidecar sends them.
    assert "5433" in json.dumps(fake_ollama.fake.calls("/api/chat")[0]["messages"])
    assert "ollama pull llama3.2:3b" in missing


async def test_ask_abstains_on_what_the_notes_do_not_cover(vault: VaultOnDisk, fake_ollama: RunningOllama) -> None:
    await index_with_cli(vault, fake_ollama)
    fake_ollama.fake.scripts.append(ChatScript(tokens=["Nothing about sailing here [1]."]))
    async with mcp_client(vault.root, vault.data_root, fake_ollama.url, vault.root.parent / "mcp.log") as client:
        await client.eventually(lambda: dense_ready(client), "semantic search")
        question = "Which regatta did the yacht Zephyrine win?"
        abstained = await client.ask(question)
        chats_after_abstaining = len(fake_ollama.fake.calls("/api/chat"))
        forced = await client.ask(question, force=True)
    assert (abstained.abstained, abstained.no_results, abstained.sources) == (True, True, [])
    assert abstained.reason.startswith("Your notes do not seem to cover this question")
    assert abstained.closest
    assert len({note.path for note in abstained.closest}) == len(abstained.closest)
    assert all(note.dense_score is not None for note in abstained.closest)
    assert chats_after_abstaining == 0
    assert (forced.abstained, forced.answer, forced.closest) == (False, "Nothing about sailing here [1].", [])
    assert forced.reason.startswith("Sent anyway as you asked")
    assert forced.sources


async def test_excluded_notes_never_come_out(vault: VaultOnDisk, fake_ollama: RunningOllama) -> None:
    log = vault.root.parent / "mcp.log"
    async with mcp_client(vault.root, vault.data_root, fake_ollama.url, log, *EXCLUDE) as client:
        await client.eventually(lambda: fully_indexed(client), "the first index run")
        by_canary = await client.search(CANARY, k=50)
        by_words = await client.search("safe combination router admin password retired root", k=50)
        answer = await client.ask("What are the router admin password and the safe combination?")
        refusals = {path: await client.error("get_note_section", {"path": path, "heading": ""}) for path in EXCLUDED}
    for found in (by_canary, by_words):
        assert found.results, "the search returned nothing at all"
        assert not {hit.path for hit in found.results} & set(EXCLUDED)
        assert CANARY not in "".join(hit.model_dump_json() for hit in found.results)
    assert by_canary.counts["keyword"] == 0
    assert CANARY not in answer.model_dump_json()
    assert CANARY not in json.dumps(fake_ollama.fake.calls("/api/chat"))
    for path, message in refusals.items():
        assert path in message
        assert "opted out" in message or "excluded from Ask Vault" in message
        assert CANARY not in message


async def test_get_note_section_reads_and_refuses(vault: VaultOnDisk, fake_ollama: RunningOllama) -> None:
    log = vault.root.parent / "mcp.log"
    async with mcp_client(vault.root, vault.data_root, fake_ollama.url, log) as client:
        section = await client.section("Homelab/Postgres.md", "postgres › port")
        refused = {
            "traversal": await client.error("get_note_section", {"path": "../outside.md", "heading": "Outside"}),
            "absolute": await client.error("get_note_section", {"path": str(vault.outside), "heading": "Outside"}),
            "symlink": await client.error("get_note_section", {"path": "Homelab/Escape.md", "heading": "Outside"}),
            "heading": await client.error("get_note_section", {"path": "Homelab/Kodi.md", "heading": "Upgrades"}),
            "arguments": await client.error("get_note_section", {"path": "Homelab/Kodi.md"}),
        }
    assert section.heading == "Postgres › Port"
    assert (section.start_line, section.end_line) == (10, 17)
    assert section.text.startswith("Port\n")
    assert "Firewall" in section.text
    assert "Backups" not in section.text
    assert "'../outside.md' leaves the vault" in refused["traversal"]
    assert "is an absolute path" in refused["absolute"]
    assert "resolves to outside the vault" in refused["symlink"]
    assert "no heading 'Upgrades' in Homelab/Kodi.md; its headings are: Kodi; Kodi › Maintenance" in refused["heading"]
    assert "invalid arguments for get_note_section: heading: Field required" in refused["arguments"]
    for message in refused.values():
        assert CANARY not in message
    assert "Traceback" not in log.read_text(encoding="utf-8")


async def test_keeps_the_index_fresh_in_the_background(vault: VaultOnDisk, fake_ollama: RunningOllama) -> None:
    await index_with_cli(vault, fake_ollama)
    # Written while nothing ran: the reconcile at start picks it up.
    (vault.root / "Ideas" / "Bees.md").write_text("# Bees\n\nThe hive by the quince tree swarmed.\n", "utf-8")
    log = vault.root.parent / "mcp.log"
    async with mcp_client(vault.root, vault.data_root, fake_ollama.url, log, "--verbose") as client:

        async def finds(word: str, path: str) -> bool:
            return path in {hit.path for hit in (await client.search(word, k=3)).results}

        await client.eventually(lambda: finds("quince", "Ideas/Bees.md"), "the note written before start")
        # Written while serving: the watcher picks it up.
        (vault.root / "Ideas" / "Owls.md").write_text("# Owls\n\nA tawny owl nests in the walnut.\n", "utf-8")
        await client.eventually(lambda: finds("walnut", "Ideas/Owls.md"), "the note written while serving")
    # Verbose logs went to stderr; stdout carried only the protocol (the client saw no stray lines).
    assert "DEBUG" in log.read_text(encoding="utf-8")
