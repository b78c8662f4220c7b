"""The self-play lab: many seeded games between computer players, and their summary.

Pure and single-process: the command line spreads :func:`lab_games` over processes
by handing each worker a slice of game indices, and merges with :func:`summarise`.

Seating. The lab's players are *entries* (``expert,greedy,greedy,greedy`` is four
entries). Game ``g`` deals from seed ``seed + g`` and seats entry ``e`` at seat
``(e + g) % n``, so every entry sits at every seat in turn and no entry keeps the
first move (the seat-order draw decides who starts, from the seed). With ``mirror``
each deal is played once per rotation: games ``g`` come in blocks of ``n`` sharing
the seed ``seed + g // n``, so every entry plays every hand from every seat and the
luck of the deal cancels out.

``seat_results`` (per entry) holds one row per *position in turn order*: position 0
is the player who moved first in that game. Each row gives the games the entry played
from that position, its wins and its mean points there — the first-move advantage,
and how each entry copes with it.

>>> from meldtour.core.rules import find_rules
>>> results = list(lab_games(find_rules("krc-2015"), ["greedy", "beginner"], range(4), 1))
>>> s = summarise(["greedy", "beginner"], results, seconds=1.0)
>>> s["games"], sum(p["wins"] for p in s["players"])
(4, 4)
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from meldtour.core.rules import RuleSet

from . import Player
from .levels import make_player
from .runner import play_timed

#: Builds a player from its level, name and seed (:func:`~.levels.make_player`; the
#: benchmarks and tests add the former expert: :func:`~.league.with_cautious`).
Maker = Callable[[str, str, int], Player]


@dataclass(frozen=True, slots=True)
class GameResult:
    """One lab game, by entry: the seat, the position in turn order, the points."""

    index: int
    seed: int
    seats: tuple[int, ...]
    positions: tuple[int, ...]
    winner: int
    points: tuple[int, ...]
    turns: int
    end: str
    decisions: tuple[tuple[str, float], ...] = ()


def deal_of(index: int, seed: int, entries: int, mirror: bool) -> tuple[int, int]:
    """(the game's seed, the rotation) for game ``index``."""
    if mirror:
        return seed + index // entries, index % entries
    return seed + index, index % entries


def lab_seating(
    levels: Sequence[str], index: int, seed: int, mirror: bool, make: Maker = make_player
) -> tuple[int, tuple[int, ...], list[Player]]:
    """Game ``index`` of a lab run before it is played: its seed, the seat of each entry,
    and the players by seat (their seeds follow from the game's seed)."""
    n = len(levels)
    game_seed, rotation = deal_of(index, seed, n, mirror)
    seats = tuple((e + rotation) % n for e in range(n))
    entry_at = {s: e for e, s in enumerate(seats)}
    players = [
        make(levels[entry_at[s]], f"{levels[entry_at[s]]}-{entry_at[s]}", game_seed * 8 + s)
        for s in range(n)
    ]
    return game_seed, seats, players


def play_lab_game(
    rules: RuleSet,
    levels: Sequence[str],
    index: int,
    seed: int,
    mirror: bool = False,
    timed: bool = False,
    make: Maker = make_player,
    clock: Callable[[], float] = time.perf_counter,
) -> GameResult:
    """Play game ``index`` of a lab run; player seeds follow from the game's seed and
    ``make`` builds them."""
    game_seed, seats, players = lab_seating(levels, index, seed, mirror, make)
    n = len(levels)
    entry_at = {s: e for e, s in enumerate(seats)}
    state, times = play_timed(rules, players, game_seed, clock=clock)
    assert state.scores is not None and state.winner is not None
    points = [state.scores[s] - state.penalties[s] for s in range(n)]
    decisions = tuple((levels[entry_at[s]], t) for s, t in times) if timed else ()
    return GameResult(
        index=index,
        seed=game_seed,
        seats=seats,
        positions=tuple(state.order.index(s) for s in seats),
        winner=entry_at[state.winner],
        points=tuple(points[s] for s in seats),
        turns=state.turn_no,
        end=str(state.end),
        decisions=decisions,
    )


def lab_games(
    rules: RuleSet,
    levels: Sequence[str],
    indices: Iterable[int],
    seed: int,
    mirror: bool = False,
    timed: bool = False,
    make: Maker = make_player,
) -> Iterator[GameResult]:
    for i in indices:
        yield play_lab_game(rules, levels, i, seed, mirror, timed, make)


def wilson(wins: int, games: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval (95% by default) for a win rate.

    >>> [round(x, 3) for x in wilson(50, 100)]
    [0.404, 0.596]
    """
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def summarise(
    levels: Sequence[str], results: Sequence[GameResult], seconds: float
) -> dict[str, Any]:
    """The lab's JSON summary (the ``meldtour simulate --json`` output)."""
    n = len(levels)
    games = len(results)
    players: list[dict[str, Any]] = []
    for e, level in enumerate(levels):
        wins = sum(1 for r in results if r.winner == e)
        low, high = wilson(wins, games)
        rows = []
        for pos in range(n):
            here = [r for r in results if r.positions[e] == pos]
            rows.append(
                {
                    "position": pos,
                    "games": len(here),
                    "wins": sum(1 for r in here if r.winner == e),
                    "mean_points": _mean([r.points[e] for r in here]),
                }
            )
        players.append(
            {
                "name": level,
                "seat_results": rows,
                "wins": wins,
                "win_rate": round(wins / games, 4) if games else 0.0,
                "win_rate_ci95": [round(low, 4), round(high, 4)],
                "mean_points": _mean([r.points[e] for r in results]),
            }
        )
    return {
        "games": games,
        "players": players,
        "games_per_second": round(games / seconds, 3) if seconds > 0 else 0.0,
    }


def _mean(xs: Sequence[int]) -> float:
    return round(sum(xs) / len(xs), 3) if xs else 0.0


def run_lab(
    rules: RuleSet, levels: Sequence[str], games: int, seed: int, mirror: bool = False
) -> dict[str, Any]:
    """Play ``games`` games in this process and summarise them."""
    started = time.perf_counter()
    results = list(lab_games(rules, levels, range(games), seed, mirror))
    return summarise(levels, results, time.perf_counter() - started)
