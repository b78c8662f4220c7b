"""``python -m meldtour.cli``: the ``meldtour`` command."""

import sys

from meldtour.cli import main

if __name__ == "__main__":
    sys.exit(main())
