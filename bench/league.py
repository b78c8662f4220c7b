"""The league (issue 30): one player against three of each league member, and each
member against three of it, on mirrored deals (every deal from every seat).

    nice -n 10 .venv/bin/python bench/league.py [--player expert] [--games 800]
        [--jobs 2] [--seed 1] [--rules krc-2015]
        [--members greedy,cautious,holder,starver,aware,shedder,mix] [--no-reverse]
        [--timing 8 [--cpu]]

The members are ``players/league.py``'s (``holder`` is the expert until issue 30,
``cautious`` the one before it; ``mix`` is a table of one starver, one aware and one
shedder). ``--player`` is a level or a member; the two-player ladder is
``--ladder beginner,greedy,club,expert`` (each level against the one below it, head to
head). Prints Markdown rows: games, wins, win rate, its Wilson 95 % interval, mean points
(game points plus penalties) of the measured player, and wall seconds. ``--timing N``
instead times every decision of the player in N mirrored games against each member (one
process) and prints the median, p99 and maximum.
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from meldtour.cli.simulate import results
from meldtour.core.rules import find_rules
from meldtour.players import Player
from meldtour.players.expert import ExpertPlayer
from meldtour.players.lab import play_lab_game, summarise
from meldtour.players.league import OPPONENTS, with_league


def make(level: str, name: str, seed: int) -> Player:
    """The league's factory; ``expert:k=v,...`` is the expert with those settings (the
    screening of its variants)."""
    if level.startswith("expert:"):  # e.g. expert:close=8,late=12
        params = dict(kv.split("=") for kv in level.split(":", 1)[1].split(","))
        return ExpertPlayer(
            name, seed, **{k: float(v) if "." in v else int(v) for k, v in params.items()}
        )
    return with_league(level, name, seed)


def row(label: str, entries: list[str], games: int, seed: int, jobs: int, rules_name: str) -> str:
    rules = find_rules(rules_name)
    started = time.perf_counter()
    done = list(results(rules, entries, games, seed, True, jobs, make=make))
    s = summarise(entries, done, time.perf_counter() - started)
    p = s["players"][0]
    low, high = p["win_rate_ci95"]
    return (
        f"| {label} | {s['games']} | {p['wins']} | {p['win_rate']:.1%} | "
        f"{low:.1%} – {high:.1%} | {p['mean_points']:+.1f} | "
        f"{time.perf_counter() - started:.0f} |"
    )


HEADER = (
    "| {} | games | wins | win rate | 95% interval | mean points | wall s |\n"
    "|---|---:|---:|---:|---|---:|---:|"
)


def timing(
    me: str, members: list[str], games: int, seed: int, rules_name: str, cpu: bool = False
) -> None:
    """The measured player's decision times against each member, and over all: wall
    time, or with ``cpu`` the process's CPU time (what a decision costs, without the
    waits of a loaded machine)."""
    rules = find_rules(rules_name)
    clock = time.process_time if cpu else time.perf_counter
    kind = "CPU" if cpu else "wall"
    print(
        f"`{me}`'s decisions ({kind} time), {games} mirrored games against each member "
        f"({rules_name}; load average {', '.join(f'{x:.1f}' for x in os.getloadavg())})\n"
    )
    print("| opponents | decisions | median ms | p99 ms | max ms |\n|---|---:|---:|---:|---:|")
    every: list[float] = []

    def line(label: str, times: list[float]) -> str:
        times = sorted(times)
        p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
        return (
            f"| {label} | {len(times)} | {statistics.median(times) * 1000:.1f} | "
            f"{p99 * 1000:.1f} | {times[-1] * 1000:.1f} |"
        )

    for m in members:
        entries = [me, *OPPONENTS[m]]
        times = [
            t
            for i in range(games)
            for level, t in play_lab_game(
                rules, entries, i, seed, True, timed=True, make=make, clock=clock
            ).decisions
            if level == me
        ]
        every.extend(times)
        print(line(m, times), flush=True)
    print(line("all", every))
    print(f"\n(load average after: {', '.join(f'{x:.1f}' for x in os.getloadavg())})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--player", default="expert")
    ap.add_argument("--games", type=int, default=800)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rules", default="krc-2015")
    ap.add_argument("--members", default=",".join(OPPONENTS))
    ap.add_argument("--no-reverse", action="store_true")
    ap.add_argument("--ladder", default="")
    ap.add_argument("--timing", type=int, default=0)
    ap.add_argument("--cpu", action="store_true", help="--timing by CPU time, not wall")
    args = ap.parse_args()
    me = args.player
    if args.timing:
        timing(me, args.members.split(","), args.timing, args.seed, args.rules, args.cpu)
        return
    if args.ladder:
        levels = args.ladder.split(",")
        print(
            f"Head to head, each level against the one below ({args.rules}, "
            f"{args.games} mirrored games, seed {args.seed}; parity 50 %)\n"
        )
        print(HEADER.format("level against the one below"))
        for low, high in itertools.pairwise(levels):
            print(
                row(f"{high} vs {low}", [high, low], args.games, args.seed, args.jobs, args.rules),
                flush=True,
            )
        return
    members = args.members.split(",")
    print(
        f"`{me}` against three of each member ({args.rules}, {args.games} mirrored "
        f"games, seed {args.seed}; parity 25 %)\n"
    )
    print(HEADER.format("opponents"))
    for m in members:
        print(row(m, [me, *OPPONENTS[m]], args.games, args.seed, args.jobs, args.rules), flush=True)
    if args.no_reverse:
        return
    print(f"\nEach member against three `{me}` (the member's figures)\n")
    print(HEADER.format("member"))
    for m in members:
        if m == "mix":
            continue
        print(row(m, [m, me, me, me], args.games, args.seed, args.jobs, args.rules), flush=True)


if __name__ == "__main__":
    main()
