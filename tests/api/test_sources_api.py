"""A folder beside the vault on the real sidecar: indexed and watched with it under its label, cited by search and
answers, listed in the status, its own rules kept; gone, its notes stay; taken out of the settings, exactly its
notes go."""

from __future__ import annotations

import asyncio
import dataclasses
import os
from pathlib import Path

import pytest

from askvault.config import Config, SourceConfig
from askvault.wiring import open_engine
from tests.api.engine_sidecar import Json, engine_sidecar, results_of, sidecar_config
from tests.conftest import RunningOllama
from tests.engine_helpers import index_once, write_notes
from tests.extract.pdfs import write_pdf

NOTES: dict[str, str | bytes] = {
    "Homelab/Postgres.md": "# Postgres\n\nThe database listens on port 5433 behind the proxy.\n",
    "Kitchen/Bread.md": "# Bread\n\nRye bread wants a long cold proof overnight.\n",
}
DOCS: dict[str, str | bytes] = {
    "guide/setup.md": "# Setup\n\nThe staging cluster is provisioned with the quarkwell installer on Mondays.\n",
    "meeting.txt": "Minutes: the budget for the zephyrine migration was approved by the board.\n",
    ".private/keys.md": "# Keys\n\nThe xylophant token lives here.\n",
    "drafts/idea.md": "# Idea\n\nA half-baked plan about gondolafish.\n",
}


def _config(tmp_path: Path, fake: RunningOllama, *sources: SourceConfig) -> Config:
    config = sidecar_config(tmp_path / "vault", tmp_path / "data", fake.url)
    return dataclasses.replace(config, vault=dataclasses.replace(config.vault, sources=sources))


def _paths(body: Json) -> list[str]:
    return [str(r["path"]) for r in results_of(body)]


async def test_a_source_is_searched_cited_watched_and_listed(tmp_path: Path, fake_ollama: RunningOllama) -> None:
    docs = tmp_path / "Nextcloud Docs"
    write_notes(docs, DOCS)
    (docs / "manuals").mkdir()
    write_pdf(docs / "manuals/boiler.pdf", ["Cover", "The boiler pressure should read 1.2 bar when cold."])
    os.symlink(tmp_path / "vault" / "Homelab", docs / "escape")  # a way out of the folder is never followed
    source = SourceConfig("Docs", docs.resolve(), exclude_globs=("drafts/",))
    async with engine_sidecar(_config(tmp_path, fake_ollama, source), NOTES) as car:
        status, search = await car.post("/api/search", {"query": "quarkwell installer staging", "k": 3})
        assert status == 200, search
        assert _paths(search)[0] == "Docs:guide/setup.md"
        status, search = await car.post("/api/search", {"query": "zephyrine migration budget", "k": 3})
        assert _paths(search)[0] == "Docs:meeting.txt"
        status, search = await car.post("/api/search", {"query": "boiler pressure bar", "k": 3})
        top = search["results"][0]  # type: ignore[index]
        assert (top["path"], top["page"]) == ("Docs:manuals/boiler.pdf", 2)
        for hidden in ("xylophant token", "gondolafish plan"):
            status, search = await car.post("/api/search", {"query": hidden, "k": 5})
            assert all(not p.startswith("Docs:.private") and "drafts" not in p for p in _paths(search))
        paths = {c.path for c in car.engine.manifest.iter_chunks()}
        assert not any("escape" in p for p in paths)

        events = await car.ask("Which installer provisions the staging cluster?")
        sources = events[0]["sources"]
        assert isinstance(sources, list)
        assert any(isinstance(s, dict) and s["path"] == "Docs:guide/setup.md" and s["sent"] for s in sources)

        async with car.session.get(car.url("/api/status"), headers=car.auth()) as resp:
            body = await resp.json()
        assert body["vault"]["sources"] == [{"label": "Docs", "path": str(docs.resolve()), "notes": 3}]

        (docs / "guide/later.md").write_text("# Later\n\nThe wombatrix backup runs at dawn.\n", encoding="utf-8")
        for _ in range(200):  # the source's own watcher, as for the vault
            status, search = await car.post("/api/search", {"query": "wombatrix backup dawn", "k": 3})
            if _paths(search)[:1] == ["Docs:guide/later.md"]:
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError("a note saved in the source folder never became searchable")

        # The folder goes away while watched (an unmounted share): reported, its notes kept, the server up.
        docs.rename(tmp_path / "gone")
        status, _ = await car.post("/api/reindex", {})
        assert status == 202
        failures: list[object] = []
        for _ in range(200):
            await asyncio.sleep(0.05)
            async with car.session.get(car.url("/api/status"), headers=car.auth()) as resp:
                body = await resp.json()
            failures = [f for f in body["index"]["failures"] if f["path"] == "(source Docs)"]
            if body["index"]["state"] == "idle" and failures:
                break
        assert failures == [
            {
                "path": "(source Docs)",
                "kind": "failed",
                "reason": f"the folder of source 'Docs' ({docs.resolve()}) is missing or cannot be read; its notes "
                "stay in the index until it is back, or remove the source from the settings",
            }
        ]
        status, search = await car.post("/api/search", {"query": "quarkwell installer staging", "k": 3})
        assert _paths(search)[0] == "Docs:guide/setup.md"


