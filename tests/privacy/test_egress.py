"""Nothing leaves the machine but calls to the configured Ollama: no telemetry, downloads, DNS or proxies.

Every outgoing connection and name lookup in this process is recorded; anything not on the loopback is
refused before a packet is sent. Proxy variables point at a name that must never be looked up.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable
from contextlib import aclosing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from askvault.wiring import open_engine
from askvault.wiring.models import ModelMonitor
from tests.conftest import RunningOllama
from tests.privacy.canary_vault import MODES, canary_config, write_vault

BOGUS_PROXY = "http://proxy.invalid:3128"
PROXY_VARIABLES = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy")


@dataclass
class Egress:
    connects: list[object] = field(default_factory=list)
    lookups: list[str] = field(default_factory=list)
    refused: list[object] = field(default_factory=list)


def _loopback(host: object) -> bool:
    try:
        return ipaddress.ip_address(str(host).split("%", 1)[0]).is_loopback
    except ValueError:
        return host == "localhost"


@pytest.fixture
def egress(monkeypatch: pytest.MonkeyPatch) -> Egress:
    seen = Egress()
    real_connect: Callable[..., Any] = socket.socket.connect
    real_connect_ex: Callable[..., Any] = socket.socket.connect_ex
    real_getaddrinfo: Callable[..., Any] = socket.getaddrinfo

    def guard(address: object) -> None:
        seen.connects.append(address)
        host = address[0] if isinstance(address, tuple) else None
        if host is not None and not _loopback(host):
            seen.refused.append(address)
            raise ConnectionRefusedError(f"egress to {address!r} refused by the test")

    def connect(self: socket.socket, address: Any) -> Any:
        guard(address)
        return real_connect(self, address)

    def connect_ex(self: socket.socket, address: Any) -> Any:
        guard(address)
        return real_connect_ex(self, address)

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        name = host.decode() if isinstance(host, bytes) else str(host)
        seen.lookups.append(name)
        if not _loopback(name):
            seen.refused.append(name)
            raise socket.gaierror(socket.EAI_NONAME, f"lookup of {name!r} refused by the test")
        return real_getaddrinfo(host, *args, **kwargs)

    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket.socket, "connect_ex", connect_ex)
    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    for name in PROXY_VARIABLES:
        monkeypatch.setenv(name, BOGUS_PROXY)
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    return seen


@pytest.mark.parametrize("embed_model", [None, "nomic-embed-text"], ids=["built-in", "ollama"])
async def test_index_search_ask_and_model_monitor_talk_only_to_the_configured_ollama(
    tmp_path: Path, fake_ollama: RunningOllama, egress: Egress, embed_model: str | None
) -> None:
    vault = write_vault(tmp_path / "vault")
    config = canary_config(vault, tmp_path / "data", fake_ollama.url, embed_model=embed_model)
    ollama = urlsplit(fake_ollama.url)
    async with open_engine(config) as engine:
        report = await engine.indexer.run()
        assert report.dense == "ready", report.dense_problem
        for mode in MODES:
            assert (await engine.searcher.search("lantern festival", 5, mode)).hits
        async with aclosing(engine.pipeline.run("When is the lantern festival?")) as events:
            kinds = [event.type async for event in events]
        assert kinds[-1] == "done"
        monitor = ModelMonitor(config.ollama, interval_s=3600, embed_model=embed_model)
        await monitor.start()
        snapshot = await monitor.check()
        await monitor.stop()
        assert snapshot["chat"] == {"name": config.ollama.chat_model, "ok": True, "problem": None}
        if embed_model is not None:
            assert snapshot["embed"] == {"name": embed_model, "ok": True, "problem": None}

    assert egress.refused == []
    destinations = {(str(a[0]), int(a[1])) for a in egress.connects if isinstance(a, tuple)}
    assert destinations == {(ollama.hostname, ollama.port)}
    assert set(egress.lookups) <= {"127.0.0.1", "localhost", "::1"}
    assert "proxy.invalid" not in egress.lookups
    assert fake_ollama.fake.calls("/api/chat")
    # The built-in embedder runs in process: not one embedding request leaves it.
    assert bool(fake_ollama.fake.calls("/api/embed")) == (embed_model is not None)
