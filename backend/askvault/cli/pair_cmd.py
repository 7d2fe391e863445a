"""`askvault pair`, `devices` and `revoke`: letting a phone or another computer in, listing them, shutting one out."""

from __future__ import annotations

import json
import sys
from datetime import datetime
from urllib.parse import quote, urlencode

import click

from askvault.api.remote.certificate import CERT_FILE
from askvault.cli.hints import suggest
from askvault.cli.option_groups import location_options, remote_options
from askvault.cli.options import build_config, handles_errors
from askvault.config import Config
from askvault.errors import NotFound
from askvault.wiring.remote import devices as device_store
from askvault.wiring.remote import pairing_codes, pairing_target, remote_folder, serving

PAIR_ACTION = "askvault-pair"
"""Obsidian hands `obsidian://askvault-pair?...` to the plugin that registered this action."""


def pairing_link(address: str, fingerprint: str, code: str) -> str:
    """The link the QR code holds. The fingerprint goes without its colons and the address's colon unescaped:
    a shorter link is a smaller QR code, which a phone reads from further away (the plugin accepts both forms)."""
    fields = {"address": address, "fingerprint": fingerprint.replace(":", ""), "code": code}
    query = urlencode(fields, quote_via=lambda text, *_: quote(text, safe=":[]"))
    return f"obsidian://{PAIR_ACTION}?{query}"


def _serve_hint(config: Config, address: str) -> str:
    remote = config.server.remote
    if remote is None:
        return f"{suggest('serve', config)} --remote {address}"
    literal = f"[{remote.host}]" if ":" in remote.host else remote.host
    names = "".join(f" --remote-name {name}" for name in remote.names)
    return f"{suggest('serve', config)} --remote {literal}:{remote.port}{names}"


def _local(when: datetime | None) -> str:
    return when.astimezone().strftime("%Y-%m-%d %H:%M") if when is not None else "never"


@click.command()
@location_options
@remote_options
@click.option(
    "--minutes", type=click.IntRange(1, 60), default=10, show_default=True, help="How long the code is valid."
)
@click.option("--json", "as_json", is_flag=True, help="Print the link, address, fingerprint, code and expiry as JSON.")
@handles_errors
def pair(minutes: int, as_json: bool, **params: object) -> None:
    """Pair a phone or another computer with the remote sidecar.

    Prints a one-time code, and a QR code of the pairing link, that work once, for a few minutes. The device gets
    a token of its own; `askvault devices` lists the paired devices and `askvault revoke NAME` shuts one out.
    """
    config = build_config(params)
    address, fingerprint = pairing_target(config)
    issued = pairing_codes(config).issue(minutes)
    link = pairing_link(address, fingerprint, issued.code)
    if as_json:
        body = {
            "link": link,
            "address": address,
            "fingerprint": fingerprint,
            "code": issued.code,
            "expires": issued.expires.isoformat(),
        }
        click.echo(json.dumps(body))
        return
    import segno  # only this command draws a QR code

    click.echo(f"Pair a device with the Ask Vault sidecar at {address} (certificate SHA-256 {fingerprint}).")
    segno.make(link, error="l").terminal(out=sys.stdout, compact=True, border=2)
    click.echo(
        "On the device, scan this with the camera (it opens Obsidian), or paste the link into Settings → Ask Vault "
        "→ Connect to a remote sidecar:"
    )
    click.echo(f"  {link}")
    click.echo(f"Code {issued.code}: works once, until {_local(issued.expires)} ({minutes} minutes).")
    own = config.server.remote is not None and config.server.remote.cert_file is not None
    cert_file = remote_folder(config) / CERT_FILE
    if not own and cert_file.is_file():
        click.echo(
            f"A phone must trust the sidecar's self-signed certificate first: {cert_file} "
            "(docs/remote.md says how; a second computer needs nothing)."
        )
    if not serving(config):
        click.echo(
            "Note: no sidecar serves remote mode for this vault right now; start it with "
            f"`{_serve_hint(config, address)}` before pairing.",
            err=True,
        )


@click.command()
@location_options
@click.option("--json", "as_json", is_flag=True, help="Print the devices as JSON.")
@handles_errors
def devices(as_json: bool, **params: object) -> None:
    """List the devices paired with the remote sidecar.

    Each with when it paired and when it last asked."""
    config = build_config(params)
    paired = device_store(config).devices()
    if as_json:
        rows = [
            {
                "name": d.name,
                "paired": d.paired.isoformat(),
                "last_used": d.last_used.isoformat() if d.last_used else None,
            }
            for d in paired
        ]
        click.echo(json.dumps(rows))
        return
    if not paired:
        click.echo(f"No device is paired; pair one with `{suggest('pair', config)}`.")
        return
    width = max(len("NAME"), *(len(d.name) for d in paired))
    click.echo(f"{'NAME':<{width}}  {'PAIRED':<16}  LAST USED")
    for d in paired:
        click.echo(f"{d.name:<{width}}  {_local(d.paired):<16}  {_local(d.last_used)}")


@click.command()
@location_options
@click.argument("name")
@handles_errors
def revoke(name: str, **params: object) -> None:
    """Shut a paired device out at once.

    The sidecar refuses its token from its next request; pairing it again needs a new code."""
    config = build_config(params)
    if not device_store(config).revoke(name):
        raise NotFound(f"no paired device is called {name!r}; `{suggest('devices', config)}` lists them")
    click.echo(f"Revoked {name!r}: the sidecar refuses its token from its next request.")
