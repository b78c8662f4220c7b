"""An uploaded players' list read off the event loop, and a workbook out of the server's
process.

A route that reads a list is a ``def`` route (FastAPI runs it in a worker thread), so
the event loop — every live standings stream and game socket of the process — goes on
meanwhile. Text (CSV, a pasted list) is read in that thread: it is bounded and linear.
(A text file over :data:`IN_THREAD` is read in a child like a workbook.)
A workbook is bounded first (:func:`meldtour.application.workbook.bounded_workbook`:
each part's inflated size, read from the archive's directory and counted again while
inflating) and then parsed by openpyxl (through defusedxml) in a child process with a
time limit (:data:`PARSE_SECONDS`) and a memory limit (:data:`PARSE_MEMORY`): pure
Python parsing in a thread would still hold the interpreter's lock against the loop,
and one that runs away is killed, not waited for. At most :data:`PARALLEL` workbooks
are read at once.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import resource
import threading
from multiprocessing.connection import Connection
from multiprocessing.context import BaseContext
from typing import Any

from meldtour.application.errors import UseCaseError
from meldtour.application.roster import Kind, RosterRow, read_roster
from meldtour.application.workbook import MAX_TOTAL, bounded_workbook
from meldtour.core.refusal import Refused

#: How long reading one workbook may take (a list of 5,000 players takes about a second).
PARSE_SECONDS = 20.0
#: The address space of the process that reads a workbook.
PARSE_MEMORY = 1024 * 1024 * 1024
#: A text list under this is read in the thread (a day's list: a few KB); a bigger one
#: in a child too, whose pure Python checks then never hold the lock against the loop.
IN_THREAD = 64 * 1024
#: Workbooks read at once (the others wait, then are refused: ``players.xlsx_busy``).
PARALLEL = 2

_slots = threading.BoundedSemaphore(PARALLEL)
_lock = threading.Lock()
_context: BaseContext | None = None


def _workers() -> BaseContext:
    """A fork server that has imported the reader once: each workbook is read by a
    fresh fork of it (a few milliseconds), never by a fork of the server itself (whose
    threads and connections a fork would copy)."""
    global _context
    with _lock:
        if _context is None:
            ctx = multiprocessing.get_context("forkserver")
            ctx.set_forkserver_preload(["meldtour.application.roster", "openpyxl"])
            _context = ctx
        return _context


def _read(conn: Connection, raw: bytes, kind: Kind, limit: int, max_rows: int, memory: int) -> None:
    """In the child: read the list and send back its rows or the refusal (a value)."""
    with contextlib.suppress(ValueError, OSError):  # a platform without the limit
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    try:
        conn.send(("rows", read_roster(raw, kind, limit=limit, max_rows=max_rows)))
    except Refused as exc:
        conn.send(("refused", exc.code, dict(exc.params)))
    except MemoryError:
        conn.send(
            (
                "refused",
                "players.xlsx_too_big",
                {"size": "over the memory limit", "limit": f"{memory:,}"},
            )
        )
    finally:
        conn.close()


def read_list(
    raw: bytes | str,
    kind: Kind = "text",
    *,
    limit: int,
    max_rows: int,
    seconds: float = PARSE_SECONDS,
) -> list[RosterRow]:
    """:func:`meldtour.application.read_roster`, a workbook in a child process. Call it
    from a worker thread (a ``def`` route): it waits for the child."""
    if isinstance(raw, str) or len(raw) > limit or (kind != "xlsx" and len(raw) < IN_THREAD):
        return read_roster(raw, kind, limit=limit, max_rows=max_rows)
    if kind == "xlsx":
        # The bounds here, in this thread (zlib inflates without the interpreter's lock):
        # a bomb is refused at once; the child gets the parts stored, nothing to inflate.
        raw = bounded_workbook(raw)
    if not _slots.acquire(timeout=seconds):
        raise UseCaseError("players.xlsx_busy")
    try:
        ctx = _workers()
        mine, theirs = ctx.Pipe(duplex=False)
        proc: Any = ctx.Process(  # type: ignore[attr-defined]
            target=_read,
            daemon=True,
            args=(theirs, raw, kind, max(limit, MAX_TOTAL + 2**20), max_rows, PARSE_MEMORY),
        )
        proc.start()
        theirs.close()
        try:
            if not mine.poll(seconds):
                raise UseCaseError("players.xlsx_slow", seconds=int(seconds))
            try:
                answer = mine.recv()
            except (EOFError, OSError):  # the child died (its memory limit, a crash)
                raise UseCaseError("players.not_xlsx") from None
        finally:
            if proc.is_alive():
                proc.kill()
            proc.join(5)
            mine.close()
    finally:
        _slots.release()
    if answer[0] == "refused":
        raise UseCaseError(answer[1], **answer[2])
    rows: list[RosterRow] = answer[1]
    return rows


__all__ = ["PARALLEL", "PARSE_MEMORY", "PARSE_SECONDS", "read_list"]
