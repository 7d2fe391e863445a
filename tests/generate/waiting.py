"""Waits for something another task or the fake server does asynchronously (a bound, not a timing assertion)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable


async def wait_until(condition: Callable[[], bool], limit_s: float = 10.0) -> bool:
    """True as soon as `condition()` holds; False if it still does not after `limit_s`."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit_s
    while not condition():
        if loop.time() > deadline:
            return False
        await asyncio.sleep(0.01)
    return True
