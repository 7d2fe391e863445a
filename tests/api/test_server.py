"""Binding: loopback by default, port 0 reported, a non-loopback --host refused in favour of remote mode."""

from __future__ import annotations

import asyncio
import logging

import aiohttp
import pytest
from aiohttp import web

from askvault.api.app import create_app
from askvault.api.security import LISTEN_PORTS, host_allowed
from askvault.api.server import check_bind_host, is_loopback, run_server, serve
from askvault.api.services import ApiServices
from askvault.config import ServerConfig
from askvault.errors import ConfigError
from tests.api.conftest import TOKEN
from tests.api.fakes import FakeAnswerer, FakeIndex, FakeSearcher


def _app(server: ServerConfig) -> web.Application:
    return create_app(ApiServices(FakeSearcher(), FakeAnswerer(), FakeIndex()), server, TOKEN, server.port)


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.0.0.2", True),
        ("::1", True),
        ("[::1]", True),
        ("localhost", True),
        ("0.0.0.0", False),
        ("::", False),
        ("192.168.1.10", False),
        ("nas.local", False),
        ("", False),
    ],
)
def test_is_loopback(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.10", "nas.local"])
def test_non_loopback_host_points_to_remote_mode(host: str) -> None:
    """Plain HTTP beyond loopback would carry the token in clear text: refused, with the TLS way named."""
    with pytest.raises(ConfigError) as info:
        check_bind_host(ServerConfig(host=host, port=0))
    assert "--host" in info.value.message
    assert "--remote" in info.value.message
    assert "clear text" in info.value.message
    assert info.value.http_status == 400


async def test_run_server_refuses_0_0_0_0_before_listening() -> None:
    server = ServerConfig(host="0.0.0.0", port=0)
    bound: list[int] = []
    with pytest.raises(ConfigError, match="--remote"):
        await run_server(_app(server), server, bound.append)
    assert bound == []


async def test_serve_binds_loopback_only_and_reports_port_0() -> None:
    server = ServerConfig(port=0)
    app = _app(server)
    async with serve(app, server) as listening, aiohttp.ClientSession() as session:
        assert listening.port > 0
        assert listening.addresses == (("127.0.0.1", listening.port),)
        async with session.get(f"http://127.0.0.1:{listening.port}/api/health") as resp:
            assert resp.status == 200
        async with session.get(f"http://localhost:{listening.port}/api/health") as resp:
            assert resp.status == 200


async def test_run_server_reports_the_port_and_stops_when_cancelled() -> None:
    server = ServerConfig(port=0)
    bound: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    task = asyncio.create_task(run_server(_app(server), server, bound.set_result))
    port = await asyncio.wait_for(bound, 30)
    async with aiohttp.ClientSession() as session:
        async with session.get(f"http://127.0.0.1:{port}/api/health") as resp:
            assert await resp.json() == {"ok": True}
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        with pytest.raises(aiohttp.ClientConnectionError):
            await session.get(f"http://127.0.0.1:{port}/api/health")


async def test_a_taken_port_is_a_config_error() -> None:
    first = ServerConfig(port=0)
    async with serve(_app(first), first) as listening:
        taken = ServerConfig(port=listening.port)
        with pytest.raises(ConfigError, match=f"--port {listening.port}"):
            async with serve(_app(taken), taken):
                pass


async def test_before_binding_port_0_no_host_passes() -> None:
    app = _app(ServerConfig(port=0))
    assert app[LISTEN_PORTS].ports == frozenset()
    assert not host_allowed("127.0.0.1:0", frozenset())


@pytest.mark.parametrize("token", ["", " ", "short-token"])
def test_create_app_refuses_a_weak_token(token: str) -> None:
    with pytest.raises(ConfigError, match="token"):
        create_app(ApiServices(FakeSearcher(), FakeAnswerer(), FakeIndex()), ServerConfig(port=0), token, 0)


@pytest.mark.parametrize("origin", ["*", "null", "app://*"])
def test_create_app_refuses_wildcard_origins(origin: str) -> None:
    server = ServerConfig(port=0, extra_origins=(origin,))
    with pytest.raises(ConfigError, match="--allow-origin"):
        create_app(ApiServices(FakeSearcher(), FakeAnswerer(), FakeIndex()), server, TOKEN, 0)


def test_a_container_may_listen_on_its_own_interface(caplog: pytest.LogCaptureFixture) -> None:
    """docker-compose.yml publishes the port on the host's loopback, so the container listens on 0.0.0.0."""
    with caplog.at_level(logging.INFO, logger="askvault.api"):
        check_bind_host(ServerConfig(host="0.0.0.0", port=0, in_container=True))
    assert "inside a container" in caplog.text
