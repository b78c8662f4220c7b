"""The rating: how strong a player is among the players of one pool, from the order of
every table they sat at, event after event in the events' date order.

**What is rated.** An event ranks its players by the stage's own rule: most wins, then
points (KRC, the Japanese championship), or 100 a win plus points (league), or points.
The smallest part of an event where players met each other and that rule gives an
order is **one table in one round**: the players who sat together for the round's
games, ranked among themselves by the stage's rule over those games (wins, then
points). Each such table is one rated match (3 or 4 players), with openskill's
Plackett–Luce model (Weng & Lin's Bayesian approximation); players equal on the rule
(the same wins and points) are a tie, never a lot. So a player who won more games at a
table rates above one who won fewer with more points — as the event ranks them — and
whom they beat counts (a win over strong players is worth more), which one list of the
stage's standing could not say. A final's carried games are rated once, at their own
tables. ``unit="game"`` rates each game by its points instead (what meldtour did before;
``bench/rating_models.py`` compares the two on held-out results).

**Pools.** Only players who meet are rated against each other: the application gives
this module one pool's events at a time (:func:`default_pool` is the template's pool of
a division: Korean adults, Korean children, Japan).

**Periods.** Time is counted in rating periods of ``period_days``. Before a player's
next event, and on the as-of date, σ grows for every whole period they did not play:
``σ² + n × idle_sigma²``, never above the starting σ (Glicko's growth of the rating
deviation while a player is away).

**Provisional.** A player with fewer than ``provisional_games`` rated games, or whose σ
on the as-of date is above ``provisional_sigma`` (6.5: about two events of 24 players
or fewer; or away for over a year), is listed apart. The list sorts on the
conservative ``μ − 3σ``.

>>> from datetime import date
>>> t = TableGames(1, 1, 1, (1, 2, 3, 4),
...                ((1, (30, -10, -5, -15), 1), (2, (-2, 40, -8, -30), 2),
...                 (3, (25, -10, -5, -10), 1)))
>>> table_order(t, "wins")
((1,), (2,), (3,), (4,))
>>> book = rate_pool([RatedEvent("a/open", date(2026, 1, 10), "wins", 100, (t,))],
...                  date(2026, 2, 1))
>>> [line.person for line in book.provisional]
[1, 2, 3, 4]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Final, Literal

from openskill.models import BradleyTerryFull, PlackettLuce

from meldtour.core.rules import MatchRanking

Unit = Literal["stage", "table", "game"]
#: openskill's model: Plackett–Luce (a table's order as one ranking) or Bradley–Terry
#: (every pair of the table compared, as Glicko does; for the bench's comparison).
Family = Literal["plackett-luce", "bradley-terry"]

#: A division's pool by its template (and division key); ``*`` is any other key.
TEMPLATE_POOLS: Final[Mapping[str, Mapping[str, str]]] = {
    "busan-2015": {"general": "korea", "lower": "korea-children",
                   "upper": "korea-children", "*": "korea"},
    "japan-championship": {"*": "japan"},
    "club-night": {"*": "japan"},
}
#: The pool of a division made from no template the pools know.
OTHER_POOL: Final = "other"
#: A division assigned to this pool is not rated at all.
NO_POOL: Final = "none"
#: The pools meldtour names itself (their words are in the catalogs).
KNOWN_POOLS: Final = ("korea", "korea-children", "japan", OTHER_POOL)


def default_pool(template: str, division: str) -> str:
    """The pool a division counts in unless the federation says otherwise.

    >>> default_pool("busan-2015", "lower"), default_pool("japan-championship", "open")
    ('korea-children', 'japan')
    """
    pools = TEMPLATE_POOLS.get(template)
    if pools is None:
        return OTHER_POOL
    return pools.get(division) or pools.get("*", OTHER_POOL)


@dataclass(frozen=True, slots=True)
class RatingModel:
    """The rating's numbers (openskill's scale: a new player is μ 25, σ 25/3)."""

    mu: float = 25.0
    sigma: float = 25.0 / 3.0
    beta: float = 25.0 / 6.0
    #: σ added (in quadrature) at every rated match: openskill's dynamics factor.
    tau: float = 25.0 / 300.0
    period_days: int = 30
    #: σ added (in quadrature) for every whole period a player does not play.
    idle_sigma: float = 1.2
    provisional_games: int = 10
    provisional_sigma: float = 6.5
    unit: Unit = "table"
    family: Family = "plackett-luce"


MODEL: Final = RatingModel()


@dataclass(frozen=True, slots=True, order=True)
class TableGames:
    """One table of one round: its players (people) in seat order and its counted
    games, each ``(number, totals per seat — points less penalties, winning person)``."""

    stage: int
    round: int
    table: int
    players: tuple[int, ...]
    games: tuple[tuple[int, tuple[int, ...], int], ...]


@dataclass(frozen=True, slots=True)
class RatedEvent:
    """One division's counted tables, its date, and how its stages rank (the mode and
    the points of a league win). ``key`` (``slug/division``) orders events of one day."""

    key: str
    day: date
    mode: MatchRanking
    win_points: int
    tables: tuple[TableGames, ...]
    #: The stages (by position) of seatings, where every player plays every round:
    #: ``unit="stage"`` rates each as one order (knockouts and finals by table).
    seatings: frozenset[int] = frozenset()


def table_order(t: TableGames, mode: MatchRanking,
                win_points: int = 100) -> tuple[tuple[int, ...], ...]:
    """The table's players best first, by the stage's rule over the table's games
    (wins then points; league: ``win_points`` a win plus points; points); players equal
    on it share a group."""
    wins = dict.fromkeys(t.players, 0)
    points = dict.fromkeys(t.players, 0)
    for _n, totals, winner in t.games:
        if winner in wins:
            wins[winner] += 1
        for p, x in zip(t.players, totals, strict=True):
            points[p] += x

    def key(p: int) -> tuple[int, ...]:
        if mode == "wins":
            return (wins[p], points[p])
        if mode == "league":
            return (win_points * wins[p] + points[p],)
        return (points[p],)

    return _groups(t.players, key)


def stage_order(tables: Iterable[TableGames], mode: MatchRanking,
                win_points: int = 100) -> tuple[tuple[int, ...], ...]:
    """A stage's players best first by the stage's rule over all its games (as its
    standing ranks them, before the tie-breaks: players still equal share a group)."""
    every = list(tables)
    players = tuple(sorted({p for t in every for p in t.players}))
    index = {p: i for i, p in enumerate(players)}
    games: list[tuple[int, tuple[int, ...], int]] = []
    for t in every:
        for _n, totals, winner in t.games:
            row = [0] * len(players)
            for p, x in zip(t.players, totals, strict=True):
                row[index[p]] = x
            games.append((len(games) + 1, tuple(row), winner))
    return table_order(TableGames(0, 0, 0, players, tuple(games)), mode, win_points)


def orders(ev: RatedEvent, unit: Unit) -> list[tuple[tuple[int, ...], ...]]:
    """What is rated of one event, in order: each seatings stage's standing (``stage``),
    each table's order (``table``; a knockout's or final's tables with ``stage`` too),
    or each game's (``game``)."""
    out: list[tuple[tuple[int, ...], ...]] = []
    done: set[int] = set()
    for t in sorted(ev.tables):
        if not t.games:
            continue
        if unit == "game":
            out.extend(game_orders(t))
        elif unit == "stage" and t.stage in ev.seatings:
            if t.stage not in done:
                done.add(t.stage)
                out.append(stage_order((x for x in ev.tables if x.stage == t.stage),
                                       ev.mode, ev.win_points))
        else:
            out.append(table_order(t, ev.mode, ev.win_points))
    return out


