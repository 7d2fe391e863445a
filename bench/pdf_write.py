"""Text PDFs for the `pdf` part: seeded English prose, laid out as a report's pages and written straight as PDF.

fpdf2 (what tests/extract/pdfs.py uses) takes ≈ 11 s for 500 pages of 3,000 characters; this writer lays the lines
out itself (Helvetica, one `Tj` per line, each page's content deflated, as word processors write them) and takes
well under a second, so the bench writes its PDFs afresh every run. PDFium reads the lines back as written.
"""

from __future__ import annotations

import random
import textwrap
import zlib
from collections.abc import Sequence
from pathlib import Path

NOUNS = (
    "report", "budget", "server", "cluster", "database", "network", "schedule", "contract", "supplier", "invoice",
    "warehouse", "shipment", "customer", "survey", "forecast", "pipeline", "release", "backup", "outage", "incident",
    "policy", "audit", "committee", "meeting", "proposal", "project", "deadline", "milestone", "prototype", "sensor",
    "pump", "boiler", "turbine", "valve", "battery", "inverter", "roof", "window", "heater", "ventilation",
    "library", "archive", "catalogue", "manuscript", "chapter", "author", "editor", "reviewer", "journal", "study",
    "sample", "experiment", "laboratory", "measurement", "variable", "model", "estimate", "threshold", "baseline",
    "region", "district", "village", "harbour", "bridge", "railway", "station", "route", "vehicle", "driver",
    "farmer", "harvest", "orchard", "soil", "river", "forest", "climate", "rainfall", "drought", "season",
    "patient", "clinic", "treatment", "dose", "symptom", "nurse", "ward", "record", "appointment", "referral",
    "student", "teacher", "course", "lecture", "exam", "curriculum", "workshop", "seminar", "grant", "partner",
    "market", "price", "margin", "revenue", "cost", "loan", "interest", "account", "payment", "tax",
    "software", "interface", "update", "license", "account", "password", "device", "printer", "cable", "router",
)  # fmt: skip
ADJECTIVES = (
    "annual", "early", "late", "recent", "former", "current", "regional", "local", "national", "central",
    "minor", "major", "significant", "modest", "steady", "sudden", "gradual", "unexpected", "familiar", "unusual",
    "reliable", "fragile", "robust", "expensive", "cheap", "efficient", "noisy", "quiet", "dry", "wet",
    "northern", "southern", "eastern", "western", "upper", "lower", "internal", "external", "manual", "automatic",
    "detailed", "brief", "formal", "informal", "technical", "legal", "financial", "medical", "seasonal", "temporary",
    "permanent", "shared", "private", "public", "remote", "nearby", "careful", "rough", "accurate", "uncertain",
)  # fmt: skip
VERBS = (
    ("review", "reviewed"), ("replace", "replaced"), ("reduce", "reduced"), ("increase", "increased"),
    ("approve", "approved"), ("reject", "rejected"), ("delay", "delayed"), ("measure", "measured"),
    ("inspect", "inspected"), ("repair", "repaired"), ("install", "installed"), ("remove", "removed"),
    ("publish", "published"), ("confirm", "confirmed"), ("estimate", "estimated"), ("compare", "compared"),
    ("record", "recorded"), ("schedule", "scheduled"), ("cancel", "cancelled"), ("extend", "extended"),
    ("deliver", "delivered"), ("request", "requested"), ("support", "supported"), ("limit", "limited"),
    ("monitor", "monitored"), ("improve", "improved"), ("test", "tested"), ("change", "changed"),
    ("describe", "described"), ("explain", "explained"), ("follow", "followed"), ("move", "moved"),
    ("build", "built"), ("find", "found"), ("send", "sent"), ("keep", "kept"), ("lose", "lost"),
    ("write", "wrote"), ("choose", "chose"), ("begin", "began"), ("hold", "held"), ("run", "ran"),
)  # fmt: skip
ADVERBS = (
    "quickly", "slowly", "again", "twice", "later", "earlier", "recently", "finally", "carefully", "mostly",
    "rarely", "often", "nearly", "barely", "partly", "largely", "quietly", "openly", "formally", "roughly",
)  # fmt: skip
PREPOSITIONS = ("in", "near", "after", "before", "during", "behind", "across", "through", "under", "beside", "for")
NAMES = (
    "Amara", "Bruno", "Chen", "Dalia", "Emil", "Farah", "Goran", "Hana", "Ivo", "Jonas", "Kaito", "Lena",
    "Mateo", "Nadia", "Oskar", "Priya", "Rafael", "Sofia", "Tomas", "Yusuf",
)  # fmt: skip
MONTHS = ("January", "March", "April", "June", "July", "September", "October", "November")
CONNECTIVES = ("However", "Meanwhile", "As a result", "In addition", "By contrast", "For this reason", "Later")

