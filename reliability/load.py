"""Concurrent clients against a running sidecar: waves of searches and answer streams, latencies and outcomes.

An answer that finds the generation gate full gets `429 busy` with `Retry-After` (one answer runs, two wait,
the rest are turned away at once): that is the designed behaviour, so it is counted apart from errors.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from dataclasses import dataclass, field

import aiohttp

QUERIES = (
    "postgres port", "backup schedule", "sourdough starter", "kubernetes ingress", "tax deadline", "running plan",
    "meal plan", "router firewall", "churn model", "grafana dashboard", "doctor appointment", "home network",
)  # fmt: skip
QUESTIONS = (
    "Which port does Postgres listen on?", "When do the backups run?", "How do I feed the sourdough starter?",
    "What is on the weekly meal plan?", "What did the churn analysis find?",
)  # fmt: skip


def percentile(values: list[float], share: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(share * len(ordered)))], 1)


@dataclass
class LoadResult:
    waves: int = 0
    searches: int = 0
    search_ms: list[float] = field(default_factory=list)
    asks: int = 0
    answered: int = 0
    busy: int = 0
    """429 `busy`: the gate was full (expected beyond one running and two waiting answers)."""
    first_token_ms: list[float] = field(default_factory=list)
    answer_ms: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def summary(self) -> dict[str, object]:
        return {
            "waves": self.waves,
            "searches": self.searches,
            "search_p50_ms": percentile(self.search_ms, 0.5),
            "search_p95_ms": percentile(self.search_ms, 0.95),
            "asks": self.asks,
            "answered": self.answered,
            "busy_429": self.busy,
            "first_token_p95_ms": percentile(self.first_token_ms, 0.95),
            "answer_p95_ms": percentile(self.answer_ms, 0.95),
            "errors": len(self.errors),
            "error_samples": self.errors[:5],
            "seconds": round(self.seconds, 1),
        }


class LoadClient:
    def __init__(self, url: str, token: str, session: aiohttp.ClientSession, rng: random.Random) -> None:
        self.url = url
        self.headers = {"Authorization": f"Bearer {token}", "Origin": "app://obsidian.md"}
        self.session = session
        self.rng = rng

    async def search(self, result: LoadResult) -> None:
        body = {"query": self.rng.choice(QUERIES), "k": 8, "mode": self.rng.choice(["hybrid", "keyword", "dense"])}
        started = time.perf_counter()
        result.searches += 1
        try:
            async with self.session.post(f"{self.url}/api/search", json=body, headers=self.headers) as resp:
                payload = await resp.json()
                if resp.status != 200 or not isinstance(payload.get("results"), list):
                    result.errors.append(f"search {resp.status}: {str(payload)[:200]}")
                    return
        except (aiohttp.ClientError, TimeoutError, ValueError) as exc:
            result.errors.append(f"search: {type(exc).__name__}: {exc}")
            return
        result.search_ms.append((time.perf_counter() - started) * 1000)

    async def ask(self, result: LoadResult) -> None:
        body = {"question": self.rng.choice(QUESTIONS)}
        started = time.perf_counter()
        result.asks += 1
        try:
            async with self.session.post(f"{self.url}/api/ask", json=body, headers=self.headers) as resp:
                if resp.status == 429:
                    payload = await resp.json()
                    if payload["error"]["code"] != "busy" or resp.headers.get("Retry-After") != "1":
                        result.errors.append(f"ask 429 without busy/Retry-After: {payload}")
                    else:
                        result.busy += 1
                    return
                if resp.status != 200:
                    result.errors.append(f"ask {resp.status}: {(await resp.text())[:200]}")
                    return
                kinds: list[str] = []
                async for line in resp.content:
                    if not line.strip():
                        continue
                    event = json.loads(line)
                    kinds.append(str(event["type"]))
                    if event["type"] == "token" and kinds.count("token") == 1:
                        result.first_token_ms.append((time.perf_counter() - started) * 1000)
                    if event["type"] == "error":
                        result.errors.append(f"ask stream error: {event}")
                if not kinds or kinds[-1] != "done":
                    result.errors.append(f"ask stream ended without done: {kinds[-3:]}")
                    return
        except (aiohttp.ClientError, TimeoutError, ValueError, KeyError) as exc:
            result.errors.append(f"ask: {type(exc).__name__}: {exc}")
            return
        result.answered += 1
        result.answer_ms.append((time.perf_counter() - started) * 1000)


async def run_load(
    url: str, token: str, *, seconds: float, searches: int = 20, asks: int = 5, seed: int = 1, min_waves: int = 1
) -> LoadResult:
    """Waves of `searches` concurrent searches plus `asks` concurrent answer streams until `seconds` pass."""
    result = LoadResult()
    rng = random.Random(seed)
    started = time.perf_counter()
    timeout = aiohttp.ClientTimeout(total=120)
    connector = aiohttp.TCPConnector(limit=searches + asks)
    async with aiohttp.ClientSession(timeout=timeout, connector=connector) as session:
        client = LoadClient(url, token, session, rng)
        while result.waves < min_waves or time.perf_counter() - started < seconds:
            jobs = [client.search(result) for _ in range(searches)] + [client.ask(result) for _ in range(asks)]
            rng.shuffle(jobs)
            await asyncio.gather(*jobs)
            result.waves += 1
    result.seconds = time.perf_counter() - started
    return result
