"""`evaluate.files`: every file the evaluation reads is read as the indexer reads it (a note's own lines, a canvas's
Markdown, a PDF's pages under `Page N`), by the question check, the evidence lookup and the reference mode alike."""

from __future__ import annotations

import json
import multiprocessing
from collections.abc import Iterator
from pathlib import Path

import pytest

from askvault.config import VaultConfig
from askvault.errors import ConfigError, NoteError
from askvault.evaluate.files import EVAL_SUFFIXES, EvalFiles, FileText, Page, is_eval_file
from askvault.evaluate.questions import Question, check_questions, load_questions
from askvault.evaluate.reference import read_chunks
from askvault.evaluate.runner import NoteLines
from askvault.extract.pdf import PdfExtractor
from askvault.index.documents import Documents
from askvault.index.roots import Roots
from askvault.parse.canvas import canvas_markdown
from askvault.parse.links import LinkResolver
from tests.extract.pdfs import SCAN, write_pdf

CANVAS = json.dumps(
    {
        "nodes": [
            {"id": "g", "type": "group", "x": 0, "y": 0, "width": 800, "height": 600, "label": "Garden plan"},
            {"id": "a", "type": "text", "x": 20, "y": 40, "width": 300, "height": 100, "text": "Sow the beans in May."},
            {"id": "b", "type": "file", "x": 20, "y": 200, "width": 300, "height": 100, "file": "Notes/Seeds.md"},
        ],
        "edges": [],
    }
)
MANUAL_PAGES = [
    "Boiler manual\nThe gauge should read 1.5 bar when cold.",
    None,  # an empty page: no section, no lines
    SCAN,  # pixels only: no text either
    "# Fault codes\nE133 means no flame after five attempts.",
]
MANUAL_LINES = (
    "Page 1",
    "Boiler manual",
    "The gauge should read 1.5 bar when cold.",
    "Page 4",
    "# Fault codes",
    "E133 means no flame after five attempts.",
)
TEXTS: dict[str, bytes] = {
    "Notes/Boiler.md": b"\xef\xbb\xbf---\r\ntags: [home]\r\n---\r\n# Boiler\r\nPressure was 1.2 bar.\r\n",
    "Notes/plain.txt": b"first line\nsecond line\n",
    "Boards/Garden.canvas": CANVAS.encode(),
    "Boards/Empty.canvas": b"",
    "Boards/Broken.canvas": b"{ this is not json",
    "Notes/Latin.md": "Caf\u00e9".encode("latin-1"),
    "Papers/fake.pdf": b"<!DOCTYPE html><html><body>Sign in to download</body></html>",
}


@pytest.fixture(scope="module")
def vault(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("documents")
    (root / ".obsidian").mkdir()
    for rel, data in TEXTS.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)
    (root / "Manuals").mkdir()
    write_pdf(root / "Manuals" / "Boiler.pdf", MANUAL_PAGES)
    write_pdf(root / "Manuals" / "Scan.pdf", [SCAN])
    return root


@pytest.fixture(scope="module")
def files(vault: Path) -> Iterator[EvalFiles]:
    with EvalFiles(vault) as shared:
        yield shared


# The path check of the question loader ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "accepted"),
    [
        pytest.param("Homelab/Postgres.md", True, id="note"),
        pytest.param("Manuals/Boiler manual.pdf", True, id="pdf"),
        pytest.param("Projects/Flat projects.canvas", True, id="canvas"),
        pytest.param("Docs/setup.txt", True, id="text"),
        pytest.param("Scans/RECEIPT.PDF", True, id="suffix-in-any-case"),
        pytest.param("Homelab/Postgres", False, id="no-suffix"),
        pytest.param("Attachments/photo.png", False, id="attachment"),
        pytest.param("Boards/plan.canvas.json", False, id="json"),
        pytest.param("Notes/.md.bak", False, id="backup"),
    ],
)
def test_an_expected_path_names_a_file_type_the_indexer_reads(tmp_path: Path, path: str, accepted: bool) -> None:
    assert is_eval_file(path) is accepted
    record = {"id": "q1", "question": "Q?", "type": "paraphrase", "expected_paths": [path], "evidence": ["x"]}
    questions = tmp_path / "questions.jsonl"
    questions.write_text(json.dumps(record) + "\n", encoding="utf-8")
    if accepted:
        assert load_questions(questions)[0].expected_paths == (path,)
        return
    with pytest.raises(ConfigError, match="line 1") as raised:
        load_questions(questions)
    assert f"holds {path!r}" in raised.value.message
    assert "a .md, .pdf, .canvas or .txt file" in raised.value.message


