"""Tests of the answer pipeline: events, follow-up rewrite, errors, cancellation and metrics."""
