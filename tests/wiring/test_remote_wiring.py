"""Remote mode's parts from the configuration: the user's own certificate must name what devices dial."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from askvault.api.remote.certificate import load_or_create_certificate, unnamed_hosts
from askvault.config import Config, load_config
from askvault.errors import ConfigError
from askvault.wiring.remote import NOT_ON, certificate, pairing_target


def _config(tmp_path: Path, **flags: object) -> Config:
    vault = tmp_path / "vault"
    vault.mkdir(exist_ok=True)
    return load_config({"vault": str(vault), "data_dir": str(tmp_path / "data"), **flags}, {})


@pytest.mark.parametrize(
    ("made_for", "hosts", "missing"),
    [
        (["desk.example"], ["desk.example"], []),
        (["desk.example"], ["DESK.example."], []),
        (["*.tail-1.ts.net"], ["desk.tail-1.ts.net"], []),
        (["*.tail-1.ts.net"], ["a.b.tail-1.ts.net"], ["a.b.tail-1.ts.net"]),
        (["10.0.0.2"], ["10.0.0.2"], []),
        (["10.0.0.2"], ["10.0.0.3", "other.example"], ["10.0.0.3", "other.example"]),
    ],
)
def test_unnamed_hosts(tmp_path: Path, made_for: list[str], hosts: list[str], missing: list[str]) -> None:
    own = load_or_create_certificate(tmp_path / "own", [] if made_for[0].startswith("*") else made_for)
    if made_for[0].startswith("*"):
        own = replace(own, der=_wildcard(made_for[0]))
    assert unnamed_hosts(own, hosts) == missing


def _wildcard(name: str) -> bytes:
    """A certificate for a wildcard name, as a CA issues one (our own maker names no wildcards)."""
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = datetime.now(UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(hours=1))
        .not_valid_after(now + timedelta(days=30))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
        .sign(key, hashes.SHA256())
    )
    return cert.public_bytes(serialization.Encoding.DER)


def test_own_certificate_for_the_name_devices_dial(tmp_path: Path) -> None:
    own = load_or_create_certificate(tmp_path / "own", ["desk.example"])
    flags = {"remote": "10.0.0.2:8765", "remote_cert": str(own.cert_path), "remote_key": str(own.key_path)}
    config = _config(tmp_path, remote_names=("desk.example",), **flags)
    assert certificate(config).fingerprint == own.fingerprint
    wrong = _config(tmp_path, remote_names=("nas.example",), **flags)
    with pytest.raises(ConfigError, match=r"does not name nas\.example"):
        certificate(wrong)
    no_name = _config(tmp_path, **flags)
    with pytest.raises(ConfigError, match=r"does not name 10\.0\.0\.2"):
        certificate(no_name)


def test_pairing_needs_remote_mode(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as info:
        pairing_target(_config(tmp_path))
    assert info.value.message == NOT_ON
