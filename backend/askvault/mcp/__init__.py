"""The Model Context Protocol server: `search_vault`, `ask_vault` and `get_note_section` for AI agents."""
