"""Paired devices: tokens kept as hashes, names, revocation seen by another process, last-used times, bad files."""

from __future__ import annotations

import hashlib
import json
import logging
import stat
from datetime import timedelta
from pathlib import Path

import pytest

from askvault.api.remote.devices import DEVICES_FILE, Device, DeviceStore
from askvault.errors import BadRequest, ConfigError
from tests.api.remote.clock import T0, Clock


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "remote" / DEVICES_FILE


@pytest.fixture
def clock() -> Clock:
    return Clock()


def _file(path: Path) -> dict[str, object]:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def _stored(path: Path) -> list[dict[str, object]]:
    devices = _file(path)["devices"]
    assert isinstance(devices, list)
    return devices


def test_add_keeps_only_the_hash(path: Path, clock: Clock) -> None:
    device, token = DeviceStore(path, clock).add("  Pixel 8 ")
    assert device == Device(name="Pixel 8", paired=T0, last_used=None)
    assert len(token) >= 43
    assert token not in path.read_text(encoding="utf-8")
    assert _file(path) == {
        "version": 1,
        "devices": [
            {
                "name": "Pixel 8",
                "token_sha256": hashlib.sha256(token.encode()).hexdigest(),
                "paired": "2030-01-15T12:00:00Z",
                "last_used": None,
            }
        ],
    }
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700


def test_authenticate(path: Path, clock: Clock) -> None:
    store = DeviceStore(path, clock)
    _, phone = store.add("Phone")
    _, laptop = store.add("Laptop")
    assert phone != laptop
    authenticated = store.authenticate(laptop)
    assert authenticated is not None
    assert authenticated.name == "Laptop"
    assert authenticated.last_used == T0
    for wrong in ["", phone[:-1], phone + "x", laptop.upper(), "\udcff", hashlib.sha256(phone.encode()).hexdigest()]:
        assert store.authenticate(wrong) is None


def test_no_file_means_no_devices(path: Path) -> None:
    store = DeviceStore(path)
    assert store.authenticate("anything") is None
    assert store.devices() == []
    assert not store.revoke("Phone")
    store.flush()
    assert not path.exists()


def test_taken_names_get_a_number(path: Path) -> None:
    store = DeviceStore(path)
    names = [store.add(name)[0].name for name in ["Pixel 8", "Pixel 8", "pixel 8", "Pixel 8 (2)", "Pixel 8"]]
    assert names == ["Pixel 8", "Pixel 8 (2)", "pixel 8 (3)", "Pixel 8 (2) (2)", "Pixel 8 (4)"]
    long = "x" * 64
    assert store.add(long)[0].name == long
    assert store.add(long)[0].name == "x" * 60 + " (2)"
    assert [device.name for device in store.devices()] == [*names, long, "x" * 60 + " (2)"]


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "1 to 64 characters"),
        ("   \t ", "1 to 64 characters"),
        ("x" * 65, "1 to 64 characters"),
        ("Pixel\n8", "control characters"),
        ("Pixel\x008", "control characters"),
        ("Pixel\x1b[31m", "control characters"),
        ("Pixel\u20288", "control characters"),
        ("\u202eevil", "control characters"),
    ],
    ids=["empty", "blank", "too-long", "newline", "nul", "escape", "line-separator", "bidi-override"],
)
def test_refuses_bad_names(path: Path, name: str, message: str) -> None:
    with pytest.raises(BadRequest, match=message):
        DeviceStore(path).add(name)
    assert not path.exists()


@pytest.mark.parametrize(
    "name",
    ["x", "x" * 64, " " * 10 + "x" * 64 + " ", "Ana’s iPhone", "👩‍💻 laptop", "Büro-PC (2)"],
    ids=["one", "sixty-four", "trimmed-to-64", "apostrophe", "emoji-zwj", "umlaut"],
)
def test_accepts_names(path: Path, name: str) -> None:
    assert DeviceStore(path).add(name)[0].name == name.strip()


def test_revoke_seen_by_the_server(path: Path) -> None:
    server, cli = DeviceStore(path), DeviceStore(path)
    _, token = cli.add("Phone")
    assert server.authenticate(token) is not None
    _, other = cli.add("Tablet")
    assert server.authenticate(other) is not None  # a device paired after the server started
    assert cli.revoke("phone")
    assert server.authenticate(token) is None
    assert server.authenticate(other) is not None
    assert not cli.revoke("Phone")
    assert [device.name for device in server.devices()] == ["Tablet"]


