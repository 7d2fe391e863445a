"""--remote-cert/--remote-key: a good pair (or chain) loads and serves; each mistake is one clear sentence."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.x509.oid import NameOID

from askvault.api.remote.certificate import fingerprint_of, load_user_certificate, server_ssl_context
from askvault.errors import ConfigError
from tests.api.remote.tls import peer_certificate

NOW = datetime.now(UTC)
PrivateKey = ec.EllipticCurvePrivateKey | rsa.RSAPrivateKey
_Arrange = Callable[[Path, bytes, bytes], tuple[Path, Path]]
"""Given the folder, a good certificate and its key (PEM), writes a broken pair and says where."""


def _name(common: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])


def _cert(
    key: PrivateKey,
    *,
    subject: str = "desk.ts.net",
    issuer: tuple[str, PrivateKey] | None = None,
    ca: bool = False,
    not_after: datetime = NOW + timedelta(days=90),
) -> x509.Certificate:
    issuer_name, issuer_key = issuer if issuer is not None else (subject, key)
    builder = (
        x509.CertificateBuilder()
        .subject_name(_name(subject))
        .issuer_name(_name(issuer_name))
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(NOW - timedelta(days=1))
        .not_valid_after(not_after)
        .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
    )
    if not ca:
        builder = builder.add_extension(x509.SubjectAlternativeName([x509.DNSName(subject)]), critical=False)
    return builder.sign(issuer_key, hashes.SHA256())


def _pem(*certs: x509.Certificate) -> bytes:
    return b"".join(cert.public_bytes(serialization.Encoding.PEM) for cert in certs)


def _key_pem(key: PrivateKey, password: bytes | None = None) -> bytes:
    encryption: serialization.KeySerializationEncryption = (
        serialization.NoEncryption() if password is None else serialization.BestAvailableEncryption(password)
    )
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, encryption)


def _write(path: Path, data: bytes, mode: int = 0o600) -> Path:
    path.write_bytes(data)
    path.chmod(mode)
    return path


def test_loads_a_self_signed_pair(tmp_path: Path) -> None:
    key = ec.generate_private_key(ec.SECP256R1())
    cert = _cert(key)
    cert_file, key_file = _write(tmp_path / "c.pem", _pem(cert)), _write(tmp_path / "k.pem", _key_pem(key))
    loaded = load_user_certificate(cert_file, key_file)
    assert loaded.cert_path == cert_file
    assert loaded.key_path == key_file
    assert loaded.der == cert.public_bytes(serialization.Encoding.DER)
    assert loaded.fingerprint == fingerprint_of(loaded.der)
    assert loaded.not_after == cert.not_valid_after_utc
    assert loaded.self_signed


def test_a_chain_serves_its_leaf(tmp_path: Path) -> None:
    """As `tailscale cert` writes it: the leaf, then the issuer, in one file; an RSA key here for variety."""
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = _cert(ca_key, subject="Test CA", ca=True)
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    leaf = _cert(key, subject="desk.ts.net", issuer=("Test CA", ca_key))
    cert_file, key_file = _write(tmp_path / "c.pem", _pem(leaf, ca)), _write(tmp_path / "k.pem", _key_pem(key))
    loaded = load_user_certificate(cert_file, key_file)
    assert not loaded.self_signed
    assert loaded.der == leaf.public_bytes(serialization.Encoding.DER)
    ca_file = _write(tmp_path / "ca.pem", _pem(ca))
    assert peer_certificate(server_ssl_context(loaded), ca_file, "desk.ts.net") == loaded.der


def test_warns_about_a_key_others_can_read(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    key = ec.generate_private_key(ec.SECP256R1())
    cert_file = _write(tmp_path / "c.pem", _pem(_cert(key)), 0o644)
    key_file = _write(tmp_path / "k.pem", _key_pem(key), 0o644)
    with caplog.at_level(logging.WARNING, logger="askvault.api"):
        load_user_certificate(cert_file, key_file)
    assert "other users can read or change" in caplog.text


def _missing_cert(tmp_path: Path, cert: bytes, key: bytes) -> tuple[Path, Path]:
    return tmp_path / "nope.pem", _write(tmp_path / "k.pem", key)


def _missing_key(tmp_path: Path, cert: bytes, key: bytes) -> tuple[Path, Path]:
    return _write(tmp_path / "c.pem", cert), tmp_path / "nope.pem"


def _garbage_cert(tmp_path: Path, cert: bytes, key: bytes) -> tuple[Path, Path]:
    return _write(tmp_path / "c.pem", b"hello\n"), _write(tmp_path / "k.pem", key)


def _key_as_cert(tmp_path: Path, cert: bytes, key: bytes) -> tuple[Path, Path]:
    return _write(tmp_path / "c.pem", key), _write(tmp_path / "k.pem", key)


def _garbage_key(tmp_path: Path, cert: bytes, key: bytes) -> tuple[Path, Path]:
    return _write(tmp_path / "c.pem", cert), _write(tmp_path / "k.pem", b"\x00\x01garbage")


def _cert_as_key(tmp_path: Path, cert: bytes, key: bytes) -> tuple[Path, Path]:
    return _write(tmp_path / "c.pem", cert), _write(tmp_path / "k.pem", cert)


def _other_key(tmp_path: Path, cert: bytes, key: bytes) -> tuple[Path, Path]:
    other = _key_pem(ec.generate_private_key(ec.SECP256R1()))
    return _write(tmp_path / "c.pem", cert), _write(tmp_path / "k.pem", other)


def _encrypted_key(tmp_path: Path, cert: bytes, key: bytes) -> tuple[Path, Path]:
    loaded = serialization.load_pem_private_key(key, password=None)
    assert isinstance(loaded, ec.EllipticCurvePrivateKey)
    return _write(tmp_path / "c.pem", cert), _write(tmp_path / "k.pem", _key_pem(loaded, b"secret"))


def _folder_as_cert(tmp_path: Path, cert: bytes, key: bytes) -> tuple[Path, Path]:
    return tmp_path, _write(tmp_path / "k.pem", key)


@pytest.mark.parametrize(
    ("arrange", "message"),
    [
        (_missing_cert, r"^--remote-cert: .*nope\.pem does not exist$"),
        (_missing_key, r"^--remote-key: .*nope\.pem does not exist$"),
        (_folder_as_cert, r"^--remote-cert: .* cannot be read"),
        (_garbage_cert, r"^--remote-cert: .*c\.pem is not a PEM certificate$"),
        (_key_as_cert, r"^--remote-cert: .*c\.pem is not a PEM certificate$"),
        (_garbage_key, r"^--remote-key: .*k\.pem is not a PEM private key$"),
        (_cert_as_key, r"^--remote-key: .*k\.pem is not a PEM private key$"),
        (_other_key, r"^--remote-key: .*k\.pem is not the key of the certificate in .*c\.pem$"),
        (_encrypted_key, r"^--remote-key: .*k\.pem is encrypted; give the key without a passphrase$"),
    ],
    ids=[
        "missing-cert",
        "missing-key",
        "folder-as-cert",
        "garbage-cert",
        "key-as-cert",
        "garbage-key",
        "cert-as-key",
        "key-does-not-match",
        "encrypted-key",
    ],
)
def test_refuses_with_one_sentence(tmp_path: Path, arrange: _Arrange, message: str) -> None:
    key = ec.generate_private_key(ec.SECP256R1())
    cert_file, key_file = arrange(tmp_path, _pem(_cert(key)), _key_pem(key))
    with pytest.raises(ConfigError, match=message):
        load_user_certificate(cert_file, key_file)


def test_refuses_an_expired_certificate(tmp_path: Path) -> None:
    key = ec.generate_private_key(ec.SECP256R1())
    cert = _cert(key, not_after=datetime(2031, 3, 1, tzinfo=UTC))
    cert_file, key_file = _write(tmp_path / "c.pem", _pem(cert)), _write(tmp_path / "k.pem", _key_pem(key))
    later = datetime(2031, 3, 2, tzinfo=UTC)
    with pytest.raises(ConfigError, match=r"expired on 2031-03-01; renew it \(for example with `tailscale cert`\)$"):
        load_user_certificate(cert_file, key_file, now=later)
    kept = load_user_certificate(cert_file, key_file, now=later - timedelta(days=2))
    assert kept.der == cert.public_bytes(serialization.Encoding.DER)
