"""A child process for the kill loop: imports everything first, prints READY, then runs the real `askvault` CLI.

Importing takes seconds; announcing READY afterwards lets the parent aim its SIGKILL at the work itself
(opening stores, scanning, writing the manifest, embedding, writing vectors, closing) and not at imports.
"""

from __future__ import annotations

import sys

import askvault.wiring.sidecar  # noqa: F401  (imported here so that `serve` starts without import time)
from askvault.cli import cli


def main() -> None:
    print("READY", flush=True)
    cli.main(sys.argv[1:], prog_name="askvault")


if __name__ == "__main__":
    main()
