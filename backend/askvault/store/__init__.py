"""Store stage: the manifest (SQLite), the vector engine (Qdrant), the BM25 keyword index and its text analysis."""
