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
  player has only drawn since its initial meld (:func:`activity` 10 or less, from the
  public rack sizes and turn count) and 4 or fewer are left;
* but not a play that feeds a player close to going out (:meth:`ExpertPlayer.lay`):
  the former expert's risk test (:meth:`.cautious.CautiousPlayer.draw_instead`: racks
  of the close players' sizes sampled from the tiles that fit nowhere on the table
  now, and the chance that one of them could go out on the table the play leaves,
  weighed against the tiles it puts down). When the test runs it judges, with the
  close players, every other player who has held all game (24 tiles or fewer): a
  holder's big rack goes out on a big play as easily as a close one's. A risky best
  play gives way to the play that opens nothing for the others
  (:func:`.table.closed_play`: the melds after which no more unseen tiles fit on the
  table by themselves) when that one is safe, else to a draw (with the pool empty,
  where a play is compulsory, to the best play). Once 8 tiles or fewer are left in the
  pool it judges only whom a draw would starve (:meth:`ExpertPlayer.judged_in_window`):
  the players seen holding there (:func:`window_holder`), and a close player who lays
  only when nobody else may still feed it; and with 7 tiles or fewer left, when a
  close player lays and someone who held all game has not been seen holding there
  (:meth:`ExpertPlayer.unsure`), it lays its smallest play instead of its best;
* otherwise it draws — except with 9 tiles in the pool, one more than the window,
  where it lays its smallest play if that opens nothing for the others
  (:meth:`ExpertPlayer.steers`), so that the table comes into the window one seat
  later and two of the others have had their turn there before its own;
* and once 8 tiles or fewer are left in the pool (:meth:`ExpertPlayer.look_ahead`) it
  checks the move above against a draw and the smallest play (one tile that opens
  the least, else the smallest meld of its own) by playing the game out to its end
  (:mod:`.endgame`) on 10 deals of the hidden tiles sampled from what it cannot see,
  everyone modelled from public figures (a player that only drew since its initial
  meld — :func:`activity` 10 or less — and has been seen holding in the window holds,
  any other lays its best play; once the pool is empty everyone lays the most it
  can), with at most 30 solver calls' worth in all (a holder's turn, which only asks
  whether its rack goes out, costs a quarter of one); another move replaces the
  policy's only when it wins at least one play-out more.

Why it steers into the window (2026-12-07): a shedder and a starver play alike until
the pool holds 8 tiles, so whatever the expert does before then it does against
both; but where it comes into the window is its own to choose, one seat at a time
(each draw takes a tile from the pool, a play does not). Coming in last, after three
shedders who lay everything, it was caught with twenty-odd tiles before its first turn
there in 39 of 400 games; coming in third it sees two of them lay, and its turn comes
before the last. Against three shedders the mean points went from −8.0 to +10.3 a game
(n 800), the mixed table's wins from 38.2 % to 34.5 % — won back in part by the
play-outs below (36.8 %, the shedders +9.5): 10 deals instead of 5, the moves that
were almost never chosen over the policy's (its best play where it would draw, the
play that opens nothing) no longer played out, and a holder's turn counted at what
it costs (``BENCHMARKS.md``, "The league: where it comes into the window").

Why the look-ahead: against tables that hold too (holders, starvers, the aware) the
game is a race decided in the last few turns — who lays first when the pool runs out
feeds the next players — and the rules above time it blindly; the play-outs see
which of the few moves lets a big rack find room first. Against three holders it wins
42.5 % instead of 32 % (n 200, ``BENCHMARKS.md``, "The league: a look-ahead at the end").
Why 10 deals: with 3 the play-outs' verdict between a few moves was mostly noise; 5
won more against every member that holds (three starvers 39.8 % instead of 35.5 %,
holders 47.2 % instead of 42.4 %, the mixed table 38.8 % instead of 37.2 %, n 800,
``BENCHMARKS.md``, "The league: more deals in the look-ahead"); with two or three
moves to play out and a holder's turn at a quarter of a call, the same time plays
more of them. They fit in the time because a holder's turn in a play-out only asks
whether its rack goes out (:func:`meldtour.solver.goes_out`), not for its best play.
Why the smallest play among them: once the pool runs out the race is won by the
player who is still able to lay when the others cannot, and putting down one tile
keeps a big rack's melds for the next turn while the pool's last tiles are drawn
(against three starvers 35.5 % instead of 32.4 %, the mixed table 37.2 % instead of
33.6 %, n 800, "The league: the smallest play in the look-ahead").
Why the holders in the risk test: in the mixed table (a starver, an aware player, a
shedder) the aware player draws while anyone holds 12 tiles, so it holds seventeen-odd
tiles all game, and the expert's big late play — judged safe for the close shedder —
was what it went out on; testing it too wins 33.6 % there instead of 29.8 % (n 800,
"The league: the risk test judges the holders too").

