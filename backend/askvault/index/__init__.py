"""Indexing: scan the vault, keep the stores in step with it, watch for changes."""