PAGE_WIDTH, PAGE_HEIGHT = 612, 792  # US Letter, in points
FONT_SIZE, LEADING, MARGIN = 10, 12, 56
LINE_CHARS = 92
"""Helvetica at 10 pt averages ≈ 5 pt a character: 92 of them fill the 500 pt between the margins."""


def _np(rng: random.Random, topic: Sequence[str]) -> str:
    """A noun phrase: a noun of the page's topic half the time, with a determiner and sometimes an adjective."""
    noun = rng.choice(topic) if rng.random() < 0.5 else rng.choice(NOUNS)
    words = f"{rng.choice(ADJECTIVES)} {noun}" if rng.random() < 0.45 else noun
    article = rng.choice(("the", "the", "a", "our", "their", "each"))
    return f"{'an' if article == 'a' and words[0] in 'aeiou' else article} {words}"


def _sentence(rng: random.Random, topic: Sequence[str]) -> str:
    base, past = rng.choice(VERBS)
    a, b, c = (_np(rng, topic) for _ in range(3))
    name, adverb, where = rng.choice(NAMES), rng.choice(ADVERBS), rng.choice(PREPOSITIONS)
    text = rng.choice(
        (
            f"{a} {past} {b} {where} {c}",
            f"{name} {adverb} {past} {a} {where} {rng.choice(MONTHS)} {rng.randrange(1998, 2027)}",
            f"when {a} was {past}, {b} had to {base} {c} {adverb}",
            f"{a} {past} {b} by {rng.randrange(2, 95)} percent, and {c} {rng.choice(VERBS)[1]} {_np(rng, topic)}",
            f"{rng.choice(CONNECTIVES).lower()}, {a} will {base} {b} {where} {c}",
            f"{name} asked whether {a} could {base} {b} before {c}",
        )
    )
    return text[0].upper() + text[1:] + "."


def prose_pages(count: int, seed: int, *, low: int = 2500, high: int = 3500) -> list[str]:
    """`count` pages of paragraphs (blank lines between them), each `low`-`high` characters; page i depends only
    on (seed, i). Every page has a topic of a few nouns its sentences favour, as a report's pages have."""
    pages: list[str] = []
    for number in range(count):
        rng = random.Random(f"{seed}:{number}")
        topic = rng.sample(NOUNS, 6)
        budget = rng.randrange(low, high + 1)
        paragraphs: list[list[str]] = []
        size = 0
        while size < budget:  # sentence by sentence: a page ends at most one sentence past its budget
            if not paragraphs or len(paragraphs[-1]) >= rng.randrange(3, 7):
                paragraphs.append([])
                size += 2
            sentence = _sentence(rng, topic)
            paragraphs[-1].append(sentence)
            size += len(sentence) + 1
        text = "\n\n".join(" ".join(sentences) for sentences in paragraphs)
        pages.append(text)
    return pages


def _escape(line: str) -> bytes:
    return line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)").encode("cp1252", "replace")


def _content(text: str, footer: str) -> bytes:
    """One page's content stream: the text wrapped to lines, a blank line between paragraphs, then the footer."""
    ops = [b"BT /F1 %d Tf %d TL %d %d Td" % (FONT_SIZE, LEADING, MARGIN, PAGE_HEIGHT - MARGIN)]
    for paragraph in text.split("\n\n"):
        ops.extend(b"(%s) Tj T*" % _escape(line) for line in textwrap.wrap(paragraph, LINE_CHARS))
        ops.append(b"T*")
    ops.append(b"ET BT /F1 8 Tf %d %d Td (%s) Tj ET" % (MARGIN, MARGIN // 2, _escape(footer)))
    return b"\n".join(ops)


def write_text_pdf(path: Path, pages: Sequence[str], title: str = "Operations review") -> Path:
    """A PDF with one page per text (a footer naming the title and page on each); returns `path`.

    Objects: 1 catalog, 2 page tree, 3 font, then each page (4 + 2i) and its content stream (5 + 2i).
    """
    kids = b" ".join(b"%d 0 R" % (4 + 2 * i) for i in range(len(pages)))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, len(pages)),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    ]
    for number, text in enumerate(pages, start=1):
        stream = zlib.compress(_content(text, f"{title} - page {number} of {len(pages)}"), 6)
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] /Resources << /Font << /F1 3 0 R >> >> "
            b"/Contents %d 0 R >>" % (PAGE_WIDTH, PAGE_HEIGHT, 5 + 2 * (number - 1))
        )
        objects.append(b"<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream" % (len(stream), stream))
    path.parent.mkdir(parents=True, exist_ok=True)
    offsets: list[int] = []
    with path.open("wb") as out:
        out.write(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
        for number, body in enumerate(objects, start=1):
            offsets.append(out.tell())
            out.write(b"%d 0 obj\n%s\nendobj\n" % (number, body))
        xref = out.tell()
        out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
        out.writelines(b"%010d 00000 n \n" % offset for offset in offsets)
        out.write(b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref))
    return path
