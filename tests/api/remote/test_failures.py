"""The per-IP failure limiter: blocks after 5 in 60 s, for 60 s, each IP alone, in bounded memory."""

from __future__ import annotations

import pytest

from askvault.api.remote.failures import FailureLimiter, TooManyFailures
from askvault.errors import TooManyRequests

IP, OTHER = "192.168.1.20", "fd7a::20"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


def test_the_fifth_failure_blocks(clock: Clock) -> None:
    limiter = FailureLimiter(clock=clock)
    assert [limiter.record(IP) for _ in range(4)] == [False] * 4
    assert not limiter.blocked(IP)
    assert limiter.record(IP)
    assert limiter.blocked(IP)
    assert not limiter.blocked(OTHER)
    assert not limiter.record(IP)  # already blocked: not blocked again, and the block is not extended


@pytest.mark.parametrize(
    ("times", "blocked"),
    [
        ([0, 10, 20, 30, 40], True),
        ([0, 10, 20, 30, 59.9], True),
        ([0, 10, 20, 30, 60], False),
        ([0, 20, 40, 59, 61, 62], True),
        ([0, 30, 60, 90, 120, 150, 180], False),
    ],
    ids=["within-a-minute", "just-within", "first-left-the-window", "slides", "one-every-30s"],
)
def test_the_window(clock: Clock, times: list[float], blocked: bool) -> None:
    limiter = FailureLimiter(clock=clock)
    start = clock.now
    for offset in times:
        clock.now = start + offset
        limiter.record(IP)
    assert limiter.blocked(IP) is blocked


def test_unblocked_after_block_s_with_a_clean_slate(clock: Clock) -> None:
    limiter = FailureLimiter(limit=3, window_s=10, block_s=30, clock=clock)
    for _ in range(3):
        limiter.record(IP)
    clock.now += 29.9
    assert limiter.blocked(IP)
    clock.now += 0.1
    assert not limiter.blocked(IP)
    assert not limiter.record(IP)
    assert not limiter.record(IP)
    assert limiter.record(IP)


def test_a_failure_after_the_block_counts_afresh(clock: Clock) -> None:
    limiter = FailureLimiter(clock=clock)
    for _ in range(5):
        limiter.record(IP)
    clock.now += 60
    # No blocked() call between: record() itself must see that the block is over.
    assert not limiter.record(IP)
    assert not limiter.blocked(IP)


def test_idle_addresses_are_forgotten(clock: Clock) -> None:
    limiter = FailureLimiter(clock=clock)
    for number in range(100):
        limiter.record(f"10.0.0.{number}")
    for _ in range(5):
        limiter.record(IP)
    assert len(limiter) == 101
    clock.now += 60
    limiter.record(OTHER)
    assert len(limiter) == 1
    assert not limiter.blocked(IP)


def test_memory_is_capped(clock: Clock) -> None:
    limiter = FailureLimiter(clock=clock, max_ips=100)
    for number in range(5000):
        limiter.record(f"10.0.{number // 256}.{number % 256}")
        assert len(limiter) <= 100
    assert len(limiter) == 100
    last = "10.0.19.135"  # the last one recorded is kept, with its failure
    assert [limiter.record(last) for _ in range(4)] == [False, False, False, True]
    assert limiter.blocked(last)


def test_too_many_failures() -> None:
    error = TooManyFailures()
    assert isinstance(error, TooManyRequests)
    assert error.http_status == 429
    assert error.to_json() == {
        "error": {"code": "too_many_failures", "message": "too many failed attempts from this address; wait a minute"}
    }
