"""Remote mode's parts, made from the configuration in one place: certificate, paired devices, codes, the site."""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

from aiohttp import web

from askvault.api.discovery import pid_alive
from askvault.api.gate import GATE
from askvault.api.private_files import ensure_private_dir, read_private, write_private
from askvault.api.remote.access import RemoteAccess
from askvault.api.remote.app import create_remote_app
from askvault.api.remote.certificate import (
    RemoteCertificate,
    load_or_create_certificate,
    load_user_certificate,
    server_ssl_context,
    unnamed_hosts,
)
from askvault.api.remote.devices import DeviceStore
from askvault.api.remote.failures import FailureLimiter
from askvault.api.remote.pairing import PairingCodes
from askvault.api.server import RemoteSite
from askvault.api.services import ApiServices
from askvault.config import Config, RemoteConfig
from askvault.errors import ConfigError

REMOTE_FOLDER = "remote"
DEVICES_FILE = "devices.json"
PAIRING_FILE = "pairing.json"
NOT_ON = (
    "remote mode is off: pass --remote ADDRESS:PORT (the address `askvault serve --remote` listens on), or set "
    "remote in the config file"
)


def remote_folder(config: Config) -> Path:
    """`<data dir>/remote`: the certificate, key, paired devices and pending codes (0700, files 0600)."""
    folder = config.store.data_dir / REMOTE_FOLDER
    ensure_private_dir(folder)
    return folder


def required_remote(config: Config) -> RemoteConfig:
    if config.server.remote is None:
        raise ConfigError(NOT_ON)
    return config.server.remote


def certificate(config: Config) -> RemoteCertificate:
    """The user's certificate when given, else the self-signed one (made on first use, kept until near expiry)."""
    remote = required_remote(config)
    if remote.cert_file is not None and remote.key_file is not None:
        own = load_user_certificate(remote.cert_file, remote.key_file)
        # Devices dial the names when there are any, else the address: the certificate must name what they dial,
        # or every phone fails the TLS check with no word from us.
        missing = unnamed_hosts(own, remote.names or (remote.host,))
        if missing:
            raise ConfigError(
                f"--remote-cert: {remote.cert_file} does not name {', '.join(missing)}, which devices dial; use a "
                "certificate for that name, or pass the name it was made for with --remote-name"
            )
        return own
    hosts = [*remote.names] if remote.unspecified else [remote.host, *remote.names]
    return load_or_create_certificate(remote_folder(config), hosts)


def devices(config: Config) -> DeviceStore:
    return DeviceStore(remote_folder(config) / DEVICES_FILE)


def pairing_codes(config: Config) -> PairingCodes:
    return PairingCodes(remote_folder(config) / PAIRING_FILE)


def remote_serving_site(
    config: Config, services: ApiServices, local: web.Application
) -> tuple[RemoteSite, RemoteAccess]:
    """The TLS site for `serve --remote`, sharing the loopback app's generation gate."""
    remote = required_remote(config)
    cert = certificate(config)
    access = RemoteAccess(
        fingerprint=cert.fingerprint, devices=devices(config), codes=pairing_codes(config), limiter=FailureLimiter()
    )
    app = create_remote_app(services, config.server, access, local[GATE])
    site = RemoteSite(app=app, ssl_context=server_ssl_context(cert), host=remote.host, port=remote.port)
    return site, access


SERVED_FILE = "serving.json"
"""What the running `serve --remote` listens on, so `askvault pair` needs no --remote of its own."""


def write_serving(config: Config, fingerprint: str) -> None:
    remote = required_remote(config)
    body = {"address": remote.address, "fingerprint": fingerprint, "pid": os.getpid()}
    write_private(remote_folder(config) / SERVED_FILE, json.dumps(body).encode("utf-8"))


def remove_serving(config: Config) -> None:
    with contextlib.suppress(FileNotFoundError):
        (config.store.data_dir / REMOTE_FOLDER / SERVED_FILE).unlink()


def _served(config: Config) -> dict[str, object] | None:
    raw = read_private(config.store.data_dir / REMOTE_FOLDER / SERVED_FILE, 4096)
    try:
        body = json.loads(raw) if raw is not None else None
    except ValueError:
        return None
    if not isinstance(body, dict) or not isinstance(body.get("address"), str):
        return None
    if not isinstance(body.get("fingerprint"), str) or not isinstance(body.get("pid"), int):
        return None
    # A sidecar that was killed leaves its file behind; only a live process still serves.
    return body if pid_alive(body["pid"]) else None


def serving(config: Config) -> bool:
    """Whether a live sidecar serves remote mode for this vault."""
    return _served(config) is not None


def pairing_target(config: Config) -> tuple[str, str]:
    """(address, fingerprint) for a pairing link: from --remote (or the config file) when given, else from the
    running `serve --remote`."""
    if config.server.remote is not None:
        return config.server.remote.address, certificate(config).fingerprint
    body = _served(config)
    if body is None:
        raise ConfigError(NOT_ON)
    return str(body["address"]), str(body["fingerprint"])
