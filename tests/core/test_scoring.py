"""RULES.md §6 and §7: the scoring examples of 000, 001 and 004, and the match table."""

import pytest

from meldtour.core.rules import find_rules
from meldtour.core.scoring import ScoreError, rack_total, rank_match, score_game
from meldtour.core.tiles import Tile

from .helpers import rack


def racks_worth(*totals: int) -> list[tuple[Tile, ...]]:
    """Racks of plain tiles whose numbers add up to each total."""
    out = []
    for total in totals:
        tiles = []
        while total > 0:
            n = min(13, total)
            tiles.append(f"k{n}" if len(tiles) % 2 == 0 else f"r{n}")
            total -= n
        out.append(rack(" ".join(tiles)))
    return out


def test_004_example_points_measured_from_the_winner() -> None:
    # A 10, B 15, C 33, D 40 → A +58, B −5, C −23, D −30.
    result = score_game(
        racks_worth(10, 15, 33, 40), None, [True] * 4, [False] * 4, 0, find_rules("japan")
    )
    assert result.scores == (58, -5, -23, -30) and result.winner == 0


def test_001_example_with_d_48() -> None:
    # A 28, B 14, C 30, D 48 (the seed prints 34 but computes 48 − 14 = 34): B wins 64.
    result = score_game(
        racks_worth(28, 14, 30, 48), None, [True] * 4, [False] * 4, 0, find_rules("korea-official")
    )
    assert result.winner == 1
    assert result.scores == (-14, 64, -16, -34)


def test_a_winner_who_goes_out_takes_the_sum_of_the_losers_racks() -> None:
    # 000/001: losers score minus the numbers on their racks (values, not tile count).
    racks = [rack(""), rack("k1 k2 k2"), rack("r13"), rack("b7 o9")]
    result = score_game(racks, 0, [True] * 4, [False] * 4, 0, find_rules("krc-2015"))
    assert result.scores == (5 + 13 + 16, -5, -13, -16)
    assert sum(result.scores) == 0


@pytest.mark.parametrize(
    ("preset", "penalty"),
    [("standard", 30), ("krc-2015", 50), ("korea-official", 100), ("japan", 50)],
)
def test_joker_left_on_a_rack_adds_the_preset_penalty(preset: str, penalty: int) -> None:
    rules = find_rules(preset)
    assert rack_total(rack("J k3"), True, False, rules) == penalty + 3


def test_never_melded_is_a_flat_100_or_200_if_it_could_have() -> None:
    rules = find_rules("krc-2015")
    assert rack_total(rack("k13 r13 J"), False, False, rules) == 100
    assert rack_total(rack("k1"), False, True, rules) == 200
    racks = [rack(""), rack("k1 k2"), rack("k13 r13 o13 b13 J"), rack("r1")]
    result = score_game(racks, 0, [True, True, False, False], [False, False, False, True], 0, rules)
    assert result.scores == (3 + 100 + 200, -3, -100, -200)


def test_lowest_rack_tie_goes_to_the_player_nearest_the_start() -> None:
    # 004: 最小同点 — nearest the starting player wins; the tied loser scores 0.
    rules = find_rules("japan")
    racks = racks_worth(20, 12, 30, 12)
    first_is_2 = score_game(racks, None, [True] * 4, [False] * 4, 2, rules)
    assert first_is_2.winner == 3 and first_is_2.scores == (-8, 0, -18, 26)
    first_is_0 = score_game(racks, None, [True] * 4, [False] * 4, 0, rules)
    assert first_is_0.winner == 1 and first_is_0.scores[3] == 0


def test_fewest_tiles_tie_rule_option() -> None:
    rules = find_rules("standard").replace(tie_rule="fewest_tiles")
    racks = [rack("k6 k6"), rack("k12")]
    assert score_game(racks, None, [True, True], [False, False], 0, rules).winner == 1


def test_penalty_points_are_kept_apart_from_the_zero_sum_scores() -> None:
    rules = find_rules("japan")
    result = score_game(
        [rack(""), rack("k5")], 0, [True, True], [False, False], 0, rules, penalties=[0, 100]
    )
    assert result.scores == (5, -5) and result.penalties == (0, -100)
    assert result.points == (5, -105)
    counted = score_game(
        [rack(""), rack("k5")],
        0,
        [True, True],
        [False, False],
        0,
        rules.replace(penalty_to_winner=True),
        penalties=[0, 100],
    )
    assert counted.scores == (105, -5) and sum(counted.points) == 0


def test_impossible_inputs_are_refused() -> None:
    rules = find_rules("standard")
    with pytest.raises(ScoreError, match="still holds 1 tiles"):
        score_game([rack("k1"), rack("k2")], 0, [True, True], [False, False], 0, rules)
    with pytest.raises(ScoreError, match="winner 5"):
        score_game([rack(""), rack("k2")], 5, [True, True], [False, False], 0, rules)
    with pytest.raises(ScoreError, match="2 to 4 players"):
        score_game([rack("")], 0, [True], [False], 0, rules)


def test_000_001_three_game_match_table() -> None:
    games = [[24, -5, -16, -3], [-6, -11, 22, -5], [-32, -13, -2, 47]]
    winners = [0, 2, 3]
    table = rank_match(games, winners, "wins")
    assert [(s.player + 1, s.wins, s.points) for s in table] == [
        (4, 1, 39),
        (3, 1, 4),
        (1, 1, -14),
        (2, 0, -29),
    ]
    assert [s.rank for s in table] == [1, 2, 3, 4]
    assert all(sum(g) == 0 for g in games)


def test_league_scoring_100_a_win_plus_points() -> None:
    # 004 (Tokyo monthly): 8 games, 3 wins, +156 → 456.
    games = [[50, -50]] * 3 + [[-10, 10]] * 5 + [[56, -56]]
    winners = [0, 0, 0, 1, 1, 1, 1, 1, 0]
    table = rank_match([*games[:8], [106, -106]], winners, "league")
    a = next(s for s in table if s.player == 0)
    assert (a.wins, a.points, a.score) == (4, 150 - 50 + 106, 100 * 4 + 206)
    line = rank_match([[156, -156]] + [[0, 0]] * 7, [0, 0, 0, 1, 1, 1, 1, 1], "league")
    assert next(s for s in line if s.player == 0).score == 456


def test_points_ranking_ignores_wins() -> None:
    table = rank_match([[30, -30], [-5, 5], [-5, 5]], [0, 1, 1], "points")
    assert table[0].player == 0 and table[0].score == 20
