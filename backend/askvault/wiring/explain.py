"""Explain a miss, wired: the answer pipeline's traced retrieval step and the index's view of one path."""

from __future__ import annotations

from askvault.ask.explain import Explainer
from askvault.index.note_status import NoteStatusQuery
from askvault.wiring import Engine


def note_status_query(engine: Engine) -> NoteStatusQuery:
    """Read-only: the engine's note policy, the live catalog and manifest, the answer-time privacy guard, the
    indexer's current problems."""
    return NoteStatusQuery(
        engine.policy,
        engine.catalog,
        engine.manifest,
        engine.guard,
        problems=engine.indexer.problems.get,
    )


def engine_explainer(engine: Engine) -> Explainer:
    """The explainer over this engine's own answer pipeline (so reranking is on exactly when answers use it)."""
    return Explainer(engine.pipeline, engine.config.prompt, note_status_query(engine).status)
