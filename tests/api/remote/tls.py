"""A real TLS handshake on 127.0.0.1: a one-connection server in a thread, a client that trusts one file."""

from __future__ import annotations

import socket
import ssl
import threading
from pathlib import Path


def peer_certificate(server: ssl.SSLContext, cafile: Path, server_hostname: str) -> bytes:
    """The DER certificate the client saw after a verified handshake (hostname checked too)."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(10)
    port = listener.getsockname()[1]
    failures: list[BaseException] = []

    def serve() -> None:
        try:
            conn, _ = listener.accept()
            conn.settimeout(10)
            with server.wrap_socket(conn, server_side=True) as tls:
                tls.sendall(b"ok")
        except (OSError, ssl.SSLError) as exc:
            failures.append(exc)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        client = ssl.create_default_context(cafile=str(cafile))
        with (
            socket.create_connection(("127.0.0.1", port), timeout=10) as raw,
            client.wrap_socket(raw, server_hostname=server_hostname) as tls,
        ):
            received = b""
            while len(received) < 2:
                chunk = tls.recv(2 - len(received))
                if not chunk:
                    break
                received += chunk
            der = tls.getpeercert(binary_form=True)
    finally:
        thread.join(10)
        listener.close()
    assert received == b"ok"
    assert not failures, failures
    assert der is not None
    return der
