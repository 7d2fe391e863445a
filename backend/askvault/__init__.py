"""Ask Vault: a local sidecar that answers questions from an Obsidian vault, with citations."""

__version__ = "0.1.0"
API_VERSION = 1
