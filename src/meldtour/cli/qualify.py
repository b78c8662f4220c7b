"""``meldtour qualify``: see :mod:`meldtour.cli.circuit`."""

from __future__ import annotations

from .circuit import QUALIFY_HELP as HELP
from .circuit import qualify_arguments as add_arguments
from .circuit import qualify_run as run

__all__ = ["HELP", "add_arguments", "run"]
