"""The searching expert's figures (issue 19): its strength against the other levels,
and against its time budget.

    .venv/bin/python bench/search.py [--games 2000] [--seed 1] [--jobs 2]
        [--only strength,curve] [--budgets 0.1,0.3,1] [--set key=value ...]

Strength: ``expert`` as entry 0 against three ``greedy`` and against three
``cautious`` (today's expert before the search) under krc-2015 (25% is parity), and
head to head against ``greedy`` and ``cautious`` with every deal played from both
seats (50% is parity). Curve: the expert at each time budget against three greedy.
Every row also gives the expert's decision times (median, p99, max: wall time, which
grows with the machine's load; and p99 and max of the decisions' CPU time, which does
not). ``--set`` changes a parameter of
:class:`~meldtour.players.search.SearchPlayer` (screening). Prints markdown tables.
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from meldtour.core.moves import Move
from meldtour.core.rules import find_rules
from meldtour.core.views import PlayerView
from meldtour.players import levels as registry
from meldtour.players.lab import GameResult, play_lab_game, summarise
from meldtour.players.search import SearchPlayer

_PARAMS: dict[str, Any] = {}
#: The expert's decisions' CPU seconds (this process's, not the machine's wall time).
_CPU: list[float] = []


class _Timed:
    """The expert, its decisions' CPU time recorded."""

    def __init__(self, inner: SearchPlayer) -> None:
        self.inner = inner
        self.name = inner.name

    def decide(self, view: PlayerView) -> Move:
        t = time.process_time()
        move = self.inner.decide(view)
        _CPU.append(time.process_time() - t)
        return move


def _install(params: dict[str, Any]) -> None:
    """Register the expert with these parameters (in this process: the workers too)."""
    global _PARAMS
    _PARAMS = dict(params)
    registry.LEVELS["expert"] = lambda name, seed: _Timed(SearchPlayer(name, seed, **_PARAMS))


def _game(job: tuple[dict[str, Any], str, list[str], int, int, bool]
          ) -> tuple[GameResult, list[float]]:
    params, rules, levels, index, seed, mirror = job
    if params != _PARAMS:
        _install(params)
    _CPU.clear()
    result = play_lab_game(find_rules(rules), levels, index, seed, mirror, timed=True)
    return result, list(_CPU)


def run(params: dict[str, Any], rules: str, levels: list[str], games: int, seed: int,
        mirror: bool, jobs: int) -> tuple[dict[str, Any], list[float], list[float]]:
    jobs_list = [(params, rules, levels, i, seed, mirror) for i in range(games)]
    started = time.perf_counter()
    if jobs > 1:
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(jobs) as pool:
            pairs = pool.map(_game, jobs_list, chunksize=4)
    else:
        pairs = [_game(j) for j in jobs_list]
    done = [r for r, _ in pairs]
    summary = summarise(levels, done, time.perf_counter() - started)
    times = sorted(t for r in done for level, t in r.decisions if level == "expert")
    cpu = sorted(t for _, c in pairs for t in c)
    return summary, times, cpu


def _p99(xs: Sequence[float]) -> float:
    return xs[min(len(xs) - 1, int(len(xs) * 0.99))] if xs else 0.0


def row(label: str, summary: dict[str, Any], times: Sequence[float],
        cpu: Sequence[float]) -> str:
    p = summary["players"][0]
    low, high = p["win_rate_ci95"]
    med = statistics.median(times) if times else 0.0
    mx = times[-1] if times else 0.0
    return (f"| {label} | {summary['games']} | {p['wins']} | {p['win_rate']:.1%} | "
            f"{low:.1%} – {high:.1%} | {p['mean_points']:+.1f} | {med * 1000:.1f} | "
            f"{_p99(times) * 1000:.0f} | {mx * 1000:.0f} | {_p99(cpu) * 1000:.0f} | "
            f"{(cpu[-1] if cpu else 0.0) * 1000:.0f} | {summary['games_per_second']:.2f} |")


HEADER = ("| {} | games | expert wins | win rate | 95% interval | mean points | median ms "
          "| p99 ms | max ms | CPU p99 ms | CPU max ms | games/s |\n"
          "|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|")


def value(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--rules", default="krc-2015")
    ap.add_argument("--only", default="strength,curve")
    ap.add_argument("--matches", default="greedy4,cautious4,greedy2,cautious2",
                    help="strength rows: OPPONENT + table size (4: three of them)")
    ap.add_argument("--budgets", default="0.1,0.3,1")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    args = ap.parse_args()
    params = {k: value(v) for k, v in (s.split("=", 1) for s in args.set)}
    _install(params)
    parts = set(args.only.split(","))
    if "strength" in parts:
        print(f"Strength of the searching expert ({args.rules}, seed {args.seed}, "
              f"params {params or 'default'})\n")
        print(HEADER.format("match"))
        for match in args.matches.split(","):
            opponent, size = match[:-1], int(match[-1])
            mirror = size == 2
            levels = ["expert"] + [opponent] * (size - 1)
            games = args.games + (-args.games % size if mirror else 0)
            s, t, c = run(params, args.rules, levels, games, args.seed, mirror, args.jobs)
            label = (f"expert vs three {opponent}" if size == 4
                     else f"expert vs {opponent}, mirrored")
            print(row(label, s, t, c), flush=True)
        print()
    if "curve" in parts:
        print(f"Strength against time budget: expert vs three greedy ({args.rules}, "
              f"seed {args.seed})\n")
        print(HEADER.format("budget"))
        for b in args.budgets.split(","):
            p = {**params, "budget": float(b)}
            s, t, c = run(p, args.rules, ["expert", "greedy", "greedy", "greedy"],
                          args.games, args.seed, False, args.jobs)
            print(row(f"{float(b):g} s", s, t, c), flush=True)


if __name__ == "__main__":
    main()
