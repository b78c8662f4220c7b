"""Standings: the seeds' example, ranking modes, the tie-break chain, decided_by."""

from __future__ import annotations

from fractions import Fraction

import pytest

from meldtour.core.scoring import rank_match
from meldtour.tournament.sheets import GameResult
from meldtour.tournament.standings import StandingRules, rank_players

NO_PEN = (0, 0, 0, 0)


def game(
    rnd: int,
    table: int,
    g: int,
    players: tuple[int, ...],
    points: tuple[int, ...],
    penalties: tuple[int, ...] | None = None,
) -> GameResult:
    pen = penalties or (0,) * len(players)
    totals = [p - q for p, q in zip(points, pen, strict=True)]
    winner = (
        players[totals.index(max(totals))]
        if penalties is None
        else players[points.index(max(points))]
    )
    return GameResult(rnd, table, g, players, points, pen, winner)


SEED_EXAMPLE = [
    game(1, 1, 1, (1, 2, 3, 4), (24, -5, -16, -3)),
    game(1, 1, 2, (1, 2, 3, 4), (-6, -11, 22, -5)),
    game(1, 1, 3, (1, 2, 3, 4), (-32, -13, -2, 47)),
]


def test_the_seeds_worked_example_ranks_p4_p3_p1_p2() -> None:
    table = rank_players(SEED_EXAMPLE)
    assert [s.player for s in table] == [4, 3, 1, 2]
    assert [(s.wins, s.points) for s in table] == [(1, 39), (1, 4), (1, -14), (0, -29)]
    assert [s.decided_by for s in table] == ["points", "points", "points", "wins"]
    # the same as the core's match ranking
    core = rank_match([g.points for g in SEED_EXAMPLE], [0, 2, 3])
    assert [m.player + 1 for m in core] == [4, 3, 1, 2]


def test_league_scoring_100_a_win_plus_points() -> None:
    # 004: 8 games, 3 wins and +156 → 456
    wins = [game(1, 1, g, (1, 2, 3, 4), (52, -20, -16, -16)) for g in range(1, 4)]
    loss = [game(1, 1, g, (1, 2, 3, 4), (0, 10, -5, -5)) for g in range(4, 9)]
    table = rank_players(wins + loss, StandingRules(mode="league"))
    assert table.of(1).score == 456 and table.of(1).wins == 3
    assert table.of(1).decided_by == "score"


def test_points_mode_ignores_wins() -> None:
    games = [
        game(1, 1, 1, (1, 2, 3, 4), (5, -1, -2, -2)),
        game(1, 1, 2, (1, 2, 3, 4), (-20, 22, -1, -1)),
    ]
    by_points = [s.player for s in rank_players(games, StandingRules(mode="points"))]
    assert by_points[0] == 2 and by_points[-1] == 1  # 1 won a game but has −15
    assert [s.player for s in rank_players(games)][:2] == [2, 1]


def test_best_single_game_breaks_a_tie() -> None:
    # 1 and 2: one win each, equal points; 1's best game is higher
    games = [
        game(1, 1, 1, (1, 2, 3, 4), (30, -10, -10, -10)),
        game(1, 1, 2, (1, 2, 3, 4), (-20, 20, 0, 0)),
        game(2, 1, 1, (1, 2, 5, 6), (-5, 5, 0, 0)),
    ]
    # 1: 1 win, +5; 2: 2 wins?  keep wins equal: rebuild
    games = [
        game(1, 1, 1, (1, 3, 4, 5), (30, -10, -10, -10)),
        game(1, 2, 1, (2, 6, 7, 8), (20, -10, -5, -5)),
        game(2, 1, 1, (1, 6, 7, 8), (-10, 20, -5, -5)),
        game(2, 2, 1, (2, 3, 4, 5), (0, 10, -5, -5)),
    ]
    table = rank_players(games, players=[1, 2])
    assert [s.player for s in table] == [1, 2]
    assert table.of(1).points == table.of(2).points == 20
    assert table.of(1).decided_by == table.of(2).decided_by == "best_game"


