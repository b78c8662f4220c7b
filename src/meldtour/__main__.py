import sys

from meldtour.cli import main

sys.exit(main())
