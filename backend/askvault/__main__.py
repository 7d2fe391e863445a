"""`python -m askvault`: the same command line as the `askvault` script."""

from askvault.cli import main

main()
