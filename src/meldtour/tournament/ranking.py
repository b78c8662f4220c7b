"""Ranking across tournaments: national ranking points and a player rating.

National ranking points (000: "루미큐브한국랭킹 점수에 합산"). For one tournament a
player earns ``base × weight × percentile``, where the percentile is
``(field − place + 1) / field`` (the winner 1, the last 1/field) and the weight is the
tournament's level. Points lose half their value every ``half_life_days``; a
player's ranking adds up their ``best`` results. Every number is configurable. An
organiser may give a points table by place instead (``table``: the winner's points,
the runner-up's, …, times the weight; nothing past its end), and a season (only the
results held from ``season_start`` to ``season_end`` count: :func:`in_season`).

>>> from datetime import date
>>> cfg = RankingConfig(best=2)
>>> day = date(2015, 12, 5)
>>> busan = TournamentResult("busan-2015", day, "national", {1: 1, 2: 2, 3: 3, 4: 4})
>>> [(line.player, round(line.points)) for line in national_ranking([busan], day, cfg)]
[(1, 1000), (2, 750), (3, 500), (4, 250)]

The rating is openskill's Plackett–Luce model, updated after every game from the
game points (higher is better); a player with fewer than ``provisional_games`` games
is provisional.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from types import MappingProxyType
from typing import Final

from openskill.models import PlackettLuce

from meldtour.core.refusal import Refused

from . import refusals as _refusals  # noqa: F401  (the codes below)
from .sheets import GameResult

DEFAULT_WEIGHTS: Final[Mapping[str, float]] = MappingProxyType(
    {"world": 2.0, "national": 1.0, "regional": 0.5, "monthly": 0.25}
)


@dataclass(frozen=True, slots=True)
class RankingConfig:
    """The national ranking's numbers: points for a win at weight 1, the weight of
    each tournament level, the half-life of points in days (0: no decay) and how many
    best results count."""

    base: float = 1000.0
    weights: Mapping[str, float] = field(default_factory=lambda: DEFAULT_WEIGHTS)
    half_life_days: float = 365.0
    best: int = 4
    #: Points by place (1st, 2nd, …) at weight 1, instead of ``base × percentile``.
    table: tuple[float, ...] = ()
    #: The season: only results held on these days or between them count.
    season_start: date | None = None
    season_end: date | None = None

    def __post_init__(self) -> None:
        if self.best < 1:
            raise Refused("ranking.best")
        if self.half_life_days < 0:
            raise Refused("ranking.half_life")


@dataclass(frozen=True, slots=True)
class TournamentResult:
    """One tournament's final places (player → place from 1), its date and level."""

    key: str
    date: date
    level: str
    places: Mapping[int, int]

    @property
    def field_size(self) -> int:
        return len(self.places)


@dataclass(frozen=True, slots=True)
class RankingLine:
    rank: int
    player: int
    points: float
    counted: tuple[tuple[str, float], ...]


def tournament_points(result: TournamentResult, player: int, config: RankingConfig) -> float:
    """A player's undecayed points from one tournament."""
    try:
        weight = config.weights[result.level]
    except KeyError:
        raise Refused(
            "ranking.unknown_level", level=repr(result.level), levels=", ".join(config.weights)
        ) from None
    n = result.field_size
    place = result.places[player]
    if config.table:
        return config.table[place - 1] * weight if place <= len(config.table) else 0.0
    return config.base * weight * (n - place + 1) / n


def in_season(results: Iterable[TournamentResult], config: RankingConfig) -> list[TournamentResult]:
    """The results held within the configured season (all of them without one).

    >>> cfg = RankingConfig(season_start=date(2016, 1, 1))
    >>> [r.key for r in in_season([TournamentResult("a", date(2015, 12, 5), "national", {}),
    ...                            TournamentResult("b", date(2016, 3, 1), "national", {})], cfg)]
    ['b']
    """
    return [
        r
        for r in results
        if (config.season_start is None or r.date >= config.season_start)
        and (config.season_end is None or r.date <= config.season_end)
    ]


def decay(points: float, held: date, as_of: date, config: RankingConfig) -> float:
    days = (as_of - held).days
    if days < 0:
        return 0.0  # not yet played
    if not config.half_life_days:
        return points
    factor: float = 0.5 ** (days / config.half_life_days)
    return points * factor


