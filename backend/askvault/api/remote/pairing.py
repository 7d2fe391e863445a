"""One-time pairing codes in `pairing.json`: `askvault pair` issues them, the server redeems each once."""

from __future__ import annotations

import hashlib
import hmac
import logging
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Literal

from askvault.api.remote.state_file import Unreadable, iso, locked, parse_iso, read_json, utc_now, write_json
from askvault.errors import ConfigError, Forbidden

log = logging.getLogger("askvault.api")

PAIRING_FILE = "pairing.json"
ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
"""32 symbols without 0/O and 1/I, which people mistype; 8 of them are 40 bits."""
CODE_LENGTH = 8
MIN_MINUTES, MAX_MINUTES = 1, 60
MAX_WRONG = 10
"""10 guesses at 40 bits: the chance of hitting a code before they are all withdrawn is about 1 in 10^11."""
KEEP_AFTER_EXPIRY = timedelta(hours=1)
"""A used or expired code is remembered this long, so its refusal can say "used" or "expired" rather than "wrong"."""
MAX_CODES = 100
_SEPARATORS = re.compile(r"[-\s]+")

Reason = Literal["wrong", "expired", "used", "withdrawn"]
SENTENCES: dict[Reason, str] = {
    "wrong": "that pairing code is not one this sidecar issued; run `askvault pair` for a new one",
    "expired": "that pairing code has expired; run `askvault pair` for a new one",
    "used": "that pairing code was already used; run `askvault pair` for a new one",
    "withdrawn": "too many wrong pairing codes; run `askvault pair` again",
}


class PairingRefused(Forbidden):
    code = "pairing_refused"

    def __init__(self, reason: Reason) -> None:
        super().__init__(SENTENCES[reason])
        self.reason: Reason = reason


@dataclass(frozen=True)
class Issued:
    code: str
    """As shown to the user: `ABCD-EFGH`."""
    expires: datetime


@dataclass(frozen=True)
class _Code:
    code_sha256: str
    expires: datetime
    used: bool


@dataclass
class _State:
    codes: list[_Code]
    failures: int


class PairingCodes:
    """`pairing.json`, changed only under its lock so the CLI's `issue` and the server's `redeem` interleave safely."""

    def __init__(self, path: Path, clock: Callable[[], datetime] = utc_now) -> None:
        self._path = path
        self._clock = clock

    def issue(self, minutes: int) -> Issued:
        """A new code valid for `minutes`; the wrong-code count starts again, so pairing works after a lock-out."""
        if not MIN_MINUTES <= minutes <= MAX_MINUTES:
            raise ConfigError(f"--minutes: a pairing code lasts {MIN_MINUTES} to {MAX_MINUTES} minutes")
        symbols = "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))
        now = self._clock()
        expires = now + timedelta(minutes=minutes)
        with locked(self._path):
            state = self._read(now)
            state.codes = [*state.codes, _Code(_digest(symbols), expires, used=False)][-MAX_CODES:]
            state.failures = 0
            self._write(state)
        half = CODE_LENGTH // 2
        return Issued(code=f"{symbols[:half]}-{symbols[half:]}", expires=expires)

    def redeem(self, code: str) -> None:
        """Uses up `code`; PairingRefused saying why when it cannot be used."""
        digest = _digest(normalise(code))
        now = self._clock()
        with locked(self._path):
            state = self._read(now)
            if state.failures >= MAX_WRONG:
                raise PairingRefused("withdrawn")
            found: _Code | None = None
            for entry in state.codes:
                if hmac.compare_digest(entry.code_sha256, digest):
                    found = entry
            if found is None:
                state.failures += 1
                if state.failures >= MAX_WRONG:
                    state.codes = []
                    log.warning("%d wrong pairing codes: every pending code is withdrawn", state.failures)
                self._write(state)
                raise PairingRefused("withdrawn" if state.failures >= MAX_WRONG else "wrong")
            if found.used:
                raise PairingRefused("used")
            if now >= found.expires:
                raise PairingRefused("expired")
            state.codes = [replace(entry, used=True) if entry is found else entry for entry in state.codes]
            self._write(state)

    def _read(self, now: datetime) -> _State:
        try:
            data, _ = read_json(self._path)
            state = _parse(data)
        except Unreadable as exc:
            # Only short-lived codes live here, so starting afresh loses nothing a new `askvault pair` cannot give.
            log.warning("%s cannot be read (%s); its pending pairing codes are dropped", self._path, exc)
            state = _State(codes=[], failures=0)
        state.codes = [entry for entry in state.codes if now < entry.expires + KEEP_AFTER_EXPIRY]
        return state

    def _write(self, state: _State) -> None:
        codes = [{"code_sha256": c.code_sha256, "expires": iso(c.expires), "used": c.used} for c in state.codes]
        write_json(self._path, {"version": 1, "codes": codes, "failures": state.failures})


def normalise(code: str) -> str:
    """What the user typed, as issued: letter case, dashes and spaces do not matter."""
    return _SEPARATORS.sub("", code).upper()


def _digest(symbols: str) -> str:
    return hashlib.sha256(symbols.encode("utf-8", "surrogatepass")).hexdigest()


def _parse(data: object) -> _State:
    if data is None:
        return _State(codes=[], failures=0)
    if not isinstance(data, dict) or data.get("version") != 1 or not isinstance(data.get("codes"), list):
        raise Unreadable("not a version 1 pairing file")
    failures = data.get("failures", 0)
    if not isinstance(failures, int) or isinstance(failures, bool) or failures < 0:
        raise Unreadable("bad failure count")
    codes: list[_Code] = []
    for item in data["codes"]:
        try:
            if not isinstance(item, dict) or not isinstance(item["code_sha256"], str):
                raise ValueError("not a code entry")
            codes.append(_Code(item["code_sha256"], parse_iso(item["expires"]), bool(item["used"])))
        except (KeyError, ValueError) as exc:
            raise Unreadable(f"a code entry is malformed ({exc})") from None
    return _State(codes=codes, failures=failures)
