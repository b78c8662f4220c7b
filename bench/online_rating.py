"""How long the online ratings take to derive from the finished games (pure part):
``rate`` over N four-seat games among P accounts, some with computers, as the lobby,
the table and a player's page compute them again whenever a game has ended.

    PYTHONPATH=src python bench/online_rating.py --games 20000 --players 2000
"""

from __future__ import annotations

import argparse
import random
import time

from meldtour.application.online_rating import Rated, rate


def games(n: int, players: int, seed: int = 1) -> list[Rated]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        people = rng.randint(1, 4)
        accounts = tuple(rng.sample(range(1, players + 1), people)) + (None,) * (4 - people)
        levels = ("",) * people + (rng.choice(["greedy", "club", "expert"]),) * (4 - people)
        scores = tuple(rng.randint(-60, 60) for _ in range(4))
        out.append(
            Rated(f"g{i}", rng.choice(["krc-2015/60", "japan/60"]), i, accounts, levels, scores)
        )
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--players", type=int, default=2000)
    args = parser.parse_args()
    made = games(min(args.games, 200_000), args.players)
    started = time.perf_counter()
    book = rate(made)
    took = time.perf_counter() - started
    print(
        f"{len(made)} games, {len(book.lines)} ratings: {took * 1000:.0f} ms "
        f"({took / len(made) * 1e6:.1f} µs a game)"
    )


if __name__ == "__main__":
    main()