def game_orders(t: TableGames) -> list[tuple[tuple[int, ...], ...]]:
    """Each game of the table, best first: the winner, then the others by points."""
    out = []
    for _n, totals, winner in sorted(t.games):
        score = dict(zip(t.players, totals, strict=True))

        def key(p: int, s: Mapping[int, int] = score, w: int = winner) -> tuple[int, ...]:
            return (int(p == w), s[p])

        out.append(_groups(t.players, key))
    return out


def _groups(players: Sequence[int],
            key: Callable[[int], tuple[int, ...]]) -> tuple[tuple[int, ...], ...]:
    ranked = sorted(players, key=lambda p: (key(p), -p), reverse=True)
    groups: list[list[int]] = []
    last: tuple[int, ...] | None = None
    for p in ranked:
        v = key(p)
        if groups and v == last:
            groups[-1].append(p)
        else:
            groups.append([p])
        last = v
    return tuple(tuple(sorted(g)) for g in groups)


@dataclass(frozen=True, slots=True)
class HistoryPoint:
    """A person's rating after one event (μ and σ as the event left them)."""

    day: date
    event: str
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


@dataclass(frozen=True, slots=True)
class RatingLine:
    """A person's rating on the as-of date: μ, σ grown for the periods since their
    last event, rated games and events, the last event's date."""

    person: int
    mu: float
    sigma: float
    games: int
    events: int
    last: date
    provisional: bool

    @property
    def ordinal(self) -> float:
        """The conservative figure the list sorts on: ``μ − 3σ``."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True, slots=True)
class RatingBook:
    """One pool's ratings on ``as_of``: the established players best first, the
    provisional ones apart (best first), and every person's history."""

    as_of: date
    lines: tuple[RatingLine, ...]
    provisional: tuple[RatingLine, ...]
    history: Mapping[int, tuple[HistoryPoint, ...]] = field(default_factory=dict)
    events: tuple[str, ...] = ()

    def line(self, person: int) -> RatingLine | None:
        for r in (*self.lines, *self.provisional):
            if r.person == person:
                return r
        return None


