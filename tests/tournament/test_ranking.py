"""National ranking points and the openskill rating (the modules' doctests run with
every other module's: ``--doctest-modules`` over ``src/meldtour``)."""

from __future__ import annotations

import random
from datetime import date

import pytest

from meldtour.core.rules import find_rules
from meldtour.tournament.ranking import (
    RankingConfig,
    Rating,
    RatingConfig,
    TournamentResult,
    national_ranking,
    rate_game,
    rate_games,
    tournament_points,
)
from meldtour.tournament.sheets import GameResult
from meldtour.tournament.simulate import plausible_game


def places(*players: int) -> dict[int, int]:
    return {p: i for i, p in enumerate(players, 1)}


def test_points_are_percentile_times_weight() -> None:
    cfg = RankingConfig()
    res = TournamentResult("t", date(2015, 12, 5), "regional", places(*range(1, 65)))
    assert tournament_points(res, 1, cfg) == 500
    assert tournament_points(res, 64, cfg) == pytest.approx(500 / 64)
    with pytest.raises(ValueError, match="unknown tournament level"):
        tournament_points(TournamentResult("x", date(2015, 1, 1), "galactic", {1: 1}), 1, cfg)


def test_decay_and_best_k() -> None:
    cfg = RankingConfig(best=2, half_life_days=365)
    old = TournamentResult("old", date(2014, 12, 5), "national", places(1, 2))
    a = TournamentResult("a", date(2015, 12, 5), "monthly", places(2, 1))
    b = TournamentResult("b", date(2015, 11, 5), "monthly", places(2, 1))
    c = TournamentResult("c", date(2015, 10, 5), "monthly", places(1, 2))
    table = national_ranking([old, a, b, c], date(2015, 12, 5), cfg)
    by = {line.player: line for line in table}
    # player 1: old (1000, a year ago: 500) and c (250, 61 days ago); a and b are worse
    assert by[1].points == pytest.approx(500 + 250 * 0.5 ** (61 / 365))
    assert [k for k, _ in by[1].counted] == ["old", "c"]  # the best two of four
    assert [k for k, _ in by[2].counted] == ["a", "old"]  # 250 each, b decayed below
    future = TournamentResult("f", date(2016, 1, 1), "world", places(2, 1))
    assert national_ranking([future], date(2015, 12, 5), cfg)[0].points == 0
    flat = RankingConfig(half_life_days=0)
    assert national_ranking([old], date(2030, 1, 1), flat)[0].points == 1000


def test_rating_per_game_with_provisional_flag() -> None:
    r = rate_game({}, [1, 2, 3, 4], [30, -5, -10, -15])
    assert r[1].mu > r[2].mu > r[3].mu > r[4].mu
    assert all(x.games == 1 and x.provisional() for x in r.values())
    assert not Rating(25, 3, 10).provisional()
    assert Rating(25, 3, 10).provisional(RatingConfig(provisional_games=20))
    with pytest.raises(ValueError):
        rate_game({}, [1], [0])


def test_rating_finds_the_stronger_players() -> None:
    rules = find_rules("krc-2015")
    rng = random.Random(11)
    strength = {p: 1.0 + 2.0 * (p > 8) for p in range(1, 17)}  # 9..16 win three times as often
    games = []
    for g in range(300):
        table = rng.sample(range(1, 17), 4)
        played = plausible_game(rng, 4, rules, [strength[p] for p in table])
        games.append(
            GameResult(
                1, 1, g + 1, tuple(table), played.points, played.penalties, table[played.winner - 1]
            )
        )
    ratings = rate_games({}, games)
    strong = sum(ratings[p].mu for p in range(9, 17)) / 8
    weak = sum(ratings[p].mu for p in range(1, 9)) / 8
    assert strong > weak + 1
    assert all(not x.provisional() for x in ratings.values())
    assert all(x.sigma < RatingConfig().sigma for x in ratings.values())


def test_points_table_season_and_best_k_by_hand() -> None:
    """An organiser's points table (times the level's weight), a season and the best
    two, with a half-life of 100 days, worked by hand."""
    cfg = RankingConfig(
        table=(100, 60, 40),
        half_life_days=100,
        best=2,
        season_start=date(2026, 1, 1),
        season_end=date(2026, 12, 31),
    )
    last_year = TournamentResult("y", date(2025, 12, 1), "world", places(1, 2))
    a = TournamentResult("a", date(2026, 3, 1), "regional", places(1, 2, 3, 4))
    b = TournamentResult("b", date(2026, 5, 30), "national", places(4, 3, 2, 1))
    c = TournamentResult("c", date(2026, 6, 9), "monthly", places(1, 2))
    by = {x.player: x for x in national_ranking([last_year, a, b, c], date(2026, 6, 9), cfg)}
    # player 1: a 100 × 0.5 at 100 days = 25; b 4th, past the table: 0; c 100 × 0.25 = 25
    assert by[1].points == pytest.approx(25 + 25)
    assert {k for k, _ in by[1].counted} == {"a", "c"}  # not last year's world title
    # player 4: b 100 × 1 at 10 days, a 4th → 0
    assert by[4].points == pytest.approx(100 * 0.5 ** (10 / 100))
    # player 2: a 60 × 0.5 × 0.5 = 15, b 40 × 0.5**0.1, c 60 × 0.25 = 15: best two
    assert by[2].points == pytest.approx(40 * 0.5**0.1 + 15)
    assert min(line.rank for line in by.values()) == 1
