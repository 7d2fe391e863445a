"""Retrieve stage: dense and keyword legs fused by their normalised scores (one leg alone by rank)."""
