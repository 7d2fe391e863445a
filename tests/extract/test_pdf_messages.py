"""The pure parts of PDF extraction: what a non-PDF looks like, a page's text cleaned, and every sentence told."""

from __future__ import annotations

import signal
from collections.abc import Sequence

import pytest

from askvault.extract.pdf_messages import crashed, notice, refusal, too_big, too_slow
from askvault.extract.pdf_worker import PageState, clean_text, describe_start


@pytest.mark.parametrize(
    ("head", "what"),
    [
        (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", None),
        (b"junk before the header " * 20 + b"%PDF-1.4", None),
        (b"<!DOCTYPE html>\n<html lang=en>", "it starts like an HTML page"),
        (b"\xef\xbb\xbf  <html><head>", "it starts like an HTML page"),
        (b"<!-- saved from url=(0038)https://example.org -->\n<html>", "it starts like an HTML page"),
        (b'<?xml version="1.0"?><svg/>', "it starts like an XML or HTML file"),
        (b"PK\x03\x04\x14\x00\x06\x00", "it starts like a ZIP archive (a Word or other Office file?)"),
        (b"\x89PNG\r\n\x1a\n\x00\x00", "it starts like a PNG image"),
        (b"\xff\xd8\xff\xe0\x00\x10JFIF", "it starts like a JPEG image"),
        (b"%!PS-Adobe-3.0\n", "it starts like a PostScript file"),
        (b"Meeting notes\nsaved with the wrong name \xc3", "it holds plain text"),
        (b"\x00\x01\x02\x03binary", "it does not start with the PDF header"),
        (b"caf\xe9 latin-1 text", "it does not start with the PDF header"),
        (b"", "the file is empty"),
    ],
    ids=[
        "pdf",
        "pdf-header-after-junk",
        "html",
        "html-after-bom-and-spaces",
        "html-after-a-comment",
        "xml",
        "zip",
        "png",
        "jpeg",
        "postscript",
        "text-cut-mid-character",
        "binary",
        "not-utf8",
        "empty",
    ],
)
def test_describes_what_a_non_pdf_starts_like(head: bytes, what: str | None) -> None:
    assert describe_start(head) == what


@pytest.mark.parametrize(
    ("raw", "text"),
    [
        ("one\r\ntwo\r\n", "one\ntwo\n"),
        ("one\rtwo", "one\ntwo"),
        ("tab\tkept", "tab\tkept"),
        ("nul\x00 form\x0cfeed \x02marker \x7fdel \x85nel", "nul formfeed marker del nel"),
        ("non\ufffechar\uffff", "nonchar"),
        ("Grüße ✓", "Grüße ✓"),
    ],
    ids=["crlf", "cr", "tab", "control-characters", "non-characters", "unicode"],
)
def test_cleans_page_text(raw: str, text: str) -> None:
    assert clean_text(raw) == text


NO_TEXT = "has no text layer (a scan?); only its file name is searchable — run OCR on it to search its text"


@pytest.mark.parametrize(
    ("states", "page_count", "expected"),
    [
        (["text", "blank", "text"], 3, None),
        ([], 0, None),
        (["blank", "scan"], 2, NO_TEXT),
        (
            ["text", "scan"],
            2,
            "has 1 page without a text layer (page 2; scans?) — run OCR on it to search it",
        ),
        (
            ["scan"] * 8 + ["text"],
            9,
            "has 8 pages without a text layer (pages 1, 2, 3, 4, 5 and 3 more; scans?) — run OCR on it to search them",
        ),
        (
            ["text", "broken", "broken"],
            3,
            "has 2 pages the PDF reader could not read (pages 2 and 3) — save it again from a PDF viewer to index them",
        ),
        (
            ["text"] * 1000,
            2000,
            "has 2,000 pages, of which only the first 1,000 were indexed — raise pdf_max_pages to index the rest",
        ),
        (
            ["scan"] * 2,
            5,
            NO_TEXT + "; has 5 pages, of which only the first 2 were indexed — raise pdf_max_pages to index the rest",
        ),
    ],
    ids=["blank-pages-say-nothing", "no-pages", "no-text-at-all", "one-scan", "many-scans", "broken", "over", "both"],
)
def test_notice(states: Sequence[PageState], page_count: int, expected: str | None) -> None:
    assert notice(states, page_count, max_chars=200_000) == expected


def test_cut_pages_name_the_limit() -> None:
    assert notice(["cut", "text", "cut", "cut"], 4, max_chars=200_000) == (
        "has 3 pages longer than 200,000 characters (pages 1, 3 and 4), of which only the first 200,000 were indexed"
    )


@pytest.mark.parametrize(
    ("code", "kind", "start"),
    [
        ("not_pdf", "failed", "is not a PDF (DETAIL); "),
        ("corrupt", "failed", "is a damaged PDF"),
        ("password", "skipped", "is password-protected; "),
        ("security", "skipped", "is encrypted in a way the PDF reader does not support; "),
        ("no_pages", "skipped", "has no pages"),
        ("unreadable", "failed", "could not be opened (DETAIL); "),
        ("memory", "failed", "needed more than the 512 MB of memory"),
        ("internal", "failed", "could not be read: the PDF reader failed (DETAIL); "),
    ],
)
def test_refusals_are_one_sentence_with_a_fix(code: str, kind: str, start: str) -> None:
    told_kind, message = refusal(code, "DETAIL", max_memory_mb=512)
    assert (told_kind, message[: len(start)]) == (kind, start)
    assert "; " in message
    assert "\n" not in message
    assert not message.endswith(".")


@pytest.mark.parametrize(
    ("exitcode", "expected"),
    [
        (-signal.SIGABRT, too_big(1024)),
        (
            -signal.SIGSEGV,
            "made the PDF reader crash (SIGSEGV), so it is probably damaged or needs more than the 1,024 MB a PDF may "
            "use; save it again from a PDF viewer, or raise pdf_max_memory_mb, to index it",
        ),
        (1, "made the PDF reader crash (exit code 1), so"),
        (None, "made the PDF reader crash, so"),
    ],
    ids=["abort-is-memory", "segfault", "exit-code", "unknown"],
)
def test_crashes(exitcode: int | None, expected: str) -> None:
    assert crashed(exitcode, 1024).startswith(expected)


def test_limits_in_sentences() -> None:
    assert too_slow(1).startswith("took longer than the 1 second a PDF")
    assert too_slow(60.0).startswith("took longer than the 60 seconds a PDF")
    assert too_big(2048).startswith("needed more than the 2,048 MB of memory")
    assert "raise pdf_max_memory_mb" in too_big(2048)
