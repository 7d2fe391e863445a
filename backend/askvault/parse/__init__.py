"""Parse stage: Markdown notes into readable sections plus metadata (pure functions)."""
