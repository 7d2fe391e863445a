"""PDFs and canvases in the vault on the real engine: indexed page by page and card by card, every bad file
reported in one sentence with the rest of the index untouched, a changed PDF re-read alone."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from askvault.config import Config
from askvault.index.changes import ChangeBatch
from askvault.parse.documents import page_of
from askvault.wiring import open_engine
from tests.conftest import RunningOllama
from tests.engine_helpers import engine_config, index_once, write_notes
from tests.extract.pdfs import SCAN, bomb_pdf, many_pages_pdf, write_pdf

MANUAL = [
    "Router manual\nUnpack the router and connect the grey cable to the modem.",
    "The default admin password is printed on the sticker under the router: quokka-7731.",
    "Factory reset: hold the reset button for twelve seconds until the lights blink amber.\npassword: hunter2xyz",
]
CANVAS = {
    "nodes": [
        {"id": "g", "type": "group", "x": 0, "y": 0, "width": 800, "height": 600, "label": "Garden plan"},
        {
            "id": "a",
            "type": "text",
            "x": 20,
            "y": 40,
            "width": 300,
            "height": 100,
            "text": "Plant the zucchini in May.",
        },
        {"id": "b", "type": "file", "x": 20, "y": 200, "width": 300, "height": 100, "file": "Notes/Seeds.md"},
    ],
    "edges": [],
}
NOTES: dict[str, str | bytes] = {
    "Notes/Seeds.md": "# Seeds\n\nThe seed tin holds beans, peas and zucchini from last year.\n",
    "Notes/Postgres.md": "# Postgres\n\nThe database listens on port 5433 behind the proxy.\n",
    "Boards/Garden.canvas": json.dumps(CANVAS),
    "Boards/Broken.canvas": "{ this is not json",
    "Papers/fake.pdf": "<!DOCTYPE html><html><body>Sign in to download</body></html>",
    "Papers/torn.pdf": b"%PDF-1.7\n1 0 obj\n<< /Type /Catalog",
}


def _config(vault: Path, fake: RunningOllama, **vault_settings: object) -> Config:
    config = engine_config(vault, vault.parent / "data", fake.url)
    return dataclasses.replace(config, vault=dataclasses.replace(config.vault, **vault_settings))  # type: ignore[arg-type]


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    write_notes(root, NOTES)
    (root / "Manuals").mkdir()
    write_pdf(root / "Manuals/Router.pdf", MANUAL)
    write_pdf(root / "Manuals/Scan.pdf", [SCAN, SCAN])
    write_pdf(root / "Manuals/Locked.pdf", ["secret text"], user_password="hunter2")
    write_pdf(root / "Manuals/Long.pdf", [f"Chapter {n} of the long handbook" for n in range(1, 9)])
    bomb_pdf(root / "Papers/bomb.pdf", 2048)  # 2 GiB of spaces in one page, 2 MB on disk
    return root


async def test_pdfs_and_canvases_are_indexed_and_every_bad_file_is_named(
    vault: Path, fake_ollama: RunningOllama
) -> None:
    config = _config(vault, fake_ollama, pdf_max_pages=5, pdf_max_memory_mb=512)
    report = await index_once(config)

    failed = {p.path: p.reason for p in report.failed}
    skipped = {p.path: p.reason for p in report.skipped}
    notices = {p.path: p.reason for p in report.notices}
    assert failed.keys() == {"Boards/Broken.canvas", "Papers/fake.pdf", "Papers/torn.pdf", "Papers/bomb.pdf"}
    assert failed["Papers/fake.pdf"].startswith("is not a PDF (it starts like an HTML page)")
    assert "pdf_max_memory_mb" in failed["Papers/bomb.pdf"]
    assert failed["Boards/Broken.canvas"].startswith("is not a valid canvas")
    assert skipped == {"Manuals/Locked.pdf": skipped["Manuals/Locked.pdf"]}
    assert "password-protected" in skipped["Manuals/Locked.pdf"]
    assert "no text layer" in notices["Manuals/Scan.pdf"]
    assert "only the first 5 were indexed" in notices["Manuals/Long.pdf"]
    assert "pdf_max_pages" in notices["Manuals/Long.pdf"]
    for reason in [*failed.values(), *skipped.values(), *notices.values()]:
        assert "\n" not in reason
        assert "Traceback" not in reason

    async with open_engine(config) as engine:
        chunks = list(engine.manifest.iter_chunks())
        router = [c for c in chunks if c.path == "Manuals/Router.pdf"]
        assert {page_of(c.path, c.heading_path) for c in router} == {1, 2, 3}  # three short pages: one chunk each
        # A PDF's secrets are redacted before anything is indexed, as a note's.
        page3 = " ".join(c.text for c in router if page_of(c.path, c.heading_path) == 3)
        assert "hunter2xyz" not in page3
        assert "[redacted: password]" in page3
        long_pages = {page_of(c.path, c.heading_path) for c in chunks if c.path == "Manuals/Long.pdf"}
        assert long_pages <= {1, 2, 3, 4, 5}
        assert "Chapter 6" not in " ".join(c.text for c in chunks if c.path == "Manuals/Long.pdf")
        # A scan is still found by its name; a canvas by its cards and the notes it shows.
        assert [c.title for c in chunks if c.path == "Manuals/Scan.pdf"] == ["Scan.pdf"]
        garden = " ".join(c.text for c in chunks if c.path == "Boards/Garden.canvas")
        assert "Plant the zucchini in May." in garden
        assert "Seeds" in garden

        found = await engine.searcher.search("default admin password sticker", 3)
        top = found.hits[0].chunk
        assert (top.path, page_of(top.path, top.heading_path)) == ("Manuals/Router.pdf", 2)
        found = await engine.searcher.search("when to plant the zucchini", 3)
        assert found.hits[0].chunk.path == "Boards/Garden.canvas"


async def test_a_pdf_that_breaks_keeps_its_old_chunks_and_a_changed_pdf_is_read_alone(
    vault: Path, fake_ollama: RunningOllama
) -> None:
    config = _config(vault, fake_ollama, pdf_max_memory_mb=512)
    await index_once(config)
    async with open_engine(config, sync_vectors=False) as engine:
        before = {c.id for c in engine.manifest.iter_chunks() if c.path == "Manuals/Router.pdf"}
    assert before

    write_pdf(vault / "Manuals/Router.pdf", [*MANUAL, "Firmware 2.1 adds WPA3."])
    report = await index_once(config)
    assert report.indexed == 1  # only the changed PDF; the bad files fail again, the rest is unchanged
    async with open_engine(config, sync_vectors=False) as engine:
        router = [c for c in engine.manifest.iter_chunks() if c.path == "Manuals/Router.pdf"]
        assert any("WPA3" in c.text for c in router)
        kept = {c.id for c in router}

    (vault / "Manuals/Router.pdf").write_bytes(b"%PDF-1.4\ngarbage that is no PDF at all")
    report = await index_once(config)
    assert "Manuals/Router.pdf" in {p.path for p in report.failed}
    async with open_engine(config, sync_vectors=False) as engine:
        assert {c.id for c in engine.manifest.iter_chunks() if c.path == "Manuals/Router.pdf"} == kept
        assert [p.kind for p in engine.indexer.problems.get("Manuals/Router.pdf")] == ["failed"]


async def test_switched_off_pdfs_and_canvases_stay_attachments(vault: Path, fake_ollama: RunningOllama) -> None:
    config = _config(vault, fake_ollama, pdfs=False, canvases=False)
    report = await index_once(config)
    assert report.failed == []
    assert report.skipped == []
    async with open_engine(config, sync_vectors=False) as engine:
        assert {c.path for c in engine.manifest.iter_chunks()} == {"Notes/Seeds.md", "Notes/Postgres.md"}


async def test_the_watcher_reads_a_new_pdf_and_forgets_a_deleted_one(vault: Path, fake_ollama: RunningOllama) -> None:
    config = _config(vault, fake_ollama, pdf_max_memory_mb=512)
    await index_once(config)
    (vault / "Inbox").mkdir()
    write_pdf(vault / "Inbox/Receipt.pdf", ["Receipt: one bicycle lamp, 24 euros, paid by card."])
    async with open_engine(config) as engine:
        await engine.indexer.apply(ChangeBatch(upserts=frozenset({"Inbox/Receipt.pdf"})))
        found = await engine.searcher.search("bicycle lamp receipt", 3)
        assert found.hits[0].chunk.path == "Inbox/Receipt.pdf"
        (vault / "Inbox/Receipt.pdf").unlink()
        await engine.indexer.apply(ChangeBatch(deletes=frozenset({"Inbox/Receipt.pdf"})))
        assert all(c.path != "Inbox/Receipt.pdf" for c in engine.manifest.iter_chunks())


async def test_a_2000_page_pdf_is_indexed_up_to_the_page_limit(tmp_path: Path, fake_ollama: RunningOllama) -> None:
    vault = tmp_path / "vault"
    write_notes(vault, {"Note.md": "# Note\n\nThe handbook is in the Manuals folder.\n"})
    (vault / "Manuals").mkdir()
    many_pages_pdf(vault / "Manuals/Handbook.pdf", 2000)
    config = _config(vault, fake_ollama)  # the default limit: 1,000 pages
    report = await index_once(config)
    assert report.failed == []
    (notice,) = [p.reason for p in report.notices if p.path == "Manuals/Handbook.pdf"]
    assert notice.startswith("has 2,000 pages, of which only the first 1,000 were indexed")
    async with open_engine(config, sync_vectors=False) as engine:
        pages = {page_of(c.path, c.heading_path) for c in engine.manifest.iter_chunks() if c.path.endswith(".pdf")}
    assert pages == set(range(1, 1001))


async def test_the_vault_s_exclusions_and_size_cap_apply_to_pdfs(vault: Path, fake_ollama: RunningOllama) -> None:
    size = (vault / "Manuals/Long.pdf").stat().st_size
    config = _config(vault, fake_ollama, exclude_globs=("Papers/", "Manuals/Router.pdf"), max_pdf_bytes=size - 1)
    report = await index_once(config)
    skipped = {p.path: p.reason for p in report.skipped}
    assert skipped["Manuals/Router.pdf"] == "exclude glob 'Manuals/Router.pdf'"
    assert skipped["Manuals/Long.pdf"].startswith("too large")
    async with open_engine(config, sync_vectors=False) as engine:
        paths = {c.path for c in engine.manifest.iter_chunks()}
    assert not any(p.startswith("Papers/") or p in ("Manuals/Router.pdf", "Manuals/Long.pdf") for p in paths)
