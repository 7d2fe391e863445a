"""Fitting the "not in your notes" decision: logistic regression on eval runs' signals, leave-one-vault-out."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from askvault.ask.relevance import Calibration, Weights
from askvault.errors import ConfigError
from askvault.evaluate.metrics import JsonValue

FEATURES = ("top_dense", "keyword_strength", "term_coverage", "legs_agree", "dense_gap")
MAX_WRONG_ABSTAIN = 0.02
"""The threshold is placed so at most this share of the training vaults' answerable questions abstain: a wrong
"not in your notes" costs the user more than one weak answer, so the fit leans towards answering."""
L2 = 0.01
Vector = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Sample:
    """One question's signals from one vault's run, and whether the vault answers it."""

    vault: str
    question_id: str
    answerable: bool
    features: tuple[float, ...]


def samples_from_run(run: Mapping[str, JsonValue], mode: str = "hybrid") -> list[Sample]:
    """The samples of one `askvault eval --json` document (the hybrid mode's `relevance` of every question)."""
    meta = run.get("meta")
    vault = str(meta.get("vault")) if isinstance(meta, Mapping) else "?"
    questions = run.get("per_question")
    if not isinstance(questions, list):
        raise ConfigError("not an `askvault eval --json` document: it has no per_question list")
    samples: list[Sample] = []
    for question in questions:
        if not isinstance(question, Mapping):
            continue
        modes = question.get("modes")
        run_of = modes.get(mode) if isinstance(modes, Mapping) else None
        signals = run_of.get("relevance") if isinstance(run_of, Mapping) else None
        if not isinstance(signals, Mapping):
            raise ConfigError(f"question {question.get('id')!r} has no {mode} relevance signals; rerun the eval")
        values = tuple(_number(signals.get(name)) for name in FEATURES)
        samples.append(Sample(vault, str(question.get("id")), bool(question.get("expected_paths")), values))
    return samples


def _number(value: JsonValue) -> float:
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    return float(value) if isinstance(value, int | float) else 0.0


def _matrix(samples: Sequence[Sample]) -> tuple[Vector, Vector]:
    x = np.array([s.features for s in samples], dtype=np.float64).reshape(len(samples), len(FEATURES))
    y = np.array([1.0 if s.answerable else 0.0 for s in samples], dtype=np.float64)
    return x, y


def fit_logistic(x: Vector, y: Vector, l2: float = L2, steps: int = 50) -> tuple[Vector, float]:
    """(weights, bias) of an L2-regularised logistic regression by Newton's method; classes weighted equally, so
    a vault with few negatives still moves the boundary."""
    n, d = x.shape
    positives = max(float(y.sum()), 1.0)
    negatives = max(float(n - y.sum()), 1.0)
    sample_w = np.where(y > 0.5, n / (2 * positives), n / (2 * negatives))
    design = np.hstack([x, np.ones((n, 1))])
    theta = np.zeros(d + 1)
    penalty = np.eye(d + 1) * l2
    penalty[-1, -1] = 0.0  # the bias is not shrunk
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-np.clip(design @ theta, -30, 30)))
        gradient = design.T @ (sample_w * (p - y)) / n + penalty @ theta
        hessian = (design.T * (sample_w * p * (1 - p))) @ design / n + penalty
        step = np.linalg.solve(hessian + 1e-9 * np.eye(d + 1), gradient)
        theta -= step
        if float(np.abs(step).max()) < 1e-10:
            break
    return theta[:-1], float(theta[-1])


def _scores(x: Vector, weights: Vector, bias: float) -> Vector:
    result: Vector = 1.0 / (1.0 + np.exp(-np.clip(x @ weights + bias, -30, 30)))
    return result


def place_threshold(answerable_scores: Vector, max_wrong: float = MAX_WRONG_ABSTAIN) -> float:
    """The highest threshold at which at most `max_wrong` of these answerable questions would abstain."""
    ordered = np.sort(answerable_scores)
    allowed = math.floor(max_wrong * len(ordered))
    return float(ordered[allowed]) if len(ordered) else 0.5


def fit(samples: Sequence[Sample], model: str, source: str) -> Calibration:
    """A calibration fitted on every sample given."""
    x, y = _matrix(samples)
    if y.min(initial=1.0) == y.max(initial=0.0):
        raise ConfigError("fitting needs both answerable and negative questions")
    weights, bias = fit_logistic(x, y)
    threshold = place_threshold(_scores(x[y > 0.5], weights, bias))
    named = Weights(**{name: round(float(w), 4) for name, w in zip(FEATURES, weights, strict=True)})
    return Calibration(model=model, weights=named, bias=round(bias, 4), threshold=round(threshold, 4), source=source)


@dataclass(frozen=True, slots=True)
class HeldOut:
    """One vault scored with a calibration fitted on the other vaults."""

    vault: str
    negatives: int
    negatives_abstained: int
    answerable: int
    answerable_abstained: int
    curve: tuple[tuple[float, float, float], ...]
    """(threshold, share of answerable abstained, share of negatives abstained) over a grid of thresholds."""


def _calibration_scores(calibration: Calibration, x: Vector) -> Vector:
    w = calibration.weights
    vector = np.array([getattr(w, name) for name in FEATURES], dtype=np.float64)
    return _scores(x, vector, calibration.bias)


def leave_one_vault_out(samples: Sequence[Sample], model: str) -> list[HeldOut]:
    """For each vault: fit on the others, then count how its questions would be decided. Never scores a vault with
    parameters fitted on it."""
    vaults = sorted({s.vault for s in samples})
    if len(vaults) < 2:
        raise ConfigError("leave-one-vault-out needs runs over at least two vaults")
    results: list[HeldOut] = []
    for vault in vaults:
        train = [s for s in samples if s.vault != vault]
        test = [s for s in samples if s.vault == vault]
        calibration = fit(train, model, f"fitted without {vault}")
        x, y = _matrix(test)
        scores = _calibration_scores(calibration, x)
        abstain = scores < calibration.threshold
        curve = tuple(
            (
                round(t, 3),
                float((scores[y > 0.5] < t).mean()) if (y > 0.5).any() else 0.0,
                float((scores[y < 0.5] < t).mean()) if (y < 0.5).any() else 0.0,
            )
            for t in np.linspace(0.0, 1.0, 41).tolist()
        )
        results.append(
            HeldOut(
                vault=vault,
                negatives=int((y < 0.5).sum()),
                negatives_abstained=int((abstain & (y < 0.5)).sum()),
                answerable=int((y > 0.5).sum()),
                answerable_abstained=int((abstain & (y > 0.5)).sum()),
                curve=curve,
            )
        )
    return results
