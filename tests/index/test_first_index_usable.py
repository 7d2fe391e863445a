"""A first index stays usable while it embeds: keyword search at once, dense search over what is embedded."""

from __future__ import annotations

import asyncio
from pathlib import Path

from askvault.index.report import Progress
from askvault.model import SearchResult
from askvault.wiring import open_engine
from askvault.wiring.control import EngineControl
from askvault.wiring.models import ModelMonitor
from tests.conftest import RunningOllama
from tests.engine_helpers import engine_config, paths, write_notes

NOTES = 200
"""One chunk each: several embedding batches of 64, so the run is observed between them."""


def _vault(root: Path) -> None:
    write_notes(
        root, {f"Area/Note {i:03d}.md": f"# Note {i}\n\nThe word zq{i}x lives here only.\n" for i in range(NOTES)}
    )


async def test_keyword_search_answers_before_embedding_and_dense_as_vectors_arrive(
    tmp_path: Path, fake_ollama: RunningOllama
) -> None:
    _vault(tmp_path / "vault")
    fake_ollama.fake.embed_delay_s = 0.1
    config = engine_config(tmp_path / "vault", tmp_path / "data", fake_ollama.url)
    async with open_engine(config, sync_vectors=False) as engine:
        monitor = ModelMonitor(config.ollama, interval_s=3600)
        control = EngineControl(engine, monitor)
        seen: list[tuple[float, bool, object]] = []
        pending: list[asyncio.Future[tuple[SearchResult, SearchResult]]] = []

        async def probe() -> tuple[SearchResult, SearchResult]:
            keyword = await engine.searcher.search("zq150x", 3, "keyword")
            hybrid = await engine.searcher.search("zq150x", 3)
            return keyword, hybrid

        def on_progress(progress: Progress) -> None:
            if progress.phase == "embed" and progress.done < progress.total:
                status = control.status()["index"]
                assert isinstance(status, dict)
                seen.append((engine.dense.coverage, engine.dense.usable, status["progress"]))
                pending.append(asyncio.ensure_future(probe()))

        engine.indexer.add_listener(on_progress)
        report = await engine.indexer.run()
        probes = await asyncio.gather(*pending)

        assert seen, "the run was observed between two embedding batches"
        for (coverage, usable, _), (keyword, hybrid) in zip(seen, probes, strict=True):
            assert 0 < coverage < 1
            assert usable
            assert paths(keyword) == ["Area/Note 150.md"]  # every note keyword-searchable mid-embedding
            assert paths(hybrid)[0] == "Area/Note 150.md"
            assert hybrid.dense_available
        progress = seen[-1][2]
        assert isinstance(progress, dict)
        assert (progress["phase"], progress["total"]) == ("embed", NOTES)
        assert (report.dense, report.embedded) == ("ready", NOTES)
        assert engine.dense.coverage == 1.0
        status = control.status()["index"]
        assert isinstance(status, dict)
        assert (status["progress"], status["dense_coverage"], status["dense_graph"]) == (None, 1.0, "none")
        await monitor.stop()
