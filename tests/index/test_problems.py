"""The indexer's current problems: one vocabulary (failed, skipped, notice), sizes people read, kept across runs."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from askvault.index.changes import ChangeBatch
from askvault.index.problems import human_size, too_large
from askvault.wiring import open_engine
from tests.conftest import RunningOllama
from tests.engine_helpers import engine_config, write_notes

BROKEN_FRONTMATTER = "---\ntitle: Plans\ntags: [a, b\n---\n# Garden plans\n\nRaised beds by the fence.\n"


@pytest.mark.parametrize(
    ("size", "text"),
    [
        (0, "0 bytes"),
        (1023, "1023 bytes"),
        (1024, "1 KiB"),
        (6_860, "6.7 KiB"),
        (4 * 1024 * 1024, "4 MiB"),
        (4 * 1024 * 1024 + 8, "4.1 MiB"),
        (10 * 1024 * 1024, "10 MiB"),
    ],
    ids=["zero", "under-a-kib", "one-kib", "kib-rounded-up", "whole-mib", "just-over-rounds-up", "ten-mib"],
)
def test_human_size(size: int, text: str) -> None:
    assert human_size(size) == text


def test_too_large_names_both_sizes_in_one_unit_family_and_the_fix_of_its_kind() -> None:
    note = too_large(4 * 1024 * 1024 + 8, 4 * 1024 * 1024)
    assert note == "too large (4.1 MiB; the limit is 4 MiB); split it into smaller files to index it"
    pdf = too_large(300 * 1024 * 1024, 256 * 1024 * 1024, pdf=True)
    assert pdf == "too large (300 MiB; the limit is 256 MiB); raise `max_pdf_mb` (`--max-pdf-mb`) to index it"


async def test_each_kind_is_reported_and_kept_until_fixed(
    tmp_path: Path, fake_ollama: RunningOllama, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="askvault.index")
    vault = tmp_path / "vault"
    write_notes(
        vault,
        {
            "Good.md": "# Good\n\nA fine note.\n",
            "Plans.md": BROKEN_FRONTMATTER,
            "Bin.md": b"\x89PNG\r\n\x1a\n\x00\x00",
            "Latin.md": b"caf\xe9\n",
            "Big.md": "x" * 9_000,
        },
    )
    config = engine_config(vault, tmp_path / "data", fake_ollama.url, max_note_bytes=8 * 1024)
    async with open_engine(config, sync_vectors=False) as engine:
        report = await engine.indexer.run()
        assert [p.path for p in report.failed] == ["Latin.md"]
        assert sorted(p.path for p in report.skipped) == ["Big.md", "Bin.md"]
        assert [(p.path, p.reason) for p in report.notices] == [
            (
                "Plans.md",
                "frontmatter ignored: the '[' opened on line 3 is never closed; the note is indexed without its "
                "properties — fix the YAML between the '---' lines",
            )
        ]
        expected = [
            ("Latin.md", "failed"),
            ("Big.md", "skipped"),
            ("Bin.md", "skipped"),
            ("Plans.md", "notice"),
        ]
        assert [(p.path, p.kind) for p in engine.indexer.problems.current()] == expected
        assert (
            engine.indexer.problems.get("Big.md")[0].reason
            == "too large (8.8 KiB; the limit is 8 KiB); split it into smaller files to index it"
        )
        hits = await engine.searcher.search("raised beds fence", 3, mode="keyword")
        assert [(h.chunk.path, h.chunk.title, h.chunk.heading_path) for h in hits.hits][:1] == [
            ("Plans.md", "Plans", ("Garden plans",))
        ]

        # The log says each problem once, in the same words (a periodic reconcile does not repeat them).
        logged = [r.getMessage() for r in caplog.records if r.name == "askvault.index"]
        assert sorted(logged) == sorted(f"{p.kind} {p.path}: {p.reason}" for p in engine.indexer.problems.current())
        assert logged[0].startswith("skipped Big.md: too large")

        # A second run reads nothing again (all unchanged or still refused): every problem is still listed,
        # the notice of the unchanged note included.
        again = await engine.indexer.run()
        assert [r.getMessage() for r in caplog.records if r.name == "askvault.index"] == logged
        assert again.unchanged == 2
        assert [(p.path, p.kind) for p in engine.indexer.problems.current()] == expected

        # A watcher batch about one note leaves the others' entries alone; fixing the note clears its own.
        (vault / "Plans.md").write_text("---\ntitle: Plans\ntags: [a, b]\n---\n# Garden plans\n", encoding="utf-8")
        await engine.indexer.apply(ChangeBatch(upserts=frozenset({"Plans.md"})))
        assert [(p.path, p.kind) for p in engine.indexer.problems.current()] == expected[:3]
        (vault / "Big.md").write_text("# Small now\n", encoding="utf-8")
        (vault / "Latin.md").unlink()
        await engine.indexer.apply(ChangeBatch(upserts=frozenset({"Big.md"}), deletes=frozenset({"Latin.md"})))
        assert [(p.path, p.kind) for p in engine.indexer.problems.current()] == [("Bin.md", "skipped")]
