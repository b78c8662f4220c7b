"""The real app for the reliability tests: ``python -m meldtour.web`` (uvicorn with the
product's limits) in a subprocess on a free port of 127.0.0.1, on the database it is
given; it can be killed with SIGKILL and started again on the same database."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx2 as httpx

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """One uvicorn process; ``start()`` waits until ``/healthz`` answers."""

    def __init__(
        self,
        url: str,
        where: Path,
        env: dict[str, str] | None = None,
        port: int | None = None,
        host: str | None = "127.0.0.1",
    ) -> None:
        """``host`` None: the server's own default (every interface)."""
        self.url = url
        self.host = host
        self.where = where
        self.extra = env or {}
        self.port = port or free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.logfile = where / f"uvicorn-{self.port}.log"

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30) -> Server:
        env = {
            **os.environ,
            "MELDTOUR_DATABASE_URL": self.url,
            "MELDTOUR_ENV": "test",
            "PYTHONPATH": str(ROOT / "src"),
            **self.extra,
        }
        with self.logfile.open("ab") as out:
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "meldtour.web",
                    *(("--host", self.host) if self.host else ()),
                    "--port",
                    str(self.port),
                    "--log-level",
                    "warning",
                ],
                cwd=self.where,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + timeout
        while True:
            assert self.proc.poll() is None, f"uvicorn exited: {self.output()}"
            try:
                if httpx.get(f"{self.base}/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)

    def output(self) -> str:
        return self.logfile.read_text(errors="replace") if self.logfile.exists() else ""

    def kill(self) -> None:
        """SIGKILL: no shutdown handler runs, nothing is flushed."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def tracebacks(text: str) -> list[str]:
    """The lines of a server log that show an unhandled exception."""
    return [
        line
        for line in text.splitlines()
        if "Traceback" in line or "Exception in ASGI application" in line
    ]
