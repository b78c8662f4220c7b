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
* with the pool empty it plays (every player must put down a tile when they can
  under ``continue``, and a lower rack total wins otherwise): its best play, or, when
  that feeds a close player, the play that opens nothing (below);
* before its initial meld it lays the fewest tiles that make one (of the melds its
  best initial play would lay: fewest tiles, then fewest jokers, then the most
  points), as soon as it can — never drawing while it could meld (the −200 rule);
* near the end it lays every turn (:meth:`ExpertPlayer.sheds`): when another player
  holds 8 tiles or fewer and 12 or fewer are left in the pool, or when every other
  player has only drawn since its initial meld (:func:`activity`, from the public rack
  sizes and turn count) and 4 or fewer are left;
* but not a play that feeds a player close to going out (:meth:`ExpertPlayer.lay`):
  the former expert's risk test (:meth:`.cautious.CautiousPlayer.draw_instead`: racks
  of the close players' sizes sampled from the tiles that fit nowhere on the table
  now, and the chance that one of them could go out on the table the play leaves,
  weighed against the tiles it puts down). A risky best play gives way to the play
  that opens nothing for the others (:func:`.table.closed_play`: the melds after which
  no more unseen tiles fit on the table by themselves) when that one is safe, else to
  a draw (with the pool empty, where a play is compulsory, to the best play);
* otherwise it draws.

Why the end: against opponents who stop feeding a holder — who hold too,
or lay only what opens nothing, or shed everything late — the holder was caught with
twenty-odd tiles when someone went out, and a tournament ranks by wins and then
points. Laying late costs little against players who feed the table (the game is
nearly over) and keeps the rack small against those who do not; against other
holders, the first to lay when the pool runs out is the first out. Why the risk test:
laying late was often what let the player who went out do so — a shedder down to a
few tiles, or a holder whose twenty tiles found room on the tiles just laid. The
league it was measured against is :mod:`.league` (``bench/league.py``;
``BENCHMARKS.md``, "The league").

Searching sampled futures was measured against the holder and found weaker (the same
section): what matters is the policy, not a move's look-ahead; the risk test is a
one-ply check at the few decisions where it lays, with a bounded number of solver
calls (24, a count, so decisions stay deterministic).

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
from meldtour.solver import Solution, solve

from .base import no_play, seat_of
from .cautious import CautiousPlayer
from .table import closed_play


@dataclass
class ExpertPlayer:
    name: str = "expert"
    seed: int = 0
    #: Once another player holds this many tiles or fewer …
    close: int = 8
    #: … and the pool this many or fewer, it lays every turn (unless that feeds them).
    late: int = 12
    #: When every other player's :func:`activity` is this or less (they hold too) …
    quiet: int = 8
    #: … it lays every turn in the last this many tiles of the pool.
    quiet_late: int = 4
    #: Racks sampled per close player for the risk test (0: no test, lay regardless).
    samples: int = 8
    #: 1: when it lays and the play is safe, the play that opens nothing if there is
    #: one; 2: the play that opens nothing only in place of a risky one (0: never).
    closed: int = 2
    #: The risk test only while its own rack holds this many tiles or fewer.
    safe_rack: int = 200

    def decide(self, view: PlayerView) -> Move:
        seat = seat_of(view)
        melded = view.melded[seat]
        best = solve(view.board, view.rack, view.rules, melded)
        if not best.placed:
            return no_play(view)
        if best.placed == len(view.rack):
            return Play(seat, best.board)
        if not melded:
            if not view.pool_left:
                return Play(seat, best.board)
            return Play(seat, smallest_initial_meld(view.board, best.board, view.rules))
        if not view.pool_left or self.sheds(view, seat):
            return self.lay(view, seat, best)
        return Draw(seat)

    def lay(self, view: PlayerView, seat: int, best: Solution) -> Move:
        """Its best play, unless that lets a close player go out: then the play that
        opens nothing (if it is safe), else a draw — with the pool empty, where a play
        is compulsory, the best play after all."""
        if self.risky(view, seat, best.board):
            if self.closed >= 2:
                board = closed_play(view)
                if board is not None and not self.risky(view, seat, board):
                    return Play(seat, board)
            return Draw(seat) if view.pool_left else Play(seat, best.board)
        if self.closed == 1 and view.pool_left:
            board = closed_play(view)
            if board is not None:
                return Play(seat, board)
        return Play(seat, best.board)

    def risky(self, view: PlayerView, seat: int, board: Board) -> bool:
        """The former expert's test (:meth:`.cautious.CautiousPlayer.draw_instead`):
        whether the chance that a player with ``close`` tiles or fewer, its rack
        sampled from the tiles that fit nowhere on the table now, could go out on
        ``board`` outweighs the tiles the play puts down."""
        if not self.samples or len(view.rack) > self.safe_rack:
            return False
        close = [n for s, n in enumerate(view.rack_sizes) if s != seat and n <= self.close]
        if not close:
            return False
        placed = sum(len(m.tiles) for m in board) - sum(len(m.tiles) for m in view.board)
        play = Solution(placed, 0, board, (), ())
        judge = CautiousPlayer(seed=self.seed, samples=self.samples, close=self.close)
        return judge.draw_instead(view, play, close)

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
