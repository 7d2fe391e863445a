"""Builds chunks and fused hits for prompt and pipeline tests (the retrieval seam's vocabulary)."""

from __future__ import annotations

from typing import Literal

from askvault.model import Chunk, Hit


def make_hit(
    n: int,
    text: str,
    *,
    title: str | None = None,
    path: str | None = None,
    heading_path: tuple[str, ...] = (),
    legs: Literal["both", "dense", "keyword"] = "both",
    dense_score: float | None = 0.8,
) -> Hit:
    """Hit number n (1-based rank), found at rank n by the given retrieval legs."""
    note = title or f"Note {n}"
    chunk = Chunk(
        id=f"chunk-{n}",
        path=path or f"Notes/{note}.md",
        title=note,
        heading_path=heading_path or (note,),
        start_line=1,
        end_line=1 + text.count("\n"),
        text=text,
        index_text=f"{note}\n{text}",
    )
    return Hit(
        chunk=chunk,
        dense_rank=n if legs != "keyword" else None,
        keyword_rank=n if legs != "dense" else None,
        fused_score=(2.0 if legs == "both" else 1.0) / (60 + n),
        dense_score=dense_score if legs != "keyword" else None,
        keyword_score=5.0 / n if legs != "dense" else None,
    )
