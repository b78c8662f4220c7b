"""The ``expert`` player: it lays the smallest initial meld it can, then keeps its tiles
— drawing every turn — until it can put its whole rack down in one turn.

Why holding wins (measured in ``BENCHMARKS.md``, "Players", "The expert that holds"): every
tile laid on the table is a tile every opponent may build on, and a player who has
melded may rearrange the whole table. So a player who keeps its rack gives nothing
away, while the others keep laying tiles; the table grows, and so does the holder's
rack, until one turn puts all of it down. A rack of many tiles on a table of many
tiles finds a way out far sooner than one would think: against three ``greedy``
players it wins about two games in three, against the former expert (which draws
rather than feed a player close to going out: :mod:`.cautious`) three in five, and
head to head almost every game.

What it decides, in order:

* a play that empties its rack is always played;
* with the pool empty it plays the solver's best play (every player must put down a
  tile when they can under ``continue``, and a lower rack total wins otherwise);
* before its initial meld it lays the fewest tiles that make one (of the melds its
  best initial play would lay: fewest tiles, then fewest jokers, then the most
  points), as soon as it can — never drawing while it could meld (the −200 rule);
* near the end it lays its best play every turn (:meth:`ExpertPlayer.sheds`): when
  another player holds 8 tiles or fewer and 12 or fewer are left in the pool, or when
  every other player has only drawn since its initial meld (:func:`activity`, from the
  public rack sizes and turn count) and 4 or fewer are left;
* otherwise it draws.

Why the end: against opponents who stop feeding a holder — who hold too,
or lay only what opens nothing, or shed everything late — the holder was caught with
twenty-odd tiles when someone went out, and a tournament ranks by wins and then
points. Laying late costs little against players who feed the table (the game is
nearly over) and keeps the rack small against those who do not; against other
holders, the first to lay when the pool runs out is the first out. The league it was
measured against is :mod:`.league` (``bench/league.py``; ``BENCHMARKS.md``, "The
league").

Searching sampled futures was measured against this and found weaker (the same
section): the choice that matters is the policy, not a move's look-ahead. A decision is
one solver call (p99 a few milliseconds), so it needs no time budget and no fallback.

It sees only its :class:`~meldtour.core.views.PlayerView` and is deterministic.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from meldtour.core.melds import Board, Meld
from meldtour.core.moves import Draw, Move, Play, new_melds
from meldtour.core.rules import RuleSet
from meldtour.core.views import PlayerView
from meldtour.solver import solve

from .base import no_play, seat_of


@dataclass
class ExpertPlayer:
    name: str = "expert"
    seed: int = 0
    #: Once another player holds this many tiles or fewer …
    close: int = 8
    #: … and the pool this many or fewer, it lays its best play every turn.
    late: int = 12
    #: When every other player's :func:`activity` is this or less (they hold too) …
    quiet: int = 8
    #: … it lays its best play every turn in the last this many tiles of the pool.
    quiet_late: int = 4

    def decide(self, view: PlayerView) -> Move:
        seat = seat_of(view)
        melded = view.melded[seat]
        best = solve(view.board, view.rack, view.rules, melded)
        if not best.placed:
            return no_play(view)
        if best.placed == len(view.rack) or not view.pool_left:
            return Play(seat, best.board)
        if not melded:
            return Play(seat, smallest_initial_meld(view.board, best.board, view.rules))
        if self.sheds(view, seat):
            return Play(seat, best.board)
        return Draw(seat)

    def sheds(self, view: PlayerView, seat: int) -> bool:
        """Whether the end is near enough to lay rather than hold: another player is
        close to going out with the pool nearly drawn, or everyone else holds too and
        the pool is all but gone (then the first to lay is the first out)."""
        others = [s for s in range(len(view.players)) if s != seat]
        if view.pool_left <= self.late and min(view.rack_sizes[s] for s in others) <= self.close:
            return True
        return (
            view.pool_left <= self.quiet_late
            and max(activity(view, s) for s in others) <= self.quiet
        )


def activity(view: PlayerView, s: int) -> int:
    """What seat ``s`` has done, from public figures only: the hand dealt plus the turns
    it took less its rack, that is the tiles it laid plus the turns it laid them in
    (while the pool lasts every other turn draws one tile). A player that only drew
    after its initial meld shows the meld's tiles plus one; one that keeps laying, far
    more."""
    n = len(view.order)
    turns = view.turn_no // n + (1 if view.order.index(s) < view.turn_no % n else 0)
    return view.rules.hand_size + turns - view.rack_sizes[s]


def smallest_initial_meld(board: Board, best: Board, rules: RuleSet) -> Board:
    """The board with the fewest of ``best``'s new melds that still make an initial
    meld (fewest tiles, then fewest jokers, then the most points); ``best`` itself
    when it is not an initial meld on ``board``."""
    fresh = new_melds(board, best, rules.wrap_runs)
    if fresh is None:
        return best

    def value(melds: Sequence[Meld]) -> int:
        return sum(m.value(rules.wrap_runs) for m in melds)

    def cost(melds: Sequence[Meld]) -> tuple[int, int, int]:
        tiles = [t for m in melds for t in m.tiles]
        return len(tiles), sum(t.is_joker for t in tiles), -value(melds)

    enough = [
        melds
        for k in range(1, len(fresh) + 1)
        for melds in combinations(fresh, k)
        if value(melds) >= rules.initial_meld
    ]
    return (*board, *min(enough, key=cost)) if enough else best
