"""Loaded by the server process of ``bench/server.py --probe FILE`` (on its PYTHONPATH):
records the garbage collector's pauses and the event loop's lag (how late a 10 ms
timer fires: anything that held the loop) from the time in FILE.from (epoch seconds: the
bench's measured window) on, and writes them as JSON to FILE every 2 s."""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import gc
import json
import os
import sys
import time

_OUT = os.environ.get("MELDTOUR_PROBE")
#: MELDTOUR_SWITCH_INTERVAL=SECONDS: the interpreter's thread switch interval (an
#: experiment: how long a thread waiting for the lock waits for the event loop).
if os.environ.get("MELDTOUR_SWITCH_INTERVAL"):
    sys.setswitchinterval(float(os.environ["MELDTOUR_SWITCH_INTERVAL"]))
_FROM = [float("inf")]  # epoch seconds: the measured window's start (FILE.from)
_gc: list[tuple[int, float]] = []
_lag: list[float] = []
_start: list[float] = [0.0]
#: The objects the collector tracks (its full passes scan them all), counted once
#: CENSUS_AFTER seconds into the measured window: in all, and the commonest types.
CENSUS_AFTER = float(os.environ.get("MELDTOUR_PROBE_CENSUS_AFTER", "30") or "inf")
#: The loop's stalls of over 50 ms and the collector's passes of over 20 ms, each with
#: its time (seconds into the window): what a cluster of slow round trips coincides with.
_stalls: list[tuple[float, str, float]] = []
_census: dict[str, object] = {}
#: With MELDTOUR_PROBE_CYCLES=SECONDS: that far into the window, everything is unfrozen
#: and one full collection counts the objects only a collection frees (reference
#: cycles, which a frozen generation keeps for ever); then everything is frozen again.
#: That pass stalls the loop once (left out of nothing: it is in the lag and round trips).
#: Several times may be given ("60,170"): each pass also counts every object the
#: collector tracks by type, so that two passes show what grows.
_CYCLES_AT = [float(x) for x in os.environ.get("MELDTOUR_PROBE_CYCLES", "").split(",") if x]
_cycles: dict[str, object] = {}
_passes: list[dict[str, object]] = []


#: With MELDTOUR_PROBE_YOUNG=K: every K-th young or middle pass in the window, the
#: objects that pass scans are counted by type, with the references each holds (what
#: the pass follows): what survives a move for the collector to scan.
_YOUNG_EVERY = int(os.environ.get("MELDTOUR_PROBE_YOUNG", "0") or 0)
_young: dict[int, dict[str, list[int]]] = {0: {}, 1: {}}
_young_passes: dict[int, list[int]] = {0: [0, 0], 1: [0, 0]}  # seen, counted


def _young_census(generation: int) -> None:
    seen = _young_passes[generation]
    seen[0] += 1
    if seen[0] % _YOUNG_EVERY:
        return
    seen[1] += 1
    table = _young[generation]
    for g in range(generation + 1):
        for o in gc.get_objects(generation=g):
            row = table.setdefault(type(o).__qualname__, [0, 0])
            row[0] += 1
            row[1] += len(gc.get_referents(o))


def _on_gc(phase: str, info: dict[str, int]) -> None:
    if phase == "start":
        if _YOUNG_EVERY and info.get("generation", 2) < 2 and time.time() >= _FROM[0]:
            _young_census(info["generation"])
        _start[0] = time.perf_counter()
    elif time.time() >= _FROM[0]:
        took = time.perf_counter() - _start[0]
        _gc.append((info.get("generation", -1), took))
        if took > 0.02:
            _stalls.append((time.time() - _FROM[0], f"gc{info.get('generation')}", took))


async def _monitor() -> None:
    last = time.perf_counter()
    while True:
        t = time.perf_counter()
        await asyncio.sleep(0.01)
        if time.time() >= _FROM[0]:
            _lag.append(time.perf_counter() - t - 0.01)
            if _lag[-1] > 0.05:
                _stalls.append((time.time() - _FROM[0], "lag", _lag[-1]))
            if not _census and time.time() >= _FROM[0] + CENSUS_AFTER:
                _take_census()
            if _CYCLES_AT and time.time() >= _FROM[0] + _CYCLES_AT[0]:
                _CYCLES_AT.pop(0)
                _count_cycles()
        if t - last > 2.0:  # uvicorn ends by its signal: no atexit to rely on
            last = t
            if _FROM[0] == float("inf") and _OUT and os.path.exists(_OUT + ".from"):
                with open(_OUT + ".from") as f, contextlib.suppress(ValueError):
                    _FROM[0] = float(f.read())  # not yet if the bench is writing it
            _dump()


