"""Remote mode in the configuration: `--remote ADDRESS:PORT` and friends from flags, environment or file, and every
wrong one named in one sentence."""

from __future__ import annotations

from pathlib import Path

import pytest

from askvault.config import RemoteConfig, load_config
from askvault.errors import ConfigError


def _remote(
    tmp_path: Path,
    flags: dict[str, object],
    environ: dict[str, str] | None = None,
    file: dict[str, object] | None = None,
) -> RemoteConfig | None:
    vault = tmp_path / "vault"
    vault.mkdir(exist_ok=True)
    config = load_config({"vault": str(vault), "data_dir": str(tmp_path / "data"), **flags}, environ or {}, file or {})
    return config.server.remote


@pytest.mark.parametrize(
    ("raw", "host", "port", "address"),
    [
        ("192.168.1.5:8765", "192.168.1.5", 8765, "192.168.1.5:8765"),
        ("100.64.0.5:27582", "100.64.0.5", 27582, "100.64.0.5:27582"),
        ("[fd7a:115c:a1e0::5]:8765", "fd7a:115c:a1e0::5", 8765, "[fd7a:115c:a1e0::5]:8765"),
        (" 127.0.0.2:9 ", "127.0.0.2", 9, "127.0.0.2:9"),
    ],
)
def test_addresses(tmp_path: Path, raw: str, host: str, port: int, address: str) -> None:
    remote = _remote(tmp_path, {"remote": raw})
    assert remote is not None
    assert (remote.host, remote.port, remote.address) == (host, port, address)


@pytest.mark.parametrize(
    ("raw", "said"),
    [
        ("192.168.1.5", "is not ADDRESS:PORT"),
        ("nas.local:8765", "is not an IP address"),
        ("192.168.1.5:0", "needs a fixed port"),
        ("192.168.1.5:70000", "is not a port number"),
        ("192.168.1.5:http", "is not a port number"),
        ("fd7a::5:8765", "in brackets"),
        ("[fd7a::5]", "is not ADDRESS:PORT"),
        ("0.0.0.0:8765", "needs an address devices can dial"),
        ("[::]:8765", "needs an address devices can dial"),
    ],
)
def test_wrong_addresses_are_named(tmp_path: Path, raw: str, said: str) -> None:
    with pytest.raises(ConfigError) as info:
        _remote(tmp_path, {"remote": raw})
    assert said in info.value.message
    assert info.value.message.startswith("--remote")


def test_off_by_default_and_from_environment_or_file(tmp_path: Path) -> None:
    assert _remote(tmp_path, {}) is None
    from_env = _remote(
        tmp_path, {}, {"ASKVAULT_REMOTE": "10.0.0.2:8765", "ASKVAULT_REMOTE_NAMES": "a.example,b.example"}
    )
    assert from_env == RemoteConfig(host="10.0.0.2", port=8765, names=("a.example", "b.example"))
    assert from_env.address == "a.example:8765"
    from_file = _remote(tmp_path, {}, {}, {"remote": "10.0.0.3:8765", "remote_names": ["Desk.Example."]})
    assert from_file == RemoteConfig(host="10.0.0.3", port=8765, names=("desk.example",))


def test_every_interface_with_a_name(tmp_path: Path) -> None:
    remote = _remote(tmp_path, {"remote": "0.0.0.0:8765", "remote_names": ("nas.example",)})
    assert remote is not None
    assert remote.unspecified
    assert remote.address == "nas.example:8765"


def test_own_certificate_needs_both_files(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="go together"):
        _remote(tmp_path, {"remote": "10.0.0.2:8765", "remote_cert": "cert.pem"})
    remote = _remote(tmp_path, {"remote": "10.0.0.2:8765", "remote_cert": "c.pem", "remote_key": "k.pem"})
    assert remote is not None
    assert (remote.cert_file, remote.key_file) == (Path("c.pem"), Path("k.pem"))


@pytest.mark.parametrize("flags", [{"remote_cert": "c.pem", "remote_key": "k.pem"}, {"remote_names": ("a.example",)}])
def test_remote_settings_without_remote_are_said(tmp_path: Path, flags: dict[str, object]) -> None:
    with pytest.raises(ConfigError, match="only apply with --remote"):
        _remote(tmp_path, flags)


@pytest.mark.parametrize("name", ["-bad.example", "under_score.example", "a..b", "x" * 64 + ".example"])
def test_wrong_names_are_named(tmp_path: Path, name: str) -> None:
    with pytest.raises(ConfigError, match="is not a DNS name"):
        _remote(tmp_path, {"remote": "10.0.0.2:8765", "remote_names": (name,)})
