"""The self-signed certificate: what it holds, when it is kept and when made again, and that TLS works with it."""

from __future__ import annotations

import hashlib
import logging
import re
import ssl
import stat
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from askvault.api.remote.certificate import (
    CERT_FILE,
    KEY_FILE,
    RemoteCertificate,
    fingerprint_of,
    load_or_create_certificate,
    san_targets,
    server_ssl_context,
)
from askvault.errors import ConfigError
from tests.api.remote.tls import peer_certificate

T0 = datetime(2030, 1, 15, 12, 0, tzinfo=UTC)
FINGERPRINT = re.compile(r"(?:[0-9A-F]{2}:){31}[0-9A-F]{2}")


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _x509(made: RemoteCertificate) -> x509.Certificate:
    return x509.load_pem_x509_certificate(made.cert_path.read_bytes())


def _san(made: RemoteCertificate) -> tuple[list[str], list[str]]:
    san = _x509(made).extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    return [str(ip) for ip in san.get_values_for_type(x509.IPAddress)], san.get_values_for_type(x509.DNSName)


def test_makes_a_private_self_signed_certificate(tmp_path: Path) -> None:
    folder = tmp_path / "data" / "remote"
    made = load_or_create_certificate(folder, ["192.168.1.5"], now=T0)
    assert made.cert_path == folder / CERT_FILE
    assert made.key_path == folder / KEY_FILE
    assert _mode(folder) == 0o700
    assert _mode(made.key_path) == 0o600
    assert _mode(made.cert_path) == 0o600
    assert made.self_signed
    cert = _x509(made)
    assert made.der == cert.public_bytes(serialization.Encoding.DER)
    assert cert.subject.get_attributes_for_oid(NameOID.COMMON_NAME)[0].value == "Ask Vault sidecar"
    assert cert.issuer == cert.subject
    public = cert.public_key()
    assert isinstance(public, ec.EllipticCurvePublicKey)
    assert public.curve.name == "secp256r1"
    assert isinstance(cert.signature_hash_algorithm, hashes.SHA256)
    assert cert.not_valid_before_utc == T0 - timedelta(hours=1)
    assert cert.not_valid_after_utc - cert.not_valid_before_utc == timedelta(days=825)
    assert made.not_after == cert.not_valid_after_utc
    assert _san(made) == (["192.168.1.5"], ["localhost"])
    extensions = cert.extensions
    basic = extensions.get_extension_for_class(x509.BasicConstraints)
    assert basic.critical
    assert not basic.value.ca
    usage = extensions.get_extension_for_class(x509.KeyUsage).value
    assert usage.digital_signature
    assert not usage.key_cert_sign
    assert list(extensions.get_extension_for_class(x509.ExtendedKeyUsage).value) == [ExtendedKeyUsageOID.SERVER_AUTH]
    assert sorted(path.name for path in folder.iterdir()) == ["cert.pem", "cert.pem.lock", "key.pem"]


def test_fingerprint_is_the_sha256_of_the_der_as_openssl_shows_it(tmp_path: Path) -> None:
    made = load_or_create_certificate(tmp_path, ["127.0.0.1"])
    assert FINGERPRINT.fullmatch(made.fingerprint)
    assert made.fingerprint == _x509(made).fingerprint(hashes.SHA256()).hex(":").upper()


@pytest.mark.parametrize(
    ("der", "expected"),
    [
        (b"", "E3:B0:C4:42:98:FC:1C:14:9A:FB:F4:C8:99:6F:B9:24:27:AE:41:E4:64:9B:93:4C:A4:95:99:1B:78:52:B8:55"),
        (b"abc", hashlib.sha256(b"abc").hexdigest().upper()),
    ],
    ids=["empty", "abc"],
)
def test_fingerprint_of(der: bytes, expected: str) -> None:
    assert fingerprint_of(der).replace(":", "") == expected.replace(":", "")
    assert FINGERPRINT.fullmatch(fingerprint_of(der))


@pytest.mark.parametrize(
    ("hosts", "ips", "names"),
    [
        (["192.168.1.5"], ["192.168.1.5"], ["localhost"]),
        (["0.0.0.0"], [], ["localhost"]),
        (["::"], [], ["localhost"]),
        (["[::]"], [], ["localhost"]),
        (["[fd7a:115c:a1e0::1]"], ["fd7a:115c:a1e0::1"], ["localhost"]),
        (["fe80::1%eth0"], ["fe80::1"], ["localhost"]),
        (["100.64.0.1", "desk.tailnet-1234.ts.net"], ["100.64.0.1"], ["localhost", "desk.tailnet-1234.ts.net"]),
        (["Desk.Example.", "desk.example"], [], ["localhost", "desk.example"]),
        (["LOCALHOST", "127.0.0.1", "127.0.0.1"], ["127.0.0.1"], ["localhost"]),
        (["bücher.example"], [], ["localhost", "xn--bcher-kva.example"]),
    ],
    ids=["ipv4", "any-v4", "any-v6", "any-v6-bracketed", "ipv6", "zone", "tailnet", "case-dot", "dupes", "idn"],
)
def test_san_names_the_hosts(hosts: list[str], ips: list[str], names: list[str]) -> None:
    got_ips, got_names = san_targets(hosts)
    assert [str(ip) for ip in got_ips] == ips
    assert got_names == names


def test_certificate_san_holds_them(tmp_path: Path) -> None:
    made = load_or_create_certificate(tmp_path, ["0.0.0.0", "[fd7a::1]", "desk.ts.net"])
    assert _san(made) == (["fd7a::1"], ["localhost", "desk.ts.net"])