def _take_census() -> None:
    objects = gc.get_objects()
    _census["tracked"] = len(objects)
    _census["frozen"] = gc.get_freeze_count()
    _census["types"] = _types(objects, 12)
    del objects


def _types(objects: list[object], n: int) -> dict[str, int]:
    """The ``n`` commonest types among ``objects``, with their counts."""
    from collections import Counter

    return dict(Counter(type(o).__name__ for o in objects).most_common(n))


def _count_cycles() -> None:
    from collections import Counter

    gc.unfreeze()
    gc.set_debug(gc.DEBUG_SAVEALL)
    t = time.perf_counter()
    found = gc.collect()
    took = time.perf_counter() - t
    kinds = _types(gc.garbage, 15)
    # Where the cycles' frames and coroutines were (file:function), and what the
    # LiveGames among them are held by.
    frames = Counter(
        f"{os.path.basename(o.f_code.co_filename)}:{o.f_code.co_name}"
        for o in gc.garbage
        if type(o).__name__ == "frame"
    )
    coros = Counter(
        getattr(o, "__qualname__", "?") for o in gc.garbage if type(o).__name__ == "coroutine"
    )
    errors = Counter(type(o).__name__ for o in gc.garbage if isinstance(o, BaseException))
    _cycles.update(
        frames=dict(frames.most_common(15)),
        coroutines=dict(coros.most_common(10)),
        exceptions=dict(errors.most_common(10)),
        games=sum(type(o).__name__ == "LiveGame" for o in gc.garbage),
    )
    gc.set_debug(0)
    gc.garbage.clear()
    gc.collect()
    every = gc.get_objects()
    rss = _rss_mib()
    _passes.append(
        {
            "at": round(time.time() - _FROM[0]),
            "found": found,
            "tracked": len(every),
            "blocks": sys.getallocatedblocks(),
            "rss_mib": rss,
            "rss_after_trim_mib": _trimmed(),
            "pymalloc": _pymalloc(),
            "types": _types(every, 25),
        }
    )
    del every
    gc.freeze()
    _cycles.update(found=found, ms=round(1000 * took, 1), types=kinds)


def _rss_mib() -> float:
    """The process's resident memory (MiB), from /proc."""
    with open("/proc/self/statm") as f:
        return round(int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20, 1)


def _pymalloc() -> dict[str, int]:
    """What Python's small-object allocator holds (``sys._debugmallocstats``, which
    writes to the process's standard error: read from a file in its place)."""
    import re
    import tempfile

    with tempfile.TemporaryFile("w+") as f:
        saved = os.dup(2)
        try:
            sys.stderr.flush()
            os.dup2(f.fileno(), 2)
            sys._debugmallocstats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        f.seek(0)
        text = f.read()
    wanted = {
        "arenas allocated current": "arenas",
        "arenas highwater mark": "arenas_highwater",
        "bytes in allocated blocks": "allocated_bytes",
        "bytes in available blocks": "available_bytes",
        "unused pools": "unused_pools",
    }
    out: dict[str, int] = {}
    for line in text.splitlines():
        for label, key in wanted.items():
            if label in line:
                m = re.search(r"=\s*([\d,]+)\s*$", line)
                if m:
                    out[key] = int(m.group(1).replace(",", ""))
    return out


def _trimmed() -> float | None:
    """With MELDTOUR_PROBE_TRIM: the resident memory after the C library gives back
    what its heaps hold free (``malloc_trim``): memory freed but kept, not leaked."""
    if not os.environ.get("MELDTOUR_PROBE_TRIM"):
        return None
    import ctypes

    ctypes.CDLL("libc.so.6").malloc_trim(0)
    return _rss_mib()


