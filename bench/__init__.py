"""Benchmarks: `python -m bench` runs the suite (see bench/README.md); `python -m bench.<module>` runs one by hand."""
