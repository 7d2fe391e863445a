"""A 401 says how to get the token, and never the token, the vault or the data folder (issue #33)."""

from __future__ import annotations

import pytest
from aiohttp import web

from askvault.api.errors import UNAUTHORIZED_MESSAGE, from_http_exception
from askvault.errors import Unauthorized
from tests.api.conftest import ORIGIN, PROTECTED, PROTECTED_IDS, Sidecar, assert_error

HOW = (
    "missing or wrong bearer token: get it with `askvault token --vault <your vault>` (plus the --data-dir the "
    "sidecar was started with, if any) and paste it into the Ask Vault plugin's settings, or send it as "
    "`Authorization: Bearer <token>`"
)
WRONG = {
    "missing": {},
    "wrong": {"Authorization": "Bearer not-the-token"},
    "from-obsidian": {"Authorization": "Bearer not-the-token", "Origin": ORIGIN},
}


@pytest.mark.parametrize("headers", WRONG.values(), ids=WRONG.keys())
@pytest.mark.parametrize(("method", "path", "body"), PROTECTED, ids=PROTECTED_IDS)
async def test_the_401_says_how_to_get_the_token(
    sidecar: Sidecar, method: str, path: str, body: object, headers: dict[str, str]
) -> None:
    async with sidecar.session.request(method, sidecar.url(path), json=body, headers=headers) as resp:
        text = await resp.text()
        assert resp.status == 401
        assert resp.headers["WWW-Authenticate"] == "Bearer"
        payload = await resp.json()
    assert_error(payload, "unauthorized")
    assert payload == {"error": {"code": "unauthorized", "message": HOW}}
    assert sidecar.token not in text


def test_an_aiohttp_401_reads_the_same() -> None:
    error = from_http_exception(web.HTTPUnauthorized())

    assert isinstance(error, Unauthorized)
    assert error.message == UNAUTHORIZED_MESSAGE == HOW
