"""A tournament's tables played online.

The director starts a seated round online: each table that is not counted yet becomes
a live game of the division's rules, its seats the table's players in seat order (each
holding a secret seat link), and the game starts at once — the round's clocks start
together, as at the venue. Computer players may stand in for players who are not
there, only at a club night (a ``club-night`` tournament), never in an official
tournament: that is refused.

Each finished game fills its game of the table's score sheet by itself, through the
sheet-saving use case (:func:`meldtour.application.sheets.enter_sheet`) with the
game's points, penalty points and winner; the table's last game submits the sheet, so
it counts and the standings follow. Then the table's next game starts, with the same
seats. What a crash interrupts (a result not yet on the sheet, a next game not yet
started) is finished by :meth:`OnlineRounds.settle`, run at start-up and by the
director's page; every step is safe to repeat.

A seat link's token is never stored: it is derived (:func:`seat_tokens`, an HMAC with
the app's secret over ``online-seat/{table's first game id}/{player}``) whenever the
director's page shows it, and the database keeps only its hash (:func:`seat_key`), as
the live game does — a copy of the database lets nobody act for a seat.
"""

from __future__ import annotations

import asyncio
import base64
import dataclasses
import hashlib
import hmac
import logging
import secrets
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

from meldtour.application import online as usecases
from meldtour.core.refusal import Refused, register
from meldtour.players.levels import LEVELS
from meldtour.store import games as game_log
from meldtour.store import online
from meldtour.store.db import RowExists, Store

from .cluster import Cluster
from .game import LiveGame
from .table import BOT_DELAY, SeatConfig, TableConfig, secret_seed

log = logging.getLogger(__name__)

#: Tournaments made from these templates are club nights: computer players may sit in.
CLUB_TEMPLATES = frozenset({"club-night"})
#: Who the sheets say entered an online game's result.
WHO = "online play"


register(
    {
        "live.online.started_meanwhile": "the round was started online meanwhile",
        "live.online.cannot": "%(why)s",
        "live.online.no_round": "no round is seated: seat the round first",
        "live.online.round_closed": "round %(round)s is closed",
        "live.online.club_only": (
            "computer players may fill seats only at a club night, never in an official tournament"
        ),
        "live.online.unknown_level": "unknown player level %(level)r for #%(player)s",
        "live.online.not_seated": "#%(player)s is not seated in round %(round)s",
        "live.online.nothing_to_start": (
            "every table of round %(round)s is online or counted already"
        ),
    }
)


class OnlineRefused(online.OnlineError, Refused):
    """The director's request cannot be done: a refusal's code and its arguments
    (``live.online.cannot`` carries another refusal, or the store's reason, as ``why``)."""

    def __init__(self, code: str, /, **params: Any) -> None:
        Refused.__init__(self, code, **params)


#: A seat's token from the table's first game id and the seat's player number.
SeatToken = Callable[[str, int], str]


def seat_key(token: str) -> str:
    """What is stored of a seat's token: its SHA-256, in hex."""
    return hashlib.sha256(token.encode()).hexdigest()


def seat_tokens(secret: str | bytes) -> SeatToken:
    """Seat tokens derived from ``secret`` (the app's secret key): an HMAC-SHA256 over
    ``online-seat/{first game id of the table}/{player number}``, 24 URL-safe characters
    (144 bits), the same on every process sharing the secret and after a restart."""
    raw = secret.encode() if isinstance(secret, str) else secret
    key = hashlib.sha256(b"meldtour:online-seat:" + raw).digest()

    def token(first_game_id: str, player: int) -> str:
        mac = hmac.new(
            key, f"online-seat/{first_game_id}/{player}".encode(), hashlib.sha256
        ).digest()
        return base64.urlsafe_b64encode(mac[:18]).decode()

    return token


class TableHost(Protocol):
    """What the online rounds need of the server their tables are played on (the
    :class:`~.server.LiveServer`, which makes its own :class:`OnlineRounds`)."""

    @property
    def games(self) -> dict[str, LiveGame]:
        """This process's games, by id."""

    @property
    def cluster(self) -> Cluster | None:
        """The processes sharing the games, if several do."""

    @property
    def over_hooks(self) -> list[Callable[[LiveGame], Awaitable[None]]]:
        """Called when a game of this process is over (its result logged)."""

    async def open_table(
        self,
        config: TableConfig,
        game_id: str | None = None,
        names: list[str | None] | None = None,
        keys: list[str | None] | None = None,
    ) -> LiveGame:
        """A new table owned by this process, its seats taken by ``names``/``keys``."""

    def opening(self, game_ids: list[str]) -> AbstractContextManager[None]:
        """While its block runs, the games ``game_ids`` are being recorded and opened:
        a socket on one of them waits rather than finding no such game."""


