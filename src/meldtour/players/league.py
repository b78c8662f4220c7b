"""The league: opponents written to answer the expert's ideas, the field the
strength guard (``tests/players/test_strength.py``) and ``bench/league.py`` measure the
top level against. None is a level of the product.

* ``holder``: the expert of 2026-12-01 (:class:`HolderPlayer`): the smallest initial
  meld, then it draws every turn until it can put its whole rack down in one turn.
* ``starver`` (:class:`StarverPlayer`): holds too, but while anyone holds 10 tiles or
  more it lays the best play that does not *open* the table — one after which no more
  of the tiles it cannot see fit on the table by themselves than before.
* ``shedder``: the starver, but in the last 8 tiles of the pool it lays its best play
  every turn.
* ``aware`` (:class:`AwarePlayer`): ``greedy``, but after its initial meld it draws while
  anyone else holds 12 tiles or more (it will not feed a player who hoards).
* ``greedy``: the racer — as many tiles as it can, every turn.
* ``cautious``: the expert before the holder (:mod:`.cautious`).
* ``mix``: not a player but a table: one starver, one aware, one shedder
  (:data:`OPPONENTS`).

Each sees only its view and is deterministic.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from meldtour.core.moves import Draw, Move, Play
from meldtour.core.views import PlayerView
from meldtour.solver import solve

from . import Player
from .base import no_play, seat_of
from .cautious import CautiousPlayer
from .club import greedy_unless
from .expert import smallest_initial_meld
from .levels import make_player
from .table import closed_play


@dataclass
class HolderPlayer:
    """The expert of 2026-12-01 (it held until it could go out)."""

    name: str = "holder"
    seed: int = 0

    def decide(self, view: PlayerView) -> Move:
        seat = seat_of(view)
        best = solve(view.board, view.rack, view.rules, view.melded[seat])
        if not best.placed:
            return no_play(view)
        if best.placed == len(view.rack) or not view.pool_left:
            return Play(seat, best.board)
        if not view.melded[seat]:
            return Play(seat, smallest_initial_meld(view.board, best.board, view.rules))
        return Draw(seat)


@dataclass
class StarverPlayer:
    name: str = "starver"
    seed: int = 0
    #: While anyone holds this many tiles or more, it lays plays that open nothing.
    hoard: int = 10
    #: In the last this many tiles of the pool it lays its best play (0: never).
    shed: int = 0
    #: With nobody holding ``hoard`` tiles: lay the best play (else hold).
    lays: bool = True

    def decide(self, view: PlayerView) -> Move:
        seat = seat_of(view)
        best = solve(view.board, view.rack, view.rules, view.melded[seat])
        if not best.placed:
            return no_play(view)
        if best.placed == len(view.rack) or view.pool_left <= self.shed:
            return Play(seat, best.board)
        if not view.melded[seat]:
            return Play(seat, smallest_initial_meld(view.board, best.board, view.rules))
        if max(view.rack_sizes) >= self.hoard:
            board = closed_play(view)
            if board is not None:
                return Play(seat, board)
        elif self.lays:
            return Play(seat, best.board)
        return Draw(seat)


@dataclass
class AwarePlayer:
    name: str = "aware"
    seed: int = 0
    #: It draws while anyone else holds this many tiles or more.
    hoard: int = 12

    def decide(self, view: PlayerView) -> Move:
        return greedy_unless(view, lambda others: max(others) >= self.hoard)


#: The opponents a player meets in the league: three players each (``mix`` is three
#: different ones).
OPPONENTS: Final[dict[str, tuple[str, str, str]]] = {
    "greedy": ("greedy",) * 3,
    "cautious": ("cautious",) * 3,
    "holder": ("holder",) * 3,
    "starver": ("starver",) * 3,
    "aware": ("aware",) * 3,
    "shedder": ("shedder",) * 3,
    "mix": ("starver", "aware", "shedder"),
}


def with_league(level: str, name: str, seed: int) -> Player:
    """:func:`~.levels.make_player`, with the league's members and ``cautious``: the lab's
    factory for ``bench/league.py`` and the strength guard."""
    if level == "holder":
        return HolderPlayer(name, seed)
    if level == "starver":
        return StarverPlayer(name, seed)
    if level == "shedder":
        return StarverPlayer(name, seed, shed=8)
    if level == "aware":
        return AwarePlayer(name, seed)
    if level == "cautious":
        return CautiousPlayer(name, seed)
    return make_player(level, name, seed)


def with_cautious(level: str, name: str, seed: int) -> Player:
    """:func:`~.levels.make_player`, with ``cautious`` for this player: the lab's
    factory where the benchmarks measure the expert against it (here rather than in
    :mod:`.cautious`, which the expert uses and so must not import the levels)."""
    if level == "cautious":
        return CautiousPlayer(name, seed)
    return make_player(level, name, seed)
