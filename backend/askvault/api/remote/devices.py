"""Paired devices in `devices.json`: each device's token kept only as its SHA-256, shared by the CLI and the server."""

from __future__ import annotations

import hashlib
import hmac
import logging
import re
import secrets
import threading
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from pathlib import Path

from askvault.api.remote.state_file import Stamp, Unreadable, iso, locked, parse_iso, read_json, stamp_of, utc_now
from askvault.api.remote.state_file import write_json as _write_json
from askvault.errors import BadRequest, ConfigError

log = logging.getLogger("askvault.api")

DEVICES_FILE = "devices.json"
MAX_NAME = 64
PERSIST_EVERY = timedelta(seconds=60)
"""`last_used` is for the user's list, not for security: one write a minute at most, not one per request."""
_HEX64 = re.compile(r"[0-9a-f]{64}")
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""They reorder what a terminal shows, so a name could pose as another in `askvault devices`."""


@dataclass(frozen=True)
class Device:
    name: str
    paired: datetime
    last_used: datetime | None


@dataclass(frozen=True)
class _Entry:
    device: Device
    token_sha256: str


class DeviceStore:
    """`devices.json` as the server and the CLI see it. Every change is a read-modify-write under the file's lock;
    the server re-reads the file whenever it changed, so `askvault revoke` takes effect on the next request."""

    def __init__(self, path: Path, clock: Callable[[], datetime] = utc_now) -> None:
        self._path = path
        self._clock = clock
        self._guard = threading.RLock()
        self._entries: list[_Entry] = []
        self._stamp: Stamp | None = None
        self._loaded = False
        self._seen: dict[str, datetime] = {}
        """token_sha256 -> the last request it made, not yet written."""
        self._flushed_at: datetime | None = None

    def add(self, name: str) -> tuple[Device, str]:
        """Pairs a device; returns it and its token, which exists in plain text only in this return value."""
        wanted = valid_name(name)
        token = secrets.token_urlsafe(32)
        with self._guard, locked(self._path):
            entries = self._read_for_change()
            device = Device(name=_free_name(wanted, entries), paired=self._clock(), last_used=None)
            entries.append(_Entry(device, _digest(token)))
            self._write(entries)
        return device, token

    def authenticate(self, token: str) -> Device | None:
        """The device whose token this is, or None. Never raises for a bad file: that refuses every token."""
        digest = _digest(token)
        with self._guard:
            self._refresh()
            match: _Entry | None = None
            # Every stored hash is compared, in constant time, so timing says nothing about which one came close.
            for entry in self._entries:
                if hmac.compare_digest(entry.token_sha256, digest):
                    match = entry
            if match is None:
                return None
            now = self._clock()
            self._seen[digest] = now
            if self._flushed_at is None or now - self._flushed_at >= PERSIST_EVERY:
                self._flush_quietly()
            return replace(match.device, last_used=now)

    def devices(self) -> list[Device]:
        """The paired devices, oldest first; ConfigError when the file cannot be read (an empty list would lie)."""
        with self._guard:
            try:
                data, _ = read_json(self._path)
                entries = _parse(data)
            except Unreadable:
                raise self._unreadable() from None
            return [self._with_seen(entry).device for entry in entries]

    def revoke(self, name: str) -> bool:
        """Forgets the device called `name` (any letter case); False when there is none."""
        wanted = name.strip().casefold()
        with self._guard, locked(self._path):
            entries = self._read_for_change()
            kept = [entry for entry in entries if entry.device.name.casefold() != wanted]
            if len(kept) == len(entries):
                return False
            for gone in entries:
                if gone not in kept:
                    self._seen.pop(gone.token_sha256, None)
            self._write(kept)
        return True

    def flush(self) -> None:
        """Writes the `last_used` times seen since the last write (the server calls this when it stops)."""
        with self._guard:
            if not self._seen:
                return
            with locked(self._path):
                try:
                    data, _ = read_json(self._path)
                    entries = _parse(data)
                except Unreadable:
                    log.warning("%s cannot be read; last-used times are not saved", self._path)
                    self._seen.clear()
                    return
                # Re-read under the lock: a device revoked meanwhile stays revoked (it is not in `entries`).
                updated = [self._with_seen(entry) for entry in entries]
                if updated != entries:
                    self._write(updated)
            self._seen.clear()
            self._flushed_at = self._clock()

    def _flush_quietly(self) -> None:
        # Called while answering a request: a full disk must not turn a good token into a 500.
        try:
            self.flush()
        except (OSError, ConfigError) as exc:
            log.warning("could not save when devices were last used (%s)", exc)
            self._flushed_at = self._clock()

    def _with_seen(self, entry: _Entry) -> _Entry:
        seen = self._seen.get(entry.token_sha256)
        last = entry.device.last_used
        if seen is None or (last is not None and last >= seen):
            return entry
        return replace(entry, device=replace(entry.device, last_used=seen))

    def _refresh(self) -> None:
        try:
            stamp = stamp_of(self._path)
        except Unreadable:
            stamp = None
        if self._loaded and stamp == self._stamp:
            return
        try:
            data, stamp = read_json(self._path)
            self._entries = _parse(data)
        except Unreadable as exc:
            log.warning("%s cannot be read (%s); no device can connect until it is fixed or deleted", self._path, exc)
            self._entries = []
        self._stamp, self._loaded = stamp, True

    def _read_for_change(self) -> list[_Entry]:
        try:
            data, _ = read_json(self._path)
            return _parse(data)
        except Unreadable:
            # Writing over it would silently unpair every device it still lists.
            raise self._unreadable() from None

    def _write(self, entries: list[_Entry]) -> None:
        self._stamp = _write_json(self._path, {"version": 1, "devices": [_dump(entry) for entry in entries]})
        self._entries, self._loaded = entries, True

    def _unreadable(self) -> ConfigError:
        return ConfigError(f"the paired devices file {self._path} is unreadable; delete it and pair your devices again")


def valid_name(name: str) -> str:
    """The name as it will be stored (spaces trimmed); BadRequest with one sentence when it cannot be."""
    text = name.strip()
    if not 1 <= len(text) <= MAX_NAME:
        raise BadRequest(f"the device name must be 1 to {MAX_NAME} characters")
    if any(_is_control(char) for char in text):
        raise BadRequest("the device name must not contain control characters")
    return text


def _is_control(char: str) -> bool:
    return unicodedata.category(char) in {"Cc", "Cs", "Zl", "Zp"} or char in _BIDI_CONTROLS


def _free_name(wanted: str, entries: list[_Entry]) -> str:
    taken = {entry.device.name.casefold() for entry in entries}
    if wanted.casefold() not in taken:
        return wanted
    number = 2
    while True:
        suffix = f" ({number})"
        # The stem gives way so the stored name still fits in MAX_NAME.
        candidate = wanted[: MAX_NAME - len(suffix)].rstrip() + suffix
        if candidate.casefold() not in taken:
            return candidate
        number += 1


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _dump(entry: _Entry) -> dict[str, object]:
    device = entry.device
    return {
        "name": device.name,
        "token_sha256": entry.token_sha256,
        "paired": iso(device.paired),
        "last_used": None if device.last_used is None else iso(device.last_used),
    }


def _parse(data: object) -> list[_Entry]:
    """The file's devices; Unreadable for anything this version did not write. None (no file) is no devices."""
    if data is None:
        return []
    if not isinstance(data, dict) or data.get("version") != 1 or not isinstance(data.get("devices"), list):
        raise Unreadable("not a version 1 devices file")
    entries: list[_Entry] = []
    for item in data["devices"]:
        try:
            if not isinstance(item, dict):
                raise ValueError("not an object")
            name, digest, last = item["name"], item["token_sha256"], item.get("last_used")
            if not isinstance(name, str) or not isinstance(digest, str) or not _HEX64.fullmatch(digest):
                raise ValueError("bad name or hash")
            paired = parse_iso(item["paired"])
            entries.append(_Entry(Device(name, paired, None if last is None else parse_iso(last)), digest))
        except (KeyError, ValueError) as exc:
            raise Unreadable(f"a device entry is malformed ({exc})") from None
    return entries
