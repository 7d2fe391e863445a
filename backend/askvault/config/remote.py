"""Remote mode's settings (`--remote ADDRESS:PORT` and friends) parsed and checked into one RemoteConfig."""

from __future__ import annotations

import ipaddress
import re
from pathlib import Path

from askvault.config.slices import RemoteConfig
from askvault.errors import ConfigError

_NAME = re.compile(
    r"^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$"
)


def parse_address(raw: str, source: str) -> tuple[str, int]:
    """`192.168.1.5:8765` or `[fd7a::1]:8765` → (host, port). Only IP literals: a name could resolve anywhere."""
    text = raw.strip()
    if text.startswith("["):
        host, sep, port = text[1:].partition("]:")
    else:
        host, sep, port = text.rpartition(":")
    if not sep or not host:
        raise ConfigError(f"{source}: {raw!r} is not ADDRESS:PORT (e.g. 192.168.1.5:8765 or [fd7a::1]:8765)")
    try:
        address = ipaddress.ip_address(host)
    except ValueError as exc:
        raise ConfigError(
            f"{source}: {host!r} is not an IP address; listen on the machine's address and give devices the name "
            "with --remote-name"
        ) from exc
    if address.version == 6 and not text.startswith("["):
        raise ConfigError(f"{source}: write an IPv6 address in brackets, e.g. [{host}]:8765")
    if not port.isdigit() or not 1 <= int(port) <= 65535:
        raise ConfigError(
            f"{source}: {port!r} is not a port number (1-65535); remote mode needs a fixed port, as paired devices "
            "remember it"
        )
    return str(address), int(port)


def remote_config(
    raw: object, source: str, cert: object, key: object, names: tuple[str, ...], names_source: str
) -> RemoteConfig:
    host, port = parse_address(str(raw), source)
    # A fully qualified name may end in a dot; Host headers and certificates carry it without one.
    clean = tuple(name.strip().lower().removesuffix(".") for name in names)
    for name, written in zip(clean, names, strict=True):
        if not _NAME.match(name):
            raise ConfigError(f"{names_source}: {written!r} is not a DNS name (like desk.tailnet-1234.ts.net)")
    if host in ("0.0.0.0", "::") and not clean:
        raise ConfigError(
            f"{source}: {raw!r} listens on every interface, but a pairing link needs an address devices can dial: "
            "add --remote-name with the machine's DNS name, or give its LAN or Tailscale address instead"
        )
    if (cert is None) != (key is None):
        raise ConfigError("--remote-cert and --remote-key go together: give both, or neither for a self-signed one")
    return RemoteConfig(
        host=host,
        port=port,
        cert_file=Path(str(cert)).expanduser() if cert is not None else None,
        key_file=Path(str(key)).expanduser() if key is not None else None,
        names=clean,
    )
