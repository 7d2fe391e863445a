"""Tests for the index stage: scanning, indexing, change tracking and the live watcher."""
