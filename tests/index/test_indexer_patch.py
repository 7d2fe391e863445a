"""Watcher batches patch the catalog and BM25 from what they touched; the result equals a full rebuild."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from askvault.index.changes import ChangeBatch
from askvault.model import ChunkInfo
from askvault.store.keyword.bm25 import Bm25Index
from askvault.store.text.tokenize import Tokenizer
from askvault.wiring import Engine, open_engine
from tests.conftest import RunningOllama
from tests.engine_helpers import engine_config, manifest_ids, paragraph, vector_ids, write_notes

NOTES: dict[str, str | bytes] = {
    "Homelab/Postgres.md": "# Postgres\n\nThe database listens on port 5433 behind the proxy.\n",
    "Homelab/Kodi.md": "# Kodi\n\nThe living-room box runs LibreELEC.\n",
    "Homelab/Network/Router.md": (
        f"# Router\n\n## DHCP\n\nLeases from 10.0.0.100. {paragraph('lease')}\n\n"
        f"## Firewall\n\nOnly the VPN port is open. {paragraph('rule')}\n"
    ),
    "Ideas/Gardening.md": "# Gardening\n\nTomatoes want sun and the proxy of a greenhouse.\n",
}
QUERIES = ["proxy", "port 5433", "tomatoes sun", "leases vpn rule", "zeppelin", "kodi box"]


def _assert_as_after_a_full_rebuild(engine: Engine) -> None:
    chunks = list(engine.manifest.iter_chunks())
    assert list(engine.catalog.snapshot().items()) == [(chunk.id, chunk.info()) for chunk in chunks]
    assert all(type(info) is ChunkInfo for info in engine.catalog.snapshot().values())  # no text kept
    fresh = Bm25Index(Tokenizer())
    fresh.rebuild((chunk.id, chunk.index_text) for chunk in chunks)
    for query in QUERIES:
        ours, theirs = engine.keywords.search(query, 20), fresh.search(query, 20)
        assert (ours.ranked, ours.terms, ours.matched) == (theirs.ranked, theirs.terms, theirs.matched)


async def test_a_series_of_batches_leaves_catalog_and_keywords_as_a_full_rebuild(
    tmp_path: Path, fake_ollama: RunningOllama
) -> None:
    vault = tmp_path / "vault"
    write_notes(vault, NOTES)
    config = engine_config(vault, tmp_path / "data", fake_ollama.url)
    async with open_engine(config) as engine:
        await engine.indexer.run()
        router = vault / "Homelab/Network/Router.md"
        router.write_text(router.read_text(encoding="utf-8") + "\n## Zeppelin\n\nA zeppelin proxy.\n", "utf-8")
        (vault / "Ideas/Zeppelin.md").write_text("# Zeppelin\n\nAnother zeppelin note.\n", encoding="utf-8")
        await engine.indexer.apply(ChangeBatch(upserts=frozenset({"Homelab/Network/Router.md", "Ideas/Zeppelin.md"})))
        _assert_as_after_a_full_rebuild(engine)

        (vault / "Homelab/Kodi.md").rename(vault / "Ideas/Kodi.md")
        (vault / "Homelab/Postgres.md").write_text("# Postgres\n\nNow on port 5434.\n", encoding="utf-8")
        await engine.indexer.apply(
            ChangeBatch(
                upserts=frozenset({"Ideas/Kodi.md", "Homelab/Postgres.md"}),
                deletes=frozenset({"Homelab/Kodi.md"}),
                moved=(("Homelab/Kodi.md", "Ideas/Kodi.md"),),
            )
        )
        _assert_as_after_a_full_rebuild(engine)

        router.unlink()
        (vault / "Homelab/Network").rmdir()
        await engine.indexer.apply(ChangeBatch(deleted_prefixes=frozenset({"Homelab/Network"})))
        _assert_as_after_a_full_rebuild(engine)
        assert await vector_ids(engine) == manifest_ids(engine)


async def test_watcher_batches_leave_orphan_vectors_to_the_next_full_run(
    tmp_path: Path, fake_ollama: RunningOllama
) -> None:
    vault = tmp_path / "vault"
    write_notes(vault, NOTES)
    config = engine_config(vault, tmp_path / "data", fake_ollama.url)
    async with open_engine(config) as engine:
        await engine.indexer.run()
        store = engine.dense.store
        assert store is not None
        some = next(engine.manifest.iter_chunks())
        orphan = dataclasses.replace(some, id="orphan-chunk")
        await store.upsert([orphan], await engine.dense.embedder.embed_documents([orphan.index_text]))
        (vault / "Ideas/Gardening.md").write_text("# Gardening\n\nBeans climb.\n", encoding="utf-8")

        await engine.indexer.apply(ChangeBatch(upserts=frozenset({"Ideas/Gardening.md"})))
        assert await vector_ids(engine) == manifest_ids(engine) | {"orphan-chunk"}

        await engine.indexer.run()
        assert await vector_ids(engine) == manifest_ids(engine)


async def test_watcher_batches_recount_the_redactions_of_the_notes_they_touch(
    tmp_path: Path, fake_ollama: RunningOllama
) -> None:
    vault = tmp_path / "vault"
    bank, card = "Finance/Bank.md", "Finance/Card.md"
    write_notes(
        vault,
        {
            **NOTES,
            bank: "# Bank\n\nThe rent goes to IBAN DE89 3704 0044 0532 0130 00 each month.\n",
            card: "# Card\n\nThe spare card is 4111 1111 1111 1111.\n",
        },
    )
    config = engine_config(vault, tmp_path / "data", fake_ollama.url)
    async with open_engine(config) as engine:
        report = await engine.indexer.run()
        assert report.redactions["by_kind"] == {"card-number": 1, "iban": 1}
        (vault / bank).write_text("# Bank\n\nThe rent is paid in cash now.\n", encoding="utf-8")
        await engine.indexer.apply(ChangeBatch(upserts=frozenset({bank})))
        patched = engine.indexer.redactions.summary()
        assert patched == {
            "total": 1,
            "by_kind": {"card-number": 1},
            "notes": [{"path": card, "kinds": {"card-number": 1}}],
        }
        assert (await engine.indexer.run(full=True)).redactions == patched  # as a full rebuild counts them
        (vault / card).unlink()
        await engine.indexer.apply(ChangeBatch(deletes=frozenset({card})))
        assert engine.indexer.redactions.summary() == {"total": 0, "by_kind": {}, "notes": []}
