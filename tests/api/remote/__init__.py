"""Tests of remote mode's building blocks: certificate, devices, pairing codes and the failure limiter."""
