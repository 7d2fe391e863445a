"""Whether the notes can answer a question: signals from one search, a per-embedder calibration, one decision."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from askvault.embed.prefixes import base_name
from askvault.model import Hit, SearchResult

AGREE_TOP = 3
"""How deep into each leg `legs_agree` looks."""
GAP_AT = 5
"""`dense_gap` compares the best dense score with the one at this place."""


@dataclass(frozen=True, slots=True)
class RelevanceSignals:
    """What one search says about whether the vault holds the answer; None where a leg gave nothing to measure."""

    top_dense: float | None
    """The best dense cosine among the hits (`Hit.dense_score`), floored at 0: a negative cosine says no more than
    an orthogonal one (both mean unrelated), and a linear score must not count it against the keyword signals."""
    keyword_strength: float | None
    """The best keyword hit's BM25 score over the sum of the IDFs of the query's informative terms (idf > 0):
    near 1 (up to k1 + 1) when one chunk holds every term the vault knows, small when it holds only a rare few.
    None without a keyword hit."""
    term_coverage: float | None
    """Share of the query's keyword terms that occur in any chunk (df > 0). With the Lucene IDF a term has idf > 0
    exactly when df > 0, so this is the informative terms' share of all terms: how much of the question the
    vault's vocabulary knows at all (`keyword_strength` says how well the best chunk covers those). None without a
    keyword hit (a filter may hide every chunk that holds the terms) or without any term."""
    legs_agree: bool
    """A note among the dense leg's top 3 hits is also among the keyword leg's top 3."""
    dense_gap: float | None
    """The best dense score minus the 5th best among the hits; None with fewer than 5 dense scores."""
    dense_available: bool = True
    """False when the search ran without its dense leg (no embedding model): decided on keywords alone."""

    @property
    def found(self) -> bool:
        """Either leg returned a hit it could measure."""
        return any(value is not None for value in (self.top_dense, self.keyword_strength, self.term_coverage))


def _top_notes(hits: list[Hit], rank_of: Callable[[Hit], int | None]) -> set[str]:
    """Notes of the hits one leg ranked within its top AGREE_TOP."""
    return {hit.chunk.path for hit in hits if (rank := rank_of(hit)) is not None and rank <= AGREE_TOP}


def relevance_signals(result: SearchResult) -> RelevanceSignals:
    """The signals of one search result (its hits and the keyword leg's term statistics); pure."""
    dense = sorted((h.dense_score for h in result.hits if h.dense_score is not None), reverse=True)
    keyword_hits = [h for h in result.hits if h.keyword_rank is not None and h.keyword_score is not None]
    idf_mass = math.fsum(t.idf for t in result.terms if t.idf > 0)
    strength: float | None = None
    coverage: float | None = None
    if keyword_hits:
        best = max(h.keyword_score or 0.0 for h in keyword_hits)
        strength = best / idf_mass if idf_mass > 0 else None
        if result.terms:
            coverage = sum(t.df > 0 for t in result.terms) / len(result.terms)
    return RelevanceSignals(
        top_dense=max(dense[0], 0.0) if dense else None,
        keyword_strength=strength,
        term_coverage=coverage,
        legs_agree=bool(
            _top_notes(result.hits, lambda h: h.dense_rank) & _top_notes(result.hits, lambda h: h.keyword_rank)
        ),
        dense_gap=dense[0] - dense[GAP_AT - 1] if len(dense) >= GAP_AT else None,
        dense_available=result.dense_available,
    )


@dataclass(frozen=True, slots=True)
class Weights:
    """One weight per signal; `legs_agree` counts 1 when true."""

    top_dense: float = 0.0
    keyword_strength: float = 0.0
    term_coverage: float = 0.0
    legs_agree: float = 0.0
    dense_gap: float = 0.0


@dataclass(frozen=True, slots=True)
class Calibration:
    """How one embedding model's signals are weighed: score = 1 / (1 + e^-z), z = bias + Σ weight · signal
    (a missing signal counts 0, `legs_agree` 0 or 1); the notes are used when score ≥ threshold. A logistic
    regression fitted on answerable and unanswerable questions gives `weights` and `bias` directly."""

    model: str
    """The embedder's base model name this was fitted for (`all-minilm`), or `*` for the fallback."""
    weights: Weights
    bias: float
    threshold: float
    source: str
    """Where the numbers came from: "fitted on … leave-one-vault-out", "placeholder until fitted", "fallback"."""
    keyword_only: Calibration | None = None
    """For searches without the dense leg; None: the fallback's (its dense weight has nothing to act on)."""

    def score(self, signals: RelevanceSignals) -> float:
        w = self.weights
        z = self.bias + math.fsum(
            (
                w.top_dense * (signals.top_dense or 0.0),
                w.keyword_strength * (signals.keyword_strength or 0.0),
                w.term_coverage * (signals.term_coverage or 0.0),
                w.legs_agree * (1.0 if signals.legs_agree else 0.0),
                w.dense_gap * (signals.dense_gap or 0.0),
            )
        )
        # Written so neither branch overflows for a very large |z|.
        if z >= 0:
            return 1.0 / (1.0 + math.exp(-z))
        return math.exp(z) / (1.0 + math.exp(z))


# Uncalibrated models must almost never refuse: z = 10 · (top_dense + term_coverage − 0.5) reaches the threshold
# (score 0.5, z = 0) unless the best dense cosine and the share of known question words add up to less than 0.5,
# so it abstains only when no keyword hit covers half the question AND no note is 0.5 similar (and often not even
# then). Nothing here is tuned; measured calibrations replace it per model.
FALLBACK = Calibration(
    model="*",
    weights=Weights(top_dense=10.0, term_coverage=10.0),
    bias=-5.0,
    threshold=0.5,
    source="fallback (no calibration for this embedding model)",
)

# The fitted calibration per embedding model, keyed by base model name (no namespace, tag or `@dimension`).
# `askvault calibrate` fits the weights (logistic regression on the hybrid runs of the sample vault, tasks-docs and
# de-wiki, 325 questions, score fusion; eval/README.md, "Not in your notes"); the threshold is then set below the
# fit's own so that no vault loses more than one answerable question in 77-85: refusing a question the notes do
# answer costs the user more than one weak answer. Refit when the retriever changes.
CALIBRATIONS: dict[str, Calibration] = {
    "all-minilm": Calibration(
        model="all-minilm",
        weights=Weights(
            top_dense=1.4166, keyword_strength=-0.1017, term_coverage=1.5668, legs_agree=0.6503, dense_gap=0.1872
        ),
        bias=-2.4924,
        threshold=0.22,
        source="fitted on the sample vault, tasks-docs and de-wiki (325 questions, 2026-12-01); threshold 0.22",
    ),
    "multilingual-e5-small": Calibration(
        model="multilingual-e5-small",
        weights=Weights(
            top_dense=0.3852, keyword_strength=-0.0063, term_coverage=1.754, legs_agree=0.648, dense_gap=-0.004
        ),
        bias=-2.3079,
        threshold=0.24,
        source="fitted on the sample vault, tasks-docs and de-wiki (325 questions, 2026-12-01); threshold 0.24",
    ),
}


def calibration_for(fingerprint_or_model: str) -> Calibration:
    """The calibration of an embedder, by model name (`all-minilm:latest`, `hf.co/x/all-minilm`) or fingerprint
    (`all-minilm@384`, `multilingual-e5-small@384+doc-1a2b3c4d`); FALLBACK for a model nobody calibrated."""
    name = base_name(fingerprint_or_model.split("@", 1)[0])
    return CALIBRATIONS.get(name, FALLBACK)


@dataclass(frozen=True, slots=True)
class RelevanceDecision:
    """Whether the notes go to the model, and why, in numbers and in one sentence for the user."""

    answer: bool
    score: float
    threshold: float
    signals: RelevanceSignals
    calibration_model: str
    calibration_source: str
    forced: bool
    """True when `force` sent notes the decision would have kept back."""
    reason: str


def _reason(signals: RelevanceSignals, score: float, threshold: float, force: bool) -> str:
    figures = f"relevance {score:.2f}, needs {threshold:.2f}"
    if not signals.dense_available:
        figures += ", keywords only"
    if not signals.found:
        return "Nothing in your notes matched the question."
    if score >= threshold:
        return f"Your notes look relevant to this question ({figures})."
    if force:
        return f"Sent anyway as you asked, although your notes do not seem to cover this question ({figures})."
    return f"Your notes do not seem to cover this question ({figures})."


def decide(signals: RelevanceSignals, calibration: Calibration, *, force: bool = False) -> RelevanceDecision:
    """Answer from the notes when the calibrated score reaches its threshold (or when forced); a search that found
    nothing scored never does on its own. Without the dense leg the calibration's keyword-only form decides."""
    used = calibration if signals.dense_available else (calibration.keyword_only or FALLBACK)
    score = used.score(signals)
    would = signals.found and score >= used.threshold
    return RelevanceDecision(
        answer=would or force,
        score=score,
        threshold=used.threshold,
        signals=signals,
        calibration_model=used.model,
        calibration_source=used.source,
        forced=force and not would,
        reason=_reason(signals, score, used.threshold, force),
    )
