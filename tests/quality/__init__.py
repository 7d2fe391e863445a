"""Retrieval quality with the real built-in embedder: a semantic search check and the quality gate."""
