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
tables. For comparison (``bench/rating_models.py``, on held-out results):
``unit="game"`` rates each game by its points (what meldtour did before),
``unit="stage"`` each seatings stage's whole standing as one order (its σ hardly moves:
one update of 24–64 players an event), ``family="glicko-2"`` Glicko-2 over each table's
pairs with the event as its rating period, ``family="bradley-terry"`` openskill's
pairwise model.

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
#: The model: Glicko-2 (each event one rating period: every pair of every table a
#: result, all from the ratings before the event), or openskill's Plackett–Luce (a
#: table's order as one ranking, table after table) or Bradley–Terry (every pair).
Family = Literal["glicko-2", "plackett-luce", "bradley-terry"]

#: A division's pool by its template (and division key); ``*`` is any other key.
TEMPLATE_POOLS: Final[Mapping[str, Mapping[str, str]]] = {
    "busan-2015": {
        "general": "korea",
        "lower": "korea-children",
        "upper": "korea-children",
        "*": "korea",
    },
    "japan-championship": {"*": "japan"},
    "japan-qualifier": {"*": "japan"},
    "tokyo-monthly": {"*": "japan"},
    "tohoku": {"*": "japan"},
}
#: The pool of a division made from no template the pools know.
OTHER_POOL: Final = "other"
#: A division assigned to this pool is not rated at all.
NO_POOL: Final = "none"
#: The pools meldtour names itself (their words are in the catalogs).
KNOWN_POOLS: Final = ("korea", "korea-children", "japan", OTHER_POOL)


def default_pool(template: str, division: str, rules: str = "") -> str:
    """The pool a division counts in unless the federation says otherwise: its
    template's (Busan's children apart), else by the rules it plays (``krc…`` the Korean
    pool, ``japan…`` the Japanese one: a club night counts where its club plays), else
    the other pool.

    >>> default_pool("busan-2015", "lower"), default_pool("japan-championship", "open")
    ('korea-children', 'japan')
    >>> default_pool("club-night", "club", "krc-2015"), default_pool("club-night", "club", "japan")
    ('korea', 'japan')
    """
    pools = TEMPLATE_POOLS.get(template)
    if pools is not None and (division in pools or "*" in pools):
        return pools.get(division) or pools["*"]
    if rules.startswith("krc"):
        return "korea"
    if rules.startswith("japan"):
        return "japan"
    return OTHER_POOL


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
    #: Glicko-2's volatility: a new player's, and τ, how much it may change.
    volatility: float = 0.06
    glicko_tau: float = 0.5


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


def table_order(
    t: TableGames, mode: MatchRanking, win_points: int = 100
) -> tuple[tuple[int, ...], ...]:
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


def stage_order(
    tables: Iterable[TableGames], mode: MatchRanking, win_points: int = 100
) -> tuple[tuple[int, ...], ...]:
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
                out.append(
                    stage_order(
                        (x for x in ev.tables if x.stage == t.stage), ev.mode, ev.win_points
                    )
                )
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


def _groups(
    players: Sequence[int], key: Callable[[int], tuple[int, ...]]
) -> tuple[tuple[int, ...], ...]:
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
    vol: float = 0.06


#: Glicko points in one Glicko-2 unit. The list keeps openskill's scale: a new player's
#: Glicko 1500 ± 350 is 25 ± 25/3, so μ = 25 + S·μ₂ and σ = S·φ with
#: S = (25/3) / (350 / G2_SCALE).
G2_SCALE: Final = 173.7178


def glicko2(
    mu: float,
    phi: float,
    vol: float,
    results: Sequence[tuple[float, float, float]],
    tau: float = 0.5,
) -> tuple[float, float, float]:
    """One Glicko-2 rating period (Glickman, "Example of the Glicko-2 system", 2013,
    with its Illinois iteration for the volatility): μ, φ on the Glicko-2 scale, the
    volatility, and the period's results ``(opponent μ, opponent φ, score 1/½/0)``.

    Glickman's worked example (1500 ± 200 beats 1400 ± 30, loses to 1550 ± 100 and
    1700 ± 300):

    >>> r = [((x - 1500) / G2_SCALE, d / G2_SCALE, s)
    ...      for x, d, s in ((1400, 30, 1), (1550, 100, 0), (1700, 300, 0))]
    >>> m, f, v = glicko2(0.0, 200 / G2_SCALE, 0.06, r)
    >>> round(1500 + G2_SCALE * m, 2), round(G2_SCALE * f, 2), round(v, 5)
    (1464.05, 151.52, 0.06)
    """
    if not results:
        return mu, math.sqrt(phi * phi + vol * vol), vol
    v_inv = delta = 0.0
    for mj, pj, score in results:
        g = 1 / math.sqrt(1 + 3 * pj * pj / math.pi**2)
        e = 1 / (1 + math.exp(-g * (mu - mj)))
        v_inv += g * g * e * (1 - e)
        delta += g * (score - e)
    v = 1 / v_inv
    delta *= v
    a = math.log(vol * vol)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2) - (
            x - a
        ) / (tau * tau)

    lo: float = a
    hi: float
    if delta * delta > phi * phi + v:
        hi = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        hi = a - k * tau
    flo, fhi = f(lo), f(hi)
    for _ in range(100):
        if abs(hi - lo) <= 1e-6:
            break
        c = lo + (lo - hi) * flo / (fhi - flo)
        fc = f(c)
        if fc * fhi <= 0:
            lo, flo = hi, fhi
        else:
            flo /= 2
        hi, fhi = c, fc
    vol2 = math.exp(lo / 2)
    star = math.sqrt(phi * phi + vol2 * vol2)
    phi2 = 1 / math.sqrt(1 / (star * star) + 1 / v)
    return mu + phi2 * phi2 * (delta / v), phi2, vol2


