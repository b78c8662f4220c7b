"""A live game handle: what pages and sockets use of a game, wherever it runs.

Two kinds of game implement it: this process's own :class:`~.game.LiveGame`, and a
:class:`~.server.RemoteGame`, a game another process owns and does the requests of
(several processes sharing the games). :meth:`~.server.LiveServer.find` gives either.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from .game import Subscriber
from .table import TableConfig


@runtime_checkable
class GameHandle(Protocol):
    """A live game as its table page and its sockets see it."""

    @property
    def id(self) -> str: ...

    @property
    def config(self) -> TableConfig: ...

    @property
    def started(self) -> bool: ...

    @property
    def over(self) -> bool: ...

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token was given for, or None (a spectator)."""

    def table_json(self) -> dict[str, Any]:
        """The table as the pages show it: set-up, seats taken, started, over."""

    async def join(self, seat: int, name: str) -> str:
        """Take a free person seat; returns the seat's secret token."""

    async def open(self) -> None:
        """Start the game if nobody else needs to sit down."""

    async def subscribe(self, seat: int | None) -> Subscriber:
        """A socket on the game for ``seat`` (None: a spectator); it gets a snapshot."""

    def unsubscribe(self, sub: Subscriber) -> None:
        """The socket is gone."""

    async def receive(self, sub: Subscriber, message: dict[str, Any]) -> None:
        """A message from a client (``hello``, ``move`` or ``draft``)."""


__all__ = ["GameHandle"]
