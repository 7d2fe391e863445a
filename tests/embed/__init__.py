"""Tests for the embed stage: the Ollama embedder and per-model prefixes."""
