"""Tests for the store stage: manifest, vector stores, keyword index."""
