"""The sidecar's port: the default one, when another program holds it, gives way to a free port; a chosen one never."""

from __future__ import annotations

import asyncio
import dataclasses
import socket
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest

from askvault.api.discovery import read_discovery
from askvault.api.token import load_or_create_token
from askvault.cli.serve_cmd import print_banner
from askvault.config import DEFAULT_PORT, Config, load_config
from askvault.errors import ConfigError
from askvault.wiring.sidecar import Started, run_sidecar
from tests.conftest import RunningOllama, VaultWriter

WAIT_S = 30.0
NOTES = {"Homelab/Postgres.md": "# Postgres\n\nThe database listens on port 5433 behind the proxy.\n"}


@pytest.fixture
def occupied() -> Iterator[int]:
    """A port another program listens on (this test, through a plain socket) for as long as the test runs."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        yield int(squatter.getsockname()[1])


def _config(vault: Path, data: Path, ollama_url: str, **flags: object) -> Config:
    base = {"vault": str(vault), "data_dir": str(data), "ollama_url": ollama_url, "embed_model": "nomic-embed-text"}
    return load_config({**base, **flags}, {})


@pytest.mark.parametrize(
    ("flags", "environ", "file", "port", "fallback"),
    [
        ({}, {}, {}, DEFAULT_PORT, True),
        ({"port": 8123}, {}, {}, 8123, False),
        ({"port": 0}, {}, {}, 0, False),
        ({}, {"ASKVAULT_PORT": "8124"}, {}, 8124, False),
        ({}, {}, {"port": 8125}, 8125, False),
    ],
    ids=["default", "flag", "flag-0", "environment", "config-file"],
)
def test_only_the_default_port_may_give_way(
    tmp_path: Path,
    flags: dict[str, object],
    environ: dict[str, str],
    file: dict[str, object],
    port: int,
    fallback: bool,
) -> None:
    config = load_config({"vault": str(tmp_path), **flags}, environ, file, data_root=tmp_path.parent / "data")
    assert (config.server.port, config.server.port_fallback) == (port, fallback)


async def test_a_taken_default_port_gives_way_to_a_free_one_announced_everywhere(
    make_vault: VaultWriter,
    tmp_path: Path,
    fake_ollama: RunningOllama,
    occupied: int,
    capsys: pytest.CaptureFixture[str],
) -> None:
    config = _config(make_vault(NOTES), tmp_path / "data", fake_ollama.url)
    # The default port, as if it were `occupied`: the test cannot take the real default (other runs may hold it).
    config = dataclasses.replace(config, server=dataclasses.replace(config.server, port=occupied))
    assert config.server.port_fallback
    started: asyncio.Future[Started] = asyncio.get_running_loop().create_future()
    stop = asyncio.Event()
    task = asyncio.create_task(run_sidecar(config, on_started=started.set_result, stop=stop, model_poll_s=3600))
    try:
        info = await asyncio.wait_for(asyncio.shield(started), WAIT_S)
        assert info.taken_port == occupied
        assert info.port not in (occupied, 0)
        assert info.url == f"http://127.0.0.1:{info.port}"
        found = read_discovery(config.store.data_dir)
        assert found is not None
        assert found.port == info.port
        token = load_or_create_token(config.store.data_dir, config.vault.root)
        async with (
            aiohttp.ClientSession() as session,
            session.get(f"{info.url}/api/status", headers={"Authorization": f"Bearer {token}"}) as response,
        ):
            # The Host allow-list names the port actually listened on, not the configured one.
            assert response.status == 200, await response.text()
        print_banner(info)
        banner = capsys.readouterr().out
        assert f"Ask Vault is serving vault on http://127.0.0.1:{info.port}\n" in banner
        assert (
            f"  port: {occupied} is taken by another program, so this sidecar listens on {info.port}; "
            "the plugin finds it by itself (pass --port to insist on one).\n"
        ) in banner
    finally:
        stop.set()
        await asyncio.wait_for(task, WAIT_S)
    assert read_discovery(config.store.data_dir) is None


async def test_a_chosen_port_that_is_taken_is_refused_with_the_fix(
    make_vault: VaultWriter, tmp_path: Path, fake_ollama: RunningOllama, occupied: int
) -> None:
    config = _config(make_vault(NOTES), tmp_path / "data", fake_ollama.url, port=occupied)
    with pytest.raises(ConfigError) as refused:
        await asyncio.wait_for(run_sidecar(config, model_poll_s=3600), WAIT_S)
    assert refused.value.message == (
        f"--port {occupied}: cannot listen on 127.0.0.1: another program is using that port; stop it, or choose "
        "another --port (0 picks a free one)"
    )
    assert read_discovery(config.store.data_dir) is None
