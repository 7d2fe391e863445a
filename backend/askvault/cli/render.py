"""Plain-text rendering of search results and answer footers for the terminal."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date, timedelta

SNIPPET_CHARS = 160


def _place(hit: Mapping[str, object]) -> str:
    """Where a passage is: `page 3` of a PDF, a canvas's card (its lines are those of the text made from it), else
    its lines."""
    page = hit.get("page")
    if isinstance(page, int):
        return f"page {page}"
    if str(hit.get("path", "")).lower().endswith(".canvas"):
        return "canvas"
    return f"lines {hit.get('start_line')}–{hit.get('end_line')}"


def _trail(source: Mapping[str, object]) -> str:
    heading = source.get("heading_path")
    parts = [str(source.get("path", ""))]
    if isinstance(heading, Sequence) and not isinstance(heading, str) and heading:
        parts.append(" › ".join(str(h) for h in heading))
    return " › ".join(parts)


def describe_filters(folder: str | None, tag: str | None, after: str | None, before: str | None) -> list[str]:
    """The filters as the user typed them, each as words that follow "the notes": `in the folder 'Work'`."""
    parts = [f"in the folder {folder!r}"] if folder else []
    parts += [f"tagged #{tag.lstrip('#')}"] if tag else []
    parts += [f"modified after {after}"] if after else []
    return parts + ([f"modified before {before}"] if before else [])


def no_results(narrowed: Sequence[str], what: str = "No results among") -> str:
    """An empty result, naming the filters when there were any: a misspelt folder or tag otherwise looks like a
    vault that knows nothing of the question."""
    if not narrowed:
        return "No results."
    which, it = ("that filter", "it") if len(narrowed) == 1 else ("those filters", "them")
    return f"{what} the notes {' and '.join(narrowed)}; check {which}, or leave {it} out to search every note."


def _leg(name: str, rank: object, score: object, unit: str) -> str:
    """`dense #2 (cosine 0.41)`: a leg's rank and its raw score; `dense –` when that search missed the chunk."""
    if rank is None:
        return f"{name} –"
    shown = f" ({unit} {score:.2f})" if isinstance(score, int | float) and not isinstance(score, bool) else ""
    return f"{name} #{rank}{shown}"


def render_search(body: Mapping[str, object], narrowed: Sequence[str] = ()) -> str:
    """Each hit with its rank and raw score in each search, and whether the notes seem to cover the query.

    The fused score is not shown: it is normalised per query, so the best hit scores 1 however poor it is.
    `narrowed`: the filters the search ran with, as `describe_filters` words them."""
    results = body.get("results")
    if not isinstance(results, list) or not results:
        return no_results(narrowed)
    relevance = body.get("relevance")
    verdict = _relevance_line(relevance) if isinstance(relevance, Mapping) else None
    covered = not isinstance(relevance, Mapping) or relevance.get("answer") is not False
    # A query the notes do not cover says so before its results, so nobody reads them as answers.
    lines: list[str] = [f"{verdict}; the closest passages:"] if verdict and not covered else []
    for rank, result in enumerate(results, start=1):
        if not isinstance(result, Mapping):
            continue
        snippet = " ".join(str(result.get("text", "")).split())
        if len(snippet) > SNIPPET_CHARS:
            snippet = snippet[: SNIPPET_CHARS - 1] + "…"
        moved = [str(b) for b in result.get("boosts") or ()] if isinstance(result.get("boosts"), list) else []
        extra = f" · {', '.join(moved)}" if moved else ""
        noise = result.get("noise")
        if isinstance(noise, Mapping):
            shares = [f"{name} {noise.get(name)}%" for name in ("template", "links", "query") if noise.get(name)]
            extra += f" · {', '.join(shares)}" if shares else ""
        dense = _leg("dense", result.get("dense_rank"), result.get("dense_score"), "cosine")
        keyword = _leg("keyword", result.get("keyword_rank"), result.get("keyword_score"), "bm25")
        lines.append(f"{rank:>2}. {_trail(result)}  ({_place(result)})\n    {dense} · {keyword}{extra}\n    {snippet}")
    scope = body.get("date_scope")
    if isinstance(scope, Mapping):
        lines.append(render_date_scope(scope))
    if verdict and covered:
        lines.append(verdict + ".")
    counts = body.get("counts")
    if isinstance(counts, Mapping):
        lines.append(f"matched: dense {counts.get('dense')}, keyword {counts.get('keyword')}")
    return "\n".join(lines)


