"""`askvault search` and `askvault ask`: the retrieval and answer pipelines from the terminal."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import click

from askvault.cli.option_groups import answer_options, search_options
from askvault.cli.options import REPORTED_LOGGERS, build_config, handles_errors, setup_logging
from askvault.cli.remote import Sidecar, here_or_there, keyword_only_notice
from askvault.cli.render import describe_filters, render_ask_footer, render_search
from askvault.config import Config

if TYPE_CHECKING:
    # The engine's modules are imported where the index is opened here: a search through a running sidecar
    # needs none of them (`askvault.cli` module docstring).
    from askvault.model import SearchFilters, SearchMode

MODES = click.Choice(["hybrid", "dense", "keyword"])


def _filter_json(
    folder: str | None, tag: str | None, after: str | None = None, before: str | None = None
) -> dict[str, object] | None:
    """The filters as the API's `filters` object (dates as epoch seconds), checked as the CLI names them."""
    filters: dict[str, object] = {key: value for key, value in (("folder", folder), ("tag", tag)) if value}
    if after or before:
        from askvault.api.validate import parse_instant

        if after:
            filters["modified_after"] = parse_instant(after, "--modified-after")
        if before:
            filters["modified_before"] = parse_instant(before, "--modified-before")
    return filters or None


def _filters(wire: Mapping[str, object] | None) -> SearchFilters | None:
    from askvault.model import SearchFilters

    if not wire:
        return None
    after, before = wire.get("modified_after"), wire.get("modified_before")
    return SearchFilters(
        folder=str(wire["folder"]) if wire.get("folder") else None,
        tag=str(wire["tag"]) if wire.get("tag") else None,
        modified_after=float(after) if isinstance(after, float) else None,
        modified_before=float(before) if isinstance(before, float) else None,
    )


@click.command()
@search_options
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
    """Search the vault by meaning and by keyword.

    Dense (meaning) and keyword (BM25) search, fused. Each result shows its rank and raw score in each search
    (cosine similarity, BM25 score), and a line says whether the notes seem to cover the query at all: the same
    decision `ask` makes before it answers.
    """
    setup_logging(verbose, reported=REPORTED_LOGGERS)
    config = build_config(params)
    filters = _filter_json(folder, tag, after, before)

    def here() -> dict[str, object]:
        import asyncio

        return asyncio.run(_search(config, query, k, mode, _filters(filters)))

    def there(sidecar: Sidecar) -> dict[str, object]:
        from askvault.cli.index_state import require_indexed_there

        require_indexed_there(sidecar, config)
        if mode != "keyword":
            keyword_only_notice(sidecar)
        request: dict[str, object] = {"query": query, "k": k, "mode": mode}
        if filters:
            request["filters"] = filters
        return sidecar.post_json("/api/search", request)[1]

    body = here_or_there(config, here, there)
    narrowed = describe_filters(folder, tag, after, before)
    click.echo(json.dumps(body, indent=2, ensure_ascii=False) if as_json else render_search(body, narrowed))


async def _search(
    config: Config, query: str, k: int, mode: SearchMode, filters: SearchFilters | None
) -> dict[str, object]:
    from askvault.cli.index_state import require_indexed
    from askvault.cli.progress import engine_for_reading
    from askvault.wire.search_scored import search_body

    async with engine_for_reading(config, sync_vectors=mode != "keyword") as engine:
        require_indexed(engine)
        judge = engine.search_relevance
        result = await engine.searcher.search(query, judge.fetch(k, mode), mode, filters)
        return search_body(result, k, mode, judge)


@click.command()
@answer_options
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
    """Answer a question from your notes, with cited sources.

    The answer streams as it is written, then its numbered sources. When the notes do not seem to cover the
    question, no model is asked: the closest notes are listed instead, and --force sends them anyway.
    """
    setup_logging(verbose, reported=REPORTED_LOGGERS)
    config = build_config(params)
    filters = _filter_json(folder, tag)
    answer = _Answer(stream=not as_json, narrowed=describe_filters(folder, tag, None, None))

    def here() -> None:
        import asyncio

        asyncio.run(_ask(config, question, k, _filters(filters), answer, force=force))

    def there(sidecar: Sidecar) -> None:
        from askvault.cli.index_state import require_indexed_there

        require_indexed_there(sidecar, config)
        keyword_only_notice(sidecar)
        request: dict[str, object] = {"question": question}
        request.update({key: value for key, value in (("k", k), ("filters", filters)) if value is not None})
        if force:
            request["force"] = True
        with sidecar.stream("POST", "/api/ask", request) as events:
            for event in events:
                answer.feed(event)

    here_or_there(config, here, there)
    result = answer.result()
    if as_json:
        click.echo(json.dumps(result, indent=2, ensure_ascii=False))
    if result.get("error"):
        raise SystemExit(1)


async def _ask(
    config: Config, question: str, k: int | None, filters: SearchFilters | None, answer: _Answer, force: bool
) -> None:
    from askvault.cli.index_state import require_indexed
    from askvault.cli.progress import engine_for_reading
    from askvault.wire.events import event_to_json

    async with engine_for_reading(config) as engine:
        require_indexed(engine)
        async for event in engine.pipeline.run(question, (), k, filters, force=force):
            answer.feed(event_to_json(event))


class _Answer:
    """The answer's events (the engine's here, the sidecar's NDJSON lines there), streamed and summed up."""

    def __init__(self, stream: bool, narrowed: Sequence[str] = ()) -> None:
        self.stream = stream
        self.narrowed = narrowed
        self.answer: list[str] = []
        self.retrieval: Mapping[str, object] = {}
        self.done: Mapping[str, object] = {}
        self.error: Mapping[str, object] | None = None

    def feed(self, body: Mapping[str, object]) -> None:
        kind = body.get("type")
        if kind == "retrieval":
            self.retrieval = body
        elif kind == "token":
            self.answer.append(str(body.get("text", "")))
            # When the notes were kept back, the footer says so (with the figures and the closest notes): the
            # stand-in answer would say it a second time.
            if self.stream and not _abstained(self.retrieval):
                click.echo(str(body.get("text", "")), nl=False)
        elif kind == "done":
            self.done = body
        elif kind == "error":
            self.error = body

    def result(self) -> dict[str, object]:
        answer, retrieval, done, error, stream = self.answer, self.retrieval, self.done, self.error, self.stream
        return _result(answer, retrieval, done, error, stream, self.narrowed)


def _result(
    answer: list[str],
    retrieval: Mapping[str, object],
    done: Mapping[str, object],
    error: Mapping[str, object] | None,
    stream: bool,
    narrowed: Sequence[str] = (),
) -> dict[str, object]:
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
        footer = render_ask_footer(result, narrowed)
        if _abstained(retrieval):
            click.echo(footer.lstrip("\n"))  # no answer was streamed: nothing to set the footer apart from
        else:
            click.echo("")
            click.echo(footer)
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


def _abstained(retrieval: Mapping[str, object]) -> bool:
    relevance = retrieval.get("relevance")
    return isinstance(relevance, Mapping) and relevance.get("answer") is False


def _list_of_maps(value: object) -> list[Mapping[str, object]]:
    if not isinstance(value, list):
        return []
    return [item for item in value if isinstance(item, Mapping)]
