"""`python -m bench`: runs the suite and writes bench/results/<date>.json, .md and .png (see bench/README.md)."""

from bench.suite import main

if __name__ == "__main__":  # a spawned worker imports this module again under another name
    main()
