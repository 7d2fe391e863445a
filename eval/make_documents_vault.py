"""Writes the PDFs of `eval/documents-vault/` (eval/documents-vault/README.md): five documents a person keeps.

Usage: `.venv/bin/python eval/make_documents_vault.py [--check]`

The notes and canvases of the vault are plain files written by hand; only the PDFs are generated, with fpdf2's
core Helvetica (so every text is Latin-1) and a fixed creation date, so the same fpdf2 and Pillow give the same
bytes. `--check` writes nothing and fails when a PDF in the vault differs from what this script writes. The
scan (`Home/Scans/Bike shop receipt.pdf`) is two pages that are only an image, with no text layer at all, as a
flatbed scanner makes them: its words are pixels, so nothing of it can be found by search.
"""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from fpdf import FPDF
from fpdf.enums import XPos, YPos
from PIL import Image, ImageDraw, ImageFont

from documents_vault_texts import SCAN_PAGES, SCAN_PATH, TEXT_DOCUMENTS, Document  # beside this script

VAULT = Path(__file__).resolve().parent / "documents-vault"
CREATED = datetime(2025, 3, 1, 9, 0, 0, tzinfo=UTC)
"""Every PDF's creation date: fixed, so the output does not change from run to run."""


class _Pdf(FPDF):
    def __init__(self, document: Document) -> None:
        super().__init__(orientation="L" if document.slides else "P", format="A4")
        self._footer_text = document.footer

    def footer(self) -> None:
        if not self._footer_text:
            return
        self.set_y(-15)
        self.set_font("Helvetica", size=8)
        self.cell(0, 10, f"{self._footer_text} {self.page_no()}", align="C")


def _new_pdf(document: Document | None, title: str) -> _Pdf:
    pdf = _Pdf(document or Document(path="", title=title, pages=()))
    pdf.set_creation_date(CREATED)
    pdf.set_title(title)
    pdf.set_author("Ask Vault evaluation")
    pdf.set_auto_page_break(auto=True, margin=20)
    return pdf


def text_pdf(document: Document) -> bytes:
    """A document's text pages: the heading in bold, then each paragraph wrapped to the page width."""
    pdf = _new_pdf(document, document.title)
    heading_size, body_size, gap = (26, 20, 6) if document.slides else (14, 11, 3)
    for page in document.pages:
        pdf.add_page()
        if document.slides:
            pdf.set_y(30)
        pdf.set_font("Helvetica", style="B", size=heading_size)
        pdf.multi_cell(0, heading_size * 0.55, page.heading, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        pdf.ln(gap * 2)
        pdf.set_font("Helvetica", size=body_size)
        for paragraph in page.paragraphs:
            pdf.multi_cell(0, body_size * 0.5, paragraph, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
            pdf.ln(gap)
    return bytes(pdf.output())


def _scan_image(lines: Sequence[str]) -> Image.Image:
    """A grey receipt on a white bed, its lines drawn as pixels (Pillow's built-in bitmap font)."""
    image = Image.new("L", (420, 560), color=255)
    draw = ImageDraw.Draw(image)
    draw.rectangle((30, 20, 390, 540), fill=236, outline=200)
    font = ImageFont.load_default_imagefont()
    for number, line in enumerate(lines):
        draw.text((50, 50 + number * 22), line, fill=40, font=font)
    return image


def scan_pdf(pages: Sequence[Sequence[str]]) -> bytes:
    """Pages that are one image each and have no text layer."""
    pdf = _new_pdf(None, "Scan")
    for lines in pages:
        pdf.add_page()
        buffer = io.BytesIO()
        _scan_image(lines).save(buffer, format="PNG", optimize=True)
        pdf.image(buffer, x=25, y=20, w=160)
    return bytes(pdf.output())


def built() -> dict[str, bytes]:
    """Every generated PDF by its vault path."""
    files = {document.path: text_pdf(document) for document in TEXT_DOCUMENTS}
    files[SCAN_PATH] = scan_pdf(SCAN_PAGES)
    return files


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="Write nothing; fail when a vault PDF differs.")
    args = parser.parse_args()
    stale: list[str] = []
    for rel, data in built().items():
        target = VAULT / rel
        if args.check:
            if not target.is_file() or target.read_bytes() != data:
                stale.append(rel)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        print(f"{rel}: {len(data):,} bytes")
    if stale:
        print(f"differs from the generator: {', '.join(stale)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
