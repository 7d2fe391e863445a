"""Who may use the remote listener (paired devices, codes, the certificate they pinned) and how failures count."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from aiohttp import web

from askvault.api.remote.devices import Device, DeviceStore
from askvault.api.remote.failures import FailureLimiter
from askvault.api.remote.pairing import PairingCodes

log = logging.getLogger("askvault.api")


@dataclass(frozen=True, slots=True)
class RemoteAccess:
    """The certificate's fingerprint devices pinned, the paired devices, pending codes and failure counts."""

    fingerprint: str
    devices: DeviceStore
    codes: PairingCodes
    limiter: FailureLimiter


ACCESS = web.AppKey("askvault_remote_access", RemoteAccess)
DEVICE = web.RequestKey("askvault_device", Device)


def client_ip(request: web.Request) -> str:
    return request.remote or "unknown"


def record_failure(request: web.Request, what: str) -> None:
    """Counts a failed attempt against the client's address and logs it (never the token or code sent)."""
    ip = client_ip(request)
    log.warning("remote mode: %s from %s on %s %s", what, ip, request.method, request.path)
    if request.app[ACCESS].limiter.record(ip):
        log.warning("remote mode: %s is refused for a while after repeated failures", ip)
