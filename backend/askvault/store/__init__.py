"""Store stage: the chunk manifest (SQLite), dense vectors (Qdrant) and the BM25 keyword index."""
