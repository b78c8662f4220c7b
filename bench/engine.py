"""Engine figures: legality checks per second on 60-tile boards, and complete
4-player games per second with the trivial computer player.

    .venv/bin/python bench/engine.py [--checks 20000] [--games 200] [--repeat 5]

Prints the median over ``--repeat`` runs of each figure. Aim (issue 2): ≥ 20,000
checks/s and ≥ 10 games/s on this machine.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from meldtour.core.melds import Meld, analyse
from meldtour.core.moves import check_play
from meldtour.core.rules import find_rules
from meldtour.core.tiles import TILES, Tile, full_set
from meldtour.players.runner import play_game
from meldtour.players.trivial import TrivialPlayer
from meldtour.solver import finder


def random_board(rng: random.Random, size: int) -> tuple[tuple[Meld, ...], list[Tile]]:
    """A board of valid melds holding about ``size`` tiles, and the tiles left over."""
    pool = list(full_set())
    rng.shuffle(pool)
    melds: list[Meld] = []
    count = 0
    attempts = 0
    while count < size and attempts < 10_000:
        attempts += 1
        if rng.random() < 0.5:
            c, start, length = rng.randrange(4), rng.randint(1, 11), rng.randint(3, 5)
            tiles = [TILES[c * 13 + n - 1] for n in range(start, min(14, start + length))]
        else:
            n = rng.randint(1, 13)
            colours = rng.sample(range(4), rng.choice([3, 4]))
            tiles = [TILES[c * 13 + n - 1] for c in colours]
        if len(tiles) < 3 or any(pool.count(t) < tiles.count(t) for t in tiles):
            continue
        for t in tiles:
            pool.remove(t)
        melds.append(Meld(tuple(tiles)))
        count += len(tiles)
    return tuple(melds), pool


def check_cases(
    rng: random.Random, n: int
) -> list[tuple[tuple[Meld, ...], tuple[Tile, ...], tuple[Meld, ...]]]:
    """(board, rack, proposed board): half legal extensions, half broken melds."""
    cases = []
    while len(cases) < n:
        board, left = random_board(rng, 60)
        rack = tuple(left[:14])
        for t in rack:
            for i, m in enumerate(board):
                for new in (Meld((*m.tiles, t)), Meld((t, *m.tiles))):
                    if new.is_valid() or rng.random() < 0.02:
                        cases.append((board, rack, (*board[:i], new, *board[i + 1 :])))
        # A rearrangement: split the longest run where the split leaves valid melds.
    return cases[:n]


def bench_checks(cases: list, cold: bool) -> float:  # type: ignore[type-arg]
    rules = find_rules("krc-2015")
    t0 = time.perf_counter()
    for board, rack, play in cases:
        if cold:
            analyse.cache_clear()
        check_play(board, rack, play, True, rules)
    return len(cases) / (time.perf_counter() - t0)


def bench_games(n: int, seed0: int) -> float:
    rules = find_rules("krc-2015")
    t0 = time.perf_counter()
    for seed in range(seed0, seed0 + n):
        play_game(rules, [TrivialPlayer(f"T{i}", finder) for i in range(4)], seed, finder=finder)
    return n / (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--checks", type=int, default=20_000)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    rng = random.Random(2026)
    cases = check_cases(rng, args.checks)
    tiles = statistics.mean(sum(len(m) for m in c[0]) for c in cases)
    legal = sum(check_play(b, r, p, True, find_rules("krc-2015")).legal for b, r, p in cases)
    warm = [bench_checks(cases, cold=False) for _ in range(args.repeat)]
    cold = [bench_checks(cases[: args.checks // 10], cold=True) for _ in range(args.repeat)]
    games = [bench_games(args.games, 1000 * i) for i in range(args.repeat)]
    print(
        f"boards: {len(cases)} checks, {tiles:.1f} board tiles on average, "
        f"{legal} legal / {len(cases) - legal} refused"
    )
    print(
        f"legality checks/s (meld cache warm): median {statistics.median(warm):,.0f}  "
        f"runs {[round(x) for x in warm]}"
    )
    print(
        f"legality checks/s (meld cache cleared before each check): median "
        f"{statistics.median(cold):,.0f}"
    )
    print(
        f"complete 4-player games/s (krc-2015, trivial players): median "
        f"{statistics.median(games):.1f}  runs {[round(x, 1) for x in games]}"
    )


if __name__ == "__main__":
    main()
