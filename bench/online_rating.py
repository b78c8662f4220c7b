"""How long the online ratings take to derive from the finished games (pure part):
``rate`` over N four-seat games among P accounts, some with computers (from nothing,
as the site did after every game until the rating was incremental), then ``advance``
as the cache does now: one more finished game applied to the book of the games
before it (20 in a row, the median), and a past record changed (a seat of the game in the middle
claimed by an account: the games from there are taken back and applied again).

    PYTHONPATH=src python bench/online_rating.py --games 20000 --players 2000
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from meldtour.application.online_rating import Rated, advance, rate


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
        f"({took / len(made) * 1e6:.1f} µs a game) from nothing"
    )
    more = games(len(made) + 20, args.players)[len(made) :]
    steps = []
    advanced, log = book, list(made)
    for g in more:
        log = [*log, g]
        started = time.perf_counter()
        advanced = advance(advanced, log)
        steps.append(time.perf_counter() - started)
    assert advanced.applied[-1] == more[-1]
    print(f"one more game applied: {statistics.median(steps) * 1000:.2f} ms (median of 20)")
    fresh = [*games(len(made), args.players), more[0]]  # read again: equal, other objects
    started = time.perf_counter()
    advance(book, fresh)
    took = time.perf_counter() - started
    print(
        f"one more game, the games read again (equal, not the same objects): {took * 1000:.1f} ms"
    )
    mid = len(made) // 2
    old = made[mid]
    claimed = Rated(
        old.game_id,
        old.family,
        old.at,
        (old.accounts[0], 999_999, *old.accounts[2:]),
        ("", "", *old.levels[2:]),
        old.scores,
    )
    changed = [*made[:mid], claimed, *made[mid + 1 :]]
    started = time.perf_counter()
    advance(book, changed)
    took = time.perf_counter() - started
    print(f"a past game's seat claimed (game {mid}): {took * 1000:.0f} ms")


if __name__ == "__main__":
    main()
