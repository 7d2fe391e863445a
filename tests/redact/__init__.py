"""Tests for askvault.redact: secret rules, redaction and excluded headings."""
