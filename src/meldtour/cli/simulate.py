"""``meldtour simulate``: the self-play lab — many seeded games between computer players.

    meldtour simulate --rules krc-2015 --players expert,greedy,greedy,greedy \\
        --games 2000 --seed 1 --jobs 2 --mirror --json

Seats rotate from game to game so that no player keeps the first move; ``--mirror``
plays every deal once per rotation of the players, so the luck of the deal cancels
out. Output (``--json``): ``{"games", "players": [{"name", "seat_results", "wins",
"win_rate", "win_rate_ci95", "mean_points"}], "games_per_second"}``, where
``seat_results`` holds one row per position in turn order (0 = moved first):
``{"position", "games", "wins", "mean_points"}``. Without ``--json`` a table is printed.
A progress bar goes to standard error when it is a terminal. ``--jobs`` spreads the
games over processes; the results do not depend on it.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from collections.abc import Iterator, Sequence
from typing import Any

from meldtour.core.rules import RuleSet
from meldtour.players.lab import GameResult, Maker, play_lab_game, summarise
from meldtour.players.levels import LEVELS, make_player

from .jsonlines import RULES_HELP, dumps, rules_argument

HELP = "self-play lab: seeded games between computer players, win rates with 95% intervals"


def players_argument(text: str) -> list[str]:
    levels = [p.strip() for p in text.split(",") if p.strip()]
    unknown = [p for p in levels if p not in LEVELS]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown player level(s) {', '.join(unknown)}: choose from {', '.join(LEVELS)}"
        )
    if not 2 <= len(levels) <= 4:
        raise argparse.ArgumentTypeError(f"a game has 2 to 4 players, not {len(levels)}")
    return levels


def _positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected 1 or more, got {n}")
    return n


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--rules",
        type=rules_argument,
        default="krc-2015",
        metavar="PRESET",
        help=f"{RULES_HELP} (default: krc-2015)",
    )
    p.add_argument(
        "--players",
        type=players_argument,
        required=True,
        metavar="LEVELS",
        help=f"2-4 comma-separated levels, from: {', '.join(LEVELS)}",
    )
    p.add_argument(
        "--games",
        type=_positive,
        default=100,
        metavar="N",
        help="games to play (default 100); with --mirror, rounded up to a "
        "whole number of rotations",
    )
    p.add_argument(
        "--seed",
        type=int,
        default=0,
        metavar="S",
        help="game g deals from seed S + g (S + g // players with --mirror)",
    )
    p.add_argument(
        "--jobs",
        type=_positive,
        default=1,
        metavar="J",
        help="processes to spread the games over (default 1)",
    )
    p.add_argument(
        "--mirror", action="store_true", help="play every deal once per rotation of the players"
    )
    p.add_argument("--json", action="store_true", help="print the summary as JSON")


# Worker state, set once per process by the pool's initializer.
_JOB: tuple[RuleSet, list[str], int, bool, Maker] | None = None


def _init(rules: RuleSet, levels: list[str], seed: int, mirror: bool, make: Maker) -> None:
    global _JOB
    _JOB = (rules, levels, seed, mirror, make)


def _play(index: int) -> GameResult:
    assert _JOB is not None
    rules, levels, seed, mirror, make = _JOB
    return play_lab_game(rules, levels, index, seed, mirror, make=make)


def results(
    rules: RuleSet,
    levels: Sequence[str],
    games: int,
    seed: int,
    mirror: bool,
    jobs: int,
    make: Maker = make_player,
) -> Iterator[GameResult]:
    """The games' results, in any order (the summary does not depend on it); ``make``
    builds the players (:func:`~meldtour.players.lab.play_lab_game`)."""
    if jobs <= 1:
        for i in range(games):
            yield play_lab_game(rules, levels, i, seed, mirror, make=make)
        return
    ctx = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
    with ctx.Pool(
        jobs, initializer=_init, initargs=(rules, list(levels), seed, mirror, make)
    ) as pool:
        yield from pool.imap_unordered(_play, range(games), chunksize=4)


def _progress(done: int, total: int, started: float) -> None:
    width = 30
    filled = width * done // total
    rate = done / max(time.perf_counter() - started, 1e-9)
    sys.stderr.write(
        f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games, {rate:.1f}/s"
    )
    sys.stderr.flush()


def run(args: argparse.Namespace) -> int:
    rules: RuleSet = args.rules if isinstance(args.rules, RuleSet) else rules_argument(args.rules)
    levels: list[str] = args.players
    games: int = args.games
    if args.mirror and games % len(levels):
        games += len(levels) - games % len(levels)
    bar = sys.stderr.isatty()
    started = time.perf_counter()
    collected: list[GameResult] = []
    for r in results(rules, levels, games, args.seed, args.mirror, args.jobs):
        collected.append(r)
        if bar:
            _progress(len(collected), games, started)
    if bar:
        sys.stderr.write("\n")
    collected.sort(key=lambda r: r.index)
    summary = summarise(levels, collected, time.perf_counter() - started)
    if args.json:
        print(dumps(summary))
    else:
        _table(summary)
    return 0


def _table(summary: dict[str, Any]) -> None:
    print(f"{summary['games']} games, {summary['games_per_second']} games/s")
    print(
        f"{'entry':<4} {'player':<10} {'wins':>6} {'win rate':>9} {'95% interval':>17} "
        f"{'mean points':>12}"
    )
    for i, p in enumerate(summary["players"]):
        low, high = p["win_rate_ci95"]
        print(
            f"{i:<4} {p['name']:<10} {p['wins']:>6} {p['win_rate']:>9.1%} "
            f"{f'{low:.1%} - {high:.1%}':>17} {p['mean_points']:>12.1f}"
        )
