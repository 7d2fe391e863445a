"""PdfExtractor: pages' text in order, notices for what is left out, one-sentence problems, and a child process that
absorbs bombs, timeouts and crashes while the caller carries on."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from askvault.extract.pdf import PdfExtractor, PdfLimits, PdfProblem, PdfText
from tests.extract.pdfs import NO_PAGES, SCAN, PageLayout, bomb_pdf, numbered_pages, raw_pdf, write_pdf


@pytest.fixture(scope="module")
def extractor() -> Iterator[PdfExtractor]:
    """One extractor (one child) for the tests that leave it healthy; a test that kills it makes its own."""
    with PdfExtractor() as shared:
        yield shared


def alive(pid: int) -> bool:
    """True while the process exists, a zombie included (it is gone once its parent has reaped it)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def wait_until_dead(pid: int) -> None:
    """Wait until the process has exited (a zombie, or reaped): a signal lands asynchronously."""
    stat = Path(f"/proc/{pid}/stat")
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            if stat.read_text().rpartition(")")[2].split()[0] == "Z":
                return
        except FileNotFoundError:
            return
        time.sleep(0.005)
    raise AssertionError(f"process {pid} is still running")


def test_reads_every_page_in_order(extractor: PdfExtractor, tmp_path: Path) -> None:
    texts = ["First page\nwith two lines", "Second page: café, naïve, £50", "Third\tpage"]
    text = extractor.extract(write_pdf(tmp_path / "three.pdf", texts))
    assert text == PdfText(pages=tuple(texts), page_count=3, notice=None)


@pytest.mark.parametrize(
    ("layout", "pages", "notice"),
    [
        pytest.param(["one", None, "three"], ("one", "", "three"), None, id="an-empty-page-is-no-news"),
        pytest.param(
            ["one", SCAN, "three", SCAN],
            ("one", "", "three", ""),
            "has 2 pages without a text layer (pages 2 and 4; scans?) — run OCR on it to search them",
            id="scanned-pages-among-text",
        ),
        pytest.param(
            [SCAN, SCAN, SCAN],
            ("", "", ""),
            "has no text layer (a scan?); only its file name is searchable — run OCR on it to search its text",
            id="all-scanned",
        ),
        pytest.param(
            [None],
            ("",),
            "has no text layer (a scan?); only its file name is searchable — run OCR on it to search its text",
            id="nothing-on-any-page",
        ),
    ],
)
def test_pages_without_text(
    extractor: PdfExtractor, tmp_path: Path, layout: Sequence[PageLayout], pages: tuple[str, ...], notice: str | None
) -> None:
    text = extractor.extract(write_pdf(tmp_path / "doc.pdf", layout))
    assert text == PdfText(pages=pages, page_count=len(layout), notice=notice)


def test_page_and_character_limits_keep_the_start_and_say_which_setting_raises_them(tmp_path: Path) -> None:
    long_page = "word " * 20
    path = write_pdf(tmp_path / "long.pdf", [long_page, "short", "third", "fourth", "fifth"])
    with PdfExtractor(PdfLimits(max_pages=2, max_chars_per_page=30)) as extractor:
        text = extractor.extract(path)
    assert text.pages == (long_page[:30], "short")
    assert text.page_count == 5
    assert text.notice == (
        "has 1 page longer than 30 characters (page 1), of which only the first 30 were indexed; has 5 pages, of "
        "which only the first 2 were indexed — raise pdf_max_pages to index the rest"
    )


def _html(path: Path) -> None:
    path.write_bytes(b"<!DOCTYPE html>\n<html><head><title>Saved page</title></head><body>hi</body></html>\n")


