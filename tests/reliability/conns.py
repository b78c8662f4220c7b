"""Raw connections to a server, for the tests and the benchmark of connections that
never finish a request and of live-standings streams held by one client address
(issue 26, finding 7). Loopback only: ``source`` is another address of 127.0.0.0/8."""

from __future__ import annotations

import select
import socket
import threading
import time

import httpx2 as httpx


def connect(port: int, source: str = "127.0.0.2", host: str = "127.0.0.1") -> socket.socket:
    s = socket.socket()
    s.bind((source, 0))
    s.settimeout(10)
    s.connect((host, port))
    return s


def idle_and_partial(port: int, n: int, source: str = "127.0.0.2") -> list[socket.socket]:
    """``n`` connections that send nothing and ``n`` that send half a request header."""
    out = []
    for i in range(2 * n):
        s = connect(port, source)
        if i % 2:
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        out.append(s)
    return out


def open_after(socks: list[socket.socket], seconds: float) -> tuple[int, list[float]]:
    """Wait ``seconds``; how many of ``socks`` the server has not closed by then, and
    when (seconds from now) each closed one was seen closed."""
    started = time.monotonic()
    closed_at: dict[int, float] = {}
    live = {s.fileno(): s for s in socks}
    while live and time.monotonic() - started < seconds:
        ready, _, _ = select.select(list(live.values()), [], [], 0.2)
        for s in ready:
            try:
                data = s.recv(4096)
            except OSError:
                data = b""
            if not data:
                closed_at[s.fileno()] = time.monotonic() - started
                del live[s.fileno()]
    return len(live), sorted(closed_at.values())


def stream(port: int, slug: str, source: str) -> tuple[socket.socket, int]:
    """A live-standings stream from ``source``: the socket and the answer's status."""
    s = connect(port, source)
    s.sendall(
        f"GET /t/{slug}/standings/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        "Accept: text/event-stream\r\n\r\n".encode()
    )
    head = b""
    while b"\r\n" not in head:
        chunk = s.recv(1024)
        if not chunk:
            return s, 0
        head += chunk
    return s, int(head.split(b" ", 2)[1])


class HealthProbe:
    """``/healthz`` asked every 20 ms in a thread; the latencies in seconds."""

    def __init__(self, base: str) -> None:
        self.base, self.times = base, []  # type: ignore[var-annotated]
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        with httpx.Client(timeout=30) as c:
            while not self._stop.is_set():
                t = time.perf_counter()
                c.get(f"{self.base}/healthz")
                self.times.append(time.perf_counter() - t)
                time.sleep(0.02)

    def __enter__(self) -> HealthProbe:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(30)