def test_the_allowed_suffixes_are_the_indexers() -> None:
    assert EVAL_SUFFIXES == (".md", ".pdf", ".canvas", ".txt")


# Reading -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        pytest.param(
            "Notes/Boiler.md",
            FileText("note", ("---", "tags: [home]", "---", "# Boiler", "Pressure was 1.2 bar.", "")),
            id="note-bom-and-crlf-as-the-parser-decodes",
        ),
        pytest.param("Notes/plain.txt", FileText("text", ("first line", "second line", "")), id="text"),
        pytest.param(
            "Boards/Garden.canvas",
            FileText("canvas", tuple(canvas_markdown(CANVAS).split("\n"))),
            id="canvas-as-its-markdown",
        ),
        pytest.param("Boards/Empty.canvas", FileText("canvas", ("",)), id="empty-canvas"),
        pytest.param(
            "Manuals/Boiler.pdf",
            FileText("pdf", MANUAL_LINES, (Page("Page 1", 1, 3), Page("Page 4", 4, 6))),
            id="pdf-pages-under-their-headings",
        ),
        pytest.param("Manuals/Scan.pdf", FileText("pdf", ()), id="pdf-without-text"),
    ],
)
def test_a_file_is_read_as_the_indexer_reads_it(files: EvalFiles, path: str, expected: FileText) -> None:
    got = files.read(path)
    assert got == expected
    assert files.lines(path) == expected.lines
    assert got.text == "\n".join(expected.lines)


def test_the_canvas_is_read_by_its_cards_not_its_json(files: EvalFiles) -> None:
    text = files.read("Boards/Garden.canvas").text
    assert "## Garden plan" in text
    assert "Sow the beans in May." in text
    assert '"nodes"' not in text


@pytest.mark.parametrize(
    "path",
    ["Notes/Boiler.md", "Notes/plain.txt", "Boards/Garden.canvas", "Boards/Empty.canvas", "Manuals/Boiler.pdf"],
)
def test_the_lines_are_those_the_indexers_chunks_are_numbered_by(vault: Path, files: EvalFiles, path: str) -> None:
    config = VaultConfig(root=vault, texts=True)
    roots = Roots(config)
    with PdfExtractor() as extractor:
        documents = Documents(config, extractor)
        source = documents.read(roots, path, documents.load(roots, path), LinkResolver(())).source
    assert files.read(path).lines == tuple(source)


@pytest.mark.parametrize(
    ("path", "reason"),
    [
        pytest.param("Notes/gone.md", "cannot be read", id="missing-note"),
        pytest.param("Manuals/gone.pdf", "cannot be read", id="missing-pdf"),
        pytest.param("Notes/Latin.md", "not valid UTF-8", id="not-utf8"),
        pytest.param("Boards/Broken.canvas", "not a valid canvas", id="broken-canvas"),
        pytest.param("Papers/fake.pdf", "is not a PDF", id="not-a-pdf"),
        pytest.param("../outside.canvas", "outside", id="outside-the-vault"),
    ],
)
def test_a_file_that_cannot_be_read_says_why(files: EvalFiles, path: str, reason: str) -> None:
    with pytest.raises(NoteError, match=reason):
        files.read(path)
    assert files.lines(path) is None


