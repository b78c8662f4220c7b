"""A small strength check that can fail: fixed seeds, mirrored deals.

The full figures (thousands of games) are in ``BENCHMARKS.md``; these seeds are a
regression guard — a change that weakens a level shows here first. The expert is
measured against greedy, against the expert before it (``cautious``), and against the
league (``players/league.py``): opponents written to answer holding, so that an expert
tuned to one weak opponent fails here.
"""

from __future__ import annotations

from meldtour.core.rules import find_rules
from meldtour.players.lab import lab_games, summarise
from meldtour.players.league import OPPONENTS, with_league

KRC = find_rules("krc-2015")


def _wins(levels: list[str], games: int, seed: int) -> int:
    results = list(lab_games(KRC, levels, range(games), seed, mirror=True, make=with_league))
    wins = summarise(levels, results, seconds=1.0)["players"][0]["wins"]
    assert isinstance(wins, int)
    return wins


def test_expert_beats_greedy_head_to_head() -> None:
    # Parity is 30 of 60. These 30 deals, each played from both seats, give the expert
    # all 60 (the expert before the holder: 42); the 2,000-game figure is in BENCHMARKS.md.
    assert _wins(["expert", "greedy"], 60, 500) >= 54


def test_expert_beats_three_of_the_former_expert() -> None:
    # Parity is 12 of 48 (12 deals, each from all four seats). The holding expert
    # of 2026-12-01 won 25, the expert that lays near the end 20, this one (which
    # does not lay what feeds a close player) 24; fewer than 20 means it lost its edge.
    assert _wins(["expert", "cautious", "cautious", "cautious"], 48, 700) >= 20


def test_expert_beats_three_greedy() -> None:
    # Parity is 12 of 48: the holding expert won 29, ``cautious`` 20 on these
    # deals; this one 28, at least 22.
    assert _wins(["expert", "greedy", "greedy", "greedy"], 48, 700) >= 22


def test_greedy_crushes_beginner() -> None:
    levels = ["greedy", "beginner", "beginner", "beginner"]
    results = list(lab_games(KRC, levels, range(24), 900, mirror=True))
    s = summarise(levels, results, seconds=1.0)
    assert s["players"][0]["win_rate"] >= 0.6  # parity is 25%


def test_the_expert_holds_its_own_against_the_league() -> None:
    # Six deals, each from all four seats, against three of each league member (parity
    # 6 of 24). On these deals the expert wins 7 / 6 / 7 / 8 / 7 against the holder,
    # starver, aware, shedder and the mixed table, with mean points +53.6 / +15.1 /
    # +39.2 / -29.2 / +32.8. The expert before it (it laid near the end whatever that
    # fed) won 7 / 6 / 7 / 8 / 3, with -2.0 points against the shedders: the risk test
    # is what wins against the mixed table, and it costs points against the shedders
    # (it draws rather than feed one down to a few tiles, and is caught holding when
    # another goes out). The holder (tuned against greedy alone) won 6 / 7 / 6 / 9 / 6
    # but lost 29.2 points a game to the shedders and 23.3 to the mixed table.
    # BENCHMARKS.md has the larger samples.
    wins = {}
    points = {}
    for member in ("holder", "starver", "aware", "shedder", "mix"):
        levels = ["expert", *OPPONENTS[member]]
        results = list(lab_games(KRC, levels, range(24), 700, mirror=True, make=with_league))
        me = summarise(levels, results, seconds=1.0)["players"][0]
        wins[member] = me["wins"]
        points[member] = me["mean_points"]
    assert min(wins.values()) >= 5, wins
    assert min(points.values()) >= -35, points
    assert sum(points.values()) >= 80, points


def test_each_level_beats_the_one_below_head_to_head() -> None:
    # 20 deals, each from both seats (parity 20 of 40): club beats greedy 36 times, the
    # expert beats club all 40 (800-game figures in BENCHMARKS.md: 86.0 %, 99.6 %).
    assert _wins(["club", "greedy"], 40, 500) >= 28
    assert _wins(["expert", "club"], 40, 500) >= 32
