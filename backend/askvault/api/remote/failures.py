"""Failed logins and pairings counted per client IP: too many in a short while and that IP waits."""

from __future__ import annotations

import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field

from askvault.errors import TooManyRequests

MAX_IPS = 10_000
"""Memory stays bounded however many addresses an attacker uses; past this the longest-quiet one is forgotten."""


class TooManyFailures(TooManyRequests):
    code = "too_many_failures"
    retry_after_s = 60
    """The block's length (FailureLimiter's default block_s): a client that waits this long is let in again."""

    def __init__(self) -> None:
        super().__init__("too many failed attempts from this address; wait a minute")


@dataclass
class _Record:
    failures: deque[float] = field(default_factory=deque)
    blocked_until: float | None = None
    touched: float = 0.0


class FailureLimiter:
    """After `limit` failures within `window_s` seconds an IP is blocked for `block_s` seconds.

    In memory only, for one process (the server): a restart forgets, which costs an attacker nothing they could not
    get by waiting out the block.
    """

    def __init__(
        self,
        limit: int = 5,
        window_s: float = 60.0,
        block_s: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
        max_ips: int = MAX_IPS,
    ) -> None:
        self._limit = limit
        self._window = window_s
        self._block = block_s
        self._clock = clock
        self._max_ips = max_ips
        # Least recently touched first, so forgetting idle addresses looks only at the front.
        self._records: OrderedDict[str, _Record] = OrderedDict()

    def __len__(self) -> int:
        return len(self._records)

    def blocked(self, ip: str) -> bool:
        now = self._clock()
        record = self._records.get(ip)
        if record is None or record.blocked_until is None:
            return False
        if now < record.blocked_until:
            return True
        # The block is over; the failures that caused it are forgotten with it.
        del self._records[ip]
        return False

    def record(self, ip: str) -> bool:
        """Counts one failure; True when this one blocks the IP."""
        now = self._clock()
        self._forget_idle(now)
        record = self._records.get(ip)
        if record is not None and record.blocked_until is not None and now >= record.blocked_until:
            record = None
        if record is None:
            record = _Record()
        self._records[ip] = record
        self._records.move_to_end(ip)
        record.touched = now
        if record.blocked_until is not None:
            return False
        while record.failures and record.failures[0] <= now - self._window:
            record.failures.popleft()
        record.failures.append(now)
        if len(record.failures) < self._limit:
            self._evict()
            return False
        record.failures.clear()
        record.blocked_until = now + self._block
        self._evict()
        return True

    def _forget_idle(self, now: float) -> None:
        while self._records:
            ip, record = next(iter(self._records.items()))
            if not self._idle(record, now):
                return
            del self._records[ip]

    def _idle(self, record: _Record, now: float) -> bool:
        if record.blocked_until is not None:
            return now >= record.blocked_until
        return now - record.touched >= self._window

    def _evict(self) -> None:
        while len(self._records) > self._max_ips:
            self._records.popitem(last=False)
