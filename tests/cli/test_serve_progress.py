"""What `askvault serve` prints while its start-up index run works, and once the index is ready."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from askvault.cli.serve_progress import StartupProgress, describe_outcome, format_eta
from askvault.config import load_config
from askvault.index.report import IndexReport, Problem, Progress
from askvault.wiring.sidecar import Indexed, Started, run_sidecar
from tests.conftest import RunningOllama, VaultWriter
from tests.faults.helpers import numbered_notes

WAIT_S = 30.0


class Clock:
    """Seconds that move only when the test says so."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_plain_lines_are_throttled_and_carry_the_status_figures(capsys: pytest.CaptureFixture[str]) -> None:
    clock = Clock()
    shown = StartupProgress(show_bar=False, every_s=5.0, clock=clock)
    feed = [
        (0.0, Progress("scan", 0, 0)),
        (1.0, Progress("notes", 100, 5000)),  # the run is young: nothing yet
        (5.0, Progress("notes", 500, 5000)),  # first line once it lasted 5 s
        (7.0, Progress("notes", 700, 5000)),  # throttled
        (10.0, Progress("notes", 1200, 5000)),
        (11.0, Progress("keyword", 0, 1)),  # a new phase is said at once
        (12.0, Progress("embed", 0, 3000)),
        (13.0, Progress("embed", 40, 3000)),
        (18.0, Progress("embed", 440, 3000)),
        (19.0, Progress("done", 5000, 5000)),
    ]
    for at, progress in feed:
        clock.now = 1000.0 + at
        shown.progress(progress)
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == [
        "  indexing 10%: 500 of 5,000 notes, 100 per second, less than a minute left",
        "  indexing 24%: 1,200 of 5,000 notes, 122 per second, less than a minute left",
        "  indexing keywords…",
        "  embedding 0%: 0 of 3,000 chunks",
        "  embedding 14%: 440 of 3,000 chunks, 73 per second, less than a minute left",
    ]


def test_a_terminal_gets_a_bar_per_phase_instead_of_lines(capsys: pytest.CaptureFixture[str]) -> None:
    shown = StartupProgress(show_bar=True, every_s=0.0)
    for progress in (Progress("scan", 0, 0), Progress("notes", 3, 6), Progress("notes", 6, 6), Progress("embed", 9, 9)):
        shown.progress(progress)
    shown.indexed(Indexed(6, 9, _report(indexed=6), None, 1.0))
    captured = capsys.readouterr()
    assert re.search(r"indexing: 100%\|.*\| 6/6", captured.err), captured.err
    assert re.search(r"embedding: 100%\|.*\| 9/9", captured.err), captured.err
    assert "  indexing 50%" not in captured.err
    assert captured.out.startswith("Index ready in 1.0 s: 6 notes, 9 chunks")


@pytest.mark.parametrize(
    ("seconds", "words"),
    [(None, ""), (12.0, "less than a minute left"), (185.0, "about 3 min left"), (3600.0, "about 1 h left"),
     (10_320.0, "about 2 h 52 min left")],
    ids=["unknown", "seconds", "minutes", "an-hour", "hours-and-minutes"],
)  # fmt: skip
def test_time_left_reads_as_the_plugin_says_it(seconds: float | None, words: str) -> None:
    assert format_eta(seconds) == words


def _report(**fields: object) -> IndexReport:
    report = IndexReport(dense="ready")
    for name, value in fields.items():
        setattr(report, name, value)
    return report


