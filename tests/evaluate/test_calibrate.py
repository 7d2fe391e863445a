"""Fitting the relevance decision: the logistic fit, the threshold rule and leave-one-vault-out."""

from __future__ import annotations

import numpy as np
import pytest

from askvault.ask.relevance import RelevanceSignals, decide
from askvault.errors import ConfigError
from askvault.evaluate.calibrate import FEATURES, Sample, fit, fit_logistic, leave_one_vault_out, place_threshold


def sample(vault: str, n: int, answerable: bool, dense: float) -> Sample:
    # Answerable questions: strong dense and keyword signals; negatives: weak ones.
    strength = 0.8 if answerable else 0.2
    return Sample(vault, f"{vault}-{n}", answerable, (dense, strength, 1.0, 1.0 if answerable else 0.0, 0.1))


def vault(name: str, offset: float = 0.0) -> list[Sample]:
    answerable = [sample(name, i, True, 0.6 + offset + 0.01 * i) for i in range(20)]
    negatives = [sample(name, 100 + i, False, 0.3 + offset + 0.01 * i) for i in range(8)]
    return answerable + negatives


def test_fit_separates_separable_classes() -> None:
    x = np.array([[0.9], [0.8], [0.7], [0.2], [0.1], [0.15]])
    y = np.array([1.0, 1.0, 1.0, 0.0, 0.0, 0.0])
    weights, bias = fit_logistic(x, y)
    scores = 1 / (1 + np.exp(-(x @ weights + bias)))
    assert (scores[:3] > 0.5).all()
    assert (scores[3:] < 0.5).all()


@pytest.mark.parametrize(
    ("scores", "expected"),
    [([0.9, 0.8, 0.7], 0.7), ([0.5] * 100, 0.5), (list(np.linspace(0, 1, 101)), 0.02)],
    ids=["few-none-wrong", "ties", "two-percent"],
)
def test_threshold_lets_at_most_two_percent_abstain(scores: list[float], expected: float) -> None:
    threshold = place_threshold(np.array(scores))
    assert threshold == pytest.approx(expected)
    assert (np.array(scores) < threshold).mean() <= 0.02


def test_a_fitted_calibration_drives_decide() -> None:
    calibration = fit(vault("a") + vault("b"), "all-minilm", "test")
    strong = RelevanceSignals(0.75, 0.8, 1.0, True, 0.1)
    weak = RelevanceSignals(0.3, 0.2, 1.0, False, 0.1)
    assert decide(strong, calibration).answer
    assert not decide(weak, calibration).answer
    assert calibration.source == "test"


def test_leave_one_vault_out_never_scores_a_vault_with_its_own_fit() -> None:
    # Vault c's scores are shifted: fitted on a and b only, its negatives still abstain, its answerable do not.
    results = leave_one_vault_out(vault("a") + vault("b") + vault("c", offset=0.05), "all-minilm")
    assert [r.vault for r in results] == ["a", "b", "c"]
    for result in results:
        assert (result.negatives, result.answerable) == (8, 20)
        assert result.negatives_abstained == 8
        assert result.answerable_abstained == 0
        assert result.curve[0][1:] == (0.0, 0.0)  # threshold 0: nothing abstains
        assert result.curve[-1][1:] == (1.0, 1.0)  # threshold 1: everything does


@pytest.mark.parametrize(
    ("samples", "message"),
    [
        (vault("a"), "at least two vaults"),
        ([s for s in vault("a") + vault("b") if s.answerable], "both answerable and negative"),
    ],
    ids=["one-vault", "one-class"],
)
def test_bad_inputs_are_config_errors(samples: list[Sample], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        leave_one_vault_out(samples, "all-minilm")


def test_features_match_the_signals() -> None:
    assert set(FEATURES) <= set(RelevanceSignals.__dataclass_fields__)