def _truncated(path: Path) -> None:
    whole = write_pdf(path, numbered_pages(3)).read_bytes()
    path.write_bytes(whole[: len(whole) // 2])


def _garbage(path: Path) -> None:
    path.write_bytes(b"%PDF-1.7\n" + bytes(range(256)) * 8)


@pytest.mark.parametrize(
    ("make", "kind", "message"),
    [
        pytest.param(
            _html,
            "failed",
            "is not a PDF (it starts like an HTML page); save or export it as a PDF, or give it its real file "
            "extension",
            id="html-saved-as-pdf",
        ),
        pytest.param(lambda path: path.write_bytes(b""), "failed", "is not a PDF (the file is empty);", id="empty"),
        pytest.param(
            _truncated,
            "failed",
            "is a damaged PDF the PDF reader cannot open; save it again from a PDF viewer (or print it to a new PDF) "
            "to index it",
            id="truncated",
        ),
        pytest.param(_garbage, "failed", "is a damaged PDF", id="header-then-garbage"),
        pytest.param(
            lambda path: write_pdf(path, ["top secret"], user_password="secret"),
            "skipped",
            "is password-protected; save a copy without the password to index its text",
            id="password",
        ),
        pytest.param(
            lambda path: raw_pdf(path, NO_PAGES),
            "skipped",
            "has no pages, so there is nothing in it to index; add pages to it or delete it",
            id="no-pages",
        ),
        pytest.param(lambda path: None, "failed", "could not be opened (it does not exist);", id="missing"),
        pytest.param(lambda path: path.mkdir(), "failed", "could not be opened (it is a folder);", id="folder"),
    ],
)
def test_refuses_with_one_sentence(
    extractor: PdfExtractor, tmp_path: Path, make: Callable[[Path], object], kind: str, message: str
) -> None:
    path = tmp_path / "file.pdf"
    make(path)
    extractor.extract(write_pdf(tmp_path / "warm.pdf", ["warm"]))  # the child is up before the refusal
    pid = extractor.worker_pid
    with pytest.raises(PdfProblem) as caught:
        extractor.extract(path)
    assert caught.value.kind == kind
    assert caught.value.message.startswith(message)
    assert "\n" not in caught.value.message
    assert extractor.worker_pid == pid  # a refused file costs no restart


def test_each_file_is_judged_on_its_own(extractor: PdfExtractor, tmp_path: Path) -> None:
    """PDFium keeps its last error across files; one file's (a password) must not become the next one's reason."""
    locked = write_pdf(tmp_path / "locked.pdf", ["secret"], user_password="secret")
    empty = raw_pdf(tmp_path / "empty.pdf", NO_PAGES)
    fine = write_pdf(tmp_path / "fine.pdf", ["fine"])
    told: list[str] = []
    for path in (locked, empty, fine, locked, fine, empty):
        try:
            told.append(extractor.extract(path).pages[0])
        except PdfProblem as problem:
            told.append(problem.message.partition(";")[0])
    locked_says, empty_says = "is password-protected", "has no pages, so there is nothing in it to index"
    assert told == [locked_says, empty_says, "fine", locked_says, "fine", empty_says]


def test_a_pdf_bomb_fails_alone_and_the_next_file_is_read(tmp_path: Path) -> None:
    bomb = bomb_pdf(tmp_path / "bomb.pdf", 4096)  # 4 GiB of spaces in one page's content stream, 4 MB on disk
    assert bomb.stat().st_size < 8 << 20
    normal = write_pdf(tmp_path / "normal.pdf", numbered_pages(2))
    peak_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with PdfExtractor() as extractor:
        extractor.extract(normal)
        first_pid = extractor.worker_pid
        with pytest.raises(PdfProblem) as caught:
            extractor.extract(bomb)
        assert caught.value.kind == "failed"
        assert "1,024 MB" in caught.value.message
        assert "raise pdf_max_memory_mb" in caught.value.message
        assert first_pid is not None
        assert not alive(first_pid)
        assert extractor.extract(normal).pages == tuple(numbered_pages(2))
        assert extractor.worker_pid not in (None, first_pid)
    # ru_maxrss is in KiB on Linux: the bomb's gigabytes never reached this process.
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak_before < 100 * 1024


def test_a_slow_pdf_times_out_and_the_next_file_is_read(tmp_path: Path) -> None:
    # 128 MiB of `q Q` (save and restore the graphics state): about 1.7 s of parsing on a 2-core machine, 100 kB
    # on disk; the limit is far below that and far above the millisecond the next file takes.
    slow = bomb_pdf(tmp_path / "slow.pdf", 128, b"q Q\n")
    normal = write_pdf(tmp_path / "normal.pdf", ["after the timeout"])
    with PdfExtractor(PdfLimits(max_seconds=0.25)) as extractor:
        extractor.extract(normal)
        first_pid = extractor.worker_pid
        with pytest.raises(PdfProblem) as caught:
            extractor.extract(slow)
        assert caught.value.kind == "failed"
        assert caught.value.message == (
            "took longer than the 0.25 seconds a PDF may take to read; raise pdf_max_seconds (or split the PDF) "
            "to index it"
        )
        assert extractor.worker_pid is None  # killed at the deadline, not left to finish
        assert first_pid is not None
        assert not alive(first_pid)
        assert extractor.extract(normal).pages == ("after the timeout",)
        assert extractor.worker_pid not in (None, first_pid)


def test_a_child_killed_between_files_is_replaced_without_blaming_the_next(
    extractor: PdfExtractor, tmp_path: Path
) -> None:
    path = write_pdf(tmp_path / "doc.pdf", ["still read"])
    extractor.extract(path)
    pid = extractor.worker_pid
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    wait_until_dead(pid)
    assert extractor.extract(path).pages == ("still read",)
    assert extractor.worker_pid != pid


def test_threads_share_one_extractor(extractor: PdfExtractor, tmp_path: Path) -> None:
    paths = [write_pdf(tmp_path / f"{n}.pdf", [f"document {n}", f"page two of {n}"]) for n in range(8)]
    results: dict[int, tuple[str, ...]] = {}

    def read(n: int) -> None:
        results[n] = extractor.extract(paths[n]).pages

    threads = [threading.Thread(target=read, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == {n: (f"document {n}", f"page two of {n}") for n in range(8)}


def test_close_ends_the_child(tmp_path: Path) -> None:
    path = write_pdf(tmp_path / "doc.pdf", ["text"])
    extractor = PdfExtractor()
    assert PdfExtractor().worker_pid is None  # started on first use
    extractor.extract(path)
    pid = extractor.worker_pid
    assert pid is not None
    assert alive(pid)
    extractor.close()
    assert not alive(pid)  # ended and reaped
    assert extractor.worker_pid is None
    with pytest.raises(RuntimeError, match="closed"):
        extractor.extract(path)
    extractor.close()  # twice is fine


@pytest.mark.parametrize(
    "limits",
    [
        {"max_pages": 0},
        {"max_seconds": 0},
        {"max_seconds": float("nan")},
        {"max_seconds": float("inf")},
        {"max_memory_mb": 10},
        {"max_chars_per_page": 0},
    ],
    ids=["pages", "seconds", "nan-seconds", "endless", "memory", "chars"],
)
def test_limits_refuse_values_that_could_not_work(limits: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="must be"):
        PdfLimits(**limits)


def test_the_child_never_needs_the_host_s_main_module(tmp_path: Path) -> None:
    """A host reading its program from stdin has a main module that is no file: the child still starts."""
    pdf = write_pdf(tmp_path / "two.pdf", ["First page text", "Second page text"])
    program = (
        "from pathlib import Path\n"
        "from askvault.extract.pdf import PdfExtractor\n"
        "with PdfExtractor() as extractor:\n"
        f"    print(extractor.extract(Path({str(pdf)!r})).pages)\n"
    )
    done = subprocess.run(
        [sys.executable, "-"], input=program, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "Second page text" in done.stdout
