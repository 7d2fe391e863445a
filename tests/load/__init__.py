"""Concurrent clients against the real sidecar: searches and answer streams on loopback."""
