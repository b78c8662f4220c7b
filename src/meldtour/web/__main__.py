"""``python -m meldtour.web``: the web app under uvicorn with the product's limits.

It listens on every interface (``--host 0.0.0.0``) at port 8000, so that the phones
on the venue's network reach the laptop (``http://127.0.0.1:8000`` still answers on
the laptop itself); ``--host 127.0.0.1`` keeps it to this computer. Until a director
has signed in on this computer, the director's pages — the first-start account page
among them — answer only this computer (:mod:`meldtour.web.director.gate`). The
start prints the addresses the phones open.

Run the app this way (``make run`` does): a connection that brings no complete request
header within ``limits.HEADER_SECONDS`` is closed (``limits.TimelyH11``; plain uvicorn
keeps it open for ever), a client's WebSocket message over
``limits.WS_MAX_BYTES`` is refused by the server before it is read whole or inflated
(plain ``uvicorn meldtour.web.app:app`` allows 16 MiB a message), and forwarded
headers are believed only from the addresses in ``MELDTOUR_TRUSTED_PROXIES``.

WebSockets are served by the websockets library's Sans-I/O protocol
(``limits.WS_PROTOCOL``: less CPU a move than the legacy protocol). WebSocket messages
are not compressed (no per-message deflate). A game's frames are a
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
import ipaddress
import os
import sys
from collections.abc import Sequence

import uvicorn

from .limits import WS_MAX_BYTES, WS_PROTOCOL

#: Every IPv4 interface: the laptop itself and the venue's network.
ALL_INTERFACES = "0.0.0.0"


def _where(host: str, port: int) -> list[str]:
    """The addresses to open the app at, for the start's message."""
    lines = [f"http://127.0.0.1:{port}  (this computer)"]
    try:
        everywhere = ipaddress.ip_address(host).is_unspecified
    except ValueError:
        everywhere = False
    if everywhere:
        from .address import network_addresses

        lines += [
            f"{a.url('http', port)}  (phones on the network of {a.interface or '?'})"
            for a in network_addresses()
            if a.version == 4
        ]
    else:
        lines[0] = f"http://{host}:{port}"
    return lines


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m meldtour.web", description="Serve the meldtour web app."
    )
    parser.add_argument(
        "--host",
        default=ALL_INTERFACES,
        help="the address to listen on (default: every interface, so that "
        "phones reach it; 127.0.0.1: this computer only)",
    )
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--log-level", default="info")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args(argv)
    proxies = os.environ.get("MELDTOUR_TRUSTED_PROXIES", "").strip()
    print(
        "meldtour: open " + "\n          ".join(_where(args.host, args.port)),
        file=sys.stderr,
        flush=True,
    )
    uvicorn.run(
        "meldtour.web.app:create_app",
        factory=True,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        workers=args.workers,
        ws=WS_PROTOCOL,
        ws_max_size=WS_MAX_BYTES,
        ws_per_message_deflate=False,
        proxy_headers=bool(proxies),
        forwarded_allow_ips=proxies or None,
        h11_max_incomplete_event_size=64 * 1024,
        http="meldtour.web.limits:TimelyH11",
    )


if __name__ == "__main__":
    main()
