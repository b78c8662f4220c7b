"""One live game: an owner task holding the authoritative state (lichess's round actor,
boardgame.io's master).

Everything that changes the game goes through the owner's inbox and is handled one
at a time: people's submissions, the deadline, the computer players' moves. A move
is checked by the engine, appended to the :class:`~meldtour.live.log.GameLog`, and
only then broadcast.

The protocol, as dicts (the web layer sends them as JSON):

* client → server: ``{"type": "hello", "version": v | None}``;
  ``{"type": "move", "id": req, "version": v, "action": "play"|"draw"|"pass"|"redeal",
  "board": [[...], ...]}``; ``{"type": "draft", "id": req, "version": v, "board": ...}``;
  ``{"type": "chat", "phrase": key}`` (one of :data:`PHRASES`).
* server → client: ``snapshot`` (the table and the recipient's view, the last moves as
  ``recent`` with the boards before and after each, the chat kept), ``frame`` (one
  accepted move: ``version``, the events as the recipient may see them and the
  recipient's view after it), ``ack`` / ``refused`` (with the engine's reason) /
  ``stale`` (the submission named an old version: ignored) for a request id — a move
  sent with ``"ack": "frame"`` (the page's) is acknowledged in the mover's own frame
  instead (``"ack": req`` in it: one message fewer a move; a repeat of it, or a move a
  socket not at the table sent, gets the ``ack`` message),
  ``draft_ok`` (a draft held, with its ``check``: each meld's refusal or None, the new
  melds' value, whether it touches the board), ``draft`` (someone's draft, when the
  table lets others watch), ``chat`` (a phrase said at the table), ``synced``.
* hints (casual tables only): client ``{"type": "hint", "id": req, "version": v}``;
  server ``{"type": "hint", "id": req, "version": v, "board": [...] | None,
  "tiles": [...], "action": "play"|"draw"|"pass"}`` to that seat alone (the solver's
  best play, a draft the player may take or leave: nothing changes on the server), or
  ``refused`` with a ``live.hint.*`` code (:data:`HINT_CODES`).

The version is the number of moves applied (``len(state.history)``): it names the
state a submission was made against, so a move or draft made against an old state is
ignored, and a reconnecting client gets the frames after its version (or a snapshot).
Drafts are not versioned: they are the current turn's table, kept by the owner, logged
(overwritten) and judged by the time-out (docs/rules.md, "The clock and failed turns").
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import hashlib
import logging
import secrets
import time
import types
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Coroutine, Generator
from typing import Any

from limits import RateLimitItemPerMinute, RateLimitItemPerSecond
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from meldtour.core.game import Event, IllegalMove, apply, new_game
from meldtour.core.melds import format_board, parse_board
from meldtour.core.moves import Draft, Draw, Move, Pass, Play, Redeal, Timeout, draft_report
from meldtour.core.record import move_to_json, read_record
from meldtour.core.refusal import Refusal, Refused, english, register
from meldtour.core.search import PlayFinder
from meldtour.core.state import GameState, replace_state
from meldtour.core.tiles import NotationError, format_tiles
from meldtour.core.views import event_for, own_view_json, player_view, public_view_json
from meldtour.core.visible import first_invisible
from meldtour.players import Player
from meldtour.players.base import no_play
from meldtour.players.levels import make_player
from meldtour.solver import solve
from meldtour.store import jsontext

from .clock import Alarm, Clock
from .log import GameLog
from .table import TableConfig

log = logging.getLogger(__name__)

#: Frames kept for reconnecting clients; older clients get a snapshot. Each frame holds
#: the game state after it (with the whole history): 512 of them per game made the
#: garbage collector's full passes over 400 games take 2 s (`bench/server.py --probe`).
FRAMES_KEPT = 32
#: Request ids remembered per game, so that a resent submission is answered again.
IDS_KEPT = 2048
#: Messages waiting for one socket before it is dropped (the client reconnects).
QUEUE_SIZE = 512
NAME_LENGTH = 24
#: The table's chat: fixed phrases by key (the pages hold their words), no free text to
#: moderate. One seat may say one every 2 seconds and at most 12 a minute; the table
#: keeps the last :data:`CHAT_KEPT` for a page that (re)connects.
PHRASES = ("hello", "good_luck", "nice", "thinking", "sorry", "thanks", "good_game", "again")
CHAT_KEPT = 20
CHAT_LIMITS = (RateLimitItemPerSecond(1, 2), RateLimitItemPerMinute(12))


@functools.cache
def chat_limiter() -> MovingWindowRateLimiter:
    """The process's one limiter of chat (keys name the game and the seat), made on
    first use. One per game was a garbage cycle each (the storage and its expiry
    timer's bound method), which the server's frozen generation kept after the game:
    memory rising with every game played (BENCHMARKS.md, "Server")."""
    return MovingWindowRateLimiter(MemoryStorage())


#: Hints one seat may ask for in one turn (each turn's hint is worked out once: asking
#: again that turn repeats it, and counts). Counted per turn, not per minute: against
#: fast computer players a minute holds many turns.
HINTS_PER_TURN = 3


#: The table's refusals of a request to sit down.
TABLE_CODES = ("table.name", "table.seat", "table.taken", "table.invisible")
register(
    {
        "table.name": "Please give a name.",
        "table.seat": "That is not a free seat at this table.",
        "table.taken": "Someone has just taken that seat.",
        "table.invisible": "A name cannot hold invisible characters (such as a right-to-left "
        "mark): type it again without them.",
        "live.spectator": "spectators cannot move",
        "live.not_started": "the game has not started",
        "live.unknown_action": "unknown action %(action)r: one of play, draw, pass, redeal",
        "live.chat_phrase": "there is no phrase %(phrase)r",
        "live.chat_too_fast": "one message at a time: wait a moment before the next",
    }
)

#: Why a hint is refused.
HINT_CODES = (
    "live.hint.tournament",
    "live.hint.off",
    "live.hint.not_your_turn",
    "live.hint.too_many",
)
register(
    {
        "live.hint.tournament": "No hints at a tournament's table.",
        "live.hint.off": "The host of this table has turned hints off.",
        "live.hint.not_your_turn": "A hint is for your own turn.",
        "live.hint.too_many": "At most %(n)s hints a turn: your next turn gives you more.",
    }
)


class TableError(Refused):
    """A request the table cannot grant: a seat taken (``table.taken``), a name missing
    (``table.name``), no such seat (``table.seat``); ``key`` is the code's last part."""

    @property
    def key(self) -> str:
        return self.code.rpartition(".")[2]


def refused(rid: str | None, refusal: Refusal, **more: Any) -> dict[str, Any]:
    """The answer to a refused request: the reason in English, its code and arguments."""
    return {"type": "refused", "id": rid, "reason": english(refusal), **refusal.to_json(), **more}


#: A message's JSON text as the sockets send it (one encoder for all: the sockets, the
#: processes' channels, the log's batches — :func:`meldtour.store.jsontext.dumps`).
ENCODE = jsontext.dumps


class Shared(dict[str, Any]):
    """A message that several sockets may be sent alike (one move's frame for a seat:
    every spectator gets the same one). The first socket to send it keeps its JSON in
    ``text`` (unset until then), and the others send that text: made once."""

    __slots__ = ("text",)
    text: str


def text_of(message: dict[str, Any]) -> str:
    """The message's JSON text; a :class:`Shared` one (a frame every spectator is sent
    alike) is encoded once, by the live game as it makes it (a move's frames) or by the
    first socket to send it — here or on another process's channel."""
    if type(message) is not Shared:
        return ENCODE(message)
    text: str | None = getattr(message, "text", None)
    if text is None:
        text = message.text = ENCODE(message)
    return text


class Subscriber:
    """One connection's outbox. The owner never waits for a socket: a client that falls
    too far behind is told to reconnect (and then resyncs by version).

    A reader either takes the messages from ``queue`` or has them pushed to it
    (:meth:`deliver_to`: a socket), in order, while some are waiting — so that nothing
    waits on the socket's behalf between two messages (a task waiting on a queue for
    each of 1,600 sockets holds its wait's objects for the collector to scan;
    BENCHMARKS.md, "Server"). The delivery starts at once, in the sender's own call,
    and a task carries it on only if it has to wait (a socket whose buffer is full): a
    socket that takes a move's frame at once costs no task (:func:`_carry_on`)."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.closed = False
        self._deliver: Callable[[dict[str, Any]], Awaitable[bool]] | None = None
        self._pending: deque[dict[str, Any]] = deque()
        self._drain: asyncio.Task[None] | None = None
        self._starting = False  # a delivery is under way in a sender's own call

    def send(self, message: dict[str, Any]) -> None:
        if self.closed:
            return
        if len(self._pending) + self.queue.qsize() >= QUEUE_SIZE:  # too far behind
            self._pending.clear()
            while not self.queue.empty():
                self.queue.get_nowait()
            message, self.closed = {"type": "closing", "reason": "behind"}, True
        if self._deliver is None:
            self.queue.put_nowait(message)
            return
        self._pending.append(message)
        self._wake()

    def deliver_to(self, deliver: Callable[[dict[str, Any]], Awaitable[bool]]) -> None:
        """Push every message from now on (and those already queued) to ``deliver``,
        one at a time, in order; ``deliver`` answers False when its reader is gone (the
        rest are then dropped). Called in the event loop."""
        self._deliver = deliver
        while not self.queue.empty():
            self._pending.append(self.queue.get_nowait())
        self._wake()

    def _wake(self) -> None:
        """Deliver what waits, if no delivery is under way: at once, here, and in a
        task from where it first has to wait."""
        if self._drain is not None or self._starting or not self._pending:
            return
        self._starting = True
        delivering = self._delivering()
        try:
            waiting_on = delivering.send(None)
        except StopIteration:  # all delivered without waiting
            return
        finally:
            self._starting = False
        self._drain = asyncio.get_running_loop().create_task(_carry_on(delivering, waiting_on))

    async def _delivering(self) -> None:
        deliver, pending = self._deliver, self._pending
        assert deliver is not None
        try:
            while pending:
                try:
                    delivered = await deliver(pending.popleft())
                except Exception:  # the reader's own failure: it is sent nothing more
                    log.exception("a message to a socket failed")
                    delivered = False
                if not delivered:
                    self.closed = True
                    pending.clear()
        finally:
            self._drain = None

    async def stop_delivery(self) -> None:
        """No more messages to the reader: what is waiting is dropped, and a message
        being delivered is cancelled — over when this returns."""
        self.closed = True
        self._pending.clear()
        drain, self._drain = self._drain, None
        if drain is not None:
            drain.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await drain


@types.coroutine
def _resumed(coro: Coroutine[Any, Any, None], waiting_on: Any) -> Generator[Any, Any, None]:
    """Run the rest of ``coro``, started elsewhere and now waiting on ``waiting_on``
    (what its first ``send`` gave), as if it were awaited here: what it waits on is
    waited on by the task running this, and what the task sends or throws in (a
    cancellation) goes on to it."""
    while True:
        try:
            sent = yield waiting_on
        except BaseException as exc:
            try:
                waiting_on = coro.throw(exc)
            except StopIteration:
                return
        else:
            try:
                waiting_on = coro.send(sent)
            except StopIteration:
                return


async def _carry_on(coro: Coroutine[Any, Any, None], waiting_on: Any) -> None:
    """A task's body that finishes ``coro``, a coroutine started in another's call (as
    Python 3.12's eager tasks do)."""
    await _resumed(coro, waiting_on)


#: A move's socket and request id, when it asked for its ack in its frame.
Ack = tuple[Subscriber, str | None]


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def seat_of_token(keys: list[str | None] | tuple[str | None, ...], token: str | None) -> int | None:
    """The seat whose stored key (a token's hash) matches ``token``, or None."""
    if not token:
        return None
    h = _hash(token)
    for seat, key in enumerate(keys):
        if key is not None and secrets.compare_digest(key, h):
            return seat
    return None


def event_json(event: Event, seat: int | None) -> dict[str, Any] | None:
    """The event as ``seat`` may see it, as JSON; None when it is not for them."""
    seen = event_for(event, seat)
    if seen is None:
        return None
    out: dict[str, Any] = {"kind": seen.kind, "seat": seen.seat, "data": dict(seen.data)}
    if seen.private is not None:
        out["private"] = dict(seen.private)
    return out


class LiveGame:
    def __init__(
        self,
        game_id: str,
        config: TableConfig,
        game_log: GameLog,
        clock: Clock,
        finder: PlayFinder | None = None,
        make: Callable[[str, str, int], Player] | None = None,
    ) -> None:
        self.id = game_id
        self.config = config
        self.log = game_log
        self.clock = clock
        self.finder = finder
        self.state: GameState | None = None
        self.names: list[str | None] = [None] * len(config.seats)
        self.keys: list[str | None] = [None] * len(config.seats)
        self.subscribers: set[Subscriber] = set()
        self.frames: deque[tuple[int, tuple[Event, ...], GameState]] = deque(maxlen=FRAMES_KEPT)
        #: Answers by (seat, request id, the version the request was made against): an
        #: id is unique per game version, so a later turn may use it again.
        self.answers: OrderedDict[tuple[int, str, int], dict[str, Any]] = OrderedDict()
        self.inbox: asyncio.Queue[tuple[Any, ...]] = asyncio.Queue()
        self.failed: str | None = None
        #: Opened by someone in the lobby (not a tournament's table): it goes away if
        #: nobody comes (``LiveServer``'s ``IDLE_WAITING``).
        self.lobby = False
        #: When this process created or rebuilt the table (``time.monotonic``).
        self.made_at = time.monotonic()
        self._task: asyncio.Task[None] | None = None
        #: The deadline's alarm (a timer handle of the clock's, set again at every move).
        self._timer: Alarm | None = None
        self._bot: asyncio.Task[None] | None = None
        self.players: dict[int, Player] = {}
        #: Called (awaited) once the game is over and its result logged.
        self.on_over: Callable[[LiveGame], Awaitable[None]] | None = None
        #: The table's chat: the last phrases said, as sent to the pages.
        self.chat: deque[dict[str, Any]] = deque(maxlen=CHAT_KEPT)
        #: The game the same table plays next (a rematch), once someone asked for it.
        self.rematch: str | None = None
        self.rematch_task: asyncio.Future[Any] | None = None
        #: Per seat: the turn of its latest hints and how many it asked for then, and
        #: the last one worked out (the version it was for, the answer).
        self.hints_asked: dict[int, tuple[int, int]] = {}
        self.hint_kept: dict[int, tuple[int, dict[str, Any]]] = {}
        #: The seats' draws for the first turn as JSON, once made (they never change).
        self._seat_draws: tuple[Any, list[Any]] | None = None
        #: The board as JSON, and the board it was made of: a move that leaves the
        #: board as it was (a draw, a time-out) shows the same lists again.
        self._board_json: tuple[Any, list[Any]] = ((), [])
        #: Per seat, its own part of a move's frame (its rack, its draft) as JSON and
        #: as text, and what it was made of: the same again while they are unchanged
        #: (another seat's move leaves them as they were).
        self._own_kept: dict[int | None, tuple[Any, bool, Any, dict[str, Any], str]] = {}
        factory = make or (lambda level, name, seed: make_player(level, name, seed))
        for i, seat in enumerate(config.seats):
            if seat.kind == "computer":
                assert seat.level is not None
                self.names[i] = f"{seat.level} {i + 1}"
                self.players[i] = factory(seat.level, self.names[i] or "", config.seed + i)

    # ------------------------------------------------------------ facts

    @property
    def version(self) -> int:
        return 0 if self.state is None else len(self.state.history)

    @property
    def started(self) -> bool:
        return self.state is not None

    @property
    def over(self) -> bool:
        return self.state is not None and self.state.end is not None

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token was given for, or None (a spectator)."""
        return seat_of_token(self.keys, token)

    def table_json(self) -> dict[str, Any]:
        seats = []
        for i, s in enumerate(self.config.seats):
            seats.append(
                {
                    "kind": s.kind,
                    "level": s.level,
                    "name": self.names[i],
                    "taken": s.kind == "computer" or self.keys[i] is not None,
                }
            )
        rules = self.config.rules
        return {
            "id": self.id,
            "preset": rules.name,
            "turn_seconds": rules.turn_seconds,
            "watch_drafts": self.config.watch_drafts,
            "seats": seats,
            "hints": self.config.hints and not self.config.tournament,
            "started": self.started,
            "over": self.over,
            "rematch": self.rematch,
        }

    # ------------------------------------------------------------ the owner task

    def _ensure_running(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name=f"game {self.id}")

    async def _ask(self, *command: Any) -> Any:
        self._ensure_running()
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        await self.inbox.put((future, *command))
        return await future

    async def _run(self) -> None:
        while True:
            # A request is handled in a call of its own, so that nothing of it (the
            # message, the answer) stays referenced while the game waits for the next:
            # what survives a move is scanned by the collector (BENCHMARKS.md, "Server").
            await self._handle(await self.inbox.get())

    async def _handle(self, request: tuple[Any, ...]) -> None:
        future, kind, *args = request
        try:
            result = await getattr(self, f"_on_{kind}")(*args)
        except Exception as exc:  # one bad request must not stop the game
            if not isinstance(exc, TableError | IllegalMove):
                log.exception("game %s: %s failed", self.id, kind)
            if future is not None and not future.done():
                future.set_exception(exc)
            # The exception's traceback holds this frame: not the future too, which holds
            # the exception (a reference cycle, freed only by the collector).
            del future
        else:
            if future is not None and not future.done():
                future.set_result(result)

    async def close(self) -> None:
        """Stop the game's tasks, and let go of them: a cancelled task keeps its
        ``CancelledError``, whose traceback holds the task's frame and so this game — a
        reference cycle that only the collector's full pass frees, and a frozen one
        (``live.server.tune_gc``) never (BENCHMARKS.md, "Server")."""
        if self._timer is not None:
            self._timer.cancel()
        tasks, self._timer, self._bot, self._task = (
            (self._bot, self._task),
            None,
            None,
            None,
        )
        for task in tasks:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    def release(self) -> None:
        """Drop what only a running game needs (the frames kept for reconnecting
        clients, the answers to resent requests, the hints): once the server lets the
        game go, these are freed at once, whoever still holds the game."""
        self.frames.clear()
        self.answers.clear()
        self.hints_asked.clear()
        self.hint_kept.clear()

    # ------------------------------------------------------------ public requests

    async def join(self, seat: int, name: str) -> str:
        """Take a free human seat; returns the seat's secret token."""
        return str(await self._ask("join", seat, name))

    async def open(self) -> None:
        """Start the owner task (and the game, if no person needs to sit down)."""
        await self._ask("open")

    async def subscribe(self, seat: int | None) -> Subscriber:
        sub = Subscriber(seat)
        await self._ask("subscribe", sub)
        return sub

    def unsubscribe(self, sub: Subscriber) -> None:
        sub.closed = True
        self.subscribers.discard(sub)

    async def receive(self, sub: Subscriber, message: dict[str, Any]) -> None:
        """A message from a client (``hello``, ``move`` or ``draft``)."""
        await self._ask("message", sub, message)

    # ------------------------------------------------------------ handlers

    async def _on_open(self) -> None:
        if self.state is None and all(self.keys[i] is not None for i in self.config.humans):
            await self._start()

    async def _on_join(self, seat: int, name: str) -> str:
        name = " ".join(str(name).split())[:NAME_LENGTH]
        if not name:
            raise TableError("table.name")
        if first_invisible(name) is not None:
            raise TableError("table.invisible")
        if not 0 <= seat < len(self.config.seats) or self.config.seats[seat].kind != "human":
            raise TableError("table.seat")
        if self.keys[seat] is not None or self.state is not None:
            raise TableError("table.taken")
        token = secrets.token_urlsafe(18)
        self.keys[seat] = _hash(token)
        self.names[seat] = name
        if all(self.keys[i] is not None for i in self.config.humans):
            await self._start()
        else:
            try:
                await self.log.save_table(self.id, self.waiting_json())
            except Exception:
                self.keys[seat] = self.names[seat] = None
                raise
            self.table_changed()
        return token

    def waiting_json(self) -> dict[str, Any]:
        """A table waiting for players, as the log keeps it (a restart keeps the seats
        taken: their tokens' hashes, never the tokens)."""
        out: dict[str, Any] = {
            "config": self.config.to_json(),
            "names": list(self.names),
            "keys": list(self.keys),
        }
        if self.lobby:
            out["lobby"] = True
        return out

    @classmethod
    def waiting(
        cls,
        game_id: str,
        data: dict[str, Any],
        game_log: GameLog,
        clock: Clock,
        finder: PlayFinder | None = None,
        make: Callable[[str, str, int], Player] | None = None,
    ) -> LiveGame:
        """A waiting table rebuilt from :meth:`waiting_json`."""
        game = cls(game_id, TableConfig.from_json(data["config"]), game_log, clock, finder, make)
        game.names = list(data["names"])
        game.keys = list(data["keys"])
        game.lobby = bool(data.get("lobby", False))
        return game

    async def _on_subscribe(self, sub: Subscriber) -> None:
        self.subscribers.add(sub)
        sub.send(self._snapshot(sub.seat))

    async def _on_message(self, sub: Subscriber, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "hello":
            self._hello(sub, message.get("version"))
        elif kind in ("move", "draft"):
            await self._submission(sub, message)
        elif kind == "chat":
            self._chat(sub, message)
        elif kind == "hint":
            await self._hint(sub, message)
        else:
            sub.send({"type": "error", "reason": f"unknown message type {kind!r}"})

    async def _on_deadline(self, version: int) -> None:
        state = self.state
        if state is None or state.end is not None or version != self.version:
            return
        if state.deadline is not None and self.clock.now() >= state.deadline:
            await self._timeout()

    async def _on_bot(self, version: int, move: Move) -> None:
        state = self.state
        if state is None or state.end is not None or version != self.version:
            return
        if self._overdue():
            await self._timeout()
            return
        try:
            await self._commit(move)
        except IllegalMove as exc:
            log.error(
                "game %s: computer seat %d made a refused move (%s): it draws or passes",
                self.id,
                move.seat,
                exc.reason,
            )
            await self._commit(self._stamp(no_play(player_view(state, move.seat))))

    # ------------------------------------------------------------ the game

    async def _start(self) -> None:
        names = [n or f"seat {i + 1}" for i, n in enumerate(self.names)]
        now = self.clock.now()
        progress = new_game(
            self.config.rules, names, self.config.seed, deal=self.config.deal, now=now
        )
        table = self.config.to_json()
        table["names"] = names
        table["keys"] = list(self.keys)
        header = {
            "rules": self.config.rules_json(),
            "players": names,
            "seed": self.config.seed,
            "started_at": now,
            "table": table,
        }
        if self.config.deal is not None:
            header["deal"] = table["deal"]
        await self.log.start(self.id, header)
        self.state = progress.state
        for sub in list(self.subscribers):
            sub.send(self._snapshot(sub.seat))
        self._schedule()

    def _overdue(self) -> bool:
        state = self.state
        return (
            state is not None and state.deadline is not None and self.clock.now() >= state.deadline
        )

    def _stamp(self, move: Move) -> Move:
        return dataclasses.replace(move, at=self.clock.now())

    async def _timeout(self) -> None:
        state = self.state
        assert state is not None and state.deadline is not None
        at = max(self.clock.now(), state.deadline)
        try:
            await self._commit(Timeout(state.current, state.draft, at))
        except IllegalMove:
            # A draft the engine no longer accepts cannot happen (drafts are checked as
            # they arrive); judge the untouched board rather than stop the game.
            log.exception("game %s: time-out with the draft refused", self.id)
            await self._commit(Timeout(state.current, None, at))

    async def _commit(self, move: Move, ack: Ack | None = None) -> bool:
        """Apply, log, then broadcast. Raises IllegalMove with the state unchanged.
        ``ack``: the mover's socket and request id, to acknowledge in its frame; True
        if it was (the socket was one the frame went to)."""
        state = self.state
        assert state is not None
        progress = apply(state, move, finder=self.finder)
        entry = move_to_json(move)
        entry["at"] = move.at
        await self.log.append(self.id, len(state.history), entry)
        self.state = progress.state
        # A frame's state is shown, never played on: without the history (the version
        # says how long it is), 32 frames hold one copy of it, not 33.
        self.frames.append(
            (self.version, progress.events, replace_state(progress.state, history=()))
        )
        acked = self._broadcast_frame(progress.events, progress.state, ack)
        if progress.state.end is not None:
            await self.log.finish(
                self.id,
                {
                    "end": progress.state.end,
                    "winner": progress.state.winner,
                    "scores": list(progress.state.scores or ()),
                    "penalties": list(progress.state.penalties),
                },
            )
            if self.on_over is not None:
                try:
                    await self.on_over(self)
                except Exception:
                    log.exception("game %s: what follows its end failed", self.id)
        self._schedule()
        return acked

    def _schedule(self) -> None:
        """After every change: the deadline's alarm (a timer handle, not a task: one
        was made and cancelled per move), and a computer player's turn."""
        if self._timer is not None:
            self._timer.cancel()
        if self._bot is not None and not self._bot.done():
            self._bot.cancel()
        self._timer = self._bot = None
        state = self.state
        if state is None or state.end is not None:
            return
        version = self.version
        if state.deadline is not None:
            self._timer = self.clock.call_at(state.deadline, functools.partial(self._wake, version))
        if state.current in self.players:
            self._bot = asyncio.get_running_loop().create_task(self._think(version, state))

    def _wake(self, version: int) -> None:
        """The deadline's alarm: the owner looks at the clock (the inbox is unbounded)."""
        self.inbox.put_nowait((None, "deadline", version))

    def _redeal_window(self, state: GameState) -> bool:
        """Whether a person may still demand a redeal before the game's first move
        (rules with the ``before_game`` window, a shuffled deal, nothing played yet)."""
        return (
            state.rules.redeal == "before_game"
            and state.deal is None
            and not any(state.turns_taken)
            and any(s not in self.players for s in range(state.seats))
        )

    async def _think(self, version: int, state: GameState) -> None:
        seat = state.current
        delay = self.config.bot_delay
        if self._redeal_window(state):
            delay = max(delay, self.config.redeal_grace)
        if delay > 0:
            await asyncio.sleep(delay)
        view = player_view(state, seat)
        try:
            move = await asyncio.to_thread(self.players[seat].decide, view)
        except Exception:
            log.exception("game %s: computer seat %d failed to decide", self.id, seat)
            move = no_play(view)
        await self.inbox.put((None, "bot", version, self._stamp(move)))

    # ------------------------------------------------------------ submissions

    def _answer(
        self,
        sub: Subscriber,
        key: tuple[int, str, int] | None,
        answer: dict[str, Any],
        send: bool = True,
    ) -> None:
        """Keep the answer to a request (a repeat of it gets it again) and send it
        (``send`` False: it went another way, in the mover's frame)."""
        if key is not None:
            self.answers[key] = answer
            while len(self.answers) > IDS_KEPT:
                self.answers.popitem(last=False)
        if send:
            sub.send(answer)

    async def _submission(self, sub: Subscriber, message: dict[str, Any]) -> None:
        rid = message.get("id")
        rid = str(rid) if isinstance(rid, str | int) and not isinstance(rid, bool) else None
        seat = sub.seat
        if seat is None:
            sub.send(refused(rid, Refusal("live.spectator")))
            return
        made_at = message.get("version")
        key = (seat, rid, made_at) if rid is not None and type(made_at) is int else None
        if key is not None and key in self.answers:
            sub.send({**self.answers[key], "duplicate": True})
            return
        state = self.state
        if state is None:
            sub.send(refused(rid, Refusal("live.not_started")))
            return
        if state.end is not None:
            self._answer(sub, key, refused(rid, Refusal("game.over", {"end": state.end})))
            return
        if message.get("version") != self.version:
            # Made against an older state (or a newer one the client imagines): ignore it.
            sub.send({"type": "stale", "id": rid, "version": self.version})
            return
        if self._overdue():
            await self._timeout()
            sub.send({"type": "stale", "id": rid, "version": self.version})
            return
        try:
            move = self._move_of(seat, message)
        except Refused as exc:
            self._answer(sub, key, refused(rid, exc.refusal))
            return
        if isinstance(move, Draft):
            await self._draft(sub, key, rid, move)
            return
        in_frame = (sub, rid) if message.get("ack") == "frame" else None
        try:
            acked = await self._commit(move, in_frame)
        except IllegalMove as exc:
            if isinstance(move, Play):
                # The board the player last proposed is what a time-out judges, a
                # refused Done included (the page may not send it again as a draft).
                await self._keep_as_draft(Draft(seat, move.board, move.at))
            self._answer(sub, key, refused(rid, exc.refusal, version=self.version))
            return
        # A repeat of the move is answered with the ack message itself.
        self._answer(sub, key, {"type": "ack", "id": rid, "version": self.version}, not acked)

    async def _hint(self, sub: Subscriber, message: dict[str, Any]) -> None:
        """The solver's best play for the seat to move, to that seat alone."""
        rid = message.get("id")
        rid = str(rid) if isinstance(rid, str | int) and not isinstance(rid, bool) else None
        seat = sub.seat
        state = self.state
        code: str | None = None
        params: dict[str, Any] = {}
        if seat is None:
            code = "live.spectator"
        elif self.config.tournament:
            code = "live.hint.tournament"
        elif not self.config.hints:
            code = "live.hint.off"
        elif state is None:
            code = "live.not_started"
        elif state.end is not None:
            code, params = "game.over", {"end": state.end}
        elif state.current != seat:
            code = "live.hint.not_your_turn"
        asked = 0
        if code is None and seat is not None and state is not None:
            turn, asked = self.hints_asked.get(seat, (state.turn_no, 0))
            if turn != state.turn_no:
                asked = 0
            if asked >= HINTS_PER_TURN:
                code, params = "live.hint.too_many", {"n": HINTS_PER_TURN}
            else:
                asked += 1
                self.hints_asked[seat] = (state.turn_no, asked)
        if code is not None or state is None or seat is None:
            sub.send(refused(rid, Refusal(code or "live.not_started", params), hint=True))
            return
        version = self.version
        kept = self.hint_kept.get(seat)
        if kept is None or kept[0] != version:
            rack = state.racks[seat]
            found = await asyncio.to_thread(
                solve, state.board, rack, state.rules, state.melded[seat]
            )
            action = "play" if found.placed else ("draw" if state.pool else "pass")
            kept = (
                version,
                {
                    "board": format_board(found.board) if found.placed else None,
                    "tiles": format_tiles(found.tiles),
                    "action": action,
                },
            )
            self.hint_kept[seat] = kept
        left = HINTS_PER_TURN - asked
        sub.send({"type": "hint", "id": rid, "version": version, "left": left, **kept[1]})

    def _move_of(self, seat: int, message: dict[str, Any]) -> Move:
        at = self.clock.now()
        if message.get("type") == "draft":
            return Draft(seat, parse_board(message.get("board")), at)
        action = message.get("action")
        if action == "play":
            return Play(seat, parse_board(message.get("board")), at)
        if action == "draw":
            return Draw(seat, at)
        if action == "pass":
            return Pass(seat, at)
        if action == "redeal":
            return Redeal(seat, at)
        raise Refused("live.unknown_action", action=action)

    async def _set_draft(self, move: Draft) -> list[Any]:
        """Check, log and hold the turn's draft; its board as text. Raises IllegalMove
        (the draft the engine refuses: a tile not on the board or the rack) with
        nothing changed."""
        state = self.state
        assert state is not None
        progress = apply(state, move, finder=self.finder)
        board = format_board(move.board)
        await self.log.put_draft(
            self.id, {"version": self.version, "seat": move.seat, "board": board, "at": move.at}
        )
        self.state = progress.state
        return board

    async def _keep_as_draft(self, move: Draft) -> None:
        """Keep a refused play's board as the turn's draft when it could be one (its
        tiles are the board's and the rack's: a board of tiles one does not hold is
        no draft, and the last draft stays)."""
        with contextlib.suppress(IllegalMove):
            await self._set_draft(move)

    async def _draft(
        self, sub: Subscriber, key: tuple[int, str, int] | None, rid: str | None, move: Draft
    ) -> None:
        try:
            board = await self._set_draft(move)
        except IllegalMove as exc:
            self._answer(sub, key, refused(rid, exc.refusal, draft=True, version=self.version))
            return
        state = self.state
        assert state is not None
        report = draft_report(state.board, move.board, state.rules)
        self._answer(
            sub,
            key,
            {
                "type": "draft_ok",
                "id": rid,
                "version": self.version,
                # Why each meld is not valid yet, and the new melds' value: the page marks
                # them while the player builds (the referee's words, translated by code).
                "check": {
                    "melds": [None if r is None else r.to_json() for r in report.melds],
                    "value": report.value,
                    "touches_board": report.touches_board,
                },
            },
        )
        if self.config.watch_drafts:
            for other in list(self.subscribers):
                if other.seat != move.seat:
                    other.send(
                        {
                            "type": "draft",
                            "version": self.version,
                            "seat": move.seat,
                            "board": board,
                        }
                    )

    def _chat(self, sub: Subscriber, message: dict[str, Any]) -> None:
        """A seated player says one of the fixed phrases; everyone at the table hears."""
        rid = message.get("id") if isinstance(message.get("id"), str) else None
        phrase = message.get("phrase")
        if sub.seat is None:
            sub.send(refused(rid, Refusal("live.spectator")))
            return
        if phrase not in PHRASES:
            sub.send(refused(rid, Refusal("live.chat_phrase", {"phrase": str(phrase)[:40]})))
            return
        key = f"{self.id}:{sub.seat}"
        if not all(chat_limiter().hit(limit, "chat", key) for limit in CHAT_LIMITS):
            sub.send(refused(rid, Refusal("live.chat_too_fast")))
            return
        said = {"type": "chat", "seat": sub.seat, "phrase": phrase, "at": self.clock.now()}
        self.chat.append(said)
        for other in list(self.subscribers):
            other.send(said)

    # ------------------------------------------------------------ what each one sees

    def _view(
        self, state: GameState, seat: int | None, board: list[Any] | None = None
    ) -> dict[str, Any]:
        """What ``seat`` sees of ``state``, as JSON (``board``: the state's board as
        JSON, when already made)."""
        return {**self._public(state, board), **self._own(state, seat)}

    def _public(self, state: GameState, board: list[Any] | None = None) -> dict[str, Any]:
        """The part of a view of ``state`` that every seat sees alike."""
        if board is None:
            kept_board, board = self._board_json
            if kept_board is not state.board:
                board = format_board(state.board)
                self._board_json = (state.board, board)
        view = public_view_json(state, board)
        if state.seat_draws:  # drawn face up at the table: everyone saw them
            kept = self._seat_draws
            if kept is None or kept[0] is not state.seat_draws:
                kept = self._seat_draws = (
                    state.seat_draws,
                    [[[s, str(t)] for s, t in r] for r in state.seat_draws],
                )
            view["seat_draw"] = kept[1]
        return view

    def _own(self, state: GameState, seat: int | None) -> dict[str, Any]:
        """The part of a view of ``state`` that only ``seat`` sees."""
        view = own_view_json(state, seat)
        if self.config.watch_drafts and state.draft is not None and seat != state.current:
            view["watched_draft"] = format_board(state.draft)
        return view

    def _own_of_frame(self, state: GameState, seat: int | None) -> tuple[dict[str, Any], str]:
        """:meth:`_own` for a move's frame, and its JSON text without its braces: the
        same objects again while what they show is (the seat's rack and whether it
        is its turn; the draft on its turn, or the one it watches)."""
        mine = seat is not None and seat == state.current
        rack = None if seat is None else state.racks[seat]
        draft = state.draft if mine or self.config.watch_drafts else None
        kept = self._own_kept.get(seat)
        if kept is not None and kept[0] is rack and kept[1] is mine and kept[2] is draft:
            return kept[3], kept[4]
        own = self._own(state, seat)
        text = ENCODE(own)[1:-1]
        self._own_kept[seat] = (rack, mine, draft, own, text)
        return own, text

    def _snapshot(self, seat: int | None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "type": "snapshot",
            "version": self.version,
            "now": self.clock.now(),
            "seat": seat,
            "table": self.table_json(),
            "view": None,
        }
        if self.state is not None:
            out["view"] = self._view(self.state, seat)
        if self.chat:
            out["chat"] = list(self.chat)
        recent = self._recent(seat)
        if recent:
            out["recent"] = recent
        return out

    def _recent(self, seat: int | None) -> list[dict[str, Any]]:
        """The last moves kept (at most 12) as ``seat`` may see them, with the board
        before and after each: a page opened after a move still shows what it did."""
        frames = list(self.frames)
        out = []
        for i, (version, events, state) in enumerate(frames):
            if i > 0:
                before: tuple[Any, ...] = frames[i - 1][2].board
            elif version == 1:
                before = ()
            else:
                continue
            shown = [e for e in (event_json(ev, seat) for ev in events) if e is not None]
            out.append(
                {
                    "version": version,
                    "events": shown,
                    "before": format_board(before),
                    "after": format_board(state.board),
                }
            )
        return out[-12:]

    def _frame(
        self,
        version: int,
        events: tuple[Event, ...],
        state: GameState,
        seat: int | None,
        board: list[Any] | None = None,
    ) -> Shared:
        shown = [e for e in (event_json(ev, seat) for ev in events) if e is not None]
        return Shared(
            type="frame",
            version=version,
            now=self.clock.now(),
            events=shown,
            view=self._view(state, seat, board),
        )

    def _broadcast_frame(
        self, events: tuple[Event, ...], state: GameState, ack: Ack | None = None
    ) -> bool:
        """A move's frame to every socket: made once per seat (the spectators share
        one), and its JSON text with it — the part of the view every seat sees alike
        (the board above all) encoded once for all of them (BENCHMARKS.md, "Cost per
        move"): the text is exactly the frame's own JSON."""
        version = self.version
        now = self.clock.now()
        public = self._public(state)
        public_text = ENCODE(public)[1:-1]
        head = f'{{"type":"frame","version":{version},"now":{ENCODE(now)},"events":'
        # The events every seat sees alike (no private part, not a draft) made once;
        # all of them alike (most moves but a draw): the list and its text once too.
        alike = [
            None if ev.private is not None or ev.kind == "draft" else event_json(ev, None)
            for ev in events
        ]
        everyone: tuple[list[Any], str] | None = None
        if None not in alike:
            everyone = (alike, ENCODE(alike))
        made: dict[int | None, Shared] = {}
        acked = False
        for sub in list(self.subscribers):
            seat = sub.seat
            frame = made.get(seat)
            if frame is None:
                if everyone is None:
                    mixed = [
                        event_json(ev, seat) if a is None else a
                        for ev, a in zip(events, alike, strict=True)
                    ]
                    shown = [e for e in mixed if e is not None]
                    shown_text = ENCODE(shown)
                else:
                    shown, shown_text = everyone
                own, own_text = self._own_of_frame(state, seat)
                frame = made[seat] = Shared(
                    type="frame", version=version, now=now, events=shown, view={**public, **own}
                )
                frame.text = f'{head}{shown_text},"view":{{{public_text},{own_text}}}}}'
            if ack is not None and sub is ack[0]:  # the mover's socket: its ack in its frame
                mine = Shared(frame, ack=ack[1])
                mine.text = f'{frame.text[:-1]},"ack":{ENCODE(ack[1])}}}'
                sub.send(mine)
                acked = True
                continue
            sub.send(frame)
        return acked

    def _hello(self, sub: Subscriber, version: Any) -> None:
        """A (re)connecting client: the frames it missed, or a snapshot."""
        current = self.version
        if (
            self.state is None
            or not isinstance(version, int)
            or isinstance(version, bool)
            or not 0 <= version <= current
        ):
            sub.send(self._snapshot(sub.seat))
            return
        if version == current:
            sub.send(
                {
                    "type": "synced",
                    "version": current,
                    "now": self.clock.now(),
                    "view": self._view(self.state, sub.seat),
                }
            )
            return
        missed = [f for f in self.frames if f[0] > version]
        if not missed or missed[0][0] != version + 1:
            sub.send(self._snapshot(sub.seat))
            return
        for v, events, state in missed:
            sub.send(self._frame(v, events, state, sub.seat))

    def table_changed(self) -> None:
        """The table as the pages show it changed (a seat taken, a rematch asked for,
        a name hidden by the site's administrator or shown again): every socket is
        sent it, and its page (and the socket's own masks) take it as it is now."""
        message = Shared(type="table", table=self.table_json())
        for sub in list(self.subscribers):
            sub.send(message)

    # ------------------------------------------------------------ recovery

    @classmethod
    async def recover(
        cls,
        game_id: str,
        game_log: GameLog,
        clock: Clock,
        finder: PlayFinder | None = None,
        make: Callable[[str, str, int], Player] | None = None,
    ) -> LiveGame:
        """The game as its log leaves it: the moves replayed with their times and the
        clock's earlier resumptions, and the last draft restored.

        The clock stops while the server is down (docs/rules.md, "The clock and failed
        turns"): the player to move gets back the time they had left when the server
        was last known alive (its heartbeat, or the log's latest write), from now. The
        new start of the turn is logged, so that a later replay sets the clock back the
        same way."""
        logged = await game_log.load(game_id)
        if logged is None:
            raise KeyError(game_id)
        header = logged.header
        table = header["table"]
        game = cls(game_id, TableConfig.from_json(table), game_log, clock, finder, make)
        game.names = list(table["names"])
        game.keys = list(table["keys"])
        record = read_record(
            {k: header[k] for k in ("rules", "players", "seed", "deal") if k in header}
            | {"moves": logged.moves}
        )
        state = new_game(
            record.rules, record.players, record.seed, deal=record.deal, now=header["started_at"]
        ).state
        resumes: dict[int, float] = {}
        for entry in logged.resumes:  # in order: the latest for a version wins
            resumes[int(entry["version"])] = float(entry["turn_started"])
        for i, move in enumerate(record.moves):
            if i in resumes:
                state = replace_state(state, turn_started=resumes[i])
            state = apply(state, move, finder=finder).state
        if len(record.moves) in resumes:
            state = replace_state(state, turn_started=resumes[len(record.moves)])
        draft = logged.draft
        if draft is not None and draft["version"] == len(record.moves) and state.end is None:
            with contextlib.suppress(IllegalMove, NotationError):
                state = apply(
                    state,
                    Draft(int(draft["seat"]), parse_board(draft["board"]), draft["at"]),
                    finder=finder,
                ).state
        deadline = state.deadline
        if state.end is None and deadline is not None and state.turn_started is not None:
            seen = [
                t
                for t in (
                    logged.alive_at,
                    header.get("started_at"),
                    state.turn_started,
                    draft["at"] if draft else None,
                    *(m.get("at") for m in logged.moves[-1:]),
                    *(e.get("at") for e in logged.resumes[-1:]),
                )
                if isinstance(t, int | float)
            ]
            left = deadline - max(seen)
            if left > 0:
                now = clock.now()
                started = now + min(left, state.rules.turn_seconds) - state.rules.turn_seconds
                await game_log.resume(
                    game_id, {"version": len(record.moves), "turn_started": started, "at": now}
                )
                state = replace_state(state, turn_started=started)
        game.state = state
        return game

    async def resume(self) -> None:
        """Start the owner task of a recovered game: its timer and computer players."""
        self._ensure_running()
        await self._ask("resume")

    async def _on_resume(self) -> None:
        if self._overdue():
            await self._timeout()
        else:
            self._schedule()


__all__ = ["LiveGame", "Shared", "Subscriber", "TableError", "event_json"]
