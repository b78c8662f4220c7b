"""What the table offers the others: the tiles a player cannot see that would go on
the table by themselves, and the plays that add none (shared by the league's
``starver`` and the expert's late laying)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

from meldtour.core.melds import Board, Meld
from meldtour.core.tiles import Tile, full_set
from meldtour.core.views import PlayerView
from meldtour.solver import Solution, solve

from .base import seat_of
from .cautious import _fits_alone


def unseen_kinds(view: PlayerView) -> list[Tile]:
    """The kinds of tile of which some copy is neither on the table nor on the rack."""
    seen = Counter(t for m in view.board for t in m.tiles)
    seen.update(view.rack)
    return sorted(set((Counter(full_set()) - seen).elements()))


def openness(board: Board, kinds: Sequence[Tile], wrap: bool) -> int:
    """How many of ``kinds`` go on ``board`` by themselves (a meld's end, a group's
    missing colour, or splitting a long run: :func:`.cautious._fits_alone`)."""
    fit: set[Tile] = set()
    for m in board:
        fit |= _fits_meld(m, wrap)
    return len(fit.intersection(kinds))


@lru_cache(maxsize=1 << 14)
def _fits_meld(meld: Meld, wrap: bool) -> frozenset[Tile]:
    """The kinds of tile that go on ``meld`` by themselves (cached: the table changes
    little from one turn to the next)."""
    return frozenset(t for t in set(full_set()) if _fits_alone((meld,), t, wrap))


def closed_play(view: PlayerView, best: Solution | None = None) -> Board | None:
    """The best play that does not open the table (the full best play, else the melds
    the rack makes by itself that open nothing, one by one), or None. ``best``: the
    view's best play, when the caller has it already."""
    seat = seat_of(view)
    rules = view.rules
    kinds = unseen_kinds(view)
    before = openness(view.board, kinds, rules.wrap_runs)
    if best is None:
        best = solve(view.board, view.rack, rules, view.melded[seat])
    if best.placed and openness(best.board, kinds, rules.wrap_runs) <= before:
        return best.board
    own = solve((), view.rack, rules, True)
    board: Board = view.board
    for meld in own.board:
        trial = (*board, meld)
        if openness(trial, kinds, rules.wrap_runs) <= before:
            board = trial
    return board if len(board) > len(view.board) else None
