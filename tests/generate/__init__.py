"""Tests of the generate stage: prompt, sanitizer, citations and the Ollama chat model."""
