"""The remote listener's TLS certificate: a self-signed one kept in the remote folder, or the user's own."""

from __future__ import annotations

import hashlib
import ipaddress
import logging
import re
import ssl
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Protocol

from cryptography import x509
from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from askvault.api.private_files import POSIX, ensure_private_dir, read_private, write_private
from askvault.api.remote.state_file import locked
from askvault.errors import ConfigError

log = logging.getLogger("askvault.api")

CERT_FILE = "cert.pem"
KEY_FILE = "key.pem"
COMMON_NAME = "Ask Vault sidecar"
VALIDITY = timedelta(days=825)
"""Apple refuses TLS server certificates valid for longer, even ones the user trusts by hand."""
RENEW_BEFORE = timedelta(days=30)
BACKDATE = timedelta(hours=1)
"""Devices whose clock runs a little behind must not see a certificate that is not valid yet."""
_MAX_PEM = 1 << 20
_LABEL = re.compile(r"[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?")
IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


class _PublicKey(Protocol):
    """What every public key type in `cryptography` offers: enough to compare a key with a certificate's."""

    def public_bytes(self, encoding: serialization.Encoding, format: serialization.PublicFormat) -> bytes: ...


@dataclass(frozen=True)
class RemoteCertificate:
    cert_path: Path
    key_path: Path
    fingerprint: str
    """SHA-256 of `der`, as `AB:CD:...`."""
    der: bytes
    """The leaf certificate (the first in a chain file)."""
    not_after: datetime
    self_signed: bool


def fingerprint_of(der: bytes) -> str:
    """32 upper-case hex pairs joined by ':', as browsers and `openssl x509 -fingerprint -sha256` show it."""
    return ":".join(f"{byte:02X}" for byte in hashlib.sha256(der).digest())


def server_ssl_context(cert: RemoteCertificate) -> ssl.SSLContext:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        context.load_cert_chain(cert.cert_path, cert.key_path)
    except (OSError, ssl.SSLError) as exc:
        raise ConfigError(f"the remote certificate {cert.cert_path} cannot be used: {exc}") from None
    return context


def load_or_create_certificate(folder: Path, hosts: Sequence[str], *, now: datetime | None = None) -> RemoteCertificate:
    """The self-signed certificate in `folder`, made (again) when missing, unusable, near its end or when it does
    not name every host in `hosts` (IP literals and DNS names; 0.0.0.0 and :: are skipped). Extra names in it are
    fine, so a command that knows fewer hosts than the server never replaces the server's certificate."""
    moment = (now or datetime.now(UTC)).astimezone(UTC)
    ips, names = san_targets(hosts)
    ensure_private_dir(folder)
    cert_path, key_path = folder / CERT_FILE, folder / KEY_FILE
    # Under a lock, so `serve` and `askvault pair` starting together cannot make two different certificates.
    with locked(cert_path):
        existing = _load_own(cert_path, key_path)
        if existing is not None:
            reason = _remake_reason(existing, ips, names, moment)
            if reason is None:
                return _describe(cert_path, key_path, existing, self_signed=True)
        elif cert_path.exists() or key_path.exists():
            reason = "its files are unreadable, readable by others or do not match"
        else:
            reason = None
        cert = _make(cert_path, key_path, ips, names, moment)
    made = _describe(cert_path, key_path, cert, self_signed=True)
    if reason is None:
        log.info("made a self-signed certificate for the remote listener (SHA-256 %s)", made.fingerprint)
    else:
        log.warning(
            "the remote listener's certificate was made again (%s); its fingerprint changed to %s, so paired "
            "devices must pair again",
            reason,
            made.fingerprint,
        )
    return made


def load_user_certificate(cert_file: Path, key_file: Path, *, now: datetime | None = None) -> RemoteCertificate:
    """The certificate given with --remote-cert/--remote-key, checked so that a mistake is one sentence at start
    rather than a TLS failure on the phone."""
    moment = (now or datetime.now(UTC)).astimezone(UTC)
    cert_pem = _read_user_file(cert_file, "--remote-cert")
    key_pem = _read_user_file(key_file, "--remote-key")
    try:
        chain = x509.load_pem_x509_certificates(cert_pem)
    except ValueError:
        raise ConfigError(f"--remote-cert: {cert_file} is not a PEM certificate") from None
    leaf = chain[0]
    try:
        key = serialization.load_pem_private_key(key_pem, password=None)
    except TypeError:
        raise ConfigError(f"--remote-key: {key_file} is encrypted; give the key without a passphrase") from None
    except (ValueError, UnsupportedAlgorithm):
        raise ConfigError(f"--remote-key: {key_file} is not a PEM private key") from None
    if _public_der(key.public_key()) != _public_der(leaf.public_key()):
        raise ConfigError(f"--remote-key: {key_file} is not the key of the certificate in {cert_file}")
    if leaf.not_valid_after_utc <= moment:
        raise ConfigError(
            f"--remote-cert: {cert_file} expired on {leaf.not_valid_after_utc:%Y-%m-%d}; renew it "
            "(for example with `tailscale cert`)"
        )
    if POSIX and stat.S_IMODE(key_file.stat().st_mode) & 0o077:
        # Only a warning: the user chose the file, and `tailscale cert` run with sudo leaves it as root made it.
        log.warning("--remote-key: other users can read or change %s; only its owner should", key_file)
    return _describe(cert_file, key_file, leaf, self_signed=leaf.issuer == leaf.subject)


