"""Privacy end to end: canaries, network egress and prompt injection against the real engine."""
