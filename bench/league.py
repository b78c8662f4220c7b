"""The league (issue 30): one player against three of each league member, and each
member against three of it, on mirrored deals (every deal from every seat).

    nice -n 10 .venv/bin/python bench/league.py [--player expert] [--games 800]
        [--jobs 2] [--seed 1] [--rules krc-2015]
        [--members greedy,cautious,holder,starver,aware,shedder,mix] [--no-reverse]
        [--timing 8 [--cpu]] [--trace]

The members are ``players/league.py``'s (``holder`` is the expert until issue 30,
``cautious`` the one before it; ``mix`` is a table of one starver, one aware and one
shedder). ``--player`` is a level or a member; the two-player ladder is
``--ladder beginner,greedy,club,expert`` (each level against the one below it, head to
head). Prints Markdown rows: games, wins, win rate, its Wilson 95 % interval, mean points
(game points plus penalties) of the measured player, and wall seconds. ``--timing N``
instead times every decision of the player in N mirrored games against each member (one
process) and prints the median, p99 and maximum. ``--trace`` instead plays the games
against each member and says where the player's points went: the mean points of a win
and of a loss, a loss's percentiles, the pool left when it lost, and the racks when the
pool first held 16, 12, 8 and 4 tiles (the player's, the smallest of the others', their
median).
"""

from __future__ import annotations

import argparse
import collections
import functools
import itertools
import multiprocessing
import os
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from meldtour.cli.simulate import results
from meldtour.core.game import apply, new_game
from meldtour.core.rules import find_rules
from meldtour.core.views import player_view
from meldtour.players import Player
from meldtour.players.expert import ExpertPlayer
from meldtour.players.lab import lab_seating, play_lab_game, summarise
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


#: The pool sizes at which ``--trace`` notes the racks.
TRACE_POOLS = (16, 12, 8, 4)


@dataclass(frozen=True)
class Traced:
    """One game seen from entry 0 (``--trace``): whether it won, its points, the pool at
    the end, and the racks (its own, the others' sorted) when the pool first held each
    of :data:`TRACE_POOLS` tiles or fewer."""

    won: bool
    points: int
    pool: int
    racks: dict[int, tuple[int, list[int]]]


def traced(rules_name: str, entries: list[str], seed: int, index: int) -> Traced:
    """Game ``index`` of a mirrored run of ``entries``, as :func:`row` plays it."""
    rules = find_rules(rules_name)
    n = len(entries)
    game_seed, seats, players = lab_seating(entries, index, seed, True, make)
    state = new_game(rules, [p.name for p in players], game_seed).state
    me = seats[0]
    racks: dict[int, tuple[int, list[int]]] = {}
    while state.end is None:
        for k in TRACE_POOLS:
            if k not in racks and len(state.pool) <= k:
                others = sorted(len(state.racks[s]) for s in range(n) if s != me)
                racks[k] = (len(state.racks[me]), others)
        move = players[state.current].decide(player_view(state, state.current))
        state = apply(state, move).state
    assert state.scores is not None
    points = state.scores[me] - state.penalties[me]
    return Traced(state.winner == me, points, len(state.pool), racks)


def trace(me: str, members: list[str], games: int, seed: int, jobs: int, rules_name: str) -> None:
    """Where ``me``'s points went against each member (``--trace``)."""
    print(
        f"`{me}`'s games against three of each member, traced ({rules_name}, {games} "
        f"mirrored games, seed {seed})\n"
    )
    for m in members:
        job = functools.partial(traced, rules_name, [me, *OPPONENTS[m]], seed)
        with multiprocessing.get_context("fork").Pool(max(1, jobs)) as pool:
            got = pool.map(job, range(games), chunksize=4)
        won = [g for g in got if g.won]
        lost = [g for g in got if not g.won]
        lp = sorted(g.points for g in lost)
        pct = [lp[int(q * (len(lp) - 1))] if lp else 0 for q in (0.1, 0.5, 0.9)]
        pools = collections.Counter(g.pool for g in lost).most_common(4)
        print(
            f"**{m}**: {len(won) / len(got):.1%} wins, mean points {_mean(got):+.1f}; a win "
            f"{_mean(won):+.1f}, a loss {_mean(lost):+.1f} (10th, 50th, 90th percentile "
            f"{pct[0]}, {pct[1]}, {pct[2]}); the pool at a loss, most often: "
            + ", ".join(f"{k} ×{c}" for k, c in pools)
        )
        for k in TRACE_POOLS:
            for label, gs in (("lost", lost), ("won", won)):
                at = [g.racks[k] for g in gs if k in g.racks]
                if at:
                    print(
                        f"- pool ≤ {k}, games {label} ({len(at)}): its rack "
                        f"{statistics.median(a[0] for a in at):g}, the others' smallest "
                        f"{statistics.median(a[1][0] for a in at):g}, their median "
                        f"{statistics.median(a[1][1] for a in at):g}"
                    )
        print(flush=True)


def _mean(games: list[Traced]) -> float:
    return statistics.mean(g.points for g in games) if games else 0.0


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
    ap.add_argument("--trace", action="store_true", help="where the player's points went")
    args = ap.parse_args()
    me = args.player
    if args.trace:
        trace(me, args.members.split(","), args.games, args.seed, args.jobs, args.rules)
        return
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
