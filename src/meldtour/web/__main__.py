"""``python -m meldtour.web``: the web app under uvicorn with the product's limits.

Run the app this way (``make run`` does): a client's WebSocket message over
``limits.WS_MAX_BYTES`` is refused by the server before it is read whole or inflated
(plain ``uvicorn meldtour.web.app:app`` allows 16 MiB a message), and forwarded
headers are believed only from the addresses in ``MELDTOUR_TRUSTED_PROXIES``.

WebSocket messages are not compressed (no per-message deflate). A game's frames are a
few hundred bytes of JSON each, a few tens of kilobytes a game; compressing them cost
the server a compressor per socket, whose freed memory the C library kept: at 400
games resident memory rose from 315 to 589 MiB over 10 minutes, and stays at 282–293
MiB from minute 4 without (BENCHMARKS.md, "Server"). And a compressed stream that
carries both a player's secret rack and text another player chose (a name) leaks, by
its length, whether they share letters — the kind of side channel (CRIME, BREACH) not
worth a few kilobytes.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence

import uvicorn

from .limits import WS_MAX_BYTES


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m meldtour.web",
                                     description="Serve the meldtour web app.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--log-level", default="info")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args(argv)
    proxies = os.environ.get("MELDTOUR_TRUSTED_PROXIES", "").strip()
    uvicorn.run("meldtour.web.app:create_app", factory=True, host=args.host, port=args.port,
                log_level=args.log_level, workers=args.workers,
                ws_max_size=WS_MAX_BYTES, ws_per_message_deflate=False,
                proxy_headers=bool(proxies), forwarded_allow_ips=proxies or None,
                h11_max_incomplete_event_size=64 * 1024)


if __name__ == "__main__":
    main()
