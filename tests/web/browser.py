"""What the browser tests share: Debian's Chromium, the app under uvicorn on a free
port, and a drag made of pointer events (press, move in steps, release)."""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import uvicorn

from meldtour.web.limits import WS_PROTOCOL

CHROMIUM = Path(os.environ.get("MELDTOUR_CHROMIUM", "/usr/bin/chromium"))
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@contextmanager
def serve(app: Any, host: str = "127.0.0.1", **config: Any) -> Iterator[str]:
    """The app under uvicorn in a thread, on a free port of ``host`` (``0.0.0.0``: every
    interface, as a venue laptop serves the phones); its base URL on 127.0.0.1.
    ``config``: uvicorn's other settings (the product's WebSocket protocol unless told)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    settings: dict[str, Any] = {"log_level": "warning", "ws": WS_PROTOCOL, **config}
    server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, **settings))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


class Network:
    """A venue's network between the phones and the laptop: a TCP relay on loopback to
    ``port``, that can be cut (every open connection is closed, and each new one at once)
    and restored. Chromium's offline emulation does not cover every request a page under a
    service worker makes (playwright#2311), so a test of the network cut cuts this too."""

    def __init__(self, port: int, host: str = "127.0.0.1") -> None:
        self._target = (host, port)
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self._listener.getsockname()[1]}"
        self._lock = threading.Lock()
        self._open: set[socket.socket] = set()
        self._cut = False
        self._closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def cut(self) -> None:
        with self._lock:
            self._cut = True
            doomed, self._open = self._open, set()
        for s in doomed:
            _drop(s)

    def restore(self) -> None:
        with self._lock:
            self._cut = False

    def close(self) -> None:
        self._closed = True
        self.cut()
        _drop(self._listener)

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            with self._lock:
                if self._cut:
                    _drop(client)
                    continue
            try:
                upstream = socket.create_connection(self._target, timeout=10)
            except OSError:
                _drop(client)
                continue
            upstream.settimeout(None)
            with self._lock:
                if self._cut:
                    _drop(client)
                    _drop(upstream)
                    continue
                self._open |= {client, upstream}
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        with self._lock:
            self._open.discard(source)
            self._open.discard(sink)
        _drop(source)
        _drop(sink)


def _drop(s: socket.socket) -> None:
    with suppress(OSError):
        s.shutdown(socket.SHUT_RDWR)
    s.close()


@contextmanager
def network(base: str) -> Iterator[Network]:
    """A :class:`Network` in front of the server at ``base`` (``http://127.0.0.1:PORT``)."""
    net = Network(int(base.rsplit(":", 1)[1]))
    try:
        yield net
    finally:
        net.close()


def drag(page: Any, source: Any, target: Any, *, at: str = "middle") -> None:
    """Press on ``source``, move in steps (pointer events), release over ``target`` —
    at its ``"start"``, ``"middle"`` or ``"end"``."""
    a = source.bounding_box()
    b = target.bounding_box()
    assert a and b, "drag from or to an element that is not shown"
    mouse = page.mouse
    mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    mouse.down()
    x = {"start": b["x"] + 2, "middle": b["x"] + b["width"] / 2, "end": b["x"] + b["width"] - 3}[at]
    mouse.move(x, b["y"] + b["height"] / 2, steps=5)
    mouse.up()


def touch_drag(page: Any, source: Any, target: Any, *, at: str = "middle") -> None:
    """The same drag with a finger: touch events through the DevTools protocol, which
    Chromium turns into pointer events of type "touch" (the page needs ``has_touch``)."""
    a = source.bounding_box()
    b = target.bounding_box()
    assert a and b, "drag from or to an element that is not shown"
    cdp = page.context.new_cdp_session(page)
    x0, y0 = a["x"] + a["width"] / 2, a["y"] + a["height"] / 2
    x1 = {"start": b["x"] + 2, "middle": b["x"] + b["width"] / 2, "end": b["x"] + b["width"] - 3}[
        at
    ]
    y1 = b["y"] + b["height"] / 2
    cdp.send(
        "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]}
    )
    for i in range(1, 7):
        cdp.send(
            "Input.dispatchTouchEvent",
            {
                "type": "touchMove",
                "touchPoints": [{"x": x0 + (x1 - x0) * i / 6, "y": y0 + (y1 - y0) * i / 6}],
            },
        )
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()
    # Chromium's mobile emulation may take a tap soon after a touch's end as part of a
    # double tap and click nothing (seen 0.1 s after this drag, and once 0.4 s after).
    page.wait_for_timeout(400)


@contextmanager
def live_site() -> Iterator[tuple[str, Any]]:
    """The web app in a test configuration with a live server of its own, served; yields
    (its address, the live server) for tests that open tables directly."""
    from meldtour.live import LiveServer
    from meldtour.web.app import create_app
    from meldtour.web.config import Settings

    app = create_app(Settings(env="test"))
    live = LiveServer()
    app.state.live = live
    with serve(app) as base:
        yield base, live
