"""`askvault calibrate`: fit the "not in your notes" decision on eval runs, validated leave-one-vault-out."""

from __future__ import annotations

import json
from pathlib import Path

import click

from askvault.cli.options import handles_errors
from askvault.errors import ConfigError
from askvault.evaluate.calibrate import fit, leave_one_vault_out, samples_from_run
from askvault.evaluate.chart import write_tradeoff_chart


@click.command("calibrate")
@click.argument("runs", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--model", required=True, help="The embedding model the runs used (the calibration's key).")
@click.option("--plot", type=click.Path(dir_okay=False, path_type=Path), help="Write the trade-off chart here.")
@handles_errors
def calibrate_command(runs: tuple[Path, ...], model: str, plot: Path | None) -> None:
    """Fit the "not in your notes" decision on eval runs.

    RUNS are `askvault eval --json` files, one per vault, all with the same embedder. Shows how the decision
    fitted on the other vaults decides each one, then prints the calibration to put in `ask/relevance.py`.
    """
    samples = []
    for run in runs:
        try:
            document = json.loads(run.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ConfigError(f"{run}: not readable as JSON ({exc})") from exc
        samples.extend(samples_from_run(document))
    held_out = leave_one_vault_out(samples, model)
    click.echo("vault (fitted on the others)          negatives abstained   answerable abstained")
    for result in held_out:
        click.echo(
            f"{Path(result.vault).name:38} {result.negatives_abstained:3}/{result.negatives:<3} "
            f"({result.negatives_abstained / max(result.negatives, 1):.2f})      "
            f"{result.answerable_abstained:3}/{result.answerable:<3} "
            f"({result.answerable_abstained / max(result.answerable, 1):.3f})"
        )
    vaults = ", ".join(sorted({Path(s.vault).name for s in samples}))
    calibration = fit(samples, model, f"fitted on {vaults} ({len(samples)} questions), leave-one-vault-out checked")
    click.echo(f"\n{calibration!r}")
    if plot is not None:
        curves = {Path(r.vault).name: r.curve for r in held_out}
        write_tradeoff_chart(curves, plot, f"Abstention trade-off, {model} (each vault held out)")