def test_revoke_then_pair_again_with_the_same_name(path: Path) -> None:
    server, cli = DeviceStore(path), DeviceStore(path)
    _, old = cli.add("Phone")
    assert server.authenticate(old) is not None
    cli.revoke("Phone")
    _, new = cli.add("Phone")
    assert server.authenticate(old) is None
    authenticated = server.authenticate(new)
    assert authenticated is not None
    assert authenticated.name == "Phone"


def test_last_used_written_once_a_minute(path: Path, clock: Clock) -> None:
    store = DeviceStore(path, clock)
    _, token = store.add("Phone")
    clock.advance(seconds=5)
    store.authenticate(token)
    assert _stored(path)[0]["last_used"] == "2030-01-15T12:00:05Z"  # the first use is written at once
    clock.advance(seconds=30)
    seen = store.authenticate(token)
    assert seen is not None
    assert seen.last_used == T0 + timedelta(seconds=35)
    assert _stored(path)[0]["last_used"] == "2030-01-15T12:00:05Z"
    assert [device.last_used for device in store.devices()] == [T0 + timedelta(seconds=35)]
    clock.advance(seconds=30)
    store.authenticate(token)
    assert _stored(path)[0]["last_used"] == "2030-01-15T12:01:05Z"
    clock.advance(seconds=10)
    store.authenticate(token)
    store.flush()
    assert _stored(path)[0]["last_used"] == "2030-01-15T12:01:15Z"
    assert DeviceStore(path).devices()[0].last_used == T0 + timedelta(seconds=75)


def test_flush_does_not_bring_back_a_revoked_device(path: Path, clock: Clock) -> None:
    server, cli = DeviceStore(path, clock), DeviceStore(path, clock)
    _, phone = cli.add("Phone")
    _, tablet = cli.add("Tablet")
    server.authenticate(phone)
    clock.advance(seconds=10)
    server.authenticate(phone)
    server.authenticate(tablet)
    cli.revoke("Phone")
    server.flush()
    assert [entry["name"] for entry in _stored(path)] == ["Tablet"]
    assert _stored(path)[0]["last_used"] == "2030-01-15T12:00:10Z"


@pytest.mark.parametrize(
    "content",
    [
        b"not json",
        b"\xff\xfe",
        b"[]",
        b'{"version": 2, "devices": []}',
        b'{"version": 1, "devices": [{"name": "Phone"}]}',
        b'{"version": 1, "devices": [{"name": "P", "token_sha256": "abc", "paired": "2030-01-01T00:00:00Z"}]}',
        b'{"version": 1, "devices": [{"name": "P", "token_sha256": "' + b"a" * 64 + b'", "paired": "yesterday"}]}',
    ],
    ids=["not-json", "not-utf8", "list", "version-2", "no-hash", "short-hash", "bad-time"],
)
def test_a_corrupt_file_refuses_tokens_and_is_not_overwritten(
    path: Path, caplog: pytest.LogCaptureFixture, content: bytes
) -> None:
    server = DeviceStore(path)
    _, token = server.add("Phone")
    assert server.authenticate(token) is not None
    path.write_bytes(content)
    with caplog.at_level(logging.WARNING, logger="askvault.api"):
        assert server.authenticate(token) is None
        assert server.authenticate(token) is None
    assert caplog.text.count("cannot be read") == 1  # once per change of the file, not once per request
    for change in (lambda: server.add("Tablet"), lambda: server.revoke("Phone"), server.devices):
        with pytest.raises(ConfigError, match=r"is unreadable; delete it and pair your devices again$"):
            change()
    assert path.read_bytes() == content
    path.unlink()
    _, fresh = server.add("Phone")
    assert server.authenticate(fresh) is not None


def test_flush_leaves_a_corrupt_file_alone(path: Path, clock: Clock) -> None:
    store = DeviceStore(path, clock)
    _, token = store.add("Phone")
    store.authenticate(token)
    clock.advance(seconds=10)
    store.authenticate(token)
    path.write_bytes(b"garbage")
    store.flush()
    assert path.read_bytes() == b"garbage"


def test_a_file_others_may_read_or_write_is_not_trusted(path: Path) -> None:
    """Paired devices come only from a file of ours that only we can touch: one opened to others could have
    been planted or edited (the same rule as the token file)."""
    server = DeviceStore(path)
    _, token = server.add("Phone")
    path.chmod(0o644)
    assert DeviceStore(path).authenticate(token) is None
    path.chmod(0o600)
    assert DeviceStore(path).authenticate(token) is not None