def test_second_best_game() -> None:
    games = [
        game(1, 1, 1, (1, 3, 4, 5), (30, -10, -10, -10)),
        game(1, 2, 1, (2, 6, 7, 8), (30, -10, -10, -10)),
        game(2, 1, 1, (1, 9, 10, 11), (-2, 9, -5, -2)),
        game(2, 2, 1, (2, 12, 13, 14), (-5, 9, -2, -2)),
        game(3, 1, 1, (1, 15, 16, 17), (-8, 10, -1, -1)),
        game(3, 2, 1, (2, 18, 19, 20), (-5, 7, -1, -1)),
    ]
    t = rank_players(games, players=[1, 2])
    assert [(s.player, s.points, s.decided_by) for s in t] == [
        (1, 20, "second_best"),
        (2, 20, "second_best"),
    ]


def test_head_to_head_at_shared_tables() -> None:
    # same wins, points, best and second best; 2 beat 1 at the table they shared
    direct = [
        GameResult(1, 1, 1, (1, 2, 3, 4), (-4, -2, 8, -2), NO_PEN, 3),
        GameResult(2, 1, 1, (1, 5, 6, 7), (-2, 3, -1, 0), NO_PEN, 5),
        GameResult(2, 2, 1, (2, 8, 9, 10), (-4, 5, -1, 0), NO_PEN, 8),
    ]
    d = rank_players(direct, players=[1, 2])
    assert [s.player for s in d] == [2, 1]
    assert [s.decided_by for s in d] == ["head_to_head", "head_to_head"]


def test_a_recorded_lot_last() -> None:
    games = [
        game(1, 1, 1, (1, 3, 4, 5), (30, -10, -10, -10)),
        game(1, 2, 1, (2, 6, 7, 8), (30, -10, -10, -10)),
    ]
    t = rank_players(games, players=[1, 2], seed=1)
    assert [s.decided_by for s in t] == ["lot", "lot"]  # everything equal, never met
    assert sorted(t.lots) == [1, 2] and sorted(t.lots.values()) == [1, 2]
    for seed in range(5):  # pass the recorded lot back: the order never changes
        again = rank_players(games, players=[1, 2], lots=t.lots, seed=seed)
        assert [s.player for s in again] == [s.player for s in t]
        assert again.lots == t.lots
    flipped = {1: t.lots[2], 2: t.lots[1]}
    assert [s.player for s in rank_players(games, players=[1, 2], lots=flipped)] == [
        s.player for s in reversed(t.standings)
    ]


def test_a_chain_without_a_lot_shares_the_rank_and_the_cut_refuses_to_split() -> None:
    games = [
        game(1, 1, 1, (1, 3, 4, 5), (30, -10, -10, -10)),
        game(1, 2, 1, (2, 6, 7, 8), (30, -10, -10, -10)),
    ]
    rules = StandingRules(chain=("best_game",))
    t = rank_players(games, rules, players=[1, 2, 3])
    assert [s.rank for s in t] == [1, 1, 3]
    assert [s.decided_by for s in t] == ["tied", "tied", "wins"]
    with pytest.raises(ValueError, match="splits players tied"):
        t.top(1)
    assert t.top(2) == (1, 2)


def test_three_player_tables_scaled_or_not() -> None:
    games = [
        GameResult(1, 1, 1, (1, 2, 3), (30, -15, -15), (0, 0, 0), 1),
        GameResult(1, 2, 1, (4, 5, 6, 7), (36, -12, -12, -12), NO_PEN, 4),
    ]
    as_is = rank_players(games, StandingRules(mode="points"))
    assert [s.player for s in as_is][:2] == [4, 1]
    scaled = rank_players(games, StandingRules(mode="points", three_table="scale"))
    assert [s.player for s in scaled][:2] == [1, 4]
    assert scaled.of(1).score == 40 and scaled.of(1).points == 30
    assert scaled.of(2).score == Fraction(-20)


def test_penalties_count_in_standings() -> None:
    g = GameResult(1, 1, 1, (1, 2, 3, 4), (58, -5, -23, -30), (0, 50, 0, 0), 1)
    t = rank_players([g], StandingRules(mode="wins"))
    assert t.of(2).points == -55
    assert [s.player for s in t] == [1, 3, 4, 2]


def test_players_without_games_rank_last_with_nothing() -> None:
    t = rank_players(SEED_EXAMPLE, players=[1, 2, 3, 4, 9])
    assert t.of(9).games == 0 and t.of(9).wins == 0
    assert [s.player for s in t][-1] == 2  # −29 is below a player with nothing


def test_unknown_tie_break_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown tie-break"):
        StandingRules(chain=("coin",))  # type: ignore[arg-type]
