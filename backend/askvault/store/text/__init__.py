"""Text analysis: language tags and detection, stop words, CJK bigrams and the keyword leg's tokenizers."""