class OnlineRounds:
    """The online tables of the tournaments in ``store``, played on ``server``."""

    def __init__(
        self, server: TableHost, store: Callable[[], Store], seat_token: SeatToken | None = None
    ) -> None:
        self.server = server
        self._store = store
        #: Derives a seat's token; the web app sets one from its secret key. Without it,
        #: a key random to this process: links shown before a restart keep working (their
        #: hashes are stored) but the director's page cannot show them again.
        self.seat_token: SeatToken = seat_token or seat_tokens(secrets.token_bytes(32))
        #: Seconds a computer player waits before it moves (tests set 0).
        self.bot_delay = BOT_DELAY
        server.over_hooks.append(self.game_over)

    def store(self) -> Store:
        return self._store()

    # ------------------------------------------------------------ the director

    async def start_round(
        self,
        slug: str | None,
        division: str | None,
        *,
        computers: Mapping[int, str] | None = None,
        who: str,
    ) -> list[online.OnlineGame]:
        """Start the division's current round online; ``computers`` maps the players a
        computer player stands in for to its level. Returns the games started."""
        plan = await asyncio.to_thread(self._plan, slug, division, dict(computers or {}))
        with self.server.opening([g.game_id for g in plan]):
            try:
                await asyncio.to_thread(online.add_games, self.store(), plan)
            except RowExists:
                raise OnlineRefused("live.online.started_meanwhile") from None
            log.info("%s started %d online tables", who, len(plan))
            for g in plan:
                await self._launch(g)
        return plan

    def _plan(
        self, slug: str | None, division: str | None, computers: dict[int, str]
    ) -> list[online.OnlineGame]:
        store = self.store()
        tid, slug, template = online.tournament_of(store, slug)
        try:
            t = usecases.read(store, slug)
            key = usecases.resolve_division(t, division)
            index, last, closed = usecases.current_round(t, key)
        except (usecases.UseCaseError, ValueError) as exc:
            why = exc.refusal if isinstance(exc, Refused) else str(exc)
            raise OnlineRefused("live.online.cannot", why=why) from None
        if not last:
            raise OnlineRefused("live.online.no_round")
        if closed:
            raise OnlineRefused("live.online.round_closed", round=last)
        if computers and template not in CLUB_TEMPLATES:
            raise OnlineRefused("live.online.club_only")
        for player, level in computers.items():
            if level not in LEVELS:
                raise OnlineRefused("live.online.unknown_level", level=level, player=player)
        stage = t.division(key).stages[index]
        rnd = stage.rounds[-1]
        seated = {p for table in rnd.tables for p in table.players}
        if set(computers) - seated:
            raise OnlineRefused(
                "live.online.not_seated", player=min(set(computers) - seated), round=last
            )
        online_tables = {g.table for g in online.round_games(store, tid, key, index, last)}
        plan = []
        for table in rnd.tables:
            if table.number in online_tables or table.counted:
                continue
            game_id = secrets.token_urlsafe(6)
            seats = [
                {
                    "player": p,
                    "name": t.name_of(p),
                    "computer": computers.get(p),
                    "key": None if p in computers else seat_key(self.seat_token(game_id, p)),
                }
                for p in table.players
            ]
            plan.append(
                online.OnlineGame(
                    game_id,
                    tid,
                    key,
                    index,
                    last,
                    table.number,
                    1,
                    len(table.sheet.games),
                    seats,
                    False,
                )
            )
        if not plan:
            raise OnlineRefused("live.online.nothing_to_start", round=last)
        return plan

    # ------------------------------------------------------------ the games

    async def _launch(self, g: online.OnlineGame) -> LiveGame | None:
        """Create the table's game on this process and start it (its clocks run)."""
        t = await asyncio.to_thread(
            usecases.read,
            self.store(),
            await asyncio.to_thread(online.slug_of, self.store(), g.tournament_id),
        )
        rules = t.division(g.division).rules
        config = TableConfig(
            rules,
            tuple(
                SeatConfig("computer", s["computer"]) if s["computer"] else SeatConfig("human")
                for s in g.seats
            ),
            seed=secret_seed(),
            bot_delay=self.bot_delay,
            tournament=True,
        )
        try:
            game = await self.server.open_table(
                config,
                g.game_id,
                names=[s["name"] for s in g.seats],
                keys=[s.get("key") for s in g.seats],
            )
        except ValueError:
            return None  # another process has it already
        await game.open()
        return game

    async def game_over(self, game: LiveGame) -> None:
        """The end-of-game hook: an online game's result onto its sheet, then the next
        game of its table."""
        g = await asyncio.to_thread(online.get_game, self.store(), game.id)
        state = game.state
        if g is None or state is None or state.winner is None:
            return
        winner: int = state.winner
        await asyncio.to_thread(
            self._fill, g, list(state.scores or ()), list(state.penalties), winner
        )
        await self._next(g)

    def _fill(
        self, g: online.OnlineGame, scores: Sequence[int], penalties: Sequence[int], winner: int
    ) -> None:
        store = self.store()
        entry = usecases.GameEntry(
            game=g.game, points=tuple(scores), penalties=tuple(penalties) or None, winner=winner + 1
        )
        outcome = usecases.enter_sheet(
            store,
            online.slug_of(store, g.tournament_id),
            g.division,
            g.round,
            g.table,
            [entry],
            who=WHO,
            stage=g.stage + 1,
            submit=g.game == g.games,
        )
        if outcome.problems:
            log.warning(
                "online game %s: table %d's sheet kept as a draft: %s",
                g.game_id,
                g.table,
                "; ".join(str(p) for p in outcome.problems),
            )
        online.mark_filled(store, g.game_id)

    async def _next(self, g: online.OnlineGame) -> None:
        if g.game >= g.games:
            return
        nxt = dataclasses.replace(
            g, game_id=secrets.token_urlsafe(6), game=g.game + 1, filled=False
        )
        with self.server.opening([nxt.game_id]):
            try:
                await asyncio.to_thread(online.add_games, self.store(), [nxt])
            except (online.OnlineError, RowExists):
                return  # started already (by another process, or before a crash)
            await self._launch(nxt)

    async def settle(self) -> None:
        """Finish what a crash interrupted: results not on their sheet yet, games not
        started, next games not begun. Safe to run on several processes at once."""
        store = self.store()
        rows = await asyncio.to_thread(online.all_games, store)
        by_table: dict[tuple[Any, ...], list[online.OnlineGame]] = {}
        for g in rows:
            by_table.setdefault(
                (g.tournament_id, g.division, g.stage, g.round, g.table), []
            ).append(g)
        for table_games in by_table.values():
            table_games.sort(key=lambda x: x.game)
            for g in table_games:
                if g.filled:
                    continue
                if g.game_id in self.server.games:
                    continue  # being played here
                logged = await asyncio.to_thread(game_log.load_game, store, g.game_id)
                if logged is None:
                    cluster = self.server.cluster
                    if cluster is None or await cluster.owner(g.game_id) is None:
                        await self._launch(g)  # recorded, never started: start it
                    continue
                result = logged.result
                if result is None or result.get("winner") is None:
                    continue  # being played (here after recovery, or elsewhere)
                await asyncio.to_thread(
                    self._fill,
                    g,
                    result["scores"],
                    result.get("penalties") or [],
                    int(result["winner"]),
                )
                g = dataclasses.replace(g, filled=True)
            last = table_games[-1]
            if (last.filled or last.game_id not in self.server.games) and last.game < last.games:
                done = await asyncio.to_thread(online.get_game, store, last.game_id)
                if done is not None and done.filled:
                    await self._next(last)

    # ------------------------------------------------------------ seat links

    def holds(self, game_id: str) -> bool:
        """Whether ``game_id`` is a game of a tournament's table (no rematch there)."""
        return bool(online.table_games(self.store(), game_id))

    def seat_game(self, game_id: str, token: str) -> str | None:
        """The table's current game for a seat link (``game_id`` any game of the table),
        or None if the token is not one of its seats' (its hash is compared with the
        stored ones)."""
        games = online.table_games(self.store(), game_id)
        if not games:
            return None
        presented = seat_key(token)
        found = False
        for s in games[0].seats:
            if s.get("key") and secrets.compare_digest(s["key"], presented):
                found = True
        return games[-1].game_id if found else None

    def seat_links(self, first: online.OnlineGame) -> list[str | None]:
        """The token of each seat of the table whose first game is ``first``, derived
        again; None for a computer player, and for a seat whose stored key is not the
        derived token's (a link given out before — under another secret, or before
        tokens were derived — that cannot be shown again)."""
        out: list[str | None] = []
        for s in first.seats:
            if not s.get("key"):
                out.append(None)
                continue
            token = self.seat_token(first.game_id, s["player"])
            out.append(token if secrets.compare_digest(seat_key(token), s["key"]) else None)
        return out


__all__ = [
    "CLUB_TEMPLATES",
    "OnlineRefused",
    "OnlineRounds",
    "SeatToken",
    "seat_key",
    "seat_tokens",
]
