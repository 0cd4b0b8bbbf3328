"""``python -m rummykit``: the same command line as ``rummykit``."""

from rummykit.cli import main

if __name__ == "__main__":
    main()
