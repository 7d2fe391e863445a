"""The `pdf` part as Markdown: extraction, the first index with and without the big PDF, the re-index runs."""

from __future__ import annotations

from typing import cast

Json = dict[str, object]


def _n(value: object, digits: int = 3) -> str:
    if not isinstance(value, int | float):
        return "—"
    return f"{value:.{digits}g}" if abs(value) < 1000 else f"{value:,.0f}"


def _seconds_and_share(index: Json, key: str, share: str) -> str:
    shares = cast(Json, index.get("shares", {}))
    value = shares.get(share)
    return f"{_n(index.get(key))} ({value * 100:.1f} %)" if isinstance(value, float) else _n(index.get(key))


_INDEX_ROWS = (
    ("wall s (open_engine + indexer.run())", "seconds"),
    ("indexer.run() s", "run_seconds"),
    ("chunks/s (of the run)", "chunks_per_s"),
    ("peak RSS of the process MB (VmHWM: imports, model, index)", "peak_rss_mb"),
    ("RSS before the run MB (engine open)", "rss_before_run_mb"),
    ("RSS after the run MB", "rss_after_run_mb"),
    ("extracting child's peak RSS MB", "child_peak_rss_mb"),
)
_RUNS = (
    ("nothing changed", "noop"),
    ("one small PDF rewritten (a different one each run)", "changed"),
    ("the {pages}-page PDF touched (same bytes, later mtime)", "touched"),
)


def pdf_section(pdf: Json) -> list[str]:
    """The part as Markdown: extraction, the first index with and without the big PDF, the re-index runs."""
    ex, pages = cast(Json, pdf["extraction"]), cast(int, pdf["pages"])
    chars, each = cast(int, ex["chars"]), ", ".join(map(str, cast(list[float], ex["seconds_runs"])))
    lines = [
        "",
        f"## PDFs (a generated {pages}-page text PDF, {pdf['file_mb']} MB, {chars / max(pages, 1):,.0f} characters "
        "a page; built-in embedder)",
        "",
        "| extraction (`PdfExtractor`, its child process warm) | |",
        "|---|---|",
        f"| pages/s (median of {pdf['repeats']}) | {_n(ex['pages_per_s'])} |",
        f"| characters/s | {_n(ex['chars_per_s'])} |",
        f"| s for all pages (each run) | {ex['seconds']} ({each}) |",
        f"| child's start-up ms (a fresh extractor's first tiny PDF {ex['first_tiny_pdf_ms']} ms, less a warm one "
        f"{ex['warm_tiny_pdf_ms']} ms) | {ex['child_start_ms']} |",
        f"| child's peak RSS MB | {_n(ex['child_peak_rss_mb'])} |",
    ]
    with_pdf, without = cast(Json, pdf["first_index"]), cast(Json, pdf["first_index_without_pdf"])
    spread = cast(Json, with_pdf["pdf_chunk_chars"])
    lines += [
        "",
        "### First index (`open_engine` + `indexer.run()`, built-in embedder)",
        "",
        "| | with the PDF | the same notes without it |",
        "|---|---|---|",
        f"| notes / chunks | {with_pdf['notes']} / {with_pdf['chunks']:,} | {without['notes']} / {without['chunks']} |",
        f"| chunks of the PDF (pages with chunks; characters mean, min, max) | {with_pdf['pdf_chunks']:,} "
        f"({with_pdf['pdf_pages_with_chunks']}; {spread['mean']}, {spread['min']}, {spread['max']}) | — |",
    ]
    lines += [f"| {title} | {_n(with_pdf.get(key))} | {_n(without.get(key))} |" for title, key in _INDEX_ROWS[:3]]
    for title, key, share in (
        ("… extracting s (share of the run)", "extract_seconds", "extracting"),
        ("… embedding s", "embed_seconds", "embedding"),
        ("… loading the model s", "load_seconds", "model_load"),
    ):
        lines.append(
            f"| {title} | {_seconds_and_share(with_pdf, key, share)} | {_seconds_and_share(without, key, share)} |"
        )
    rest = [cast(Json, index["shares"]).get("rest") for index in (with_pdf, without)]
    lines.append("| … the rest (share) | " + " | ".join(f"{_n(cast(float, r) * 100)} %" for r in rest) + " |")
    lines += [f"| {title} | {_n(with_pdf.get(key))} | {_n(without.get(key))} |" for title, key in _INDEX_ROWS[3:]]
    again = cast(Json, pdf["reindex"])
    lines += [
        "",
        f"### Re-index (a vault of {again['notes']} files: the {pages}-page PDF, {pdf['small_pdfs']} PDFs of "
        f"{pdf['small_pages']} pages, {pdf['vault_notes']} notes; {again['chunks']:,} chunks)",
        "",
        "| run | s (median) | re-read | unchanged | embedded | of it embedding s |",
        "|---|---|---|---|---|---|",
    ]
    for title, key in _RUNS:
        node = cast(Json, again[key])
        runs = cast(list[Json], node.get("runs", [node]))
        cells = [
            ", ".join(str(r[field]) for r in runs) for field in ("indexed", "unchanged", "embedded", "embed_seconds")
        ]
        lines.append(f"| {title.format(pages=pages)} | {node['seconds']} | " + " | ".join(cells) + " |")
    first = cast(Json, again["first"])
    lines.append(
        f"| (the first index, for scale) | {first['seconds']} | {first['indexed']} | {first['unchanged']} | "
        f"{first['embedded']} | {first['embed_seconds']} |"
    )
    return lines
