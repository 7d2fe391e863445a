"""The PDF worker process: under an address-space cap, reads one PDF per request and sends its pages' text back.

Runs only in the child that `pdf.PdfExtractor` starts. Every reply is a tuple of built-in values (the wire format
below), so the parent never unpickles anything but strings and numbers. pypdfium2 is imported here, inside the
child, never in the sidecar: PDFium's memory and crashes stay on this side of the pipe.
"""

from __future__ import annotations

import codecs
import contextlib
import re
import signal
import sys
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Literal

PageState = Literal["text", "blank", "scan", "cut", "broken"]
"""What a page gave: text; nothing (an empty page); nothing but an image (a scan); text cut at the character
limit; nothing because PDFium could not load the page."""

RefusalCode = Literal["not_pdf", "corrupt", "password", "security", "no_pages", "unreadable", "memory", "internal"]

# The wire format. Parent to child: (path, max_pages, max_chars_per_page), or None to stop. Child to parent:
#   ("ready", memory_capped)                  once, after start
#   ("page", text, state)                     one per page, in order, at most max_pages
#   ("done", page_count)                      after the last page sent
#   ("refused", code, detail)                 instead of pages (or after some, for "memory" and "internal")

_PDF_HEADER = b"%PDF-"
_HEAD_BYTES = 1024  # PDFium looks for the header this far in, so a file without it within as many is no PDF

# Control characters are no text (NUL, form feeds, PDFium's own markers) and U+FFFE/U+FFFF are no characters;
# tab and line feed stay.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ufffe\uffff]")

_PDFIUM_PASSWORD = 4  # FPDF_ERR_PASSWORD
_PDFIUM_SECURITY = 5  # FPDF_ERR_SECURITY
# How PDFium wants a path: UTF-8; a POSIX name that is not UTF-8 keeps its bytes (as pypdfium2 does it).
_PATH_ERRORS = "strict" if sys.platform == "win32" else "surrogateescape"


def serve(conn: Connection, max_memory_mb: int) -> None:
    """The child's main loop: cap the address space, say ready, then answer requests until EOF or None."""
    # Ctrl+C in a terminal reaches the whole process group; the parent alone decides when this process ends.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    capped = cap_memory(max_memory_mb)
    import pypdfium2  # after the cap, so that PDFium's own allocations count against it

    conn.send(("ready", capped))
    while True:
        try:
            request = conn.recv()
        except (EOFError, OSError):
            return  # the parent went away: nothing is waiting for an answer
        if request is None:
            return
        path, max_pages, max_chars = request
        try:
            _extract(conn, pypdfium2, Path(path), max_pages, max_chars)
        except MemoryError:
            # Python itself hit the cap (a page's text, a list); the parent restarts this process after it.
            _send_quietly(conn, ("refused", "memory", ""))
            return
        except Exception as exc:
            detail = " ".join(f"{type(exc).__name__}: {exc}".split())  # one line, for a one-sentence message
            _send_quietly(conn, ("refused", "internal", detail[:300]))
            return


def cap_memory(max_memory_mb: int) -> bool:
    """Cap this process's address space (RLIMIT_AS); False where the platform has no such limit (Windows, or one
    that refuses it, as macOS may)."""
    try:
        import resource
    except ImportError:
        return False
    wanted = max_memory_mb * 1024 * 1024
    try:
        _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard != resource.RLIM_INFINITY:
            wanted = min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_AS, (wanted, hard))
    except (ValueError, OSError):
        return False
    return True


def clean_text(raw: str) -> str:
    """A page's text with LF line ends and without control characters (PDFium ends lines with CRLF)."""
    text = raw.replace("\r\n", "\n").replace("\r", "\n")
    return _CONTROL.sub("", text)


def describe_start(head: bytes) -> str | None:
    """How a file that is no PDF starts, as the parenthesis of a sentence ("it starts like an HTML page"); None
    when it carries the PDF header where PDFium looks for it (then it is a damaged PDF, not another kind of file)."""
    if _PDF_HEADER in head[:_HEAD_BYTES]:
        return None
    if not head:
        return "the file is empty"
    start = head.lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    for signature, what in _SIGNATURES:
        if start.startswith(signature):
            return f"it starts like {what}"
    if b"<html" in start or b"<!doctype html" in start or b"<head" in start:
        return "it starts like an HTML page"
    if start.startswith(b"<"):
        return "it starts like an XML or HTML file"
    if b"\x00" not in start and _is_utf8(start):
        return "it holds plain text"
    return "it does not start with the PDF header"