async def test_a_source_that_goes_away_keeps_its_notes_and_one_taken_out_drops_exactly_its_own(
    tmp_path: Path, fake_ollama: RunningOllama
) -> None:
    docs = tmp_path / "docs"
    write_notes(tmp_path / "vault", NOTES)
    write_notes(docs, DOCS)
    config = _config(tmp_path, fake_ollama, SourceConfig("Docs", docs.resolve()))
    await index_once(config)
    async with open_engine(config, sync_vectors=False) as engine:
        before = {c.path for c in engine.manifest.iter_chunks()}
    assert "Docs:guide/setup.md" in before
    assert "Homelab/Postgres.md" in before

    docs.rename(tmp_path / "docs-unmounted")
    report = await index_once(config)
    assert [(p.path, p.reason.split(";")[0]) for p in report.failed] == [
        ("(source Docs)", f"the folder of source 'Docs' ({docs.resolve()}) is missing or cannot be read")
    ]
    assert report.removed == 0
    async with open_engine(config, sync_vectors=False) as engine:
        assert {c.path for c in engine.manifest.iter_chunks()} == before

    (tmp_path / "docs-unmounted").rename(docs)
    without = _config(tmp_path, fake_ollama)
    report = await index_once(without)
    async with open_engine(without, sync_vectors=False) as engine:
        after = {c.path for c in engine.manifest.iter_chunks()}
        found = await engine.searcher.search("quarkwell installer", 5)
    assert after == {p for p in before if not p.startswith("Docs:")}
    assert report.removed == len({p for p in before if p.startswith("Docs:")})
    assert [(p.path, p.reason) for p in report.notices] == [
        (
            "(source Docs)",
            "3 notes of the folder labelled 'Docs' left the index because it is no longer a source of this vault; "
            "name it again (--source Docs=PATH, or in the config file) to keep its notes",
        )
    ]
    assert all(not hit.chunk.path.startswith("Docs:") for hit in found.hits)


async def test_a_source_that_cannot_be_listed_keeps_its_notes(
    tmp_path: Path, fake_ollama: RunningOllama, monkeypatch: pytest.MonkeyPatch
) -> None:
    docs = tmp_path / "docs"
    write_notes(tmp_path / "vault", NOTES)
    write_notes(docs, DOCS)
    config = _config(tmp_path, fake_ollama, SourceConfig("Docs", docs.resolve()))
    await index_once(config)
    real_scandir = os.scandir

    def refuse(path: object) -> object:
        # What a folder without read permission does (the tests run as root, which chmod cannot stop).
        if str(path) == str(docs.resolve()):
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)  # type: ignore[call-overload]

    monkeypatch.setattr(os, "scandir", refuse)
    report = await index_once(config)
    assert [p.path for p in report.failed] == ["(source Docs)"]
    assert report.removed == 0
