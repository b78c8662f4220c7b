"""Loaded by the server process of ``bench/server.py --cprofile FILE`` (on its
PYTHONPATH): profiles every thread of the server with :mod:`cProfile` (the event
loop's and the game log's writer threads alike), and on ``SIGUSR1`` (the bench sends
it at the end of its window, before ``SIGTERM``; ``SIGUSR2`` at the window's start
clears what was counted before) writes the merged statistics to FILE
(``pstats`` format: ``python -m pstats FILE``), and each thread's CPU seconds to
FILE.threads.json. Times are each thread's CPU time (``time.thread_time``), not the
wall clock, so that a busy machine does not count as our time. cProfile slows the
server (every call is counted): read where the time goes, not how much there is."""

from __future__ import annotations

import cProfile
import json
import os
import pstats
import signal
import threading
import time

_OUT = os.environ.get("MELDTOUR_CPROFILE")
_profiles: list[tuple[str, cProfile.Profile]] = []
_lock = threading.Lock()


def _thread_cpu() -> dict[str, float]:
    out: dict[str, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for tid in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{tid}/stat") as f:
                stat = f.read()
            with open(f"/proc/self/task/{tid}/comm") as f:
                name = f.read().strip()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        key = f"{name}:{tid}"
        out[key] = [int(fields[11]) / tick, int(fields[12]) / tick]  # user, system
    return out


def _dump(signum: int, frame: object) -> None:
    with _lock:
        stats = None
        for _name, prof in _profiles:
            prof.create_stats()
            if not getattr(prof, "stats", None):
                continue  # a thread that ran nothing since the window started
            if stats is None:
                stats = pstats.Stats(prof)
            else:
                stats.add(prof)
        if stats is not None and _OUT:
            stats.dump_stats(_OUT)
        if _OUT:
            with open(_OUT + ".threads.json", "w") as f:
                json.dump({"at": time.time(), "cpu": _thread_cpu()}, f)


def _clear(signum: int, frame: object) -> None:
    """The measured window starts: what was counted so far (start-up, the ramp) goes."""
    with _lock:
        for _name, prof in _profiles:
            prof.clear()
        if _OUT:
            with open(_OUT + ".threads0.json", "w") as f:
                json.dump({"at": time.time(), "cpu": _thread_cpu()}, f)


if _OUT:
    _main = cProfile.Profile(time.thread_time)
    _profiles.append(("main", _main))
    _main.enable()
    _run = threading.Thread.run

    def _profiled_run(self: threading.Thread) -> None:
        prof = cProfile.Profile(time.thread_time)
        with _lock:
            _profiles.append((self.name, prof))
        prof.enable()
        try:
            _run(self)
        finally:
            prof.disable()

    threading.Thread.run = _profiled_run  # type: ignore[method-assign]
    signal.signal(signal.SIGUSR1, _dump)
    signal.signal(signal.SIGUSR2, _clear)
