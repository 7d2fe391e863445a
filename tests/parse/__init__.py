"""Tests for the parse stage: decoding, frontmatter, links, inline syntax, sections and real notes."""
