"""The vector engine: the dense leg's state and its two Qdrant stores, embedded (qdrant-edge, HNSW graph) and server."""
