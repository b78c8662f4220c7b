"""Standings: wins, points, then a documented chain of tie-breaks.

The ranking mode comes from the rule set (docs/rules.md, "A match over several
games"): ``wins`` (most wins, then points: KRC and the Japan championship),
``league`` (100 a win plus points: Tokyo monthly, Tohoku) or ``points``. Players
still equal go through the tie-break chain, by default

1. ``best_game``: the best single game;
2. ``second_best``: the second-best game;
3. ``head_to_head``: the result among the tied players at shared tables: in each game
   where two or more of them sat, every pair compares points, and the net count of
   pairs won decides;
4. ``lot``: a lot, drawn from the seed once and recorded (pass the recorded lots back
   and the standings never change).

Each :class:`Standing` says which criterion fixed its place (``decided_by``): the
one at which it came apart from every player still equal with it, which is the
deepest one needed to separate it from its neighbours ("tied" for players who share
a rank because the chain has no lot). The seeds' worked example:

>>> from meldtour.tournament.sheets import GameResult
>>> ps = (1, 2, 3, 4)
>>> games = [GameResult(1, 1, 1, ps, (24, -5, -16, -3), (0,) * 4, 1),
...          GameResult(1, 1, 2, ps, (-6, -11, 22, -5), (0,) * 4, 3),
...          GameResult(1, 1, 3, ps, (-32, -13, -2, 47), (0,) * 4, 4)]
>>> [(s.rank, s.player, s.wins, s.points, s.decided_by) for s in rank_players(games).standings]
[(1, 4, 1, 39, 'points'), (2, 3, 1, 4, 'points'), (3, 1, 1, -14, 'points'), (4, 2, 0, -29, 'wins')]

Players from tables of 3 and of 4: a table of 3 has one loser fewer, so its winner
takes about three quarters of what a table of 4 would give. ``three_table="scale"``
multiplies every points figure a player earns at a table of 3 by 4/3 (wins are not
scaled); the default ``"as_is"`` counts the points as written.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Final, Literal

from meldtour.core.refusal import Refused
from meldtour.core.rules import MatchRanking

from . import refusals as _refusals  # noqa: F401  (the codes below)
from .sheets import GameResult

TieBreak = Literal["best_game", "second_best", "head_to_head", "lot"]
ThreeTable = Literal["as_is", "scale"]
Criterion = Literal["wins", "points", "score", "best_game", "second_best", "head_to_head", "lot"]

#: The default tie-break chain (docs/tournament.md, "6. Standings and tie-breaks").
DEFAULT_CHAIN: Final[tuple[TieBreak, ...]] = ("best_game", "second_best", "head_to_head", "lot")
TIE_BREAKS: Final[frozenset[str]] = frozenset(DEFAULT_CHAIN)


@dataclass(frozen=True, slots=True)
class StandingRules:
    """How a stage is ranked: the mode, the tie-break chain, how tables of 3 count."""

    mode: MatchRanking = "wins"
    chain: tuple[TieBreak, ...] = DEFAULT_CHAIN
    three_table: ThreeTable = "as_is"
    win_points: int = 100

    def __post_init__(self) -> None:
        if self.mode not in ("wins", "league", "points"):
            raise Refused("standings.unknown_mode", mode=repr(self.mode))
        for b in self.chain:
            if b not in TIE_BREAKS:
                raise Refused(
                    "standings.unknown_tie_break", name=repr(b), names=", ".join(DEFAULT_CHAIN)
                )
        if len(set(self.chain)) != len(self.chain):
            raise Refused("standings.tie_break_twice")
        if self.three_table not in ("as_is", "scale"):
            raise Refused("standings.three_table", value=repr(self.three_table))

    @property
    def criteria(self) -> tuple[Criterion, ...]:
        first: tuple[Criterion, ...] = {
            "wins": ("wins", "points"),
            "league": ("score",),
            "points": ("points",),
        }[self.mode]  # type: ignore[assignment]
        return first + self.chain


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's line. ``points`` are the points as written (penalties included);
    ``score`` what the ranking sorts on after wins: points (scaled if tables of 3 are
    scaled), or 100 a win plus points in league mode."""

    rank: int
    player: int
    wins: int
    points: int
    score: Fraction
    games: int
    decided_by: Criterion | Literal["tied"]
    best: tuple[Fraction, ...] = field(default=(), repr=False)


@dataclass(frozen=True, slots=True)
class Standings:
    """A ranked table and the lots it drew (record them: pass them back next time)."""

    standings: tuple[Standing, ...]
    lots: Mapping[int, int]

    def __iter__(self) -> Iterator[Standing]:
        return iter(self.standings)

    def __len__(self) -> int:
        return len(self.standings)

    def top(self, n: int) -> tuple[int, ...]:
        """The players above the cut line after place ``n``.

        A cut that splits players sharing a rank (possible only without a lot in the
        chain) is an error: the organiser must break the tie first.
        """
        if n < len(self.standings) and self.standings[n - 1].rank == self.standings[n].rank:
            raise Refused("standings.cut_splits_tie", n=n, rank=self.standings[n].rank)
        return tuple(s.player for s in self.standings[:n])

    def of(self, player: int) -> Standing:
        for s in self.standings:
            if s.player == player:
                return s
        raise KeyError(player)


