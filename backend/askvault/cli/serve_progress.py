"""What `askvault serve` prints while its start-up index run works, and the one line once the index is ready."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Never

import click
from tqdm import tqdm

from askvault.index.eta import Estimate, RateMeter
from askvault.index.report import IndexReport, Problem, Progress
from askvault.wiring.sidecar import Indexed

EVERY_S = 5.0
"""A plain progress line at most this often, and none before the run has lasted this long: a restart that finds
nothing changed prints only the ready line (the bar on a terminal waits as long before it appears)."""
PROBLEMS_SHOWN = 5
"""Failed and skipped notes listed under the ready line (each failure was also logged as it happened)."""

# The plugin's status bar words (plugin/src/answer/progress.ts), so the console and Obsidian say the same thing;
# no counts for the phases whose counts mean nothing to a reader (the keyword index is one step of 1).
PHASES: dict[str, tuple[str, str | None]] = {
    "scan": ("scanning", None),
    "notes": ("indexing", "notes"),
    "keyword": ("indexing keywords", None),
    "embed": ("embedding", "chunks"),
}


class StartupProgress:
    """`on_progress` and `on_indexed` for `run_sidecar`: the figures of `/api/status` (phase, done of total, rate,
    time left) on stderr, as a bar on a terminal and a throttled plain line otherwise; the ready line on stdout."""

    def __init__(
        self, show_bar: bool | None = None, every_s: float = EVERY_S, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._show_bar = sys.stderr.isatty() if show_bar is None else show_bar
        self._every_s = every_s
        self._clock = clock
        self._meter = RateMeter(clock)
        self._started = clock()
        self._printed_at: float | None = None
        self._phase = ""
        self._bar: tqdm[Never] | None = None

    def progress(self, progress: Progress) -> None:
        if progress.phase == "done":
            return
        estimate = self._meter.update(progress)
        if self._show_bar:
            self._update_bar(progress)
            return
        now = self._clock()
        if now - self._started < self._every_s:
            return
        new_phase = progress.phase != self._phase
        if new_phase or self._printed_at is None or now - self._printed_at >= self._every_s:
            self._phase, self._printed_at = progress.phase, now
            click.echo(f"  {describe_progress(estimate)}", err=True)

    def indexed(self, outcome: Indexed) -> None:
        self.close()
        click.echo("\n".join(describe_outcome(outcome)))

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def _update_bar(self, progress: Progress) -> None:
        if progress.phase not in ("notes", "embed"):
            return
        if self._bar is None or progress.phase != self._phase:
            self.close()
            self._phase = progress.phase
            label = PHASES[progress.phase][0]
            self._bar = tqdm(total=progress.total, desc=label, unit="", file=sys.stderr, delay=self._every_s)
        self._bar.total = progress.total
        self._bar.n = progress.done
        self._bar.refresh()


def describe_progress(estimate: Estimate) -> str:
    """ "indexing 24%: 1,200 of 5,000 notes, 85 per second, about 3 min left" (the figures known so far)."""
    verb, items = PHASES.get(estimate.phase, ("indexing", "items"))
    if estimate.total <= 0 or items is None:
        return f"{verb}…"
    share = _percent(estimate.done, estimate.total)
    parts = [f"{verb} {share}%: {estimate.done:,} of {estimate.total:,} {items}"]
    if estimate.rate_per_s is not None:
        parts.append(f"{estimate.rate_per_s:,.0f} per second")
    eta = format_eta(estimate.eta_s)
    if eta:
        parts.append(eta)
    return ", ".join(parts)


def format_eta(seconds: float | None) -> str:
    """ "less than a minute left", "about 3 min left", "about 2 h 52 min left"; "" while unknown."""
    if seconds is None or seconds < 0:
        return ""
    if seconds < 60:
        return "less than a minute left"
    minutes = round(seconds / 60)
    if minutes < 60:
        return f"about {minutes} min left"
    hours, rest = divmod(minutes, 60)
    return f"about {hours} h left" if rest == 0 else f"about {hours} h {rest} min left"


def describe_outcome(outcome: Indexed) -> list[str]:
    """The ready line (counts, failures and skips, time taken), then the first few problems, one per line."""
    took = _duration(outcome.seconds)
    served = f"{outcome.notes:,} notes, {outcome.chunks:,} chunks"
    if outcome.refused is not None or outcome.report is None:
        reason = (outcome.refused or "the index run ended without a report").rstrip(".")
        return [f"Index not updated after {took}: {reason}; serving the last good index ({served})."]
    report = outcome.report
    changes = f"{report.indexed:,} new or changed, {report.unchanged:,} unchanged, {report.removed:,} removed"
    failed, skipped = len(report.failed), len(report.skipped)
    lines = [f"Index ready in {took}: {served} ({changes}); {failed:,} failed, {skipped:,} skipped."]
    if report.dense != "ready":
        # "Ready" must not hide that only keyword search is: the banner said why at start, this says it still is.
        why = (report.dense_problem or "its vectors are not built yet").rstrip(".")
        lines.append(f"  semantic search is {report.dense}: {why}; keyword search answers meanwhile.")
    lines.extend(_problems(report))
    return lines


def _problems(report: IndexReport) -> list[str]:
    listed: list[tuple[str, Problem]] = [("failed ", p) for p in report.failed]
    listed += [("skipped", p) for p in report.skipped]
    lines = [f"  {kind} {problem.path}: {problem.reason}" for kind, problem in listed[:PROBLEMS_SHOWN]]
    if len(listed) > PROBLEMS_SHOWN:
        more = len(listed) - PROBLEMS_SHOWN
        lines.append(f"  … and {more:,} more; `askvault index` lists every one (stop the sidecar first).")
    return lines


def _percent(done: int, total: int) -> int:
    """Never 100 before the phase is over (as the plugin's status bar)."""
    share = 100 * min(done, total) // total
    return min(share, 99) if done < total else 100


def _duration(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest} s" if minutes < 60 else f"{minutes // 60} h {minutes % 60} min"
