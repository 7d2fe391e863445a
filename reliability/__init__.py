"""Long-running reliability checks (kill -9 loop, load and soak, pathological corpus), run with `make reliability`."""
