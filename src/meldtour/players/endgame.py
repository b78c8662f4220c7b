"""Play-outs of the end of a game from one player's view: the expert's look-ahead at the
few decisions near the end (the last tiles of the pool, and the race once it is empty).

The hidden tiles (the pool and the other racks) are dealt at random from the tiles the
player cannot see, the racks at their public sizes; the game is then played to its end
by a simple model of each player (:func:`play_out`): once the pool is empty everyone
lays the most it can (the ``continue`` rule makes a play compulsory, and every league
member, the former expert and ``greedy`` lay their best play there); before that a
player who has only drawn since its initial meld (:func:`.expert.activity`) is taken to
hold — it lays only to go out — and any other to lay its best play each turn. Every
turn of a play-out is one solver call (:class:`Budget`: a holder's, which only asks
whether its rack goes out, a quarter of one); a play-out stops when the count it may
spend runs out, so the decision depends on the seed and the view only.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from meldtour.core.melds import Board
from meldtour.core.tiles import JOKER_CODE, Tile
from meldtour.core.views import PlayerView
from meldtour.solver import Solution, goes_out, solve


@dataclass
class Deal:
    """One sampled completion of the view: every rack and the pool's order."""

    racks: list[tuple[Tile, ...]]
    pool: list[Tile]


def deals(view: PlayerView, unseen: Sequence[Tile], k: int, rng: random.Random) -> list[Deal]:
    """``k`` random completions of the hidden tiles (uniform over the unseen tiles)."""
    seat = view.seat
    out = []
    for _ in range(k):
        tiles = list(unseen)
        rng.shuffle(tiles)
        racks: list[tuple[Tile, ...]] = []
        at = 0
        for s, n in enumerate(view.rack_sizes):
            if s == seat:
                racks.append(view.rack)
            else:
                racks.append(tuple(tiles[at : at + n]))
                at += n
        out.append(Deal(racks, tiles[at:]))
    return out


def rack_total(rack: Sequence[Tile], melded: bool, joker: int) -> int:
    if not melded:
        return 100
    return sum(joker if t == JOKER_CODE else t % 13 + 1 for t in rack)


#: The budget's unit: a quarter of a best play's solver call.
QUARTERS = 4


class Budget:
    """Solver calls left for one decision (a count: the decision stays deterministic).
    A best play costs one call; asking whether a rack goes out costs ``out_cost``
    quarters of one — it is several times cheaper (``BENCHMARKS.md``, "The league: where
    it comes into the window"), so a budget counted in what the calls cost bounds the
    time as well, with more play-outs where the table holds."""

    def __init__(self, calls: int, out_cost: int = QUARTERS) -> None:
        self.left = calls * QUARTERS
        self.out_cost = out_cost

    def solve(self, board: Board, rack: Sequence[Tile], view: PlayerView, melded: bool) -> Solution:
        self.left -= QUARTERS
        return solve(board, tuple(rack), view.rules, melded)

    def goes_out(self, board: Board, rack: Sequence[Tile], view: PlayerView) -> bool:
        """Whether a melded player's whole rack goes down (``out_cost`` quarters)."""
        self.left -= self.out_cost
        return goes_out(board, tuple(rack), view.rules)


def play_out(
    view: PlayerView,
    deal: Deal,
    board: Board,
    my_rack: tuple[Tile, ...],
    drew: bool,
    holds: Sequence[bool],
    budget: Budget,
    max_turns: int = 40,
) -> tuple[int, int] | None:
    """Play the game on from the decision's move (``board`` and ``my_rack`` after it,
    ``drew`` when the move was a draw) in ``deal``; (the winner's seat, the view owner's
    points) — points as scored: the winner takes what the others hold — or None when
    the budget ran out first."""
    seat = view.seat
    assert seat is not None
    n = len(view.players)
    racks = list(deal.racks)
    pool = list(deal.pool)
    melded = list(view.melded)
    racks[seat] = my_rack
    if drew and pool:
        racks[seat] = (*my_rack, pool.pop())
    elif not drew:
        melded[seat] = True
        if not my_rack:
            return seat, _points(view, racks, melded, seat, seat, 0)
    order = view.order
    at = order.index(seat)
    passes = 0
    joker = view.rules.joker_penalty
    for _ in range(max_turns):
        at = (at + 1) % n
        p = order[at]
        if budget.left <= 0:
            return None
        rack = racks[p]
        # A melded player who holds (the view's owner included) while the pool lasts
        # lays only to go out: asking just that is far cheaper than its best play.
        holding = bool(pool) and melded[p] and (p == seat or holds[p])
        best: Solution | None = None
        try:
            if holding:
                out = budget.goes_out(board, rack, view) and bool(rack)
            else:
                best = budget.solve(board, rack, view, melded[p])
                out = best.placed == len(rack) and bool(rack)
        except ValueError:
            return None
        if out:
            return p, _points(view, [*racks[:p], (), *racks[p + 1 :]], melded, p, seat, 0)
        if best is not None and best.placed and not holding:
            board = best.board
            racks[p] = best.rack_left
            melded[p] = True
            passes = 0
        elif pool:
            racks[p] = (*rack, pool.pop())
            passes = 0
        else:
            passes += 1
            if passes >= n:
                totals = [rack_total(r, m, joker) for r, m in zip(racks, melded, strict=True)]
                low = min(totals)
                winner = next(s for s in order if totals[s] == low)
                return winner, _points(view, racks, melded, winner, seat, low)
    return None


def _points(
    view: PlayerView,
    racks: Sequence[Sequence[Tile]],
    melded: Sequence[bool],
    winner: int,
    me: int,
    base: int,
) -> int:
    joker = view.rules.joker_penalty
    totals = [rack_total(r, m, joker) for r, m in zip(racks, melded, strict=True)]
    if me != winner:
        return -(totals[me] - base)
    return sum(t - base for s, t in enumerate(totals) if s != winner)


def after(rack: Sequence[Tile], before: Board, board: Board) -> tuple[Tile, ...]:
    """The rack left once ``board`` replaces ``before``."""
    laid = Counter(t for m in board for t in m.tiles)
    laid.subtract(t for m in before for t in m.tiles)
    left = Counter(rack)
    left.subtract(laid)
    return tuple(sorted(left.elements()))