@pytest.mark.parametrize(
    ("outcome", "lines"),
    [
        (
            Indexed(1520, 12034, _report(indexed=3, unchanged=1517), None, 4.26),
            ["Index ready in 4.3 s: 1,520 notes, 12,034 chunks (3 new or changed, 1,517 unchanged, 0 removed); "
             "0 failed, 0 skipped."],
        ),
        (
            Indexed(
                2, 9,
                _report(indexed=2, failed=[Problem("a.md", "not UTF-8")],
                        skipped=[Problem(f"big{n}.md", "larger than 5 MB") for n in range(6)]),
                None, 125.0,
            ),
            ["Index ready in 2 min 5 s: 2 notes, 9 chunks (2 new or changed, 0 unchanged, 0 removed); 1 failed, "
             "6 skipped.",
             "  failed  a.md: not UTF-8",
             *[f"  skipped big{n}.md: larger than 5 MB" for n in range(4)],
             "  … and 2 more; `askvault index` lists every one (stop the sidecar first)."],
        ),
        (
            Indexed(8, 20, _report(indexed=8, dense="off", dense_problem="all-minilm is not pulled: `ollama pull "
                                   "all-minilm`"), None, 0.4),
            ["Index ready in 0.4 s: 8 notes, 20 chunks (8 new or changed, 0 unchanged, 0 removed); 0 failed, "
             "0 skipped.",
             "  semantic search is off: all-minilm is not pulled: `ollama pull all-minilm`; keyword search answers "
             "meanwhile."],
        ),
        (
            Indexed(40, 300, None, "the vault looks empty but the index holds 40 notes; is it mounted?", 0.05),
            ["Index not updated after 0.1 s: the vault looks empty but the index holds 40 notes; is it mounted?; "
             "serving the last good index (40 notes, 300 chunks)."],
        ),
    ],
    ids=["ready", "failed-and-skipped", "keyword-only", "refused"],
)  # fmt: skip
def test_the_ready_line(outcome: Indexed, lines: list[str]) -> None:
    assert describe_outcome(outcome) == lines


async def test_a_real_start_up_run_prints_progress_after_the_banner_and_one_ready_line(
    make_vault: VaultWriter, tmp_path: Path, fake_ollama: RunningOllama, capsys: pytest.CaptureFixture[str]
) -> None:
    vault = make_vault(numbered_notes(60))
    (tmp_path / "outside.md").write_text("# Outside\n", encoding="utf-8")
    (vault / "Link.md").symlink_to(tmp_path / "outside.md")  # skipped: it points outside the vault
    config = load_config(
        {
            "vault": str(vault),
            "data_dir": str(tmp_path / "data"),
            "ollama_url": fake_ollama.url,
            "embed_model": "nomic-embed-text",
            "port": 0,
        },
        {},
    )
    shown = StartupProgress(show_bar=False, every_s=0.0)  # every report, to see them in a short run
    indexed: asyncio.Future[Indexed] = asyncio.get_running_loop().create_future()

    def banner(started: Started) -> None:
        print("BANNER")

    def ready(outcome: Indexed) -> None:
        shown.indexed(outcome)
        indexed.set_result(outcome)

    stop = asyncio.Event()
    task = asyncio.create_task(
        run_sidecar(config, on_started=banner, stop=stop, model_poll_s=3600, on_progress=shown.progress,
                    on_indexed=ready)
    )  # fmt: skip
    try:
        outcome = await asyncio.wait_for(asyncio.shield(indexed), WAIT_S)
    finally:
        stop.set()
        await asyncio.wait_for(task, WAIT_S)
    assert (outcome.notes, outcome.refused) == (60, None)
    assert outcome.report is not None
    assert outcome.report.indexed == 60
    captured = capsys.readouterr()
    out = captured.out.splitlines()
    assert out[0] == "BANNER"
    assert re.fullmatch(
        r"Index ready in \d+\.\d s: 60 notes, \d+ chunks \(60 new or changed, 0 unchanged, 0 removed\); "
        r"0 failed, 1 skipped\.",
        out[1],
    ), out
    assert out[2:] == ["  skipped Link.md: symlink to outside the vault"]
    progress = [line for line in captured.err.splitlines() if line.startswith("  ")]
    assert progress, captured.err
    for line in progress:
        assert re.fullmatch(r"  (scanning…|indexing keywords…|indexing \d+%: \d+ of 60 notes.*|embedding \d+%: .*)",
                            line), line  # fmt: skip
