"""Computer-player figures (issues 5 and 19): the strength table, expert against greedy
head to head with mirrored deals, decision times per level, self-play games per
second, and the matrix of every level against every other.

    .venv/bin/python bench/players.py [--games 2000] [--h2h-games 2000]
        [--timing-games 20] [--jobs 2] [--seed 1] [--only strength,h2h,timing,matrix]
        [--levels beginner,greedy,expert] [--matrix greedy,cautious,expert]

Strength: each level in seat rotation against three ``greedy`` players under krc-2015
(25% is parity); head to head: expert and greedy, every deal played from both seats
(``--mirror``); timing: every decision of ``--timing-games`` four-player games of one
level against itself, in one process. Matrix (``--only matrix``): for every pair of
``--matrix`` levels, the row level as one player against three of the column level, and
the two head to head, ``--games`` mirrored games each (every deal from every seat);
``cautious`` is the expert before 2026-12-01 (``players/cautious.py``). Prints markdown
tables.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from meldtour.cli.simulate import results
from meldtour.core.rules import find_rules
from meldtour.players.lab import play_lab_game, summarise
from meldtour.players.league import with_cautious
from meldtour.players.levels import LEVELS


def strength(
    games: int, seed: int, jobs: int, mirror: bool, levels: list[str], rules_name: str
) -> dict[str, object]:
    rules = find_rules(rules_name)
    started = time.perf_counter()
    done = list(results(rules, levels, games, seed, mirror, jobs))
    done.sort(key=lambda r: r.index)
    return summarise(levels, done, time.perf_counter() - started)


def matrix(levels: list[str], games: int, seed: int, jobs: int, rules_name: str) -> None:
    """Each level against three of each level, and each pair head to head."""
    rules = find_rules(rules_name)

    def cell(entries: list[str]) -> str:
        started = time.perf_counter()
        done = list(results(rules, entries, games, seed, True, jobs, make=with_cautious))
        p = summarise(entries, done, time.perf_counter() - started)["players"][0]
        low, high = p["win_rate_ci95"]
        return (
            f"{p['win_rate']:.1%} ({low:.1%} – {high:.1%}; {p['mean_points']:+.1f} pts; "
            f"{time.perf_counter() - started:.0f} s)"
        )

    print(
        f"Four players: the row level against three of the column level ({rules_name}, "
        f"{games} mirrored games each, seed {seed}; parity 25%)\n"
    )
    print("| one \\ three | " + " | ".join(levels) + " |")
    print("|---|" + "---|" * len(levels))
    for one in levels:
        print(
            f"| {one} | " + " | ".join(cell([one, other, other, other]) for other in levels) + " |",
            flush=True,
        )
    print(f"\nHead to head ({rules_name}, {games} mirrored games each; parity 50%)\n")
    print("| player | against | win rate (95% interval; mean points; wall) |")
    print("|---|---|---|")
    for i, one in enumerate(levels):
        for other in levels[i + 1 :]:
            print(f"| {one} | {other} | {cell([one, other])} |", flush=True)
    print()


def fmt_row(label: str, summary: dict[str, object], entry: int = 0) -> str:
    players = summary["players"]
    assert isinstance(players, list)
    p = players[entry]
    low, high = p["win_rate_ci95"]
    return (
        f"| {label} | {summary['games']} | {p['win_rate']:.1%} | {low:.1%} – {high:.1%} "
        f"| {p['mean_points']:+.1f} | {summary['games_per_second']:.2f} |"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--h2h-games", type=int, default=2000)
    ap.add_argument("--timing-games", type=int, default=20)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rules", default="krc-2015")
    ap.add_argument("--only", default="strength,h2h,timing")
    ap.add_argument("--levels", default=",".join(LEVELS), help="rows of the strength table")
    ap.add_argument(
        "--matrix",
        default="greedy,cautious,expert",
        help="the levels of the matrix (cautious: the former expert)",
    )
    args = ap.parse_args()
    parts = set(args.only.split(","))
    header = (
        "| {} | games | win rate | 95% interval | mean points | games/s |\n"
        "|---|---:|---:|---|---:|---:|"
    )
    if "strength" in parts:
        print(
            f"Strength: each level against three greedy ({args.rules}, seed {args.seed}, "
            f"seats rotating)\n"
        )
        print(header.format("level"))
        for level in args.levels.split(","):
            s = strength(
                args.games,
                args.seed,
                args.jobs,
                False,
                [level, "greedy", "greedy", "greedy"],
                args.rules,
            )
            print(fmt_row(level, s), flush=True)
        print()
    if "h2h" in parts:
        print(f"Head to head, mirrored deals ({args.rules}, seed {args.seed})\n")
        print(header.format("player"))
        s = strength(args.h2h_games, args.seed, args.jobs, True, ["expert", "greedy"], args.rules)
        print(fmt_row("expert vs greedy", s), flush=True)
        print()
    if "matrix" in parts:
        matrix(args.matrix.split(","), args.games, args.seed, args.jobs, args.rules)
    if "timing" in parts:
        rules = find_rules(args.rules)
        print(
            f"Decision time, {args.timing_games} four-player games per level against "
            f"itself ({args.rules}, one process)\n"
        )
        print("| level | decisions | median ms | p99 ms | max ms | games/s |")
        print("|---|---:|---:|---:|---:|---:|")
        for level in LEVELS:
            times: list[float] = []
            started = time.perf_counter()
            for i in range(args.timing_games):
                r = play_lab_game(rules, [level] * 4, i, args.seed, timed=True)
                times.extend(t for _, t in r.decisions)
            elapsed = time.perf_counter() - started
            times.sort()
            p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
            print(
                f"| {level} | {len(times)} | {statistics.median(times) * 1000:.1f} | "
                f"{p99 * 1000:.1f} | {times[-1] * 1000:.1f} | "
                f"{args.timing_games / elapsed:.2f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
