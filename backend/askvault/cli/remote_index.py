"""`askvault index` beside a running sidecar: it asks the sidecar to reindex, follows the run and reports it."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import cast

import click

from askvault.cli.options import EXIT_DENSE_OFF, EXIT_NOTES_FAILED
from askvault.cli.progress import IndexBars
from askvault.cli.remote import Json, Sidecar, SidecarUnavailable
from askvault.config import Config
from askvault.errors import ConfigError, Conflict, VaultError, VaultLooksEmpty
from askvault.index.report import Progress, ProgressPhase

BUSY_RETRIES = 20
"""Runs of someone else (the watcher, the plugin's reindex) this command waits out before its own starts."""
PHASES = ("scan", "notes", "keyword", "embed", "done")
VAULT_PROBLEM = "(vault)"
"""The path of the failure the sidecar's status reports for a refused run (`EngineControl`, `Indexer.run`)."""


def reindex_through(
    sidecar: Sidecar, config: Config, full: bool, allow_mass_delete: bool, as_json: bool, show_progress: bool
) -> None:
    """Starts a run in the sidecar, shows its progress (stderr), prints its summary and exits with the code the run
    would have here (a run that lost dense search or failed notes is not whole)."""
    if allow_mass_delete:
        raise ConfigError(
            f"--allow-mass-delete cannot go through the running sidecar (pid {sidecar.pid}), which never deletes "
            "most of an index; stop the sidecar (or Obsidian), then run this again"
        )
    if show_progress:
        click.echo(f"Indexing through the running sidecar (pid {sidecar.pid}) at {sidecar.url}.", err=True)
    before = _last_run(sidecar.status)
    bars = IndexBars(show_progress)
    try:
        with sidecar.stream("GET", "/api/events") as events:
            next(events, None)  # the status line: the subscription is live, no event of our run can be missed
            _start(sidecar, events, full)
            _follow(sidecar, events, bars, before)
    finally:
        bars.close()
    status = sidecar.get_json("/api/status")
    _raise_refusal(status)
    if as_json:
        click.echo(json.dumps(report_json(status, sidecar), indent=2))
    else:
        click.echo(format_remote_summary(status, config, sidecar))
    code = remote_exit_code(status)
    if code:
        raise SystemExit(code)


def _start(sidecar: Sidecar, events: Iterator[Json], full: bool) -> None:
    for _ in range(BUSY_RETRIES):
        try:
            sidecar.post_json("/api/reindex", {"full": full})
            return
        except Conflict:
            pass
        # A run is in progress (the watcher's, the plugin's): its end is announced, then ours may start.
        for event in events:
            if event.get("type") == "index" and event.get("phase") == "done":
                break
        else:
            raise _stopped(sidecar)
    raise SidecarUnavailable("the sidecar stayed busy with other index runs; try again in a moment")


def _follow(sidecar: Sidecar, events: Iterator[Json], bars: IndexBars, before: object) -> None:
    """Until our run's `done`: the first one after its `scan` (a watcher batch announces no scan). A heartbeat
    checks the status too, so a run whose lines were dropped for a slow reader still ends here."""
    scanned = False
    for event in events:
        kind = event.get("type")
        if kind == "index":
            phase = event.get("phase")
            if phase == "scan":
                scanned = True
            elif phase == "done" and scanned:
                return
            if phase in PHASES and isinstance(event.get("done"), int) and isinstance(event.get("total"), int):
                bars.update(Progress(cast(ProgressPhase, phase), int(str(event["done"])), int(str(event["total"]))))
        elif kind == "heartbeat":
            status = sidecar.get_json("/api/status")
            index = _map(status.get("index"))
            if index.get("state") == "idle" and _last_run(status) != before:
                return
    raise _stopped(sidecar)


def _raise_refusal(status: Mapping[str, object]) -> None:
    """A run the sidecar refused as a whole (the vault looks unmounted or emptied, or is gone) fails this command
    as it would fail here, with the same sentence and exit code."""
    failures = _map(status.get("index")).get("failures")
    for failure in failures if isinstance(failures, list) else []:
        problem = _map(failure)
        if problem.get("path") == VAULT_PROBLEM:
            reason = str(problem.get("reason", ""))
            raise VaultLooksEmpty(reason) if "--allow-mass-delete" in reason else VaultError(reason)


def _stopped(sidecar: Sidecar) -> SidecarUnavailable:
    return SidecarUnavailable(
        f"the Ask Vault sidecar (pid {sidecar.pid}) stopped before the index run ended; run `askvault index` again"
    )


def _map(value: object) -> Mapping[str, object]:
    return value if isinstance(value, Mapping) else {}


def _last_run(status: Mapping[str, object]) -> object:
    return _map(status.get("index")).get("last_run")


def report_json(status: Mapping[str, object], sidecar: Sidecar) -> dict[str, object]:
    """The keys `askvault index --json` prints on its own index; what the sidecar's status does not carry (the
    removed and embedded counts, the skipped notes and the notices) is null, and `sidecar` holds its `last_run`."""
    index, vault = _map(status.get("index")), _map(status.get("vault"))
    embedder, last = _map(status.get("embedder")), _map(index.get("last_run"))
    return {
        "indexed": last.get("indexed"),
        "unchanged": last.get("unchanged"),
        "removed": None,
        "skipped": None,
        "failed": [{"path": p.get("path"), "reason": p.get("reason")} for p in _problems(status, "failed")],
        "notices": None,
        "chunks": vault.get("chunks"),
        "notes": vault.get("notes"),
        "embedded": None,
        "dense": index.get("dense"),
        "dense_problem": embedder.get("problem"),
        "dense_graph": index.get("dense_graph", "none"),
        "embedder": embedder.get("label", ""),
        "seconds": last.get("seconds"),
        "finished_at": last.get("finished_at"),
        "redactions": index.get("redactions", {}),
        "template_lines": last.get("template_lines", 0),
        "template_floor": last.get("template_floor", 0),
        "sidecar": {"url": sidecar.url, "pid": sidecar.pid, "last_run": dict(last)},
    }


def format_remote_summary(status: Mapping[str, object], config: Config, sidecar: Sidecar) -> str:
    """The summary `askvault index` prints, from the sidecar's status after the run."""
    from askvault.cli.index_cmd import format_redactions, format_templates

    index, vault = _map(status.get("index")), _map(status.get("vault"))
    embedder, last = _map(status.get("embedder")), _map(index.get("last_run"))
    seconds = last.get("seconds")
    took = f" in {seconds:.2f} s" if isinstance(seconds, int | float) else ""
    lines = [
        f"Indexed {config.vault.root.name} through the running sidecar (pid {sidecar.pid}): "
        f"{last.get('indexed', 0)} indexed, {last.get('unchanged', 0)} unchanged, {last.get('skipped', 0)} skipped, "
        f"{last.get('failed', 0)} failed — {vault.get('notes')} notes, {vault.get('chunks')} chunks{took}.",
    ]
    label = embedder.get("label")
    by = f" with {label}" if label else ""
    if index.get("dense") == "ready":
        graph = "; approximate (HNSW graph) for unfiltered searches" if index.get("dense_graph") == "ready" else ""
        lines.append(f"Dense search: ready{by}{graph}.")
    else:
        problem = embedder.get("problem") or "not ready yet"
        lines.append(f"Dense search{by}: {index.get('dense')} — {problem}. Keyword search works.")
    redactions = index.get("redactions")
    lines.extend(format_redactions(dict(redactions) if isinstance(redactions, Mapping) else {}))
    lines.extend(format_templates(last.get("template_lines"), last.get("template_floor")))
    for kind in ("failed", "skipped", "notice"):
        for problem in _problems(status, kind):
            lines.append(f"  {kind:<7} {problem.get('path')}: {problem.get('reason')}")
    return "\n".join(lines)


def remote_exit_code(status: Mapping[str, object]) -> int:
    """As on its own index: dense search not ready, or notes that failed, make the run not whole."""
    index = _map(status.get("index"))
    if index.get("dense") != "ready":
        return EXIT_DENSE_OFF
    return EXIT_NOTES_FAILED if _problems(status, "failed") else 0


def _problems(status: Mapping[str, object], kind: str) -> list[Mapping[str, object]]:
    """The status's current problems of one kind (`failed`, `skipped`, `notice`; an entry without one is failed)."""
    listed = _map(status.get("index")).get("failures")
    found = [_map(item) for item in listed if isinstance(item, Mapping)] if isinstance(listed, list) else []
    return [problem for problem in found if (problem.get("kind") or "failed") == kind]
