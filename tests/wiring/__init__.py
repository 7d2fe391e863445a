"""Tests for the composition root and the sidecar lifecycle."""