def rank_players(
    games: Iterable[GameResult],
    rules: StandingRules = StandingRules(),
    *,
    players: Iterable[int] | None = None,
    lots: Mapping[int, int] | None = None,
    seed: int | str = 0,
) -> Standings:
    """Rank the players of ``games``; or exactly ``players`` (those without a game
    yet rank with nothing), counting only their lines of the games.

    For carried points (a final that carries the earlier stage), pass the earlier
    games of the finalists together with the final's games.
    """
    games = list(games)
    if players is not None:
        who = list(dict.fromkeys(players))
        keep = set(who)
        games = [g for g in games if keep.intersection(g.players)]
    else:
        who = list(dict.fromkeys(p for g in games for p in g.players))
    wins: dict[int, int] = defaultdict(int)
    points: dict[int, int] = defaultdict(int)
    values: dict[int, list[Fraction]] = defaultdict(list)
    counted = set(who)
    for g in games:
        wins[g.winner] += 1
        scale = (
            Fraction(4, 3)
            if rules.three_table == "scale" and len(g.players) == 3
            else (Fraction(1))
        )
        for p in g.players:
            if p not in counted:
                continue
            t = g.total(p)
            points[p] += t
            values[p].append(t * scale)
    score = {p: sum(values[p], Fraction(0)) for p in who}
    if rules.mode == "league":
        score = {p: s + rules.win_points * wins[p] for p, s in score.items()}
    best = {p: tuple(sorted(values[p], reverse=True)) for p in who}
    recorded = dict(lots or {})
    drawn: dict[int, int] = {}

    def key(c: Criterion, group: Sequence[int]) -> dict[int, tuple[Fraction, ...]]:
        if c == "wins":
            return {p: (Fraction(wins[p]),) for p in group}
        if c in ("points", "score"):
            return {p: (score[p],) for p in group}
        if c == "best_game":
            return {p: best[p][:1] or (Fraction(-(10**9)),) for p in group}
        if c == "second_best":
            return {p: best[p][1:2] or (Fraction(-(10**9)),) for p in group}
        if c == "head_to_head":
            return {p: (Fraction(v),) for p, v in _head_to_head(games, group).items()}
        # lot: the recorded lot if there is one, else draw one now and record it
        missing = [p for p in group if p not in recorded and p not in drawn]
        if missing:
            rng = random.Random(f"{seed}:lot:{','.join(map(str, sorted(group)))}")
            numbers = list(range(1, len(missing) + 1))
            rng.shuffle(numbers)
            base = max([*recorded.values(), *drawn.values(), 0])
            for p, k in zip(sorted(missing), numbers, strict=True):
                drawn[p] = base + k
        lot = {**recorded, **drawn}
        return {p: (Fraction(-lot[p]),) for p in group}  # the lower lot number is better

    decided: dict[int, Criterion | Literal["tied"]] = {}
    order: list[list[int]] = []

    def split(group: list[int], criteria: tuple[Criterion, ...]) -> None:
        if len(group) == 1:
            order.append(group)
            return
        if not criteria:
            for p in group:
                decided[p] = "tied"
            order.append(group)
            return
        c = criteria[0]
        k = key(c, group)
        buckets: dict[tuple[Fraction, ...], list[int]] = defaultdict(list)
        for p in group:
            buckets[k[p]].append(p)
        for value in sorted(buckets, reverse=True):
            sub = buckets[value]
            if len(sub) == 1:
                decided[sub[0]] = c
            split(sub, criteria[1:])

    split(sorted(who), rules.criteria)
    out: list[Standing] = []
    place = 0
    for grp in order:
        for p in grp:
            out.append(
                Standing(
                    place + 1,
                    p,
                    wins[p],
                    points[p],
                    score[p],
                    len(values[p]),
                    decided.get(p, "tied"),
                    best[p],
                )
            )
        place += len(grp)
    return Standings(tuple(out), {**recorded, **drawn})


def _head_to_head(games: Sequence[GameResult], group: Sequence[int]) -> dict[int, int]:
    """Net pairwise results among ``group`` in the games where two or more of them sat."""
    members = set(group)
    net = dict.fromkeys(group, 0)
    for g in games:
        here = [p for p in g.players if p in members]
        if len(here) < 2:
            continue
        for i, a in enumerate(here):
            for b in here[i + 1 :]:
                ta, tb = g.total(a), g.total(b)
                if ta > tb:
                    net[a] += 1
                    net[b] -= 1
                elif tb > ta:
                    net[b] += 1
                    net[a] -= 1
    return net


def score_text(value: Fraction) -> str:
    """A score for people: whole numbers as they are, scaled ones to one decimal."""
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):.1f}"


def score_json(value: Fraction) -> int | float:
    return value.numerator if value.denominator == 1 else round(float(value), 2)
