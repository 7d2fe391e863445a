"""Plain tables for the evaluation reports: aligned text for the terminal, pipe tables for Markdown."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from askvault.evaluate.metrics import JsonValue


def num(value: JsonValue, places: int = 3) -> str:
    if value is None:
        return "–"
    if isinstance(value, bool) or not isinstance(value, int | float):
        return str(value)
    return str(value) if isinstance(value, int) else f"{value:.{places}f}"


def table(headers: Sequence[str], rows: Sequence[Sequence[str]], markdown: bool) -> list[str]:
    """Markdown pipe table (cells' `|` escaped), or columns aligned for a terminal (first left, others right)."""
    if markdown:
        lines = ["| " + " | ".join(headers) + " |", "| " + " | ".join("---" for _ in headers) + " |"]
        return lines + ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    widths = [max(len(row[i]) for row in [headers, *rows]) for i in range(len(headers))]

    def line(cells: Sequence[str]) -> str:
        first = cells[0].ljust(widths[0])
        return "  ".join([first, *(cell.rjust(width) for cell, width in zip(cells[1:], widths[1:], strict=True))])

    return [line(headers), *(line(row) for row in rows)]


def meta_value(value: JsonValue) -> str:
    if isinstance(value, dict):
        return "; ".join(f"{key}: {meta_value(item)}" for key, item in value.items())
    if isinstance(value, list):
        return ", ".join(meta_value(item) for item in value)
    return "–" if value is None else str(value)


def meta_table(meta: Mapping[str, JsonValue]) -> list[str]:
    """A run's metadata as a two-column Markdown table."""
    return table(["", ""], [[key, meta_value(value)] for key, value in meta.items()], markdown=True)
