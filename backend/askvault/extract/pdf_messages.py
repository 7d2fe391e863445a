"""The sentences for a PDF's problems and notices: each a predicate the caller puts the file's vault path before."""

from __future__ import annotations

import signal
from collections.abc import Sequence
from typing import Literal

from askvault.extract.pdf_worker import PageState

ProblemKind = Literal["skipped", "failed"]
"""`skipped`: the file is fine but cannot be read as it is (a password); `failed`: something is wrong with it, or it
went past a limit."""

_MAX_LISTED = 5  # page numbers named in a notice; the rest are counted


def refusal(code: str, detail: str, max_memory_mb: int) -> tuple[ProblemKind, str]:
    """The kind and sentence for a worker's ("refused", code, detail) reply."""
    if code == "not_pdf":
        return "failed", f"is not a PDF ({detail}); save or export it as a PDF, or give it its real file extension"
    if code == "corrupt":
        return "failed", (
            "is a damaged PDF the PDF reader cannot open; save it again from a PDF viewer (or print it to a new PDF) "
            "to index it"
        )
    if code == "password":
        return "skipped", "is password-protected; save a copy without the password to index its text"
    if code == "security":
        return "skipped", (
            "is encrypted in a way the PDF reader does not support; save a copy without encryption to index its text"
        )
    if code == "no_pages":
        return "skipped", "has no pages, so there is nothing in it to index; add pages to it or delete it"
    if code == "unreadable":
        return "failed", f"could not be opened ({detail}); check that it exists and that Ask Vault may read it"
    if code == "memory":
        return "failed", too_big(max_memory_mb)
    return "failed", (
        f"could not be read: the PDF reader failed ({detail or code}); save it again from a PDF viewer to index it"
    )


def too_slow(max_seconds: float) -> str:
    unit = "second" if max_seconds == 1 else "seconds"
    return (
        f"took longer than the {max_seconds:g} {unit} a PDF may take to read; raise pdf_max_seconds (or split the PDF) "
        "to index it"
    )


def too_big(max_memory_mb: int) -> str:
    return (
        f"needed more than the {max_memory_mb:,} MB of memory a PDF may use while it is read (it may be built to "
        "exhaust memory); raise pdf_max_memory_mb to index it if you trust the file"
    )


def crashed(exitcode: int | None, max_memory_mb: int) -> str:
    """The sentence for a worker that died while reading the file (its exit code: minus the signal's number)."""
    if exitcode == -signal.SIGABRT:
        # PDFium aborts when an allocation fails under the address-space cap: a memory problem, not a bug.
        return too_big(max_memory_mb)
    if exitcode is None:
        how = ""
    elif exitcode < 0:
        how = f" ({_signal_name(-exitcode)})"
    else:
        how = f" (exit code {exitcode})"
    return (
        f"made the PDF reader crash{how}, so it is probably damaged or needs more than the {max_memory_mb:,} MB a "
        "PDF may use; save it again from a PDF viewer, or raise pdf_max_memory_mb, to index it"
    )


def not_started(detail: str) -> str:
    return (
        f"could not be read because the PDF reader did not start ({detail}); restart Ask Vault, and report it if "
        "this persists"
    )


def notice(states: Sequence[PageState], page_count: int, max_chars: int) -> str | None:
    """One sentence about what was left out of a PDF that was read (`states`: each extracted page's), or None."""
    clauses: list[str] = []
    if states and all(state in ("blank", "scan") for state in states):
        clauses.append(
            "has no text layer (a scan?); only its file name is searchable — run OCR on it to search its text"
        )
    else:
        scans = _numbers(states, "scan")
        if scans:
            clauses.append(
                f"has {_count(scans)} without a text layer ({_list(scans)}; scans?) — run OCR on it to search "
                f"{_them(scans)}"
            )
    broken = _numbers(states, "broken")
    if broken:
        clauses.append(
            f"has {_count(broken)} the PDF reader could not read ({_list(broken)}) — save it again from a PDF "
            f"viewer to index {_them(broken)}"
        )
    cut = _numbers(states, "cut")
    if cut:
        # No setting raises this one: a page past it is a generated dump rather than reading matter.
        clauses.append(
            f"has {_count(cut)} longer than {max_chars:,} characters ({_list(cut)}), of which only the first "
            f"{max_chars:,} were indexed"
        )
    if page_count > len(states):
        clauses.append(
            f"has {page_count:,} pages, of which only the first {len(states):,} were indexed — raise pdf_max_pages "
            "to index the rest"
        )
    return "; ".join(clauses) or None


def _numbers(states: Sequence[PageState], wanted: PageState) -> list[int]:
    return [number for number, state in enumerate(states, start=1) if state == wanted]


def _count(numbers: Sequence[int]) -> str:
    return "1 page" if len(numbers) == 1 else f"{len(numbers):,} pages"


def _them(numbers: Sequence[int]) -> str:
    return "it" if len(numbers) == 1 else "them"


def _list(numbers: Sequence[int]) -> str:
    """`page 3`, `pages 3 and 7`, `pages 1, 2, 3, 4, 5 and 9 more`."""
    if len(numbers) == 1:
        return f"page {numbers[0]:,}"
    shown = [f"{number:,}" for number in numbers[:_MAX_LISTED]]
    rest = len(numbers) - len(shown)
    if rest:
        return f"pages {', '.join(shown)} and {rest:,} more"
    return f"pages {', '.join(shown[:-1])} and {shown[-1]}"


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"
