"""Embed stage: turn chunk and query text into vectors (Ollama)."""
