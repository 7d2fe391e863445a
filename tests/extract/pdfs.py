"""PDFs for the extraction tests: text pages written with fpdf2, scans, encryption, and a hand-made bomb."""

from __future__ import annotations

import itertools
import zlib
from collections.abc import Iterable, Sequence
from pathlib import Path

from fpdf import FPDF
from PIL import Image

SCAN = object()
"""A page layout entry: a page showing only an image (as a scanner makes them); None is an empty page."""

PageLayout = str | object | None

_MB = 1 << 20
_ADLER_MOD = 65521


def write_pdf(path: Path, pages: Sequence[PageLayout], *, user_password: str | None = None) -> Path:
    """A PDF with one page per entry: its text (lines split on newlines), SCAN, or None for an empty page."""
    pdf = FPDF()
    pdf.set_font("Helvetica", size=11)
    for page in pages:
        pdf.add_page()
        if page is SCAN:
            pdf.image(Image.new("L", (40, 40), color=128), x=20, y=20, w=60)
        elif isinstance(page, str):
            pdf.multi_cell(0, 6, page)
    if user_password is not None:
        pdf.set_encryption(owner_password="owner", user_password=user_password)
    pdf.output(str(path))
    return path


def numbered_pages(count: int, *, lines: int = 1) -> list[str]:
    """Page texts that say which page they are (`Page 7 line 1 ...`)."""
    return [
        "\n".join(f"Page {n} line {line} of the quarterly report" for line in range(1, lines + 1))
        for n in range(1, count + 1)
    ]


def bomb_pdf(path: Path, megabytes: int, pattern: bytes = b" ") -> Path:
    """A one-page PDF whose content stream inflates to `megabytes` MiB of `pattern` repeated (its length a power of
    two): spaces are valid, empty content; `q Q` pairs are content PDFium parses slowly.

    Built in constant memory: one MiB is deflated after a full flush (so it refers to nothing before it) and that
    block is repeated; the zlib trailer's Adler-32 is combined from the block's.
    """
    block = pattern * (_MB // len(pattern))
    assert len(block) == _MB, "the pattern's length must divide a MiB"
    deflate = zlib.compressobj(9)
    first = deflate.compress(block) + deflate.flush(zlib.Z_FULL_FLUSH)
    repeat = deflate.compress(block) + deflate.flush(zlib.Z_FULL_FLUSH)
    end = deflate.flush()[:-4] + _adler32_repeated(zlib.adler32(block), _MB, megabytes).to_bytes(4, "big")
    length = len(first) + len(repeat) * (megabytes - 1) + len(end)
    stream = [b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % length, first]
    stream.extend(itertools.repeat(repeat, megabytes - 1))
    stream.append(end + b"\nendstream")
    return raw_pdf(path, [*_ONE_PAGE, stream])


def raw_pdf(path: Path, objects: Sequence[Iterable[bytes]]) -> Path:
    """A PDF of these objects (numbered from 1, the first the catalog), each written piece by piece, with its
    cross-reference table."""
    offsets: list[int] = []
    with path.open("wb") as out:
        out.write(b"%PDF-1.4\n")
        for number, pieces in enumerate(objects, start=1):
            offsets.append(out.tell())
            out.write(b"%d 0 obj\n" % number)
            out.writelines(pieces)
            out.write(b"\nendobj\n")
        xref = out.tell()
        out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(offsets) + 1))
        out.writelines(b"%010d 00000 n \n" % offset for offset in offsets)
        out.write(b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(offsets) + 1, xref))
    return path


_ONE_PAGE = (
    [b"<< /Type /Catalog /Pages 2 0 R >>"],
    [b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>"],
    [b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>"],
)
NO_PAGES = ([b"<< /Type /Catalog /Pages 2 0 R >>"], [b"<< /Type /Pages /Kids [] /Count 0 >>"])


def _adler32_repeated(adler: int, length: int, count: int) -> int:
    """The Adler-32 of `count` copies of a block (its checksum and length), by doubling: O(log count) steps."""
    total, doubled, doubled_length = 1, adler, length  # 1 is the checksum of nothing
    while count:
        if count & 1:
            total = _adler32_combine(total, doubled, doubled_length)
        doubled, doubled_length = _adler32_combine(doubled, doubled, doubled_length), doubled_length * 2
        count >>= 1
    return total


def _adler32_combine(first: int, second: int, second_length: int) -> int:
    # Reading the second part from the first's sums instead of (1, 0): A gains A1 - 1, and B gains B1 plus
    # A1 - 1 once per byte of the second part.
    a1, b1, a2, b2 = first & 0xFFFF, first >> 16, second & 0xFFFF, second >> 16
    a = (a1 + a2 - 1) % _ADLER_MOD
    b = (b1 + b2 + second_length * (a1 - 1)) % _ADLER_MOD
    return (b << 16) | a


def many_pages_pdf(path: Path, count: int) -> Path:
    """A PDF of `count` pages, each saying `Page N of the handbook`, written directly (fpdf2 takes seconds per
    thousand pages): catalog, page tree, one font, then a page and its content stream per page."""
    font = 3
    first = 4
    kids = b" ".join(b"%d 0 R" % (first + 2 * n) for n in range(count))
    objects: list[list[bytes]] = [
        [b"<< /Type /Catalog /Pages 2 0 R >>"],
        [b"<< /Type /Pages /Kids [", kids, b"] /Count %d >>" % count],
        [b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"],
    ]
    for n in range(count):
        content = b"BT /F1 12 Tf 72 720 Td (Page %d of the handbook) Tj ET" % (n + 1)
        objects.append(
            [
                b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 %d 0 R >> >> " % font,
                b"/Contents %d 0 R >>" % (first + 2 * n + 1),
            ]
        )
        objects.append([b"<< /Length %d >>\nstream\n" % len(content), content, b"\nendstream"])
    return raw_pdf(path, objects)
