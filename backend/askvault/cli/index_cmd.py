"""`askvault index`: bring the vault's index up to date, with a progress bar and a summary."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click
from tqdm import tqdm

from askvault.cli.option_groups import index_options
from askvault.cli.options import (
    EXIT_DENSE_OFF,
    EXIT_NOTES_FAILED,
    REPORTED_LOGGERS,
    build_config,
    exit_codes_epilog,
    handles_errors,
    setup_logging,
)
from askvault.cli.progress import IndexBars
from askvault.cli.remote import Sidecar, here_or_there
from askvault.config import Config
from askvault.index.report import IndexReport

if TYPE_CHECKING:
    from askvault.wiring import Engine


@click.command(epilog=exit_codes_epilog())
@index_options
@click.option("--full", is_flag=True, help="Re-read every note, even unchanged ones.")
@click.option("--allow-mass-delete", is_flag=True, help="Accept that most notes vanished (not a failed mount).")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option("-v", "--verbose", is_flag=True, help="Log details to stderr.")
@handles_errors
def index(full: bool, allow_mass_delete: bool, as_json: bool, verbose: bool, **params: object) -> None:
    """Bring the vault's index up to date.

    New, changed, renamed and deleted notes are indexed; unchanged ones are skipped. The summary names every note
    that failed or was skipped, and the exit code says whether the run was whole (below).
    """
    setup_logging(verbose, reported=REPORTED_LOGGERS)
    config = build_config(params)
    show_progress = not as_json and sys.stderr.isatty()

    def there(sidecar: Sidecar) -> IndexReport | None:
        # The running sidecar owns the index: it runs the reindex; this process follows it and reports it.
        from askvault.cli.remote_index import reindex_through

        reindex_through(sidecar, config, full, allow_mass_delete, as_json, show_progress)
        return None

    report = here_or_there(config, lambda: asyncio.run(_run(config, full, allow_mass_delete, show_progress)), there)
    if report is None:
        return
    if as_json:
        click.echo(json.dumps(report.to_json(), indent=2))
    else:
        click.echo(format_summary(report, config.vault.root))
    status = summary_exit_code(report)
    if status:
        raise SystemExit(status)


def summary_exit_code(report: IndexReport) -> int:
    """0 for a whole run; a partial one exits non-zero so scripts notice (the summary has already said why)."""
    if report.dense != "ready":
        return EXIT_DENSE_OFF
    return EXIT_NOTES_FAILED if report.failed else 0


async def _run(config: Config, full: bool, allow_mass_delete: bool, show_progress: bool) -> IndexReport:
    from askvault.wiring import open_engine

    async with open_engine(config, sync_vectors=False) as engine:
        if show_progress:
            click.echo(engine.embedder_choice.describe() + ".", err=True)
        bars = IndexBars(show_progress)
        remove = engine.indexer.add_listener(bars.update)
        try:
            report = await engine.indexer.run(full=full, allow_mass_delete=allow_mass_delete)
        finally:
            remove()
            bars.close()
        report.dense_graph = await _wait_for_graph(engine, show_progress)
        report.embedder = engine.embedder.label
        return report


async def _wait_for_graph(engine: Engine, show_progress: bool) -> str:
    """A big vault's vector graph is built in the background after embedding; the command waits for it (a
    sidecar would build it again otherwise). Ctrl-C stops the build; searches are exact until one completes."""
    from askvault.store.protocol import GraphIndexed

    store = engine.dense.store
    if not isinstance(store, GraphIndexed):
        return "none"
    if store.graph_state == "building":
        with tqdm(desc="vector graph (big vault)", bar_format="{desc}: {elapsed}", file=sys.stderr,
                  disable=not show_progress) as bar:  # fmt: skip
            waiting = asyncio.ensure_future(store.wait_graph())
            while not waiting.done():
                await asyncio.wait([waiting], timeout=1.0)
                bar.refresh()
    return store.graph_state


def format_summary(report: IndexReport, vault: Path) -> str:
    lines = [
        f"Indexed {vault.name}: {report.indexed} indexed, {report.unchanged} unchanged, "
        f"{report.removed} removed, {len(report.skipped)} skipped, {len(report.failed)} failed "
        f"— {report.notes} notes, {report.chunks} chunks in {report.seconds:.2f} s.",
    ]
    by = f" with {report.embedder}" if report.embedder else ""
    if report.dense == "ready":
        graph = "; approximate (HNSW graph) for unfiltered searches" if report.dense_graph == "ready" else ""
        lines.append(f"Dense search: ready{by} ({report.embedded} chunks embedded this run{graph}).")
    else:
        lines.append(
            f"Dense search{by}: {report.dense} — {report.dense_problem or 'not ready yet'}. Keyword search works."
        )
    lines.extend(format_redactions(report.redactions))
    lines.extend(format_templates(report.template_lines, report.template_floor))
    for problem in report.failed:
        lines.append(f"  failed  {problem.path}: {problem.reason}")
    for problem in report.skipped:
        lines.append(f"  skipped {problem.path}: {problem.reason}")
    for notice in report.notices:
        lines.append(f"  notice  {notice.path}: {notice.reason}")
    return "\n".join(lines)


def format_templates(lines: object, floor: object) -> list[str]:
    """The line about the vault's template lines (`chunk.boilerplate`), when it has any."""
    if not isinstance(lines, int) or not lines:
        return []
    return [
        f"Template lines: {lines}, each in at least {floor} notes (footers, templates); left out of search, your "
        "notes are untouched."
    ]


def format_redactions(redactions: dict[str, object]) -> list[str]:
    """ "Secrets redacted: 3 (password 2, aws-access-key 1)" and one line per note; kinds only, never values."""
    total = redactions.get("total")
    by_kind, notes = redactions.get("by_kind"), redactions.get("notes")
    if not isinstance(total, int) or not total or not isinstance(by_kind, dict) or not isinstance(notes, list):
        return []
    kinds = ", ".join(f"{kind} {count}" for kind, count in by_kind.items())
    lines = [f"Secrets redacted before indexing: {total} ({kinds}); the notes themselves are untouched."]
    for entry in notes:
        if isinstance(entry, dict) and isinstance(entry.get("kinds"), dict):
            counts = ", ".join(f"{kind} {count}" for kind, count in entry["kinds"].items())
            lines.append(f"  redacted {entry.get('path')}: {counts}")
    return lines
