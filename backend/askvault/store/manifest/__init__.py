"""The manifest (SQLite): which notes and chunks are indexed, their texts and vector rows, and its in-memory catalog."""
