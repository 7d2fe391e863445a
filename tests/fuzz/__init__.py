"""Hostile and random input for the parser, chunker and tokenizer, and the real indexer over a hostile vault."""
