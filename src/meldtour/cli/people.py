"""``meldtour people``: see :mod:`meldtour.cli.circuit`."""

from __future__ import annotations

from .circuit import PEOPLE_HELP as HELP
from .circuit import people_arguments as add_arguments
from .circuit import people_run as run

__all__ = ["HELP", "add_arguments", "run"]
