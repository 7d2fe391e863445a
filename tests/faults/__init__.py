"""Fault injection at the engine level: crashes, Ollama failures, disk full, unreadable notes, lost events."""
