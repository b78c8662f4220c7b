"""Live games: one owner task per game holding the authoritative state, the server's
clock, the event log written before anything is broadcast, and recovery by replay.

Imports the core, the solver and the computer players; no web framework. The web
layer (``meldtour.web.routes.play``) turns sockets into :class:`Subscriber` queues.
"""

from __future__ import annotations

from .clock import Clock, ManualClock, SystemClock
from .game import LiveGame, Subscriber, TableError
from .handle import GameHandle
from .log import GameLog, MemoryLog
from .server import LiveServer
from .table import SeatConfig, TableConfig

__all__ = [
    "Clock",
    "GameHandle",
    "GameLog",
    "LiveGame",
    "LiveServer",
    "ManualClock",
    "MemoryLog",
    "SeatConfig",
    "Subscriber",
    "SystemClock",
    "TableConfig",
    "TableError",
]