def national_ranking(
    results: Iterable[TournamentResult], as_of: date, config: RankingConfig = RankingConfig()
) -> tuple[RankingLine, ...]:
    """Everyone's ranking points on ``as_of``: the sum of their best decayed results
    (of the season's, when the configuration names one)."""
    earned: dict[int, list[tuple[float, str]]] = {}
    for res in in_season(results, config):
        # One tournament's numbers once (its weight, field, decay), then each place.
        if res.level not in config.weights:
            tournament_points(res, next(iter(res.places), 0), config)  # the refusal
        weight = config.weights[res.level]
        n = res.field_size
        factor = decay(1.0, res.date, as_of, config)
        table, size = config.table, len(config.table)
        for player, place in res.places.items():
            if table:
                pts = table[place - 1] * weight if place <= size else 0.0
            else:
                pts = config.base * weight * (n - place + 1) / n
            earned.setdefault(player, []).append((pts * factor, res.key))
    lines = []
    for player, items in earned.items():
        best = sorted(items, key=lambda x: (-x[0], x[1]))[: config.best]
        lines.append((sum(p for p, _ in best), player, tuple((k, p) for p, k in best)))
    lines.sort(key=lambda x: (-x[0], x[1]))
    out: list[RankingLine] = []
    for i, (pts, player, counted) in enumerate(lines):
        rank = out[-1].rank if out and abs(out[-1].points - pts) < 1e-9 else i + 1
        out.append(RankingLine(rank, player, pts, counted))
    return tuple(out)


# ---------------------------------------------------------------------------
# Rating


@dataclass(frozen=True, slots=True)
class RatingConfig:
    mu: float = 25.0
    sigma: float = 25.0 / 3.0
    provisional_games: int = 10


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating: mean ``mu``, uncertainty ``sigma``, games rated."""

    mu: float
    sigma: float
    games: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative figure to sort on: ``mu − 3σ``."""
        return self.mu - 3 * self.sigma

    def provisional(self, config: RatingConfig = RatingConfig()) -> bool:
        return self.games < config.provisional_games


def new_rating(config: RatingConfig = RatingConfig()) -> Rating:
    return Rating(config.mu, config.sigma, 0)


def rate_game(
    ratings: Mapping[int, Rating],
    players: Sequence[int],
    points: Sequence[int],
    config: RatingConfig = RatingConfig(),
) -> dict[int, Rating]:
    """The ratings after one game (players new to the book start fresh)."""
    if len(players) != len(points) or len(players) < 2:
        raise Refused("ranking.rated_game")
    model = PlackettLuce(mu=config.mu, sigma=config.sigma)
    before = [ratings.get(p) or new_rating(config) for p in players]
    teams = [[model.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after = model.rate(teams, scores=[float(x) for x in points])
    out = dict(ratings)
    for p, r, team in zip(players, before, after, strict=True):
        out[p] = Rating(float(team[0].mu), float(team[0].sigma), r.games + 1)
    return out


def rate_games(
    ratings: Mapping[int, Rating],
    games: Iterable[GameResult],
    config: RatingConfig = RatingConfig(),
) -> dict[int, Rating]:
    """Rate games in order, one update per game, from their points with penalties."""
    out = dict(ratings)
    for g in games:
        out = rate_game(out, g.players, [g.total(p) for p in g.players], config)
    return out


#: What tells two people of one name apart on a public list, as a federation chooses.
DISCRIMINATORS: Final = ("letter", "club", "birth_year", "member_number")


def tell_apart(people: Sequence[tuple[int, str, str | None]]) -> dict[int, str]:
    """Each person's name as a public list shows it, so that no two lines read the
    same: ``(person, name, detail)`` in, the name alone where nobody else on the list
    has it, else the name with the detail (a club, a birth year, a member number)
    when every one of that name has a detail of their own, else with a letter by the
    order the people were made (A the oldest).

    >>> tell_apart([(1, "김민지", "1990"), (2, "김민지", "2001"), (3, "이준", None)])
    {1: '김민지 (1990)', 2: '김민지 (2001)', 3: '이준'}
    >>> tell_apart([(7, "佐藤 健", None), (4, "佐藤 健", "東京")])
    {7: '佐藤 健 (B)', 4: '佐藤 健 (A)'}
    """
    by_name: dict[str, dict[int, str | None]] = {}
    for pid, name, detail in people:
        by_name.setdefault(name, {})[pid] = detail
    out: dict[int, str] = {}
    for name, group in by_name.items():
        if len(group) == 1:
            out.update(dict.fromkeys(group, name))
            continue
        details = list(group.values())
        if all(details) and len(set(details)) == len(details):
            out.update({pid: f"{name} ({d})" for pid, d in group.items()})
            continue
        for i, pid in enumerate(sorted(group)):
            mark = chr(ord("A") + i) if i < 26 else str(i + 1)
            out[pid] = f"{name} ({mark})"
    return {pid: out[pid] for pid, _n, _d in people}
