"""`askvault search` and `askvault ask`: the retrieval and answer pipelines from the terminal."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping

import click

from askvault.api.schemas import search_result_to_json
from askvault.api.validate import parse_instant
from askvault.cli.options import build_config, handles_errors, setup_logging, shared_options
from askvault.cli.progress import engine_for_reading
from askvault.cli.render import render_ask_footer, render_search
from askvault.config import Config
from askvault.model import SearchFilters, SearchMode
from askvault.wire.events import event_to_json

MODES = click.Choice(["hybrid", "dense", "keyword"])


def _filters(
    folder: str | None, tag: str | None, after: str | None = None, before: str | None = None
) -> SearchFilters | None:
    filters = SearchFilters(
        folder=folder,
        tag=tag,
        modified_after=parse_instant(after, "--modified-after") if after else None,
        modified_before=parse_instant(before, "--modified-before") if before else None,
    )
    return None if filters.is_empty() else filters


@click.command()
@shared_options
@click.argument("query")
@click.option("-k", "k", type=click.IntRange(1, 50), default=8, show_default=True, help="How many results.")
@click.option("--mode", type=MODES, default="hybrid", show_default=True)
@click.option("--folder", help="Only notes under this folder.")
@click.option("--tag", help="Only notes with this tag.")
@click.option("--modified-after", "after", help="Only notes modified since (ISO date or date-time; UTC if no offset).")
@click.option("--modified-before", "before", help="Only notes modified before (ISO date or date-time).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON (the API's search body).")
@click.option("-v", "--verbose", is_flag=True)
@handles_errors
def search(
    query: str,
    k: int,
    mode: SearchMode,
    folder: str | None,
    tag: str | None,
    after: str | None,
    before: str | None,
    as_json: bool,
    verbose: bool,
    **params: object,
) -> None:
    """Search the vault (dense + keyword, fused by their normalised scores)."""
    setup_logging(verbose)
    config = build_config(params)
    body = asyncio.run(_search(config, query, k, mode, _filters(folder, tag, after, before)))
    click.echo(json.dumps(body, indent=2, ensure_ascii=False) if as_json else render_search(body))


async def _search(
    config: Config, query: str, k: int, mode: SearchMode, filters: SearchFilters | None
) -> dict[str, object]:
    async with engine_for_reading(config, sync_vectors=mode != "keyword") as engine:
        result = await engine.searcher.search(query, k, mode, filters)
        return dict(search_result_to_json(result))


@click.command()
@shared_options
@click.argument("question")
@click.option("-k", "k", type=click.IntRange(1, 50), default=None, help="How many sources to retrieve.")
@click.option("--folder", help="Only notes under this folder.")
@click.option("--tag", help="Only notes with this tag.")
@click.option(
    "--force", is_flag=True, help="Send the closest notes to the model even when they do not seem to cover it."
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of streaming.")
@click.option("-v", "--verbose", is_flag=True)
@handles_errors
def ask(
    question: str,
    k: int | None,
    folder: str | None,
    tag: str | None,
    force: bool,
    as_json: bool,
    verbose: bool,
    **params: object,
) -> None:
    """Ask a question; the answer streams as it is written, then its numbered sources.

    When the notes do not seem to cover the question, no model is asked: the closest notes are listed
    instead, and --force sends them anyway.
    """
    setup_logging(verbose)
    config = build_config(params)
    result = asyncio.run(_ask(config, question, k, _filters(folder, tag), stream=not as_json, force=force))
    if as_json:
        click.echo(json.dumps(result, indent=2, ensure_ascii=False))
    if result.get("error"):
        raise SystemExit(1)


async def _ask(
    config: Config, question: str, k: int | None, filters: SearchFilters | None, stream: bool, force: bool
) -> dict[str, object]:
    answer: list[str] = []
    retrieval: Mapping[str, object] = {}
    done: Mapping[str, object] = {}
    error: Mapping[str, object] | None = None
    async with engine_for_reading(config) as engine:
        async for event in engine.pipeline.run(question, (), k, filters, force=force):
            body = event_to_json(event)
            kind = body.get("type")
            if kind == "retrieval":
                retrieval = body
            elif kind == "token":
                answer.append(str(body.get("text", "")))
                if stream:
                    click.echo(str(body.get("text", "")), nl=False)
            elif kind == "done":
                done = body
            elif kind == "error":
                error = body
    sources = [
        {key: source.get(key) for key in _SOURCE_KEYS}
        for source in _list_of_maps(retrieval.get("sources"))
        if source.get("sent")
    ]
    result: dict[str, object] = {
        "answer": "".join(answer),
        "citations": done.get("citations", []),
        "sources": sources,
        "sent": retrieval.get("sent", []),
        "metrics": done.get("metrics", {}),
        "relevance": retrieval.get("relevance"),
        "closest": [
            {key: source.get(key) for key in _CLOSEST_KEYS} for source in _list_of_maps(retrieval.get("closest"))
        ],
    }
    if retrieval.get("rerank") is not None:
        result["rerank"] = retrieval["rerank"]  # only with --rerank: the default output keeps its shape
    if done.get("truncated") is True:
        # Only when the answer was cut (length limit, or a loop stopped), like rerank above.
        result["truncated"] = True
        result["done_reason"] = done.get("done_reason")
    if error is not None:
        result["error"] = {"code": error.get("code"), "message": error.get("message")}
    if stream:
        click.echo("")
        click.echo(render_ask_footer(result))
    return result


_SOURCE_KEYS = (
    "n",
    "id",
    "path",
    "heading_path",
    "start_line",
    "end_line",
    "text",
    "dense_rank",
    "keyword_rank",
    "fused_score",
)


_CLOSEST_KEYS = ("id", "path", "heading_path", "start_line", "end_line", "dense_score", "keyword_score")


def _list_of_maps(value: object) -> list[Mapping[str, object]]:
    if not isinstance(value, list):
        return []
    return [item for item in value if isinstance(item, Mapping)]
