"""Tests that the benchmark scripts run (at a tiny size, no timing assertions)."""
