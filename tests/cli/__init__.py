"""Tests for the command line."""