def _relevance_line(relevance: Mapping[str, object]) -> str:
    """The relevance decision's own sentence, without its full stop (the caller ends it)."""
    return "relevance: " + str(relevance.get("reason", "")).rstrip(".")


def render_date_scope(scope: Mapping[str, object]) -> str:
    """`dates: "last week" → 2026-11-16 … 2026-11-22`, or why the phrase was not applied."""
    end = scope.get("end")
    # `end` is exclusive on the wire; people read ranges inclusively.
    last = (date.fromisoformat(end) - timedelta(days=1)).isoformat() if isinstance(end, str) else "open"
    span = f"{scope.get('start') or 'open'} … {last}"
    if scope.get("applied"):
        return f'dates: "{scope.get("phrase")}" → {span} ({scope.get("notes")} notes)'
    return f'dates: "{scope.get("phrase")}" → {span}, not applied: {scope.get("fallback_reason")}'


def render_ask_footer(result: Mapping[str, object], narrowed: Sequence[str] = ()) -> str:
    """What follows a streamed answer: an error, a cut, the sources, the relevance decision, rerank, the metrics.
    `narrowed`: the filters the question ran with (`describe_filters`)."""
    lines: list[str] = []
    error = result.get("error")
    if isinstance(error, Mapping):
        lines.append(f"error ({error.get('code')}): {error.get('message')}")
    if result.get("truncated") is True:
        why = "the model kept repeating itself" if result.get("done_reason") == "repetition" else "the length limit"
        lines.append(f"(the answer was cut short: {why})")
    sources = result.get("sources")
    if isinstance(sources, list) and sources:
        lines.append("")
        lines.append("Sources:")
        for source in sources:
            if isinstance(source, Mapping):
                lines.append(f"  [{source.get('n')}] {_trail(source)} ({_place(source)})")
    lines.extend(render_relevance(result, narrowed))
    rerank = result.get("rerank")
    if isinstance(rerank, Mapping):
        lines.append(render_rerank(rerank))
    metrics = result.get("metrics")
    if isinstance(metrics, Mapping) and metrics:
        shown = ", ".join(f"{key} {value}" for key, value in metrics.items() if value is not None)
        lines.append(f"— {shown}")
    return "\n".join(lines)


def render_rerank(rerank: Mapping[str, object]) -> str:
    """One line on what the reranker did (the retrieval event's `rerank` object)."""
    took = f"{rerank.get('model')}, {rerank.get('ms')} ms"
    if rerank.get("applied"):
        what = "reordered" if rerank.get("order_changed") else "kept the fused order"
        return f"rerank: {what} the top {rerank.get('candidates')} ({took})"
    return f"rerank: fell back to the fused order: {rerank.get('fallback_reason')} — {rerank.get('detail')} ({took})"


def _score(value: object) -> str:
    return f"{value:.4f}" if isinstance(value, int | float) and not isinstance(value, bool) else "–"


def render_relevance(result: Mapping[str, object], narrowed: Sequence[str] = ()) -> list[str]:
    """When the notes were kept back (or sent only because of --force): why, and the closest notes with scores.

    The stand-in answer ("Your notes don't seem to cover this…") is not streamed then (query_cmd): these lines
    say it once, with the figures. When filters left nothing at all, the reason names them."""
    relevance = result.get("relevance")
    if not isinstance(relevance, Mapping) or (relevance.get("answer") and not relevance.get("forced")):
        return []
    listed = result.get("closest")
    closest = [item for item in listed if isinstance(item, Mapping)] if isinstance(listed, list) else []
    empty = bool(narrowed) and not closest and not relevance.get("answer")
    lines = ["", no_results(narrowed, "Nothing matched among") if empty else str(relevance.get("reason", ""))]
    if closest:
        lines.append("Closest notes, not used:" if relevance.get("answer") else "No model was asked. Closest notes:")
        for note in closest:
            lines_range = f"lines {note.get('start_line')}–{note.get('end_line')}"
            scores = f"dense {_score(note.get('dense_score'))} · bm25 {_score(note.get('keyword_score'))}"
            lines.append(f"  {_trail(note)} ({lines_range})  {scores}")
        if not relevance.get("answer"):
            lines.append("Ask anyway with --force.")
    return lines
