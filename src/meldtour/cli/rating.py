"""``meldtour rating``: see :mod:`meldtour.cli.circuit`."""

from __future__ import annotations

from .circuit import RATING_HELP as HELP
from .circuit import rating_arguments as add_arguments
from .circuit import rating_run as run

__all__ = ["HELP", "add_arguments", "run"]
