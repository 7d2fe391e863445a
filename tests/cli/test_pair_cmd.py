"""`askvault pair`, `devices` and `revoke` beside a real `serve --remote`, and what they say when remote mode is off."""

from __future__ import annotations

import json
import ssl
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import aiohttp

from askvault.cli.options import EXIT_CONFIG, EXIT_ERROR
from tests.api.engine_sidecar import results_of
from tests.api.remote_sidecar import REMOTE_HOST, free_port
from tests.cli.cli_helpers import invoke
from tests.cli.sidecar_helpers import beside, running_sidecar
from tests.conftest import RunningOllama
from tests.engine_helpers import write_notes

NOTES = {"Homelab/Kodi.md": "# Kodi\n\nKodi runs on the living-room box and plays films from the NAS.\n"}


def _link(output: str) -> dict[str, str]:
    body = json.loads(output)
    parts = urlsplit(body["link"])
    assert (parts.scheme, parts.netloc) == ("obsidian", "askvault-pair")
    query = {key: values[0] for key, values in parse_qs(parts.query).items()}
    assert query == {
        "address": body["address"],
        "fingerprint": body["fingerprint"].replace(":", ""),
        "code": body["code"],
    }
    return query


async def test_pair_a_device_beside_a_running_sidecar(tmp_path: Path, fake_ollama: RunningOllama) -> None:
    vault, data = tmp_path / "vault", tmp_path / "data"
    write_notes(vault, NOTES)
    address = f"{REMOTE_HOST}:{free_port(REMOTE_HOST)}"
    async with running_sidecar(vault, data, fake_ollama.url, remote=address) as car:
        assert car.remote_url == f"https://{address}"
        # No --remote: pair reads what the running sidecar serves.
        result = await invoke("pair", *beside(vault, data), "--json")
        assert result.exit_code == 0, result.output
        link = _link(result.output)
        assert link["address"] == address
        assert car.fingerprint is not None
        assert link["fingerprint"] == car.fingerprint.replace(":", "")
        cert = car.config.store.data_dir / "remote" / "cert.pem"
        context = ssl.create_default_context(cafile=str(cert))
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(ssl=context)) as session:
            pair_body = {"code": link["code"].lower(), "device": "Pixel 8"}
            async with session.post(f"https://{address}/api/pair", json=pair_body) as res:
                assert res.status == 200
                token = (await res.json())["token"]
            headers = {"Authorization": f"Bearer {token}", "Origin": "capacitor://localhost"}
            async with session.post(f"https://{address}/api/search", json={"query": "kodi"}, headers=headers) as res:
                assert res.status == 200
                hits = results_of(await res.json())
            assert hits
            assert hits[0]["path"] == "Homelab/Kodi.md"

            listed = await invoke("devices", *beside(vault, data), "--json")
            assert [d["name"] for d in json.loads(listed.output)] == ["Pixel 8"]
            revoked = await invoke("revoke", *beside(vault, data), "Pixel 8")
            assert revoked.exit_code == 0, revoked.output
            async with session.post(f"https://{address}/api/search", json={"query": "kodi"}, headers=headers) as res:
                assert res.status == 401


async def test_pair_draws_a_qr_code_and_says_how_to_use_it(tmp_path: Path) -> None:
    vault, data = tmp_path / "vault", tmp_path / "data"
    write_notes(vault, NOTES)
    result = await invoke("pair", *beside(vault, data), "--remote", "127.0.0.2:8765")
    assert result.exit_code == 0, result.output
    assert "▀" in result.output or "█" in result.output
    assert "obsidian://askvault-pair?address=127.0.0.2:8765&fingerprint=" in result.output
    assert "--remote 127.0.0.2:8765" in result.output
    assert "works once" in result.output
    assert "no sidecar serves remote mode" in result.output


async def test_pair_when_remote_mode_is_off(tmp_path: Path) -> None:
    vault, data = tmp_path / "vault", tmp_path / "data"
    write_notes(vault, NOTES)
    result = await invoke("pair", *beside(vault, data))
    assert result.exit_code == EXIT_CONFIG
    assert "remote mode is off" in result.output
    assert "Traceback" not in result.output


async def test_devices_and_revoke_speak_plainly(tmp_path: Path) -> None:
    vault, data = tmp_path / "vault", tmp_path / "data"
    write_notes(vault, NOTES)
    listed = await invoke("devices", *beside(vault, data))
    assert listed.exit_code == 0
    assert "No device is paired" in listed.output
    revoked = await invoke("revoke", *beside(vault, data), "Nobody")
    assert revoked.exit_code == EXIT_ERROR
    assert "no paired device is called 'Nobody'" in revoked.output


async def test_the_old_allow_remote_flag_points_to_remote_mode(tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    write_notes(vault, NOTES)
    result = await invoke("serve", "--vault", str(vault), "--allow-remote", "--host", "192.168.1.5")
    assert result.exit_code != 0
    assert "--remote ADDRESS:PORT" in result.output
    result = await invoke("serve", *beside(vault, tmp_path / "data"), "--host", "192.168.1.5")
    assert result.exit_code == EXIT_CONFIG
    assert "--remote 192.168.1.5:8765" in result.output
