"""An optional, fail-safe tracing hook for the answer pipeline: a tracer can watch, never break, a question."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Protocol

from askvault.model import Scalar

log = logging.getLogger(__name__)


class Tracer(Protocol):
    def record(self, stage: str, attributes: Mapping[str, Scalar]) -> None:
        """Called once per stage ("rewrite", "retrieval", "generation", "error").

        Attributes hold counts, codes and timings only, never question, note or answer text, so a tracer
        cannot leak vault content into a log by accident.
        """
        ...


class NoopTracer:
    def record(self, stage: str, attributes: Mapping[str, Scalar]) -> None:
        return None


def safe_record(tracer: Tracer, stage: str, attributes: Mapping[str, Scalar]) -> None:
    """Calls the tracer; any failure is logged and swallowed."""
    try:
        tracer.record(stage, attributes)
    except Exception:
        log.warning("tracer failed while recording %r; the question goes on", stage, exc_info=True)
