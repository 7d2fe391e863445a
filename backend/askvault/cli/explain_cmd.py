"""`askvault explain`: why a note was or was not used for a question, from the answer's own retrieval step."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING

import click

from askvault.api.validate import parse_note_path
from askvault.cli.option_groups import answer_options
from askvault.cli.options import REPORTED_LOGGERS, build_config, handles_errors, setup_logging
from askvault.cli.remote import Sidecar, here_or_there, keyword_only_notice
from askvault.config import Config
from askvault.errors import BadRequest, ConfigError

if TYPE_CHECKING:
    from askvault.model import SearchFilters

LEGS = (("dense", "dense", "cosine"), ("keyword", "keyword", "bm25"), ("fused", "fused", "score"))


@click.command()
@answer_options
@click.argument("question")
@click.option("--note", "note", required=True, help="The note, as a vault-relative path (Folder/Note.md).")
@click.option("-k", "--k", "k", type=click.IntRange(1, 50), default=None, help="Sources asked for [the answer's].")
@click.option("--folder", help="Only notes under this folder (as the answer's filter).")
@click.option("--tag", help="Only notes with this tag (as the answer's filter).")
@click.option("--json", "as_json", is_flag=True, help="Print the API's /api/explain body.")
@click.option("-v", "--verbose", is_flag=True)
@handles_errors
def explain(
    question: str,
    note: str,
    k: int | None,
    folder: str | None,
    tag: str | None,
    as_json: bool,
    verbose: bool,
    **params: object,
) -> None:
    """Show why a note was or was not used for a question.

    Why the note given by --note was (or was not) used to answer QUESTION: its status in the index, its rank in
    each search, the words it matched, the cut line and whatever else affected it. No answer model is asked.
    """
    setup_logging(verbose, reported=REPORTED_LOGGERS)
    config = build_config(params)
    try:
        path = parse_note_path(note.replace("\\", "/"), "--note")
    except BadRequest as exc:
        raise ConfigError(exc.message) from None
    wire = {key: value for key, value in (("folder", folder), ("tag", tag)) if value}

    def here() -> dict[str, object]:
        import asyncio

        from askvault.model import SearchFilters

        filters = SearchFilters(folder=folder, tag=tag)
        return asyncio.run(_explain(config, question, path, k, None if filters.is_empty() else filters))

    def there(sidecar: Sidecar) -> dict[str, object]:
        keyword_only_notice(sidecar)
        request: dict[str, object] = {"question": question, "note": path}
        request.update({key: value for key, value in (("k", k), ("filters", wire or None)) if value is not None})
        return sidecar.post_json("/api/explain", request)[1]

    body = here_or_there(config, here, there)
    click.echo(json.dumps(body, indent=2, ensure_ascii=False) if as_json else render_explain(body))


async def _explain(
    config: Config, question: str, note: str, k: int | None, filters: SearchFilters | None
) -> dict[str, object]:
    from askvault.cli.progress import engine_for_reading
    from askvault.wire.explain import explanation_to_json
    from askvault.wiring.explain import engine_explainer

    async with engine_for_reading(config) as engine:
        explanation = await engine_explainer(engine).explain(question, note, k, filters)
        return dict(explanation_to_json(explanation))


def _map(value: object) -> Mapping[str, object]:
    return value if isinstance(value, Mapping) else {}


def _words(value: object) -> str:
    return ", ".join(str(item) for item in value) if isinstance(value, list) and value else "–"


def _number(value: object) -> str:
    return f"{value:.4f}" if isinstance(value, float) else str(value)


def render_explain(body: Mapping[str, object]) -> str:
    """The summary first, then the note's status, each ranking, the words, the cut line, factors, relevance."""
    note = _map(body.get("note"))
    lines = [str(body.get("summary", "")), ""]
    status = f"{note.get('path')}: {note.get('status')}"
    if note.get("status") == "indexed":
        status += f", {note.get('chunks')} chunk{'' if note.get('chunks') == 1 else 's'}"
        if note.get("indexed_at"):
            status += f", indexed {note.get('indexed_at')}"
    lines.append(status)
    reason = _map(note.get("reason"))
    if reason:
        lines.append(f"  {reason.get('rule')}: {reason.get('detail')}")
    best = _map(body.get("best"))
    for key, label, score in LEGS:
        entry = _map(best.get(key))
        if not entry:
            lines.append(f"{label:<8} –")
            continue
        trail = entry.get("heading_path")
        heading = " › ".join(str(h) for h in trail) if isinstance(trail, list) and trail else "—"
        where = f"{heading} (lines {entry.get('start_line')}–{entry.get('end_line')})"
        lines.append(f"{label:<8} rank {entry.get('rank')} · {score} {_number(entry.get('score'))} · {where}")
    if body.get("dense_available") is False:
        lines.append("dense search was off: keyword only")
    terms = _map(body.get("terms"))
    lines.append(f"terms    matched: {_words(terms.get('matched'))} · missing: {_words(terms.get('missing'))}")
    cut = _map(body.get("cut"))
    last = cut.get("last_score")
    lines.append(
        f"cut      {cut.get('k')} asked for, {cut.get('sent')} sent, last score "
        f"{'–' if last is None else _number(last)} · this note {'sent' if body.get('sent') else 'not sent'}"
    )
    factors = body.get("factors")
    for factor in factors if isinstance(factors, list) else []:
        item = _map(factor)
        lines.append(f"factor   {item.get('kind')}: {item.get('detail')}")
    relevance = _map(body.get("relevance"))
    if relevance:
        lines.append(f"relevance {relevance.get('reason')}")
    return "\n".join(lines)
