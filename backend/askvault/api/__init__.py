"""The sidecar HTTP API the plugin talks to."""
