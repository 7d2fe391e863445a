"""Test doubles: a fake Ollama server speaking the real wire protocol, and in-process fakes of the seams."""
