"""The use cases a round played online runs on (:mod:`meldtour.live.online`): the
tournament as it is now, its division and current round, and a finished game onto its
table's score sheet (the table's last game submits it)."""

from __future__ import annotations

from .cache import read
from .divisions import resolve_division
from .errors import UseCaseError
from .rounds import current_round
from .sheets import GameEntry, enter_sheet

__all__ = ["GameEntry", "UseCaseError", "current_round", "enter_sheet", "read", "resolve_division"]
