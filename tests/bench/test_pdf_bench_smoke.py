"""The `pdf` bench part end to end, tiny: a 5-page PDF, a few notes, two small PDFs, the real built-in embedder.
No timing assertions: only that each measurement ran and counted what it should, and the figures reach the JSON
and the Markdown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bench.pdf import PdfOptions
from bench.pdf_write import prose_pages, write_text_pdf

from askvault.extract.pdf import PdfExtractor
from bench import suite

pytestmark = pytest.mark.slow


def test_generated_pdf_reads_back_page_by_page(tmp_path: Path) -> None:
    pages = prose_pages(3, seed=1)
    assert pages == prose_pages(3, seed=1)
    assert all(2500 <= len(page) <= 3600 for page in pages)

    with PdfExtractor() as extractor:
        text = extractor.extract(write_text_pdf(tmp_path / "three.pdf", pages))

    assert (text.page_count, len(text.pages), text.notice) == (3, 3, None)
    for number, (written, read) in enumerate(zip(pages, text.pages, strict=True), start=1):
        assert " ".join(read.split()).startswith(" ".join(written.split()[:40]))  # lines wrapped, words the same
        assert read.rstrip().endswith(f"page {number} of 3")  # the footer


@pytest.mark.timeout(300)
def test_pdf_part_measures_extraction_first_index_and_reindex(tmp_path: Path) -> None:
    pdf = PdfOptions(pages=5, notes=2, vault_notes=3, small_pdfs=2, small_pages=2, repeats=2)
    options = suite.Options(parts=("pdf",), pdf=pdf, out=tmp_path / "results", stamp="2000-01-01", name="pdf")
    paths = suite.run_suite(options)

    assert {p.name for p in (tmp_path / "results").iterdir()} == {"2000-01-01-pdf.json", "2000-01-01-pdf.md"}
    result = json.loads(paths["json"].read_text(encoding="utf-8"))["pdf"]
    extraction = result["extraction"]
    assert (extraction["pages"], extraction["pages_extracted"]) == (5, 5)
    assert len(extraction["seconds_runs"]) == 2
    assert extraction["chars"] > 5 * 2000

    with_pdf, without = result["first_index"], result["first_index_without_pdf"]
    assert (with_pdf["notes"], without["notes"]) == (3, 2)
    assert with_pdf["extracted_pages"] == 5
    assert with_pdf["pdf_pages_with_chunks"] == 5
    assert with_pdf["chunks"] == without["chunks"] + with_pdf["pdf_chunks"]
    assert with_pdf["pdf_chunks"] >= 5
    assert (without["pdf_chunks"], without["extracted_pages"]) == (0, 0)
    assert set(with_pdf["shares"]) == {"extracting", "embedding", "model_load", "rest"}
    assert with_pdf["child_peak_rss_mb"] > 0
    assert without["child_peak_rss_mb"] is None  # no PDF, no extracting child

    again = result["reindex"]
    files = 1 + 2 + 3
    assert (again["first"]["indexed"], again["notes"]) == (files, files)
    assert [(r["indexed"], r["unchanged"], r["embedded"]) for r in again["noop"]["runs"]] == [(0, files, 0)] * 2
    changed = again["changed"]["runs"]
    assert [r["file"] for r in changed] == ["Papers/Paper 1.pdf", "Papers/Paper 2.pdf"]
    assert all((r["indexed"], r["unchanged"]) == (1, files - 1) for r in changed)  # only the rewritten PDF
    assert all(r["embedded"] > 0 for r in changed)
    assert again["touched"]["unchanged"] == files - again["touched"]["indexed"]

    markdown = paths["md"].read_text(encoding="utf-8")
    assert "## PDFs (a generated 5-page text PDF" in markdown
    assert "### First index" in markdown
    assert "| one small PDF rewritten (a different one each run) |" in markdown
    assert not (tmp_path / "results" / "pdf").exists()
