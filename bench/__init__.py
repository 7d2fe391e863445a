"""Benchmarks run by hand (`python -m bench.<name>`); their figures go into docs/decisions.md."""
