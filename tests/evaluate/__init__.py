"""Tests for askvault.evaluate: metrics, the question set and its checker."""
