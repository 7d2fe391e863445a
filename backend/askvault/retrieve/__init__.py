"""Retrieve stage: dense and keyword legs fused by reciprocal rank fusion."""
