"""One client holding the server's connections (issue 26, finding 7), on the real
server (``python -m meldtour.web``, one process, a temporary SQLite database) of a
source tree, from another loopback address (127.0.0.2 …): traffic only to 127.0.0.1.

    .venv/bin/python bench/connections.py [--src src] [--n 500] [--streams 400]

- ``--n`` connections that send nothing and ``--n`` that send half a request header:
  how many are still open 15 s and 30 s later (with ``/healthz`` asked every 20 ms).
- ``--streams`` live-standings streams opened one after another from one address: how
  many were accepted, and ``/healthz``'s median and worst answer meanwhile.

``--src /work/main/src`` measures another tree (the code before a change). Prints one
Markdown table row per measure.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.reliability.conns import HealthProbe, idle_and_partial, open_after, stream  # noqa: E402
from tests.reliability.servers import Server  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--src", default=str(ROOT / "src"))
    parser.add_argument("--n", type=int, default=500)
    parser.add_argument("--streams", type=int, default=400)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        where = Path(tmp)
        url = f"sqlite:///{where / 'm.db'}"
        server = Server(url, where, env={"PYTHONPATH": args.src}, host="127.0.0.1")
        with server:
            sys.path.insert(0, args.src)
            from meldtour import application as usecases
            from meldtour.store.config import database_url
            from meldtour.web.database import open_web_store

            usecases.create_tournament(
                open_web_store(database_url(url)), "club-night", who="d", slug="club", name="Club"
            )
            socks = idle_and_partial(server.port, args.n)
            with HealthProbe(server.base) as probe:
                left30, closed = open_after(socks, 30)
            left15 = len(socks) - sum(1 for t in closed if t <= 15)
            for s in socks:
                s.close()
            print(
                f"| {args.src} | {args.n} idle + {args.n} half-header connections | "
                f"open after 15 s: {left15}, after 30 s: {left30}; closed at "
                f"{min(closed, default=0):.1f}–{max(closed, default=0):.1f} s; /healthz "
                f"median {statistics.median(probe.times) * 1000:.1f} ms, max "
                f"{max(probe.times) * 1000:.1f} ms |"
            )
            time.sleep(1)
            held = []
            with HealthProbe(server.base) as probe:
                for _ in range(args.streams):
                    held.append(stream(server.port, "club", "127.0.0.4"))
                time.sleep(1)
            accepted = sum(1 for _, status in held if status == 200)
            for s, _ in held:
                s.close()
            print(
                f"| {args.src} | {args.streams} standings streams from one address | "
                f"accepted {accepted}; /healthz median "
                f"{statistics.median(probe.times) * 1000:.1f} ms, max "
                f"{max(probe.times) * 1000:.1f} ms |"
            )


if __name__ == "__main__":
    main()
