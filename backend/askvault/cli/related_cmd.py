"""`askvault related`: the notes closest to one note, as the plugin's related-notes view shows them."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

import click

from askvault.api.validate import DEFAULT_RELATED_K, MAX_K, parse_note_path
from askvault.cli.option_groups import related_options
from askvault.cli.options import REPORTED_LOGGERS, build_config, handles_errors, setup_logging
from askvault.cli.remote import Sidecar, here_or_there, keyword_only_notice
from askvault.config import Config

METHODS = {"dense": "by meaning (chunk vectors)", "keyword": "by shared words (dense search is off or not ready)"}


def render_related(body: Mapping[str, object]) -> str:
    """A ranked table: score, path, and the heading trail and lines of the closest passage."""
    results = body.get("results")
    method = str(body.get("method", ""))
    header = f"Related to {body.get('path')}, {METHODS.get(method, method)}:"
    if not isinstance(results, list) or not results:
        return f"{header}\nNo related notes."
    lines = [header, f"{'score':>7}  {'path':<40}  passage"]
    for result in results:
        if not isinstance(result, Mapping):
            continue
        passage = result.get("passage")
        where = ""
        if isinstance(passage, Mapping):
            heading = passage.get("heading_path")
            trail = (
                " › ".join(str(h) for h in heading)
                if isinstance(heading, Sequence) and heading
                else "(before any heading)"
            )
            where = f"{trail}  (lines {passage.get('start_line')}–{passage.get('end_line')})"
        score = result.get("score")
        shown = f"{score:.4f}" if isinstance(score, int | float) else "–"
        lines.append(f"{shown:>7}  {result.get('path')!s:<40}  {where}")
    return "\n".join(lines)


@click.command()
@related_options
@click.argument("path")
@click.option(
    "-k",
    "k",
    type=click.IntRange(1, MAX_K),
    default=DEFAULT_RELATED_K,
    show_default=True,
    help="How many related notes.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON (the API's related body).")
@click.option("-v", "--verbose", is_flag=True)
@handles_errors
def related(path: str, k: int, as_json: bool, verbose: bool, **params: object) -> None:
    """List the notes closest in meaning to one note.

    PATH is the note's path inside the vault, such as Homelab/Kodi.md (`.md` may be left out; a path the index
    does not know gets the closest indexed paths suggested). Ranked by how close their passages are in meaning
    to the note's own; by its most distinctive words when dense search is off. The note itself and excluded
    notes are never listed.
    """
    setup_logging(verbose, reported=REPORTED_LOGGERS)
    note = parse_note_path(path, "path")
    config = build_config(params)

    def here() -> dict[str, object]:
        import asyncio

        return asyncio.run(_related(config, note, k))

    def there(sidecar: Sidecar) -> dict[str, object]:
        from askvault.cli.index_state import require_indexed_there

        require_indexed_there(sidecar, config)
        keyword_only_notice(sidecar)
        return sidecar.post_json("/api/related", {"path": note, "k": k})[1]

    body = here_or_there(config, here, there)
    click.echo(json.dumps(body, indent=2, ensure_ascii=False) if as_json else render_related(body))


async def _related(config: Config, path: str, k: int) -> dict[str, object]:
    from askvault.cli.index_state import require_indexed
    from askvault.cli.progress import engine_for_reading
    from askvault.wire.search import related_to_json

    async with engine_for_reading(config) as engine:
        require_indexed(engine)
        return related_to_json(await engine.related.related(path, k))
