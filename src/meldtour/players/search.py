"""The ``expert`` player: it searches. Near the end of a game (an opponent close to
going out) it lists a few candidate plays and judges each by sampled futures.

* *Candidates*: what ``cautious`` (today's expert, :class:`~meldtour.players.expert.
  ExpertPlayer`) would do; the solver's best play; the best play that holds back the
  melds the rack makes on its own (:meth:`~meldtour.players.expert.ExpertPlayer.held_back`);
  the best play that keeps the jokers; the beginner's play (new melds from the rack
  and tiles at the ends of melds, the table left as it lies: it feeds least); and
  drawing.
* *Futures* (determinisation): the tiles it cannot see (the full set less the table
  and its rack) are dealt to the opponents, each rack of the size it has, tiles that
  fit no end of a meld on the table more likely (an opponent would have laid the
  others), and the rest become the pool in a random order. The same sampled futures
  judge every candidate (common random numbers).
* *Play-out*: after the candidate, ``rounds`` rounds are played by the fast policy
  (``greedy``: the solver's best play, else a draw) for every seat, its own included,
  and then the opponents' turns after its last play (so that what that play feeds
  them counts: a future that ended just before would favour holding tiles back).
  A future where someone goes out is scored as the rules score it
  (:func:`~meldtour.core.scoring.rack_total`); one where nobody does is valued by the
  rack sizes (a soft-max) and the rack totals.
* *Choice*: ``cautious``'s move unless another candidate is clearly better (by
  ``margin`` and ``z`` standard errors of the paired differences): so it draws where
  ``cautious`` would only if no play is rated clearly better, and never while a play
  empties the rack.

It sees only its :class:`~meldtour.core.views.PlayerView`. Its samples come from a
generator seeded by its seed, the seat and the turn number, and the work is a count
(``samples`` futures of ``rounds`` rounds), not a clock: the same view gives the same
move. ``budget`` (seconds) picks the counts (:data:`BUDGETS`); under a turn clock too
short for the budget (``turn_seconds < budget * TIGHT``) it plays as ``cautious``,
today's cheap expert. Figures: ``BENCHMARKS.md``, "The searching expert".
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from meldtour.core.melds import Meld
from meldtour.core.moves import Move, Play
from meldtour.core.scoring import rack_total
from meldtour.core.tiles import JOKER_CODE, Tile
from meldtour.core.views import PlayerView
from meldtour.solver import Solution, solve, solve_tiles

from .base import no_play, seat_of
from .beginner import extend_melds
from .expert import ExpertPlayer, _attaches, _minus, unseen_tiles

#: Sampled futures per candidate and rounds played out, by time budget (seconds). The
#: 1 s budget's CPU p99 is within it; at 0.1 and 0.3 s the fixed part (``cautious``'s
#: own estimate, the candidates) already exceeds the budget at p99 (BENCHMARKS.md).
BUDGETS: Final[dict[float, tuple[int, int]]] = {0.1: (3, 1), 0.3: (6, 1), 1.0: (12, 1)}
#: The turn clock must be at least this many budgets long for the search to run.
TIGHT: Final = 8.0


@dataclass(frozen=True, slots=True)
class Candidate:
    label: str
    #: The play, or None for drawing.
    play: Solution | None


@dataclass
class SearchPlayer:
    name: str = "expert"
    seed: int = 0
    #: Seconds a decision may take (a key of :data:`BUDGETS`, or the nearest below).
    budget: float = 1.0
    #: Override the budget's counts (0: the budget's).
    samples: int = 0
    rounds: int = 0
    #: Search when an opponent holds this many tiles or fewer.
    close: int = 6
    #: How much likelier an unseen tile that fits no meld's end is in an opponent's rack.
    stuck_weight: float = 4.0
    #: Game points (per 100) against a win: a lost game's rack total counts too.
    points_weight: float = 0.1
    #: The soft-max weight of a tile on the rack when nobody went out in a future.
    size_weight: float = 0.15
    #: How much better (in mean value) another candidate must be than the best play,
    #: and by how many standard errors of the paired differences.
    margin: float = 0.05
    z: float = 1.64
    #: Redraw the rack of the player who moved last (up to this many times) until it has
    #: no play on the table it left: it would have laid one.
    redraws: int = 2
    fallback: ExpertPlayer = field(default_factory=ExpertPlayer)

    def __post_init__(self) -> None:
        self.fallback = ExpertPlayer(self.name, self.seed)

    @property
    def counts(self) -> tuple[int, int]:
        """(sampled futures, rounds) for the budget."""
        fits = [b for b in BUDGETS if b <= self.budget + 1e-9]
        samples, rounds = BUDGETS[max(fits) if fits else min(BUDGETS)]
        return self.samples or samples, self.rounds or rounds

    def decide(self, view: PlayerView) -> Move:
        seat = seat_of(view)
        rules = view.rules
        melded = view.melded[seat]
        full = solve(view.board, view.rack, rules, melded)
        if not full.placed:
            return no_play(view)
        if full.placed == len(view.rack) or not melded or not view.pool_left:
            return Play(seat, full.board)
        base = self.fallback.decide(view)
        if rules.turn_seconds < self.budget * TIGHT:
            return base
        others = [n for s, n in enumerate(view.rack_sizes) if s != seat]
        if min(others) > self.close:
            return base
        chosen = self.search(view, self.candidates(view, full, base))
        if chosen.play is None:
            return no_play(view)
        return Play(seat, chosen.play.board)

    def candidates(self, view: PlayerView, full: Solution,
                   base: Move | None = None) -> list[Candidate]:
        """The moves worth judging, distinct: first ``base`` (``cautious``'s choice, the
        one kept unless another is clearly better), then the solver's best play, the
        held-back play, the play that keeps the jokers, the beginner's play (the table
        left as it lies) and drawing."""
        rules = view.rules
        out: list[Candidate] = []
        seen: set[object] = set()

        def add(label: str, s: Solution | None) -> None:
            key = "draw" if s is None else _key(s.board)
            if key not in seen and (s is None or s.placed):
                seen.add(key)
                out.append(Candidate(label, s))

        if isinstance(base, Play):
            placed = _minus(view.rack, _minus(_tiles(base.board), _tiles(view.board)))
            add("cautious", Solution(len(view.rack) - len(placed), 0, base.board,
                                     (), placed))
        elif base is not None:
            add("cautious", None)
        add("best", full)
        add("hold", self.fallback.held_back(view))
        if JOKER_CODE in view.rack:
            rest = tuple(t for t in view.rack if t != JOKER_CODE)
            add("keep jokers", solve(view.board, rest, rules, True))
        own = solve((), view.rack, rules, True)
        board, left = extend_melds((*view.board, *own.board), list(own.rack_left),
                                   rules.wrap_runs)
        if len(left) < len(view.rack):
            placed = _minus(view.rack, tuple(left))
            add("simple", Solution(len(placed), 0, board, placed, tuple(left)))
        add("draw", None)
        return out

    def search(self, view: PlayerView, candidates: Sequence[Candidate]) -> Candidate:
        """The first candidate, unless another one is clearly better: its
        mean value over the same futures higher by ``margin`` and by ``z`` standard
        errors of the paired differences (a noisy edge is no reason to hold back)."""
        table = self.outcomes(view, candidates)
        chosen, edge = 0, 0.0
        for i in range(1, len(candidates)):
            mean = self.clear_edge(table, i)
            if mean is not None and mean > edge:
                chosen, edge = i, mean
        return candidates[chosen]

    def clear_edge(self, table: Sequence[Sequence[float]], i: int) -> float | None:
        """Candidate ``i``'s mean edge over the first, if clearly better, else None."""
        n = len(table)
        diffs = [row[i] - row[0] for row in table]
        mean = sum(diffs) / n
        sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else 0.0
        return mean if mean - self.margin - self.z * sd / math.sqrt(n) > 0 else None

    def values(self, view: PlayerView, candidates: Sequence[Candidate]) -> list[float]:
        """Each candidate's mean value over the same sampled futures."""
        table = self.outcomes(view, candidates)
        return [sum(row[i] for row in table) / len(table) for i in range(len(candidates))]

    def outcomes(self, view: PlayerView, candidates: Sequence[Candidate]
                 ) -> list[list[float]]:
        """Per sampled future, each candidate's value (the same futures for all)."""
        seat = seat_of(view)
        samples, rounds = self.counts
        rng = random.Random(f"search/{self.seed}/{seat}/{view.turn_no}")
        futures = [self.sample(view, rng) for _ in range(samples)]
        return [[self.play_out(view, c, [list(r) for r in racks], list(pool), rounds)
                 for c in candidates] for racks, pool in futures]

    def sample(self, view: PlayerView, rng: random.Random
               ) -> tuple[list[tuple[Tile, ...]], tuple[Tile, ...]]:
        """One future: every opponent's rack (this seat's own as it is) and the pool."""
        seat = seat_of(view)
        unseen = unseen_tiles(view)
        on_table = Counter(t for m in view.board for t in m.tiles)
        rack = Counter(view.rack)
        wrap = view.rules.wrap_runs
        stuck = {t for t in set(unseen)
                 if on_table[t] + rack[t] < 2 and not _attaches(view.board, t, wrap)}
        # Weighted sampling without replacement (Efraimidis–Spirakis keys).
        keyed = sorted(unseen, key=lambda t: -rng.random() ** (
            1.0 / (self.stuck_weight if t in stuck else 1.0)))
        racks: list[tuple[Tile, ...]] = []
        at = 0
        for s, n in enumerate(view.rack_sizes):
            if s == seat:
                racks.append(view.rack)
                continue
            racks.append(tuple(keyed[at:at + n]))
            at += n
        pool = keyed[at:]
        last = view.order[(view.order.index(seat) - 1) % len(view.order)]
        if last != seat and view.melded[last] and racks[last]:
            # The player who moved last left this table: it holds nothing that goes on
            # it (a player who could lay a tile would have). Swap its rack with tiles of
            # the pool until that holds, a few times at most.
            for _ in range(self.redraws):
                if not _plays(view.board, racks[last], wrap, view.rules.initial_meld):
                    break
                spare = racks[last] + tuple(pool)
                picked = rng.sample(range(len(spare)), len(racks[last]))
                chosen = set(picked)
                racks[last] = tuple(spare[i] for i in picked)
                pool = [t for i, t in enumerate(spare) if i not in chosen]
        rng.shuffle(pool)
        return racks, tuple(pool[:view.pool_left])

    def play_out(self, view: PlayerView, c: Candidate, racks: list[list[Tile]],
                 pool: list[Tile], rounds: int) -> float:
        """The value of one future after ``c``, for this seat."""
        seat = seat_of(view)
        rules = view.rules
        wrap, threshold = rules.wrap_runs, rules.initial_meld
        melded = list(view.melded)
        board: tuple[Meld, ...] = view.board
        if c.play is None:
            if pool:
                racks[seat].append(pool.pop(0))
        else:
            board = c.play.board
            racks[seat] = list(c.play.rack_left)
        n = len(view.order)
        at = view.order.index(seat)
        # Each round ends with the opponents' answers to this seat's play: a future is
        # judged after what its last play fed them, not just before.
        for ply in range(1, rounds * n + n):
            s = view.order[(at + ply) % n]
            try:
                found = solve_tiles(board, racks[s], melded[s], wrap, threshold)
            except ValueError:
                found = None
            if found is not None and found.placed:
                board = found.board
                racks[s] = list(found.rack_left)
                melded[s] = True
                if not racks[s]:
                    return self.value(view, racks, melded, s)
            elif pool:
                racks[s].append(pool.pop(0))
        return self.value(view, racks, melded, None)

    def value(self, view: PlayerView, racks: Sequence[Sequence[Tile]],
              melded: Sequence[bool], winner: int | None) -> float:
        """A future's value for this seat: 1 for a win, plus the game points (per 100,
        times ``points_weight``); unfinished, the soft-max of the rack sizes stands for
        the chance to win."""
        seat = seat_of(view)
        rules = view.rules
        totals = [rack_total(r, m, False, rules) for r, m in zip(racks, melded, strict=True)]
        w = self.points_weight / 100
        if winner is not None:
            if winner == seat:
                return 1.0 + w * sum(totals)
            return -w * totals[seat]
        weights = [math.exp(-self.size_weight * len(r)) for r in racks]
        p = weights[seat] / sum(weights)
        others = sum(t for s, t in enumerate(totals) if s != seat)
        return p + w * (p * others - (1 - p) * totals[seat])


def _plays(board: tuple[Meld, ...], rack: Sequence[Tile], wrap: bool, threshold: int) -> bool:
    try:
        return solve_tiles(board, rack, True, wrap, threshold).placed > 0
    except ValueError:
        return False


def _tiles(board: Sequence[Meld]) -> tuple[Tile, ...]:
    return tuple(t for m in board for t in m.tiles)


def _key(board: Sequence[Meld]) -> tuple[tuple[Tile, ...], ...]:
    return tuple(sorted(tuple(sorted(m.tiles)) for m in board))
