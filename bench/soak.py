"""Soak: complete seeded games with the trivial player under every preset, without an
error (issue 2 asks for 10,000). Each game is checked: 106 tiles, a winner, scores
that sum to zero, and an exact replay of every 50th game.

    .venv/bin/python bench/soak.py [--games 10000] [--players 4]
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from meldtour.core.record import read_record, record_of, replay
from meldtour.core.rules import PRESETS
from meldtour.core.tiles import full_set
from meldtour.players.runner import play_game
from meldtour.players.trivial import TrivialPlayer
from meldtour.solver import finder


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--players", type=int, default=0, help="0: 2, 3 and 4 in turn")
    args = ap.parse_args()
    full = Counter(full_set())
    presets = sorted(PRESETS)
    ends: dict[str, Counter[str]] = {p: Counter() for p in presets}
    turns = 0
    t0 = time.perf_counter()
    for g in range(args.games):
        preset = presets[g % len(presets)]
        n = args.players or 2 + g % 3
        state = play_game(
            PRESETS[preset],
            [TrivialPlayer(f"T{i}", finder) for i in range(n)],
            seed=g,
            finder=finder,
        )
        tiles = [t for r in state.racks for t in r] + list(state.pool)
        tiles += [t for m in state.board for t in m.tiles]
        assert Counter(tiles) == full, f"game {g}: tiles lost"
        assert state.scores is not None and sum(state.scores) == 0, f"game {g}: scores"
        if g % 50 == 0:
            assert replay(read_record(record_of(state)), finder=finder) == state, f"replay {g}"
        ends[preset][state.end or "?"] += 1
        turns += state.turn_no
        if (g + 1) % 1000 == 0:
            print(f"{g + 1} games, {time.perf_counter() - t0:.0f} s", flush=True)
    dt = time.perf_counter() - t0
    print(
        f"{args.games} games without an error in {dt:.0f} s "
        f"({args.games / dt:.1f} games/s, {turns / args.games:.0f} turns a game)"
    )
    for preset in presets:
        print(f"  {preset}: {dict(ends[preset])}")


if __name__ == "__main__":
    main()