Why doubt a holder in the window: a player who held all game may shed everything
once the pool runs low (the league's shedder), and until its turn in the window comes
nothing public tells it from one that goes on holding (the starver). Taken as holding,
the play-outs saw no one go out and kept the big rack, and the risk test drew rather
than feed the close player — while the other shedders fed it anyway: against three
shedders the expert lost 24 points a game, caught with twenty-odd tiles. Modelled as
laying until seen holding, and judging a close player only when drawing truly starves
it (nobody left who may feed it), it loses 7.4 instead (n 800; 40.5 % wins instead of
42.6 %), but the mixed table's wins fell from 38.8 % to 35.5 %: there the close
shedder's neighbours hold, and the best play it now made fed them. Where nobody knows
yet (a close player lays, a holder not yet seen in the window) the smallest play,
once a tile at least has been drawn in the window, keeps the big rack's melds for the
next turn: the mixed table 38.2 %, the shedders −8.0 (n 800; at 8 tiles left it cost
18 points a game against the shedders, who lay everything on their first turn there).
The starvers (39.5 %), the former expert (57.9 %) and greedy (64.4 %) are where they
were (``BENCHMARKS.md``, "The league: a holder doubted in the window").

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
one-ply check at the few decisions where it lays, run once per decision (its sampled
racks shared by the best play and the play that opens nothing) with at most
``budget`` solver calls in all (6, a count rather than a clock, so decisions stay
deterministic; 24 to 48 calls, the first version, took up to seconds a decision).

It sees only its :class:`~meldtour.core.views.PlayerView` and is deterministic.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from meldtour.core.melds import Board, Meld
from meldtour.core.moves import Draw, Move, Play, new_melds
from meldtour.core.rules import RuleSet
from meldtour.core.views import PlayerView
from meldtour.solver import Solution, goes_out, solve

from . import endgame
from .base import no_play, seat_of
from .cautious import _attaches, _goes_out, unseen_tiles
from .table import closed_play, openness, unseen_kinds


@dataclass
class ExpertPlayer:
    name: str = "expert"
    seed: int = 0
    #: Once another player holds this many tiles or fewer …
    close: int = 8
    #: … and the pool this many or fewer, it lays every turn (unless that feeds them).
    late: int = 12
    #: When every other player's :func:`activity` is this or less (they hold too) …
    quiet: int = 10
    #: … it lays every turn in the last this many tiles of the pool.
    quiet_late: int = 4
    #: Racks sampled per close player for the risk test (0: no test, lay regardless).
    samples: int = 8
    #: The risk test also judges the players who hold (:func:`activity` ≤ ``quiet``)
    #: with this many tiles or fewer, not only the close ones (0: the close ones only).
    wide: int = 24
    #: 1: when it lays and the play is safe, the play that opens nothing if there is
    #: one; 2: the play that opens nothing only in place of a risky one (0: never).
    closed: int = 2
    #: The risk test only while its own rack holds this many tiles or fewer.
    safe_rack: int = 200
    #: Most solver calls one decision's risk test spends, over both plays (a count,
    #: not a clock: the decision stays deterministic and its time bounded).
    budget: int = 6
    #: With the pool empty and no way out: 0 its best play (risk-tested); 1 the
    #: smallest play; 2 the play that opens nothing, else the smallest (1 and 2
    #: measured no gain: kept for the benchmarks).
    end: int = 0
    #: Look ahead (play-outs, :mod:`.endgame`) once the pool holds this many tiles or
    #: fewer (-1: never) …
    window: int = 8
    #: … on this many sampled deals …
    deals: int = 10
    #: … spending at most this many solver calls in all (:class:`.endgame.Budget`).
    calls: int = 30
    #: Weight of a point per 100 against a win in the play-outs' verdict.
    points: float = 0.0
    #: The points' weight instead, when another player close to going out (``close``
    #: tiles or fewer) has shown it lays (:func:`activity` over ``quiet``) — a shedder
    #: found out, whose going out catches a big rack (-1: ``points`` always).
    points_close: float = -1.0
    #: A move other than the policy's must beat it by this many play-outs (in utility).
    margin: float = 0.5
    #: The smallest play (:func:`smallest_play`) is one of the look-ahead's moves.
    small: bool = True
    #: In the window the play-outs model a player who has held all game as laying
    #: until it has been seen holding there (:func:`window_holder`): it may be about to
    #: shed (False: as holding, the expert before 2026-12-06).
    doubt: bool = True
    #: In the window the risk test judges a close player who lays only when nobody may
    #: still feed it (no other player who held all game and is not yet seen holding
    #: in the window), and of the players who hold only those seen holding there
    #: (:meth:`ExpertPlayer.judged_in_window`; False: as before the window).
    starve: bool = True
    #: With this many tiles or fewer in the pool, when it is unknown whether a draw
    #: would starve a close player (:meth:`ExpertPlayer.unsure`), the smallest play
    #: rather than the best (0: never).
    hedge: int = 7
    #: With this many tiles in the pool, where it would draw, it lays its smallest
    #: play instead when that opens nothing (:meth:`ExpertPlayer.steers`; 0: never):
    #: the table then comes into the window one seat later.
    steer: int = 9
    #: The look-ahead weighs only the policy's move, a draw and the smallest play
    #: (False: its best play and the play that opens nothing too, as before
    #: 2026-12-07).
    lean: bool = True
    #: What asking whether a rack goes out costs the look-ahead, in quarters of a call
    #: (:class:`.endgame.Budget`; 4: as much as a best play, as before 2026-12-07).
    out_cost: int = 1
    #: This decision's plays worked out once (the closed play, the smallest play).
    _memo: dict[str, Board | None] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def decide(self, view: PlayerView) -> Move:
        seat = seat_of(view)
        melded = view.melded[seat]
        self._memo = {}
        if melded and self.draws(view, seat):
            # It draws unless its whole rack goes down: asking just that is far cheaper
            # than its best play with twenty-odd tiles on a big table (the same move).
            if goes_out(view.board, view.rack, view.rules):
                return Play(seat, solve(view.board, view.rack, view.rules, True).board)
            if view.pool_left <= self.window:
                return self.look_ahead(view, seat, None, Draw(seat))
            return Draw(seat)
        best = solve(view.board, view.rack, view.rules, melded)
        if not best.placed:
            return no_play(view)
        if best.placed == len(view.rack):
            return Play(seat, best.board)
        if not melded:
            if not view.pool_left:
                return Play(seat, best.board)
            return Play(seat, smallest_initial_meld(view.board, best.board, view.rules))
        move = self.policy(view, seat, best)
        if view.pool_left <= self.window:
            return self.look_ahead(view, seat, best, move)
        return move

    def draws(self, view: PlayerView, seat: int) -> bool:
        """Whether the policy (:meth:`policy`) draws whatever its best play, unless
        that play empties its rack: the pool has tiles, the end is not near
        (:meth:`sheds`) and the pool is not at ``steer``."""
        return (
            view.pool_left > 0
            and not self.sheds(view, seat)
            and not (self.steer > self.window and view.pool_left == self.steer)
        )

    def policy(self, view: PlayerView, seat: int, best: Solution) -> Move:
        """The move of the rules above, before any look-ahead."""
        if not view.pool_left and self.end:
            return self.end_play(view, seat, best)
        if self.draws(view, seat):
            return Draw(seat)
        if not view.pool_left or self.sheds(view, seat):
            return self.lay(view, seat, best)
        small = self.steers(view)  # the pool is at ``steer``
        return Draw(seat) if small is None else Play(seat, small)

    def steers(self, view: PlayerView) -> Board | None:
        """The smallest play (:func:`smallest_play`) when it opens nothing for the
        others (:func:`.table.openness`), else None.

        With ``steer`` tiles in the pool (one more than the window) a draw would
        leave ``window``: with every player drawing, the next three then come into
        the window before it. Against three shedders, that way (90 of 400 games) one
        of them went out before its turn came in 39 (−149 points each); coming in
        third (102 games) it made +31 a game. Laying one tile instead lets the table
        in one seat later: two of them lay before its turn, and it has seen them."""
        small = self.smallest_play(view)
        if small is None:
            return None
        kinds = unseen_kinds(view)
        wrap = view.rules.wrap_runs
        return small if openness(small, kinds, wrap) <= openness(view.board, kinds, wrap) else None

    def look_ahead(self, view: PlayerView, seat: int, best: Solution | None, move: Move) -> Move:
        """The policy's ``move``, unless the play-outs say another does better: a draw
        or the smallest play (and, without ``lean``, the best play or the play that
        opens nothing)."""
        options: list[Move] = [move]

        def add(m: Move) -> None:
            if all(m != o for o in options):
                options.append(m)

        if view.pool_left:
            add(Draw(seat))
        if not self.lean:
            if best is None:
                best = solve(view.board, view.rack, view.rules, True)
            if best.placed:
                add(Play(seat, best.board))
            closed = self.closed_play(view, best)
            if closed is not None:
                add(Play(seat, closed))
        if self.small:
            small = self.smallest_play(view)
            if small is not None:
                add(Play(seat, small))
        if len(options) == 1:
            return move
        rng = random.Random(f"expert/look/{self.seed}/{view.turn_no}")
        sampled = endgame.deals(view, unseen_tiles(view), self.deals, rng)
        holds = [activity(view, s) <= self.quiet for s in range(len(view.players))]
        if self.doubt:
            _, seen = self.window_figures(view, seat)
            holds = [h if s == seat else seen[s] for s, h in enumerate(holds)]
        budget = endgame.Budget(self.calls, self.out_cost)
        totals = [0.0] * len(options)
        weight = self.points
        if self.points_close >= 0 and any(
            s != seat and view.rack_sizes[s] <= self.close and not holds[s]
            for s in range(len(view.players))
        ):
            weight = self.points_close
        played = 0
        for d in sampled:
            row = []
            for m in options:
                if isinstance(m, Play):
                    r = endgame.after(view.rack, view.board, m.board)
                    got = endgame.play_out(view, d, m.board, r, False, holds, budget)
                else:
                    got = endgame.play_out(view, d, view.board, view.rack, True, holds, budget)
                if got is None:
                    break
                row.append((got[0] == seat) + weight * got[1] / 100)
            else:
                played += 1
                for i, u in enumerate(row):
                    totals[i] += u
                continue
            break
        if not played:
            return move
        i = max(range(len(options)), key=lambda i: (totals[i], i == 0))
        if totals[i] - totals[0] >= self.margin:
            return options[i]
        return move

    def lay(self, view: PlayerView, seat: int, best: Solution) -> Move:
        """Its best play, unless that lets a close player go out: then the play that
        opens nothing (if it is safe), else a draw — with the pool empty, where a play
        is compulsory, the best play after all. One risk test per decision, its sampled
        racks and its ``budget`` of solver calls shared by both plays."""
        test = self.risk_test(view, seat)
        if test is not None and test.risky(best.board) is True:
            if self.closed >= 2:
                board = self.closed_play(view, best)
                # Budget spent before the closed play was tried: it is not known safe.
                if board is not None and test.risky(board) is False:
                    return Play(seat, board)
            return Draw(seat) if view.pool_left else Play(seat, best.board)
        if self.closed == 1 and view.pool_left:
            board = self.closed_play(view, best)
            if board is not None:
                return Play(seat, board)
        if test is None and 0 < view.pool_left <= self.hedge and self.unsure(view, seat):
            small = self.smallest_play(view)
            if small is not None:
                return Play(seat, small)
        return Play(seat, best.board)

    def unsure(self, view: PlayerView, seat: int) -> bool:
        """In the window (``starve``): a close player lays, and a player who held all
        game has not yet been seen holding there — it may feed the close player (a
        shedder) or not (a starver), so nobody knows whether a draw starves it."""
        if not self.starve or view.pool_left > self.window:
            return False
        holds, seen = self.window_figures(view, seat)
        return any(view.rack_sizes[s] <= self.close and not h for s, h in holds.items()) and any(
            h and not seen[s] for s, h in holds.items()
        )

    def window_figures(
        self, view: PlayerView, seat: int
    ) -> tuple[dict[int, bool], dict[int, bool]]:
        """For each other seat: whether it has held all game (:func:`activity`), and
        whether it has been seen holding in the window (:func:`window_holder`)."""
        others = [s for s in range(len(view.players)) if s != seat]
        holds = {s: activity(view, s) <= self.quiet for s in others}
        seen = {s: holds[s] and window_holder(view, s, self.window) for s in others}
        return holds, seen

    def closed_play(self, view: PlayerView, best: Solution) -> Board | None:
        """:func:`.table.closed_play` of this decision, worked out once from its best
        play (the lay and the look-ahead both ask for it)."""
        return self._once("closed", lambda: closed_play(view, best))

    def smallest_play(self, view: PlayerView) -> Board | None:
        """:func:`smallest_play` of this decision, worked out once (the unsure case and
        the look-ahead both ask for it)."""
        return self._once("small", lambda: smallest_play(view))

    def _once(self, key: str, work: Callable[[], Board | None]) -> Board | None:
        if key not in self._memo:
            self._memo[key] = work()
        return self._memo[key]

    def end_play(self, view: PlayerView, seat: int, best: Solution) -> Move:
        """With the pool empty (``end`` 1 or 2): the smallest play, or the closed one."""
        if self.end == 2:
            board = self.closed_play(view, best)
            if board is not None:
                return Play(seat, board)
        small = self.smallest_play(view)
        return Play(seat, small if small is not None else best.board)

    def risk_test(self, view: PlayerView, seat: int) -> RiskTest | None:
        """The risk test of this decision, or None when there is none to run: no
        samples, its own rack above ``safe_rack``, or no close player. It judges the
        close players and, with them, every other player who holds (``wide``)."""
        if not self.samples or len(view.rack) > self.safe_rack:
            return None
        close = [n for s, n in enumerate(view.rack_sizes) if s != seat and n <= self.close]
        if not close:
            return None
        if self.starve and view.pool_left <= self.window:
            judged = self.judged_in_window(view, seat)
            return RiskTest(view, judged, self.samples, self.seed, self.budget) if judged else None
        # A player who has held all game goes out on the tiles just laid as easily as a
        # close one (in the mixed table, the aware player's 17 tiles after a big play).
        close += [
            n
            for s, n in enumerate(view.rack_sizes)
            if s != seat and self.close < n <= self.wide and activity(view, s) <= self.quiet
        ]
        return RiskTest(view, close, self.samples, self.seed, self.budget)

    def judged_in_window(self, view: PlayerView, seat: int) -> list[int]:
        """The rack sizes the risk test judges once the pool holds ``window`` tiles or
        fewer (``starve``): every player seen holding there (:func:`window_holder`) with
        ``wide`` tiles or fewer — it will go out on what is laid, and drawing keeps the
        table closed to it — and a close player who lays, only when nobody else may
        still feed it: a player who held all game but has not been seen holding in the
        window may be about to lay everything (a shedder), and then drawing starves
        nobody and only keeps the expert's rack big when someone goes out."""
        holds, seen = self.window_figures(view, seat)
        unfed = {s: not any(h and not seen[o] for o, h in holds.items() if o != s) for s in holds}
        return [
            n
            for s in holds
            for n in (view.rack_sizes[s],)
            if (seen[s] and n <= self.wide) or (n <= self.close and not holds[s] and unfed[s])
        ]

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


class RiskTest:
    """The former expert's risk test (:meth:`.cautious.CautiousPlayer.draw_instead`),
    once per decision: racks of the close players' sizes sampled from the unseen tiles
    that fit nowhere on the table now (the same samples for every play it judges), and
    at most ``budget`` solver calls in all."""

    def __init__(
        self, view: PlayerView, close: list[int], samples: int, seed: int, budget: int
    ) -> None:
        self.view = view
        self.budget = budget
        self.calls = 0
        unseen = unseen_tiles(view)
        on_table = Counter(t for m in view.board for t in m.tiles)
        rack = Counter(view.rack)
        wrap = view.rules.wrap_runs
        stuck_kinds = {
            t
            for t in set(unseen)
            if on_table[t] + rack[t] < 2 and not _attaches(view.board, t, wrap)
        }
        stuck = [t for t in unseen if t in stuck_kinds]
        rng = random.Random(f"expert/{seed}/{view.turn_no}")
        self.racks = [
            [tuple(rng.sample(stuck if len(stuck) >= n else unseen, n)) for _ in range(samples)]
            for n in close
            if n <= len(unseen)
        ]

    def risky(self, board: Board) -> bool | None:
        """Whether the chance that no close player could go out on ``board`` is below
        ``exp(-0.02 * (tiles placed + 1))`` (the former expert's weight); None when the
        budget ran out before a sample was tried. The answer is given as soon as the
        untried samples cannot change it."""
        if not self.racks:
            return False
        view = self.view
        placed = sum(len(m.tiles) for m in board) - sum(len(m.tiles) for m in view.board)
        threshold = math.exp(-0.02 * (placed + 1))
        outs = [0] * len(self.racks)
        tried = [0] * len(self.racks)
        # Round robin over the close players, so a small budget looks at each of them.
        order = [
            (i, r)
            for k in range(max(len(s) for s in self.racks))
            for i, s in enumerate(self.racks)
            if k < len(s)
            for r in (s[k],)
        ]
        for i, r in order:
            if self.calls >= self.budget:
                break
            self.calls += 1
            tried[i] += 1
            outs[i] += _goes_out(board, r, view)
            high = low = 1.0
            for j, k in enumerate(outs):
                n = len(self.racks[j])
                high *= 1 - k / n
                low *= 1 - (k + n - tried[j]) / n
            if high < threshold:
                return True
            if low >= threshold:
                return False
        if not any(tried):
            return None
        safe = 1.0
        for k, n in zip(outs, tried, strict=True):
            safe *= 1 - k / n if n else 1.0
        return safe < threshold


def smallest_play(view: PlayerView) -> Board | None:
    """The smallest play: one tile that goes on the table (the one that opens the
    least, then the highest), else the smallest meld the rack makes alone."""
    rules = view.rules
    kinds = unseen_kinds(view)
    singles = []
    for t in sorted(set(view.rack)):
        found = solve(view.board, (t,), rules, True)
        if found.placed:
            singles.append((openness(found.board, kinds, rules.wrap_runs), -t.number, found.board))
    if singles:
        return min(singles, key=lambda x: (x[0], x[1]))[2]
    own = solve((), view.rack, rules, True)
    if not own.placed:
        return None
    meld = min(own.board, key=lambda m: (len(m.tiles), -sum(t.number for t in m.tiles)))
    return (*view.board, meld)


def activity(view: PlayerView, s: int) -> int:
    """What seat ``s`` has done, from public figures only: the hand dealt plus the turns
    it took less its rack, that is the tiles it laid plus the turns it laid them in
    (while the pool lasts every other turn draws one tile). A player that only drew
    after its initial meld shows the meld's tiles plus one; one that keeps laying, far
    more."""
    n = len(view.order)
    turns = view.turn_no // n + (1 if view.order.index(s) < view.turn_no % n else 0)
    return view.rules.hand_size + turns - view.rack_sizes[s]


def window_holder(view: PlayerView, s: int, window: int) -> bool:
    """Whether seat ``s``'s last turn began with ``window`` tiles or fewer in the
    pool — so that, if it held (:func:`activity`), it was seen holding in the window
    (a shedder would have laid). From public figures: its own turn, if it drew, and
    each of the turns since took at most one tile from the pool."""
    n = len(view.order)
    me = view.order.index(view.current)
    d = (me - view.order.index(s)) % n
    return view.turn_no >= d and view.pool_left + d <= window


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
