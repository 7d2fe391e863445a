"""`askvault index`: bring the vault's index up to date, with a progress bar and a summary."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Never

import click
from tqdm import tqdm

from askvault.cli.options import build_config, handles_errors, setup_logging, shared_options
from askvault.config import Config
from askvault.index.report import IndexReport, Progress
from askvault.store.protocol import GraphIndexed
from askvault.wiring import Engine, open_engine


@click.command()
@shared_options
@click.option("--full", is_flag=True, help="Re-read every note, even unchanged ones.")
@click.option("--allow-mass-delete", is_flag=True, help="Accept that most notes vanished (not a failed mount).")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option("-v", "--verbose", is_flag=True, help="Log details to stderr.")
@handles_errors
def index(full: bool, allow_mass_delete: bool, as_json: bool, verbose: bool, **params: object) -> None:
    """Index the vault: new, changed, renamed and deleted notes; unchanged ones are skipped."""
    setup_logging(verbose)
    config = build_config(params)
    report = asyncio.run(_run(config, full, allow_mass_delete, show_progress=not as_json and sys.stderr.isatty()))
    if as_json:
        click.echo(json.dumps(report.to_json(), indent=2))
    else:
        click.echo(format_summary(report, config.vault.root))


async def _run(config: Config, full: bool, allow_mass_delete: bool, show_progress: bool) -> IndexReport:
    async with open_engine(config, sync_vectors=False) as engine:
        if show_progress:
            click.echo(engine.embedder_choice.describe() + ".", err=True)
        bars: dict[str, tqdm[Never]] = {}

        def on_progress(progress: Progress) -> None:
            if not show_progress or progress.phase not in ("notes", "embed"):
                return
            bar = bars.get(progress.phase)
            if bar is None:
                label = "notes" if progress.phase == "notes" else "embedding"
                bar = tqdm(total=progress.total, desc=label, unit="", file=sys.stderr)
                bars[progress.phase] = bar
            bar.total = progress.total
            bar.n = progress.done
            bar.refresh()

        remove = engine.indexer.add_listener(on_progress)
        try:
            report = await engine.indexer.run(full=full, allow_mass_delete=allow_mass_delete)
        finally:
            remove()
            for bar in bars.values():
                bar.close()
        report.dense_graph = await _wait_for_graph(engine, show_progress)
        report.embedder = engine.embedder.label
        return report


async def _wait_for_graph(engine: Engine, show_progress: bool) -> str:
    """A big vault's vector graph is built in the background after embedding; the command waits for it (a
    sidecar would build it again otherwise). Ctrl-C stops the build; searches are exact until one completes."""
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
    for problem in report.failed:
        lines.append(f"  failed  {problem.path}: {problem.reason}")
    for problem in report.skipped:
        lines.append(f"  skipped {problem.path}: {problem.reason}")
    for notice in report.notices:
        lines.append(f"  notice  {notice.path}: {notice.reason}")
    return "\n".join(lines)


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
