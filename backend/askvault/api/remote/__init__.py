"""Remote mode: the TLS certificate, paired devices, one-time pairing codes, failure limits, and the app and routes
that serve paired devices."""