def test_each_file_is_read_once(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("old\n", encoding="utf-8")
    with EvalFiles(tmp_path) as files:
        assert files.read("a.md").lines == ("old", "")
        (tmp_path / "a.md").write_text("new\n", encoding="utf-8")
        with pytest.raises(NoteError):
            files.read("b.md")
        (tmp_path / "b.md").write_text("late\n", encoding="utf-8")
        assert files.read("a.md").lines == ("old", "")
        assert files.lines("b.md") is None


def _extractors() -> list[str]:
    return [p.name for p in multiprocessing.active_children() if p.name == "askvault-pdf"]


def test_the_pdf_extractor_starts_at_the_first_pdf_and_stops_on_close(vault: Path) -> None:
    before = len(_extractors())
    files = EvalFiles(vault)
    files.read("Notes/Boiler.md")
    files.read("Boards/Garden.canvas")
    assert len(_extractors()) == before  # notes and canvases need no child process
    files.read("Manuals/Boiler.pdf")
    assert len(_extractors()) == before + 1
    files.close()
    assert len(_extractors()) == before
    assert files.read("Manuals/Boiler.pdf").lines == MANUAL_LINES  # what was read stays readable
    with pytest.raises(RuntimeError, match="closed"):
        files.read("Manuals/Scan.pdf")


# Its three readers ---------------------------------------------------------------------------------------------


def _question(qid: str, path: str, *evidence: str) -> Question:
    return Question(qid, "Q?", "paraphrase", (path,), evidence)


def test_the_question_check_finds_evidence_in_pdfs_and_canvases_and_reports_unreadable_files(
    vault: Path, files: EvalFiles
) -> None:
    questions = [
        _question("pdf", "Manuals/Boiler.pdf", "E133 means no flame"),
        _question("pdf-across-lines", "Manuals/Boiler.pdf", "Boiler manual The gauge should read"),
        _question("canvas", "Boards/Garden.canvas", "Sow the beans in May."),
        _question("canvas-json", "Boards/Garden.canvas", '"type": "text"'),
        _question("pdf-missing", "Manuals/Boiler.pdf", "pressure relief valve"),
        _question("fake-pdf", "Papers/fake.pdf", "Sign in"),
        _question("latin", "Notes/Latin.md", "Caf"),
    ]
    problems = check_questions(vault, questions, files)
    assert problems == [
        'canvas-json: evidence \'"type": "text"\' not found in the body of Boards/Garden.canvas',
        "pdf-missing: evidence 'pressure relief valve' not found in the body of Manuals/Boiler.pdf",
        f"fake-pdf: expected path Papers/fake.pdf cannot be read ({_reason(files, 'Papers/fake.pdf')})",
        f"latin: expected path Notes/Latin.md cannot be read ({_reason(files, 'Notes/Latin.md')})",
    ]
    # Without files of the caller's, the check reads (and closes) its own, with the same outcome.
    assert check_questions(vault, questions) == problems


def _reason(files: EvalFiles, path: str) -> str:
    with pytest.raises(NoteError) as raised:
        files.read(path)
    return str(raised.value)


@pytest.mark.parametrize(
    ("path", "start", "end", "text"),
    [
        pytest.param("Manuals/Boiler.pdf", 4, 6, "\n".join(MANUAL_LINES[3:]), id="pdf-page-4"),
        pytest.param("Manuals/Boiler.pdf", 2, 2, "Boiler manual", id="pdf-one-line"),
        pytest.param("Manuals/Scan.pdf", 1, 2, "", id="pdf-without-text"),
        pytest.param("Papers/fake.pdf", 1, 2, "", id="unreadable-pdf"),
        pytest.param("Notes/Boiler.md", 4, 5, "# Boiler\nPressure was 1.2 bar.", id="note"),
    ],
)
def test_a_hit_is_judged_on_the_lines_its_numbers_count(
    vault: Path, files: EvalFiles, path: str, start: int, end: int, text: str
) -> None:
    lines = NoteLines(vault, files)
    assert lines.text(path, start, end) == text
    lines.close()  # shared files are their owner's to close
    assert files.read("Manuals/Boiler.pdf").lines == MANUAL_LINES


def test_the_canvas_lines_are_its_markdown_not_its_json(vault: Path, files: EvalFiles) -> None:
    markdown = canvas_markdown(CANVAS).split("\n")
    assert NoteLines(vault, files).text("Boards/Garden.canvas", 1, len(markdown)) == "\n".join(markdown)


def test_the_reference_chunks_a_pdf_page_by_page_and_a_canvas_as_markdown(vault: Path, files: EvalFiles) -> None:
    paths = ["Manuals/Boiler.pdf", "Manuals/Scan.pdf", "Boards/Garden.canvas", "Papers/fake.pdf"]
    chunks = read_chunks(vault, paths, files)
    pdf = [(c.heading_path, c.start_line, c.end_line, c.text) for c in chunks if c.path == "Manuals/Boiler.pdf"]
    # Each page apart, under its heading, its `#` line kept as the page's text (a PDF is never Markdown).
    assert pdf == [
        (("Page 1",), 2, 3, "\n".join(MANUAL_LINES[1:3])),
        (("Page 4",), 5, 6, "\n".join(MANUAL_LINES[4:6])),
    ]
    assert [c.title for c in chunks if c.path == "Manuals/Boiler.pdf"] == ["Boiler.pdf", "Boiler.pdf"]
    canvas = [c for c in chunks if c.path == "Boards/Garden.canvas"]
    assert canvas
    assert canvas[0].heading_path == ("Garden plan",)
    assert all('"nodes"' not in c.text for c in canvas)
    assert {c.path for c in chunks} == {"Manuals/Boiler.pdf", "Boards/Garden.canvas"}  # no text, no chunk
    # Every chunk's text is the very lines the evidence lookup reads for it.
    lines = NoteLines(vault, files)
    assert all(lines.text(c.path, c.start_line, c.end_line) == c.text for c in chunks)
    # Without files of the caller's, the reference reads (and closes) its own, with the same chunks.
    assert read_chunks(vault, paths) == chunks
