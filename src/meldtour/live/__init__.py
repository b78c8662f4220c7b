"""Live games: one owner task per game holding the authoritative state, the server's
clock, the event log written before anything is broadcast, and recovery by replay.

Imports the core, the solver and the computer players; no web framework. The web
layer (``meldtour.web.play``) turns sockets into :class:`Subscriber` queues.
"""

from __future__ import annotations

from .clock import Clock, ManualClock, SystemClock
from .game import LiveGame, Subscriber, TableError
from .log import GameLog, LoggedGame, MemoryLog
from .server import LiveServer
from .table import SeatConfig, TableConfig

__all__ = [
    "Clock", "GameLog", "LiveGame", "LiveServer", "LoggedGame", "ManualClock", "MemoryLog",
    "SeatConfig", "Subscriber", "SystemClock", "TableConfig", "TableError",
]
