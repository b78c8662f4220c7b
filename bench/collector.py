"""The garbage collector's share of a game server at N games (issue 19, item 4): what
a full collection costs, measured inside one process, so that two versions compare in
the same time window however loaded the machine is (``bench/server.py`` measures the
round trips, which on a loaded machine are the CPU the server does not get).

    .venv/bin/python bench/collector.py [--games 400] [--moves 120] [--src DIR]

The real live layer in this process: a ``LiveServer`` with an in-memory log and a
manual clock, ``--games`` tables of 4 person seats, each seat subscribed; every game
plays ``--moves`` moves of ``beginner`` decisions sent as the sockets send them
(``LiveGame.receive``: the engine's check, the log, the broadcast), round-robin over
the games, the sockets' queues emptied as a client would. The server's collector
policy is applied as a real server applies it (``live.server.tune_gc`` at start-up and,
where the version has it, the heartbeat's freeze every 60 s of moves at
``--rate`` moves a second). Reported: the objects the collector tracks outside the
permanent generation (what a full pass scans), a full pass's time (median of 3), the
cyclic garbage the moves left (objects only a full pass frees), and the resident
memory. ``--src`` runs another source tree (``/work/main/src``: before).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def rss_mib() -> float:
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


async def run(games: int, moves: int, rate: float) -> dict[str, Any]:
    from meldtour.core.moves import Draw, Play
    from meldtour.core.views import player_view
    from meldtour.live import LiveServer, ManualClock, SeatConfig, TableConfig
    from meldtour.live import server as live_server
    from meldtour.players.levels import make_player

    server = LiveServer(clock=ManualClock())
    live_server.tune_gc()
    freezer = getattr(live_server, "_FREEZER", None)
    tables = []
    for g in range(games):
        config = TableConfig.make("standard", [SeatConfig("human")] * 4, seed=g + 1)
        game = server.create_table(config, f"g{g}")
        for s in range(4):
            await game.join(s, f"p{s}")
        tables.append((game, [await game.subscribe(s) for s in range(4)]))
    player = make_player("beginner")
    clock0 = time.monotonic()  # the heartbeat's clock: this, plus the moves' seconds
    made = 0
    garbage = 0
    started = time.perf_counter()
    for step in range(moves):
        for game, subs in tables:
            state = game.state
            if state is None or state.end is not None:
                continue
            for sub in subs:
                while not sub.queue.empty():
                    sub.queue.get_nowait()
            move = player.decide(player_view(state, state.current))
            message: dict[str, Any] = {"type": "move", "id": str(step), "version": game.version}
            if isinstance(move, Play):
                message |= {
                    "action": "play",
                    "board": [[str(t) for t in m.tiles] for m in move.board],
                }
            else:
                message["action"] = "draw" if isinstance(move, Draw) else "pass"
            await game.receive(subs[state.current], message)
            made += 1
            if freezer is not None:  # the heartbeat, on the clock the moves make
                freezer.step(clock0 + made / rate)
    elapsed = time.perf_counter() - started
    # What a full pass scans now, and what it costs.
    gc.disable()
    tracked = len(gc.get_objects())
    passes = []
    for _ in range(3):
        t = time.perf_counter()
        garbage += gc.collect()
        passes.append(time.perf_counter() - t)
    gc.enable()
    return {
        "games": games,
        "moves": made,
        "moves_per_game": round(made / games, 1),
        "seconds": round(elapsed, 1),
        "tracked": tracked,
        "frozen": gc.get_freeze_count(),
        "full_pass_ms": round(1000 * statistics.median(passes), 1),
        "cyclic_garbage": garbage,
        "rss_mib": round(rss_mib(), 1),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--moves", type=int, default=120, help="moves per game")
    ap.add_argument(
        "--rate",
        type=float,
        default=200.0,
        help="moves a second the heartbeat's clock assumes (400 games: ~200)",
    )
    ap.add_argument("--src", default=None, help="run this source tree instead")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if not 1 <= a.games <= 1000 or not 1 <= a.moves <= 400:
        sys.exit("--games is 1 to 1000, --moves 1 to 400")
    if not a.child:
        src = Path(a.src).resolve() if a.src else ROOT / "src"
        env = {**os.environ, "PYTHONPATH": str(src)}
        out = subprocess.run(
            [
                sys.executable,
                __file__,
                "--child",
                "--games",
                str(a.games),
                "--moves",
                str(a.moves),
                "--rate",
                str(a.rate),
            ],
            env=env,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        result = json.loads(out.strip().splitlines()[-1])
        result["src"] = str(src)
        print(json.dumps(result))
        print(
            f"| {src} | {result['games']} | {result['moves']} | {result['tracked']:,} | "
            f"{result['frozen']:,} | {result['full_pass_ms']} | {result['cyclic_garbage']:,} "
            f"| {result['rss_mib']} |"
        )
        return
    print(json.dumps(asyncio.run(run(a.games, a.moves, a.rate))))


if __name__ == "__main__":
    main()
