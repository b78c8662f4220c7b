"""The use cases a round played online runs on (:mod:`meldtour.live.online`): the
tournament as it is now, its division and current round, and a finished game onto its
table's score sheet (the table's last game submits it)."""

from __future__ import annotations

from meldtour.store import games as game_log
from meldtour.store import online as online_rows
from meldtour.store.db import Store
from meldtour.store.online import OnlineError, OnlineGame

from .cache import read
from .divisions import resolve_division
from .errors import UseCaseError
from .rounds import current_round
from .sheets import GameEntry, enter_sheet


def round_games(
    store: Store, slug: str, division: str, stage: int, round_number: int
) -> tuple[str, list[OnlineGame]]:
    """The tournament's template and the round's online games, by table and game."""
    tid, _slug, template = online_rows.tournament_of(store, slug)
    return template, online_rows.round_games(store, tid, division, stage, round_number)


def logged_progress(store: Store, game_id: str) -> tuple[int, bool]:
    """A game's moves so far and whether it is over, from the game log."""
    logged = game_log.load_game(store, game_id)
    if logged is None:
        return 0, False
    return len(logged.moves), logged.result is not None


__all__ = [
    "GameEntry",
    "OnlineError",
    "OnlineGame",
    "UseCaseError",
    "current_round",
    "enter_sheet",
    "logged_progress",
    "read",
    "resolve_division",
    "round_games",
]
