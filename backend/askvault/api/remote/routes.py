"""Remote mode's own routes: health with the certificate fingerprint, and pairing a device with a one-time code."""

from __future__ import annotations

import asyncio
import logging

from aiohttp import web

from askvault.api.encode import json_response
from askvault.api.remote.access import ACCESS, client_ip, record_failure
from askvault.api.remote.pairing import PairingRefused
from askvault.api.validate import read_json_object
from askvault.errors import BadRequest

log = logging.getLogger("askvault.api")

CODE_CHARS = 32
DEVICE_CHARS = 64


async def health(request: web.Request) -> web.Response:
    # Liveness, and the fingerprint a device pinned: where the platform hides the certificate (a phone's
    # WebView), this is how the plugin tells that it reached the sidecar it paired with.
    return json_response({"ok": True, "fingerprint": request.app[ACCESS].fingerprint})


def _field(body: dict[str, object], name: str, limit: int) -> str:
    value = body.get(name)
    if not isinstance(value, str) or not value.strip():
        raise BadRequest(f"{name} is required: a non-empty string")
    if len(value) > limit:
        raise BadRequest(f"{name} must be at most {limit} characters")
    return value.strip()


async def pair(request: web.Request) -> web.Response:
    body = dict(await read_json_object(request))
    unknown = sorted(set(body) - {"code", "device"})
    if unknown:
        raise BadRequest(f"unknown field {unknown[0]!r}")
    code = _field(body, "code", CODE_CHARS)
    device = _field(body, "device", DEVICE_CHARS)
    access = request.app[ACCESS]
    try:
        await asyncio.to_thread(access.codes.redeem, code)
    except PairingRefused:
        record_failure(request, "a refused pairing code")
        raise
    added, token = await asyncio.to_thread(access.devices.add, device)
    log.info("remote mode: paired the device %r from %s", added.name, client_ip(request))
    return json_response({"token": token, "device": added.name, "fingerprint": access.fingerprint})
