"""``meldtour ranking``: see :mod:`meldtour.cli.circuit`."""

from __future__ import annotations

from .circuit import RANKING_HELP as HELP
from .circuit import ranking_arguments as add_arguments
from .circuit import ranking_run as run

__all__ = ["HELP", "add_arguments", "run"]
