"""Tests of the sidecar HTTP API: a real server on port 0, fake services behind it."""
