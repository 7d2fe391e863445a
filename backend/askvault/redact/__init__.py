"""Privacy stage (pure): secret detection and redaction, and excluded headings, applied before chunking."""
