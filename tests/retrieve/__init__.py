"""Tests for the retrieve stage: rank fusion and hybrid search."""
