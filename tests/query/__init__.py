"""Tests for the query stage: a question analysed once (terms, identifiers, mentions, date phrase)."""
