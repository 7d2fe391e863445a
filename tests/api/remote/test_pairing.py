"""One-time pairing codes: their shape, single use, expiry, what each refusal says, and the lock-out after 10."""

from __future__ import annotations

import hashlib
import json
import logging
import re
import stat
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest

from askvault.api.remote.pairing import PAIRING_FILE, SENTENCES, PairingCodes, PairingRefused, Reason, normalise
from askvault.errors import ConfigError, Forbidden
from tests.api.remote.clock import T0, Clock

CODE = re.compile(r"[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}")


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "remote" / PAIRING_FILE


@pytest.fixture
def clock() -> Clock:
    return Clock()


def _refused(codes: PairingCodes, code: str) -> Reason:
    with pytest.raises(PairingRefused) as caught:
        codes.redeem(code)
    return caught.value.reason


def _other(code: str) -> str:
    """A well-formed code that differs from `code` in one symbol."""
    return ("3" if code[0] == "2" else "2") + code[1:]


def test_issue(path: Path, clock: Clock) -> None:
    issued = PairingCodes(path, clock).issue(10)
    assert CODE.fullmatch(issued.code)
    assert issued.expires == T0 + timedelta(minutes=10)
    text = path.read_text(encoding="utf-8")
    assert issued.code not in text
    assert normalise(issued.code) not in text
    assert json.loads(text) == {
        "version": 1,
        "codes": [
            {
                "code_sha256": hashlib.sha256(normalise(issued.code).encode()).hexdigest(),
                "expires": "2030-01-15T12:10:00Z",
                "used": False,
            }
        ],
        "failures": 0,
    }
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_codes_differ(path: Path) -> None:
    codes = PairingCodes(path)
    assert len({codes.issue(10).code for _ in range(20)}) == 20


@pytest.mark.parametrize("minutes", [0, -1, 61, 1000])
def test_minutes_out_of_bounds(path: Path, minutes: int) -> None:
    with pytest.raises(ConfigError, match=r"^--minutes: a pairing code lasts 1 to 60 minutes$"):
        PairingCodes(path).issue(minutes)
    assert not path.exists()


@pytest.mark.parametrize("minutes", [1, 60])
def test_minutes_at_the_bounds(path: Path, clock: Clock, minutes: int) -> None:
    codes = PairingCodes(path, clock)
    issued = codes.issue(minutes)
    clock.advance(minutes=minutes - 0.01)
    codes.redeem(issued.code)


def test_single_use(path: Path) -> None:
    codes = PairingCodes(path)
    issued = codes.issue(10)
    codes.redeem(issued.code)
    assert _refused(codes, issued.code) == "used"


def test_refusals_are_forbidden_with_one_sentence(path: Path) -> None:
    codes = PairingCodes(path)
    codes.issue(10)
    with pytest.raises(Forbidden) as caught:
        codes.redeem("2345-6789")
    error = caught.value
    assert isinstance(error, PairingRefused)
    assert error.http_status == 403
    assert error.to_json() == {
        "error": {
            "code": "pairing_refused",
            "message": "that pairing code is not one this sidecar issued; run `askvault pair` for a new one",
        }
    }
    assert set(SENTENCES) == {"wrong", "expired", "used", "withdrawn"}


@pytest.mark.parametrize(
    "typed",
    [
        lambda code: code,
        lambda code: code.lower(),
        lambda code: code.replace("-", ""),
        lambda code: f"  {code[:4].lower()} - {code[5:]}\n",
        lambda code: " ".join(code.replace("-", "")),
        lambda code: code.replace("-", "\t"),
    ],
    ids=["as-shown", "lower", "no-dash", "spaced-dash", "every-symbol-spaced", "tab"],
)
def test_typing_variants_are_accepted(path: Path, typed: Callable[[str], str]) -> None:
    codes = PairingCodes(path)
    issued = codes.issue(10)
    codes.redeem(typed(issued.code))


