"""Tests for the chunk stage's bounded paths: notes read as plain text, and skipping the code search."""
