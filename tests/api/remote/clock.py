"""A settable UTC clock for remote mode's stores and server: expiry and last use without waiting."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

T0 = datetime(2030, 1, 15, 12, 0, tzinfo=UTC)


class Clock:
    def __init__(self, start: datetime = T0) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, *, minutes: float = 0.0, seconds: float = 0.0) -> None:
        self.now += timedelta(minutes=minutes, seconds=seconds)