@pytest.mark.parametrize(
    ("code", "expected"),
    [("abcd-efgh", "ABCDEFGH"), (" AB CD\tEF-GH ", "ABCDEFGH"), ("--", ""), ("abcd_efgh", "ABCD_EFGH")],
    ids=["lower-dash", "spaces-tab", "only-dashes", "underscore-kept"],
)
def test_normalise(code: str, expected: str) -> None:
    assert normalise(code) == expected


def test_wrong_codes(path: Path) -> None:
    codes = PairingCodes(path)
    issued = codes.issue(10)
    for wrong in [_other(issued.code), "", "ABCD", issued.code + "2", "O0I1-0000"]:
        assert _refused(codes, wrong) == "wrong"
    codes.redeem(issued.code)


def test_expired_then_forgotten(path: Path, clock: Clock) -> None:
    codes = PairingCodes(path, clock)
    issued = codes.issue(10)
    clock.advance(minutes=10)
    assert _refused(codes, issued.code) == "expired"
    clock.advance(minutes=59)
    assert _refused(codes, issued.code) == "expired"
    clock.advance(minutes=1)
    assert _refused(codes, issued.code) == "wrong"  # an hour after expiry it is no longer remembered


def test_used_is_remembered_for_an_hour_after_expiry(path: Path, clock: Clock) -> None:
    codes = PairingCodes(path, clock)
    issued = codes.issue(5)
    codes.redeem(issued.code)
    clock.advance(minutes=64)
    assert _refused(codes, issued.code) == "used"
    clock.advance(minutes=1)
    assert _refused(codes, issued.code) == "wrong"
    codes.issue(5)
    assert len(json.loads(path.read_text(encoding="utf-8"))["codes"]) == 1  # the old entry was pruned


def test_ten_wrong_codes_withdraw_every_pending_code(path: Path, caplog: pytest.LogCaptureFixture) -> None:
    codes = PairingCodes(path)
    first, second = codes.issue(10), codes.issue(10)
    wrong = _other(_other(first.code)) if _other(first.code) == second.code else _other(first.code)
    with caplog.at_level(logging.WARNING, logger="askvault.api"):
        reasons = [_refused(codes, wrong) for _ in range(10)]
    assert reasons == ["wrong"] * 9 + ["withdrawn"]
    assert "withdrawn" in caplog.text
    assert wrong not in caplog.text
    assert _refused(codes, first.code) == "withdrawn"
    assert _refused(codes, second.code) == "withdrawn"
    fresh = codes.issue(10)
    assert _refused(codes, first.code) == "wrong"
    codes.redeem(fresh.code)


def test_expired_and_used_codes_do_not_count_as_wrong(path: Path, clock: Clock) -> None:
    codes = PairingCodes(path, clock)
    used, stale = codes.issue(10), codes.issue(1)
    codes.redeem(used.code)
    clock.advance(minutes=2)
    for _ in range(10):
        assert _refused(codes, used.code) == "used"
        assert _refused(codes, stale.code) == "expired"
    late = codes.issue(10)
    for _ in range(9):
        assert _refused(codes, "2222-2222") == "wrong"
    codes.redeem(late.code)


def test_issued_by_the_cli_redeemed_by_the_server(path: Path) -> None:
    cli, server = PairingCodes(path), PairingCodes(path)
    issued = cli.issue(10)
    server.redeem(issued.code)
    assert _refused(cli, issued.code) == "used"


@pytest.mark.parametrize(
    "content",
    [b"garbage", b'{"version": 1, "codes": [{"expires": 1}]}', b'{"version": 1, "codes": [], "failures": -1}'],
    ids=["not-json", "bad-entry", "bad-failures"],
)
def test_a_corrupt_file_is_started_afresh(path: Path, caplog: pytest.LogCaptureFixture, content: bytes) -> None:
    codes = PairingCodes(path)
    codes.issue(10)
    path.write_bytes(content)
    with caplog.at_level(logging.WARNING, logger="askvault.api"):
        assert _refused(codes, "2345-6789") == "wrong"
    assert "cannot be read" in caplog.text
    issued = codes.issue(10)
    codes.redeem(issued.code)