def _is_utf8(head: bytes) -> bool:
    # Not final: the head may end inside a character.
    try:
        codecs.getincrementaldecoder("utf-8")().decode(head, final=False)
    except UnicodeDecodeError:
        return False
    return True


_SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (b"<!doctype html", "an HTML page"),
    (b"<html", "an HTML page"),
    (b"pk\x03\x04", "a ZIP archive (a Word or other Office file?)"),
    (b"\x89png", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"gif8", "a GIF image"),
    (b"%!ps", "a PostScript file"),
    (b"{\\rtf", "an RTF document"),
    (b"\xd0\xcf\x11\xe0", "an old Office document"),
)


def _extract(conn: Connection, pdfium: Any, path: Path, max_pages: int, max_chars: int) -> None:
    if not path.is_file():
        conn.send(("refused", "unreadable", _why_unreadable(path, None)))
        return
    # PDFium's own call, not pypdfium2's PdfDocument(path): that asks for the last error even when the file opened
    # with no pages, and PDFium leaves the last error as an earlier file's (a password PDF's, say) on success.
    raw = pdfium.raw.FPDF_LoadDocument((str(path) + "\x00").encode("utf-8", errors=_PATH_ERRORS), None)
    if not raw:
        conn.send(("refused", *_open_refusal(path, pdfium.raw.FPDF_GetLastError())))
        return
    document = pdfium.PdfDocument(raw)
    try:
        page_count = len(document)
        if page_count < 1:
            conn.send(("refused", "no_pages", ""))
            return
        for index in range(min(page_count, max_pages)):
            conn.send(("page", *_read_page(pdfium, document, index, max_chars)))
        conn.send(("done", page_count))
    finally:
        document.close()


def _open_refusal(path: Path, err_code: int) -> tuple[RefusalCode, str]:
    if err_code == _PDFIUM_PASSWORD:
        return "password", ""
    if err_code == _PDFIUM_SECURITY:
        return "security", ""
    try:
        with path.open("rb") as file:
            head = file.read(_HEAD_BYTES)
    except OSError as exc:
        return "unreadable", _why_unreadable(path, exc)
    what = describe_start(head)
    return ("not_pdf", what) if what else ("corrupt", "")


def _why_unreadable(path: Path, exc: OSError | None) -> str:
    if path.is_dir():
        return "it is a folder"
    if isinstance(exc, FileNotFoundError) or not path.exists():
        return "it does not exist"
    if exc is None:
        return "it is not a regular file"
    return (exc.strerror or type(exc).__name__).lower()


def _read_page(pdfium: Any, document: Any, index: int, max_chars: int) -> tuple[str, PageState]:
    try:
        page = document[index]
    except pdfium.PdfiumError:
        return "", "broken"
    try:
        try:
            textpage = page.get_textpage()
        except pdfium.PdfiumError:
            return "", "broken"
        try:
            count = textpage.count_chars()
            # Only as many characters as may be kept leave PDFium: a page of millions stays a bounded string.
            raw = textpage.get_text_range(0, min(count, max_chars)) if count > 0 else ""
        finally:
            textpage.close()
        text = clean_text(raw)
        if text.strip():
            return text, "cut" if count > max_chars else "text"
        return "", "scan" if _has_image(pdfium, page) else "blank"
    finally:
        page.close()


def _has_image(pdfium: Any, page: Any) -> bool:
    """True when a page without text shows an image: most likely a scan that OCR could read."""
    images = page.get_objects(filter=[pdfium.raw.FPDF_PAGEOBJ_IMAGE], max_depth=4)
    return next(iter(images), None) is not None


def _send_quietly(conn: Connection, message: tuple[object, ...]) -> None:
    with contextlib.suppress(OSError, MemoryError):  # then the parent sees the process end instead
        conn.send(message)
