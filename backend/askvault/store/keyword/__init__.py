"""The keyword index: BM25 over chunk text, its numpy statistics and its snapshots."""