def _q(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def _dump() -> None:
    if not _OUT:
        return
    out = {
        "lag_ms": {
            "n": len(_lag),
            "p50": 1000 * _q(_lag, 0.5),
            "p99": 1000 * _q(_lag, 0.99),
            "max": 1000 * max(_lag, default=0.0),
            "over_50": sum(x > 0.05 for x in _lag),
            "over_100": sum(x > 0.1 for x in _lag),
        }
    }
    out["stalls"] = [[round(at, 2), what, round(1000 * took, 1)] for at, what, took in _stalls]
    out["server_move_ms"] = {
        "n": len(_moves),
        "p50": 1000 * _q(_moves, 0.5),
        "p99": 1000 * _q(_moves, 0.99),
        "max": 1000 * max(_moves, default=0.0),
    }
    for key, xs in (("log_batch_ms", [d for d, _ in _batches]), ("log_wait_ms", _waits)):
        out[key] = {
            "n": len(xs),
            "p50": 1000 * _q(xs, 0.5),
            "p99": 1000 * _q(xs, 0.99),
            "max": 1000 * max(xs, default=0.0),
        }
    sizes = [n for _, n in _batches]
    out["log_batch_size"] = {"mean": sum(sizes) / max(1, len(sizes)), "max": max(sizes, default=0)}
    out["log_batch_kinds"] = _kinds
    xs = [d for d, _ in _passing]
    out["log_loop_batch_ms"] = {
        "n": len(xs),
        "p50": 1000 * _q(xs, 0.5),
        "p99": 1000 * _q(xs, 0.99),
        "max": 1000 * max(xs, default=0.0),
        "mean_size": sum(n for _, n in _passing) / max(1, len(_passing)),
    }
    for gen in (0, 1, 2):
        xs = [d for g, d in _gc if g == gen]
        out[f"gc{gen}_ms"] = {
            "n": len(xs),
            "total": 1000 * sum(xs),
            "p99": 1000 * _q(xs, 0.99),
            "max": 1000 * max(xs, default=0.0),
        }
    out["census"] = _census
    if _YOUNG_EVERY:
        out["young"] = {
            str(g): {
                "passes_counted": _young_passes[g][1],
                "types": {
                    k: {"objects": v[0], "references": v[1]}
                    for k, v in sorted(_young[g].items(), key=lambda kv: -kv[1][1])[:25]
                },
            }
            for g in (0, 1)
        }
    out["cycles"] = _cycles
    out["passes"] = _passes
    with open(_OUT, "w") as f:
        json.dump(out, f)


_moves: list[float] = []
_started: list[object] = []
#: The log's batches: (seconds on the writer thread, writes) and each write's wait
#: from its call to its commit (the loop's view).
_batches: list[tuple[float, int]] = []
_waits: list[float] = []
_passing: list[tuple[float, int]] = []
#: The writes of the writer thread's batches, by kind.
_kinds: dict[str, int] = {}


def _patch_log() -> None:
    """Time the log's batches on the writer thread, and each write's whole wait."""
    from meldtour.live import log as live_log
    from meldtour.store import games

    write = games.write

    def timed_write(store: object, ops: list[object]) -> None:
        t = time.perf_counter()
        write(store, ops)  # type: ignore[arg-type]
        if time.time() >= _FROM[0]:
            _batches.append((time.perf_counter() - t, len(ops)))
            for op in ops:
                _kinds[str(op[0])] = _kinds.get(str(op[0]), 0) + 1  # type: ignore[index]

    games.write = timed_write  # type: ignore[assignment]
    one = live_log.StoreLog._write

    async def timed_one(self: object, name: str, *args: object) -> None:
        t = time.perf_counter()
        await one(self, name, *args)  # type: ignore[arg-type]
        if name == "append" and time.time() >= _FROM[0]:
            _waits.append(time.perf_counter() - t)

    live_log.StoreLog._write = timed_one  # type: ignore[method-assign]
    from meldtour.store import passing_pg

    passing = passing_pg.AsyncPassing.write

    async def timed_passing(self: object, ops: list[object]) -> None:
        t = time.perf_counter()
        await passing(self, ops)  # type: ignore[arg-type]
        if time.time() >= _FROM[0]:
            _passing.append((time.perf_counter() - t, len(ops)))

    passing_pg.AsyncPassing.write = timed_passing  # type: ignore[method-assign]


def _patch_receive() -> None:
    """Time each move inside the server: from the socket's message to the owner's
    answer (the inbox, the engine, the committed write, the broadcast queued)."""
    from meldtour.live.game import LiveGame

    receive = LiveGame.receive

    async def timed(self: LiveGame, sub: object, message: dict[str, object]) -> None:
        if not _started:  # uvloop's loop is not asyncio's class: start here, not in run_forever
            _started.append(asyncio.get_running_loop().create_task(_monitor()))
        t = time.perf_counter()
        await receive(self, sub, message)  # type: ignore[arg-type]
        if message.get("type") == "move" and time.time() >= _FROM[0]:
            _moves.append(time.perf_counter() - t)

    LiveGame.receive = timed  # type: ignore[method-assign]


if _OUT:
    _patch_receive()
    _patch_log()
    gc.callbacks.append(_on_gc)
    atexit.register(_dump)
    _run_forever = asyncio.BaseEventLoop.run_forever

    def run_forever(self: asyncio.BaseEventLoop) -> None:
        self.call_soon(lambda: _started.append(self.create_task(_monitor())))
        _run_forever(self)

    asyncio.BaseEventLoop.run_forever = run_forever  # type: ignore[method-assign]
