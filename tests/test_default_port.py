"""The sidecar's default port: one no popular Obsidian tool uses, and the same number wherever it is written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from askvault.config import DEFAULT_PORT

ROOT = Path(__file__).resolve().parents[1]

TAKEN = {
    27123: "Obsidian Local REST API (HTTP), which many Obsidian MCP servers call",
    27124: "Obsidian Local REST API (HTTPS)",
    22360: "Claude Code's Obsidian MCP plugin",
    3000: "dev servers, Open WebUI",
    5000: "Flask and friends",
    8000: "dev servers",
    8080: "dev servers, llama.cpp",
    11434: "Ollama",
    6333: "Qdrant (HTTP)",
    6334: "Qdrant (gRPC)",
}


def test_the_default_port_is_no_popular_tools_and_below_the_ephemeral_range() -> None:
    assert DEFAULT_PORT not in TAKEN, TAKEN.get(DEFAULT_PORT)
    # Linux hands out 32768-60999 to outgoing connections, Windows and macOS 49152-65535.
    assert 1024 < DEFAULT_PORT < 32768


@pytest.mark.parametrize(
    ("path", "pattern"),
    [
        ("backend/Dockerfile", r"EXPOSE (\d+)"),
        ("docs/configuration.md", r"\| `--port` \(serve\) \| `ASKVAULT_PORT` \| `(\d+)`"),
    ],
    ids=["dockerfile", "configuration-table"],  # the plugin's: tests/fixtures/shared-constants.json
)
def test_every_place_names_the_same_default(path: str, pattern: str) -> None:
    found = re.search(pattern, (ROOT / path).read_text(encoding="utf-8"))
    assert found is not None, f"{path} no longer says the default port the way this test looks for it"
    assert int(found.group(1)) == DEFAULT_PORT


OTHER_SERVICES = {11434, 6333}
"""Ollama and Qdrant: the only other local addresses the docs name."""


@pytest.mark.parametrize(
    "path", ["README.md", "CONTRIBUTING.md", "docs/api.md", "docs/configuration.md", "plugin/README.md"]
)
def test_every_local_address_in_the_docs_is_the_sidecars_default(path: str) -> None:
    ports = {int(port) for port in re.findall(r"(?:127\.0\.0\.1|localhost):(\d+)", (ROOT / path).read_text("utf-8"))}
    assert ports - OTHER_SERVICES <= {DEFAULT_PORT}


def test_compose_publishes_the_default_and_names_it_so_it_never_moves() -> None:
    sidecar = yaml.safe_load((ROOT / "docker-compose.yml").read_text(encoding="utf-8"))["services"]["sidecar"]
    assert sidecar["ports"] == [f"127.0.0.1:{DEFAULT_PORT}:{DEFAULT_PORT}"]
    # A named port is never swapped for a free one: the published mapping would point at nothing.
    assert sidecar["environment"]["ASKVAULT_PORT"] == str(DEFAULT_PORT)