@pytest.mark.parametrize("host", ["", "bad name", "-desk.example", "desk_1.example", "*.example", "a" * 64 + ".x"])
def test_refuses_what_is_not_a_host(tmp_path: Path, host: str) -> None:
    with pytest.raises(ConfigError, match="neither an IP address nor a DNS name"):
        load_or_create_certificate(tmp_path, [host])


def test_keeps_the_certificate(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    first = load_or_create_certificate(tmp_path, ["192.168.1.5", "desk.ts.net"], now=T0)
    with caplog.at_level(logging.INFO, logger="askvault.api"):
        again = load_or_create_certificate(tmp_path, ["192.168.1.5", "desk.ts.net"], now=T0 + timedelta(days=10))
        # A command that knows fewer hosts than the server (`askvault pair`) keeps the server's certificate.
        fewer = load_or_create_certificate(tmp_path, ["desk.ts.net"], now=T0 + timedelta(days=10))
    assert again == first
    assert fewer == first
    assert caplog.records == []


@pytest.mark.parametrize(
    ("later", "kept"),
    [(timedelta(days=794), True), (timedelta(days=796), False), (timedelta(days=900), False)],
    ids=["31-days-left", "29-days-left", "expired"],
)
def test_made_again_near_its_end(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, later: timedelta, kept: bool
) -> None:
    first = load_or_create_certificate(tmp_path, ["192.168.1.5"], now=T0)
    with caplog.at_level(logging.WARNING, logger="askvault.api"):
        second = load_or_create_certificate(tmp_path, ["192.168.1.5"], now=T0 + later)
    assert (second.fingerprint == first.fingerprint) is kept
    if not kept:
        assert second.not_after == T0 + later - timedelta(hours=1) + timedelta(days=825)
        assert "expires on" in caplog.text
        assert "pair again" in caplog.text
        assert second.fingerprint in caplog.text


def test_made_again_when_the_clock_went_back(tmp_path: Path) -> None:
    first = load_or_create_certificate(tmp_path, ["192.168.1.5"], now=T0)
    assert load_or_create_certificate(tmp_path, ["192.168.1.5"], now=T0 - timedelta(days=2)) != first


def test_made_again_for_a_new_host(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    first = load_or_create_certificate(tmp_path, ["192.168.1.5"])
    with caplog.at_level(logging.WARNING, logger="askvault.api"):
        second = load_or_create_certificate(tmp_path, ["192.168.1.5", "desk.ts.net"])
    assert second.fingerprint != first.fingerprint
    assert _san(second) == (["192.168.1.5"], ["localhost", "desk.ts.net"])
    assert "does not name desk.ts.net" in caplog.text
    assert "paired devices must pair again" in caplog.text
    third = load_or_create_certificate(tmp_path, ["10.0.0.2", "desk.ts.net"])
    assert _san(third) == (["10.0.0.2"], ["localhost", "desk.ts.net"])


def _garbage_cert(folder: Path) -> None:
    (folder / CERT_FILE).write_bytes(b"not a certificate")


def _foreign_key(folder: Path) -> None:
    other = load_or_create_certificate(folder / "other", ["127.0.0.1"])
    (folder / KEY_FILE).write_bytes(other.key_path.read_bytes())


def _loose_key(folder: Path) -> None:
    (folder / KEY_FILE).chmod(0o644)


def _no_key(folder: Path) -> None:
    (folder / KEY_FILE).unlink()


def _no_cert(folder: Path) -> None:
    (folder / CERT_FILE).unlink()


@pytest.mark.parametrize(
    "spoil",
    [_garbage_cert, _foreign_key, _loose_key, _no_key, _no_cert],
    ids=["garbage-cert", "foreign-key", "key-readable-by-others", "no-key", "no-cert"],
)
def test_made_again_when_its_files_are_unusable(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, spoil: Callable[[Path], None]
) -> None:
    first = load_or_create_certificate(tmp_path, ["192.168.1.5"])
    spoil(tmp_path)
    with caplog.at_level(logging.WARNING, logger="askvault.api"):
        second = load_or_create_certificate(tmp_path, ["192.168.1.5"])
    assert second.fingerprint != first.fingerprint
    assert "paired devices must pair again" in caplog.text
    assert _mode(second.key_path) == 0o600
    assert load_or_create_certificate(tmp_path, ["192.168.1.5"]) == second


@pytest.mark.parametrize(
    ("hosts", "server_hostname"),
    [(["127.0.0.1"], "127.0.0.1"), (["127.0.0.1"], "localhost"), (["0.0.0.0", "desk.ts.net"], "desk.ts.net")],
    ids=["ip", "localhost", "name"],
)
def test_tls_handshake_with_the_certificate(tmp_path: Path, hosts: list[str], server_hostname: str) -> None:
    made = load_or_create_certificate(tmp_path, hosts)
    context = server_ssl_context(made)
    assert context.minimum_version == ssl.TLSVersion.TLSv1_2
    der = peer_certificate(context, made.cert_path, server_hostname)
    assert der == made.der
    assert fingerprint_of(der) == made.fingerprint


def test_a_client_refuses_a_host_the_certificate_does_not_name(tmp_path: Path) -> None:
    made = load_or_create_certificate(tmp_path, ["desk.ts.net"])
    with pytest.raises(ssl.SSLCertVerificationError):
        peer_certificate(server_ssl_context(made), made.cert_path, "127.0.0.1")


def test_ssl_context_says_which_certificate_is_unusable(tmp_path: Path) -> None:
    made = load_or_create_certificate(tmp_path, ["127.0.0.1"])
    made.key_path.unlink()
    with pytest.raises(ConfigError, match="cannot be used"):
        server_ssl_context(made)