def _rate_event(book: dict[int, _State], ev: RatedEvent, model: RatingModel) -> None:
    """Glicko-2: the event is one rating period; every pair of players each table's
    order separates (or ties) is a result, all against the ratings before the event."""
    scale = model.sigma / (350 / G2_SCALE)
    before = {p: ((st.mu - model.mu) / scale, st.sigma / scale, st.vol) for p, st in book.items()}
    results: dict[int, list[tuple[float, float, float]]] = {}
    for order in orders(ev, model.unit):
        place = {p: i for i, g in enumerate(order) for p in g}
        for p in place:
            mine = results.setdefault(p, [])
            for q in place:
                if q != p:
                    score = 1.0 if place[p] < place[q] else 0.5 if place[p] == place[q] else 0.0
                    mine.append((before[q][0], before[q][1], score))
    for p, res in sorted(results.items()):
        m, f, vol = glicko2(*before[p], res, model.glicko_tau)
        st = book[p]
        st.mu, st.sigma, st.vol = model.mu + scale * m, min(model.sigma, scale * f), vol


def grown(sigma: float, periods: int, model: RatingModel = MODEL) -> float:
    """σ after ``periods`` whole rating periods without a game (never above the start).

    >>> round(grown(2.0, 12), 3), grown(8.0, 100) == MODEL.sigma
    (4.613, True)
    """
    if periods <= 0:
        return sigma
    return min(model.sigma, math.sqrt(sigma * sigma + periods * model.idle_sigma**2))


def idle_periods(last: date, day: date, model: RatingModel = MODEL) -> int:
    return max(0, (day - last).days // model.period_days)


def rate_pool(events: Iterable[RatedEvent], as_of: date, model: RatingModel = MODEL) -> RatingBook:
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
                book[p] = _State(model.mu, model.sigma, vol=model.volatility)
            elif st.last is not None:
                st.sigma = grown(st.sigma, idle_periods(st.last, ev.day, model), model)
        if model.family == "glicko-2":
            _rate_event(book, ev, model)
        else:
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
    return RatingBook(
        as_of,
        tuple(established),
        tuple(provisional),
        {p: tuple(h) for p, h in history.items()},
        tuple(e.key for e in chosen),
    )


def plackett_luce(
    mus: Sequence[float], sigmas: Sequence[float], ranks: Sequence[int], model: RatingModel = MODEL
) -> tuple[list[float], list[float]]:
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


def _rate(
    pl: Any, book: dict[int, _State], order: tuple[tuple[int, ...], ...], model: RatingModel = MODEL
) -> None:
    players = [p for g in order for p in g]
    if len(players) < 2:
        return
    if model.family == "plackett-luce":
        ranks = [i for i, g in enumerate(order, 1) for _ in g]
        mus, sigmas = plackett_luce(
            [book[p].mu for p in players], [book[p].sigma for p in players], ranks, model
        )
        for p, m, sg in zip(players, mus, sigmas, strict=True):
            book[p].mu, book[p].sigma = m, sg
        return
    teams = [[pl.rating(mu=book[p].mu, sigma=book[p].sigma)] for p in players]
    after = pl.rate(teams, ranks=[float(i) for i, g in enumerate(order, 1) for _ in g])
    for p, team in zip(players, after, strict=True):
        book[p].mu, book[p].sigma = float(team[0].mu), float(team[0].sigma)


__all__ = [
    "G2_SCALE",
    "KNOWN_POOLS",
    "MODEL",
    "NO_POOL",
    "OTHER_POOL",
    "TEMPLATE_POOLS",
    "Family",
    "HistoryPoint",
    "RatedEvent",
    "RatingBook",
    "RatingLine",
    "RatingModel",
    "TableGames",
    "Unit",
    "default_pool",
    "game_orders",
    "glicko2",
    "grown",
    "idle_periods",
    "orders",
    "plackett_luce",
    "rate_pool",
    "stage_order",
    "table_order",
]