@dataclass(slots=True)
class _State:
    mu: float
    sigma: float
    games: int = 0
    events: int = 0
    last: date | None = None


def grown(sigma: float, periods: int, model: RatingModel = MODEL) -> float:
    """σ after ``periods`` whole rating periods without a game (never above the start).

    >>> round(grown(2.0, 12), 3), grown(8.0, 100) == MODEL.sigma
    (4.613, True)
    """
    if periods <= 0:
        return sigma
    return min(model.sigma, math.sqrt(sigma * sigma + periods * model.idle_sigma ** 2))


def idle_periods(last: date, day: date, model: RatingModel = MODEL) -> int:
    return max(0, (day - last).days // model.period_days)


def rate_pool(events: Iterable[RatedEvent], as_of: date,
              model: RatingModel = MODEL) -> RatingBook:
    """The pool's ratings on ``as_of`` from its events held on that day or before, in
    date order (then by key), each event's tables in stage, round and table order."""
    chosen = sorted((e for e in events if e.day <= as_of), key=lambda e: (e.day, e.key))
    kind = PlackettLuce if model.family == "plackett-luce" else BradleyTerryFull
    pl = kind(mu=model.mu, sigma=model.sigma, beta=model.beta, tau=model.tau)
    book: dict[int, _State] = {}
    history: dict[int, list[HistoryPoint]] = {}
    for ev in chosen:
        players = sorted({p for t in ev.tables for p in t.players})
        for p in players:
            st = book.get(p)
            if st is None:
                book[p] = _State(model.mu, model.sigma)
            elif st.last is not None:
                st.sigma = grown(st.sigma, idle_periods(st.last, ev.day, model), model)
        for order in orders(ev, model.unit):
            _rate(pl, book, order, model)
        for t in ev.tables:
            for p in t.players:
                book[p].games += len(t.games)
        for p in players:
            st = book[p]
            st.events += 1
            st.last = ev.day
            history.setdefault(p, []).append(HistoryPoint(ev.day, ev.key, st.mu, st.sigma))
    established: list[RatingLine] = []
    provisional: list[RatingLine] = []
    for p, st in book.items():
        assert st.last is not None
        sigma = grown(st.sigma, idle_periods(st.last, as_of, model), model)
        prov = st.games < model.provisional_games or sigma > model.provisional_sigma
        line = RatingLine(p, st.mu, sigma, st.games, st.events, st.last, prov)
        (provisional if prov else established).append(line)
    established.sort(key=lambda x: (-x.ordinal, x.person))
    provisional.sort(key=lambda x: (-x.ordinal, x.person))
    return RatingBook(as_of, tuple(established), tuple(provisional),
                      {p: tuple(h) for p, h in history.items()},
                      tuple(e.key for e in chosen))


def plackett_luce(mus: Sequence[float], sigmas: Sequence[float], ranks: Sequence[int],
                  model: RatingModel = MODEL) -> tuple[list[float], list[float]]:
    """One match of single players by openskill's Plackett–Luce update (Weng & Lin,
    Algorithm 4, with openskill's defaults: τ added first, γ = σ/c, κ 0.0001), computed
    directly: openskill's ``rate`` copies every rating and draws a uuid for each, 20 times
    the cost of the update (tests/tournament/test_rating.py checks the two agree).
    ``ranks``: 1 the best, equal for a tie."""
    tau2, beta2 = model.tau * model.tau, model.beta * model.beta
    s2 = [s * s + tau2 for s in sigmas]
    c = math.sqrt(sum(x + beta2 for x in s2))
    e = [math.exp(m / c) for m in mus]
    n = len(mus)
    sum_q = [sum(e[i] for i in range(n) if ranks[i] >= ranks[q]) for q in range(n)]
    a = [sum(1 for r in ranks if r == ranks[q]) for q in range(n)]
    out_mu, out_sigma = [], []
    for i in range(n):
        omega = delta = 0.0
        for q in range(n):
            if ranks[q] <= ranks[i]:
                x = e[i] / sum_q[q]
                delta += x * (1 - x) / a[q]
                omega += ((1 - x) if q == i else -x) / a[q]
        omega *= s2[i] / c
        delta *= s2[i] / (c * c) * (math.sqrt(s2[i]) / c)
        out_mu.append(mus[i] + omega)
        out_sigma.append(math.sqrt(s2[i]) * math.sqrt(max(1 - delta, 0.0001)))
    return out_mu, out_sigma


def _rate(pl: Any, book: dict[int, _State],
          order: tuple[tuple[int, ...], ...], model: RatingModel = MODEL) -> None:
    players = [p for g in order for p in g]
    if len(players) < 2:
        return
    if model.family == "plackett-luce":
        ranks = [i for i, g in enumerate(order, 1) for _ in g]
        mus, sigmas = plackett_luce([book[p].mu for p in players],
                                    [book[p].sigma for p in players], ranks, model)
        for p, m, sg in zip(players, mus, sigmas, strict=True):
            book[p].mu, book[p].sigma = m, sg
        return
    teams = [[pl.rating(mu=book[p].mu, sigma=book[p].sigma)] for p in players]
    after = pl.rate(teams, ranks=[float(i) for i, g in enumerate(order, 1) for _ in g])
    for p, team in zip(players, after, strict=True):
        book[p].mu, book[p].sigma = float(team[0].mu), float(team[0].sigma)


__all__ = ["KNOWN_POOLS", "MODEL", "NO_POOL", "OTHER_POOL", "TEMPLATE_POOLS", "HistoryPoint",
           "RatedEvent", "RatingBook", "RatingLine", "RatingModel", "TableGames", "Unit",
           "Family", "default_pool", "game_orders", "orders", "plackett_luce", "stage_order", "grown", "idle_periods", "rate_pool", "table_order"]
