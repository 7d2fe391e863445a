"""Tests for the askvault package; folders mirror the package."""