def san_targets(hosts: Sequence[str]) -> tuple[list[IPAddress], list[str]]:
    """The IP addresses and DNS names a certificate for `hosts` must name, `localhost` always among the names."""
    ips: list[IPAddress] = []
    names: list[str] = ["localhost"]
    for host in hosts:
        text = host.strip()
        if text.startswith("[") and text.endswith("]"):
            text = text[1:-1]
        try:
            ip = ipaddress.ip_address(text.split("%", 1)[0])
        except ValueError:
            name = _dns_name(text)
            if name not in names:
                names.append(name)
            continue
        if not ip.is_unspecified and ip not in ips:
            ips.append(ip)
    return ips, names


def _dns_name(text: str) -> str:
    try:
        name = text.rstrip(".").encode("idna").decode("ascii").lower()
    except UnicodeError:
        name = ""
    if not name or len(name) > 253 or not all(_LABEL.fullmatch(label) for label in name.split(".")):
        # No flag named: the hosts come from both --remote and --remote-name.
        raise ConfigError(f"the remote certificate cannot name {text!r}: it is neither an IP address nor a DNS name")
    return name


def _read_user_file(path: Path, flag: str) -> bytes:
    try:
        with path.open("rb") as handle:
            return handle.read(_MAX_PEM)
    except FileNotFoundError:
        raise ConfigError(f"{flag}: {path} does not exist") from None
    except OSError as exc:
        raise ConfigError(f"{flag}: {path} cannot be read ({exc.strerror or exc})") from None


def _load_own(cert_path: Path, key_path: Path) -> x509.Certificate | None:
    """Our certificate if both files read, parse and belong together; None otherwise. A key file others can read
    counts as unreadable: it has to be treated as leaked."""
    key_pem = read_private(key_path, _MAX_PEM)
    try:
        cert_pem = cert_path.read_bytes()[:_MAX_PEM]
        if key_pem is None:
            return None
        cert = x509.load_pem_x509_certificate(cert_pem)
        key = serialization.load_pem_private_key(key_pem, password=None)
    except (OSError, ValueError, TypeError, UnsupportedAlgorithm):
        return None
    return cert if _public_der(key.public_key()) == _public_der(cert.public_key()) else None


def _remake_reason(cert: x509.Certificate, ips: list[IPAddress], names: list[str], now: datetime) -> str | None:
    if cert.not_valid_after_utc - now <= RENEW_BEFORE:
        return f"it expires on {cert.not_valid_after_utc:%Y-%m-%d}"
    if cert.not_valid_before_utc > now:
        return "it is not valid yet: the clock went back"
    try:
        san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except x509.ExtensionNotFound:
        return "it names no hosts"
    have_ips = set(san.get_values_for_type(x509.IPAddress))
    have_names = {name.lower() for name in san.get_values_for_type(x509.DNSName)}
    for ip in ips:
        if ip not in have_ips:
            return f"it does not name {ip}"
    for name in names:
        if name not in have_names:
            return f"it does not name {name}"
    return None


def _make(cert_path: Path, key_path: Path, ips: list[IPAddress], names: list[str], now: datetime) -> x509.Certificate:
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, COMMON_NAME)])
    start = now - BACKDATE
    alt_names: list[x509.GeneralName] = [x509.IPAddress(ip) for ip in ips]
    alt_names += [x509.DNSName(name) for name in names]
    public = key.public_key()
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(public)
        .serial_number(x509.random_serial_number())
        .not_valid_before(start)
        # From the backdated start, so the whole span stays within Apple's 825 days.
        .not_valid_after(start + VALIDITY)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=False,
                crl_sign=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.SubjectAlternativeName(alt_names), critical=False)
        # Key identifiers: strict verifiers (Python 3.13's default context) look for them.
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(public), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(public), critical=False)
        .sign(key, hashes.SHA256())
    )
    key_pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    # The key first: a crash between the two writes leaves a pair that does not match, which is made again.
    write_private(key_path, key_pem)
    write_private(cert_path, cert.public_bytes(serialization.Encoding.PEM))
    return cert


def _describe(cert_path: Path, key_path: Path, cert: x509.Certificate, *, self_signed: bool) -> RemoteCertificate:
    der = cert.public_bytes(serialization.Encoding.DER)
    return RemoteCertificate(
        cert_path=cert_path,
        key_path=key_path,
        fingerprint=fingerprint_of(der),
        der=der,
        not_after=cert.not_valid_after_utc,
        self_signed=self_signed,
    )


def _public_der(public: _PublicKey) -> bytes:
    return public.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)


def unnamed_hosts(cert: RemoteCertificate, hosts: Sequence[str]) -> list[str]:
    """The hosts (IP literals or DNS names) the certificate does not name; a `*.` name covers one label."""
    parsed = x509.load_der_x509_certificate(cert.der)
    try:
        san = parsed.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except x509.ExtensionNotFound:
        return list(hosts)
    have_ips = set(san.get_values_for_type(x509.IPAddress))
    have_names = {name.lower().rstrip(".") for name in san.get_values_for_type(x509.DNSName)}
    missing = []
    for host in hosts:
        try:
            if ipaddress.ip_address(host.strip("[]")) in have_ips:
                continue
        except ValueError:
            name = host.lower().rstrip(".")
            parent = name.partition(".")[2]
            if name in have_names or (parent and f"*.{parent}" in have_names):
                continue
        missing.append(host)
    return missing
