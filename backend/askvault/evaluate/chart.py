"""chart.png: evidence recall at one k, grouped bars per question type, one bar per mode (matplotlib, Agg)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from askvault.evaluate.metrics import JsonValue

# Colour-blind-safe (Okabe–Ito), fixed per position so the same run always draws the same picture.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")


def _series(summary: Mapping[str, JsonValue], mode: str, key: str) -> tuple[list[str], list[float | None]]:
    figures = summary[mode]
    assert isinstance(figures, Mapping)
    by_type = figures["by_type"]
    assert isinstance(by_type, Mapping)
    labels, values = ["all"], [figures[key]]
    for type_, type_figures in by_type.items():
        assert isinstance(type_figures, Mapping)
        if type_figures["answerable"]:
            labels.append(str(type_))
            values.append(type_figures[key])
    return labels, [float(v) if isinstance(v, int | float) else None for v in values]


def write_chart(summary: Mapping[str, JsonValue], modes: Sequence[str], k: int, path: Path, title: str = "") -> None:
    """Writes the PNG; the same numbers give the same bytes (no timestamps, fixed size, colours and order)."""
    key = f"evidence_recall@{k}"
    labels, _ = _series(summary, modes[0], key)
    width = 0.8 / len(modes)
    figure = Figure(figsize=(max(6.0, 1.1 * len(labels) + 1.5), 4.2), dpi=100)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    for index, mode in enumerate(modes):
        _, values = _series(summary, mode, key)
        positions = [i + (index - (len(modes) - 1) / 2) * width for i in range(len(labels))]
        heights = [v if v is not None else 0.0 for v in values]
        bars = axes.bar(positions, heights, width, label=mode, color=PALETTE[index % len(PALETTE)])
        axes.bar_label(bars, labels=[f"{v:.2f}" if v is not None else "–" for v in values], fontsize=6, padding=1)
    axes.set_xticks(range(len(labels)), labels, rotation=25, ha="right", fontsize=8)
    axes.set_ylim(0, 1.22)
    axes.set_ylabel(f"Evidence Recall@{k}")
    axes.set_title(title or f"Evidence Recall@{k} by question type", fontsize=10)
    axes.legend(fontsize=8, loc="upper center", ncols=len(modes), frameon=False)
    axes.grid(axis="y", alpha=0.3)
    axes.set_axisbelow(True)
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, format="png", metadata={"Software": None})


def write_tradeoff_chart(curves: Mapping[str, Sequence[tuple[float, float, float]]], path: Path, title: str) -> None:
    """The abstention trade-off per held-out vault: answerable wrongly abstained (x) against negatives abstained
    (y), one line per vault over a grid of thresholds; the same numbers give the same bytes."""
    figure = Figure(figsize=(5.0, 4.2), dpi=100)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    for index, (vault, curve) in enumerate(sorted(curves.items())):
        xs = [wrong for _, wrong, _ in curve]
        ys = [right for _, _, right in curve]
        axes.plot(xs, ys, marker=".", markersize=3, label=vault, color=PALETTE[index % len(PALETTE)])
    axes.axvline(0.03, color="#999999", linestyle="--", linewidth=0.8)
    axes.axhline(0.80, color="#999999", linestyle="--", linewidth=0.8)
    axes.set_xlim(0, 1)
    axes.set_ylim(0, 1.02)
    axes.set_xlabel("answerable questions abstained")
    axes.set_ylabel("negative questions abstained")
    axes.set_title(title, fontsize=10)
    axes.legend(fontsize=8, loc="lower right", frameon=False)
    axes.grid(alpha=0.3)
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, format="png", metadata={"Software": None})
