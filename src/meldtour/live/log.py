"""The game log: what a live game writes before it tells anyone (append-only).

A narrow protocol so that the store can back it with the database; :class:`MemoryLog`
keeps it in memory for now. A logged game is a game record (``core.record``: rules,
players, seed, deal, moves with their server times ``at``) plus the header's
``started_at`` and ``table``, and the current turn's latest draft.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol


class LogError(RuntimeError):
    """The log refused a write (an out-of-order append, an unknown game)."""


@dataclass
class LoggedGame:
    #: ``{"rules", "players", "seed", "deal"?, "started_at", "table"}``
    header: dict[str, Any]
    #: Moves in order: ``core.record.move_to_json(move)`` plus ``"at"`` (server seconds).
    moves: list[dict[str, Any]] = field(default_factory=list)
    #: The latest draft: ``{"version", "seat", "board", "at"}``; only the one whose
    #: version equals ``len(moves)`` still counts.
    draft: dict[str, Any] | None = None
    #: Set when the game is over: ``{"end", "winner", "scores"}``.
    result: dict[str, Any] | None = None


class GameLog(Protocol):
    async def start(self, game_id: str, header: Mapping[str, Any]) -> None:
        """Create the game's log; the header is written once."""

    async def append(self, game_id: str, index: int, move: Mapping[str, Any]) -> None:
        """Append move number ``index`` (0-based); anything but the next index is refused."""

    async def put_draft(self, game_id: str, draft: Mapping[str, Any] | None) -> None:
        """Replace the game's latest draft (not a move: it is overwritten, not appended)."""

    async def finish(self, game_id: str, result: Mapping[str, Any]) -> None:
        """Mark the game over."""

    async def load(self, game_id: str) -> LoggedGame | None:
        """Everything written for the game, or None."""

    async def unfinished(self) -> list[str]:
        """The games that were started and are not over (to recover at start-up)."""


class MemoryLog:
    """The log in memory (a process's lifetime); copies in and out, like a database."""

    def __init__(self) -> None:
        self._games: dict[str, LoggedGame] = {}

    async def start(self, game_id: str, header: Mapping[str, Any]) -> None:
        if game_id in self._games:
            raise LogError(f"game {game_id} is already in the log")
        self._games[game_id] = LoggedGame(copy.deepcopy(dict(header)))

    def _game(self, game_id: str) -> LoggedGame:
        try:
            return self._games[game_id]
        except KeyError:
            raise LogError(f"game {game_id} is not in the log") from None

    async def append(self, game_id: str, index: int, move: Mapping[str, Any]) -> None:
        game = self._game(game_id)
        if index != len(game.moves):
            raise LogError(f"game {game_id}: move {index} appended after {len(game.moves)} moves")
        game.moves.append(copy.deepcopy(dict(move)))

    async def put_draft(self, game_id: str, draft: Mapping[str, Any] | None) -> None:
        self._game(game_id).draft = None if draft is None else copy.deepcopy(dict(draft))

    async def finish(self, game_id: str, result: Mapping[str, Any]) -> None:
        self._game(game_id).result = copy.deepcopy(dict(result))

    async def load(self, game_id: str) -> LoggedGame | None:
        game = self._games.get(game_id)
        return None if game is None else copy.deepcopy(game)

    async def unfinished(self) -> list[str]:
        return [gid for gid, g in self._games.items() if g.result is None]
