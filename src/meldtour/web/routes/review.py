"""After an online game: the score, the replay (every turn, step by step) and the
analysis (each turn against the solver's best play).

The pages read the game from its log (``LiveServer.log``), not from the live game, so
they work after a restart and whichever process ran the game. They open only once the
game is over; the racks are open then, as at a real table (docs/rules.md, "What each
player may see"): the replay shows the viewer's own rack turn by turn — a spectator
none — and every rack on request; the pool's order is never shown.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from meldtour.core.analysis import Analysis, Step, analyse_step, steps, summarise
from meldtour.core.game import new_game
from meldtour.core.record import Record, RecordError, read_record
from meldtour.core.state import GameState
from meldtour.core.tiles import format_tiles
from meldtour.core.views import event_for
from meldtour.live import LiveServer
from meldtour.live.table import TableConfig
from meldtour.solver import finder, solve

from ..deps import locale_of
from ..deps import render as render_page
from ..deps import render_template as render
from ..i18n import N_, translations
from ..match import match_of
from ..play_words import LEVEL_NAMES, TABLE_TEXTS, TEXTS
from ..rules_text import PRESET_TITLES
from . import players_online
from .play import COOKIE, tiles_in_words

#: Finished games kept replayed in memory (their steps, and the analysis once asked).
KEPT = 32

END_TEXTS = {
    "out": N_("%(name)s went out"),
    "pool": N_("The pool ran out"),
    "blocked": N_("No one could put down a tile any more"),
}

#: A turn in which nothing was put down, by the move's action.
ACTIONS = {
    "draw": N_("Drew a tile"),
    "timeout": N_("Time ran out"),
    "pass": N_("Passed"),
    "redeal": N_("Demanded a new deal"),
    "play": N_("Put down nothing"),
}


@dataclass
class Reviewed:
    """A finished game replayed from its log."""

    id: str
    record: Record
    table: dict[str, Any]
    states: list[GameState]
    steps: list[Step]
    analysis: Analysis | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def final(self) -> GameState:
        return self.states[-1]

    def seat_of(self, token: str | None) -> int | None:
        """The seat the viewer's cookie was given for (the same hash as the live game)."""
        if not token:
            return None
        h = hashlib.sha256(token.encode()).hexdigest()
        for seat, key in enumerate(self.table.get("keys") or ()):
            if isinstance(key, str) and secrets.compare_digest(key, h):
                return seat
        return None

    def kinds(self) -> list[str | None]:
        """Each seat's computer level, or None for a person."""
        return [
            s.get("level") if s.get("kind") == "computer" else None
            for s in self.table.get("seats", ())
        ]


def _replay(game_id: str, header: Mapping[str, Any], moves: list[dict[str, Any]]) -> Reviewed:
    record = read_record(
        {k: header[k] for k in ("rules", "players", "seed", "deal") if k in header}
        | {"moves": moves}
    )
    first = new_game(record.rules, record.players, record.seed, deal=record.deal).state
    done = list(steps(record, finder, clock=False))
    return Reviewed(
        game_id, record, dict(header.get("table") or {}), [first, *(s.after for s in done)], done
    )


def _cache(request: Request) -> OrderedDict[str, Reviewed]:
    state = request.app.state
    if not hasattr(state, "reviews"):
        state.reviews = OrderedDict()
    cache: OrderedDict[str, Reviewed] = state.reviews
    return cache


async def _reviewed(request: Request, game_id: str) -> Reviewed | Response:
    """The finished game, or the response to give instead (the table while it goes on)."""
    cache = _cache(request)
    found = cache.get(game_id)
    if found is not None:
        cache.move_to_end(game_id)
        return found
    live: LiveServer = request.app.state.live
    logged = await live.log.load(game_id)
    if logged is None:
        raise HTTPException(404, f"no game {game_id!r}")
    if "rules" not in logged.header:
        raise HTTPException(404, f"game {game_id!r} has not started")
    try:
        found = await asyncio.to_thread(_replay, game_id, logged.header, logged.moves)
    except RecordError as exc:  # a log the rules cannot replay: say so, do not guess
        raise HTTPException(500, f"game {game_id} cannot be replayed: {exc}") from None
    if found.final.end is None:
        # Still being played (the log's "over" mark may trail the last move by a moment:
        # the moves decide).
        return RedirectResponse(f"/play/t/{game_id}", status_code=303)
    cache[game_id] = found
    while len(cache) > KEPT:
        cache.popitem(last=False)
    return found


def _tiles(tiles: Any) -> list[str]:
    return list(format_tiles(tiles))


def _rack(tiles: Any) -> list[str]:
    """A rack as shown after the game: by colour, then number (jokers last)."""
    return list(format_tiles(sorted(tiles)))


def _board(state: GameState) -> list[list[str]]:
    return [_tiles(m.tiles) for m in state.board]


def _counted(key: str, n: int) -> str:
    """The text's key for ``n`` things: ``KEY_one`` for one, ``KEY`` for more."""
    return f"{key}_one" if n == 1 else key


def describe(
    step: Step, names: list[str], gettext: Callable[[str], str], seat: int | None, open_racks: bool
) -> list[str]:
    """The step's events in words; a drawn tile shown to its drawer, or to everyone when
    the racks are open."""
    t = {k: gettext(v) for k, v in TEXTS.items()}
    out = []
    for event in step.events:
        seen = event if open_racks else event_for(event, seat)
        if seen is None:
            continue
        name = names[seen.seat] if seen.seat is not None else ""
        data, private = seen.data, seen.private
        text = None
        if seen.kind == "play":
            n = len(data.get("placed", ()))
            text = t[_counted("ev_play", n)].format(name=name, n=n)
        elif seen.kind == "initial_meld":
            text = t["ev_initial"].format(name=name)
        elif seen.kind == "draw":
            if data.get("why") == "penalty":
                n = data.get("count", 1)
                text = t[_counted("ev_penalty", n)].format(name=name, n=n)
            else:
                text = t["ev_draw"].format(name=name)
            if private is not None and seen.seat is not None:
                text += " (" + tiles_in_words(", ".join(private.get("tiles", ())), gettext) + ")"
        elif seen.kind == "timeout":
            text = t["ev_timeout"].format(name=name)
        elif seen.kind == "failed_turn":
            key = (
                "ev_failed_keep"
                if data.get("consequence") == "keep_completed"
                else "ev_failed_revert"
            )
            text = t[key].format(name=name)
        elif seen.kind == "penalty":
            # The rule set's penalty policy says it (core/penalties.py).
            text = gettext(step.before.rules.penalty_policy.sentence).format(
                name=name, n=data.get("points"), k=data.get("n", "")
            )
        elif seen.kind == "pass":
            text = t["ev_pass"].format(name=name)
        elif seen.kind == "pool_empty":
            text = t["ev_pool_empty"]
        elif seen.kind == "redeal":
            text = t["ev_redeal"].format(name=name)
        elif seen.kind == "illegal_end":
            text = t["ev_illegal_end"].format(name=name)
        elif seen.kind == "game_end":
            text = t["game_over"]
        if text:
            out.append(text)
    return out


def shown_names(
    game: Reviewed, gettext: Callable[[str], str], masks: Mapping[int, str] | None = None
) -> list[str]:
    """Each seat's name as the table page says it: a computer player by its level in
    the reader's language and its seat ("고수 4"), never the record's English key; a
    seat whose account's name the administrator hid, as its placeholder (``masks``)."""
    kinds = game.kinds()
    out = []
    for s, name in enumerate(game.record.players):
        level = kinds[s] if s < len(kinds) else None
        out.append(
            gettext(TABLE_TEXTS["computer_name"]).format(level=gettext(LEVEL_NAMES[level]), n=s + 1)
            if level in LEVEL_NAMES
            else (masks or {}).get(s, name)
        )
    return out


async def _rendered(request: Request, site: bool, name: str, **context: Any) -> Response:
    """The game's page; with the site's pieces (the CSRF token of a form, the message of
    the last post) when ``site``, off the event loop (the session's check reads the
    store)."""
    if site:
        return await asyncio.to_thread(lambda: render_page(request, name, **context))
    return render(request, name, **context)


async def _masks(request: Request, game: Reviewed) -> dict[int, str]:
    return await asyncio.to_thread(
        players_online.hidden_seats, request, game.id, len(game.record.players)
    )


def _players(
    game: Reviewed,
    state: GameState,
    gettext: Callable[[str], str],
    shown: Callable[[int], bool],
    masks: Mapping[int, str] | None = None,
) -> list[dict[str, Any]]:
    kinds = game.kinds()
    names = shown_names(game, gettext, masks)
    rows = []
    for s in range(len(state.players)):
        level = kinds[s] if s < len(kinds) else None
        rows.append(
            {
                "seat": s,
                "name": names[s],
                "level": gettext(LEVEL_NAMES[level]) if level in LEVEL_NAMES else None,
                "count": len(state.racks[s]),
                "melded": state.melded[s],
                "rack": _rack(state.racks[s]) if shown(s) else None,
                "current": state.end is None and s == state.current,
                "penalty": -state.penalties[s] if state.penalties else 0,
            }
        )
    return rows


def _end_text(state: GameState, gettext: Callable[[str], str], names: list[str]) -> str:
    if state.end is None:
        return ""
    name = names[state.winner] if state.winner is not None else ""
    return gettext(END_TEXTS[state.end]) % {"name": name}


router = APIRouter()


@router.get("/play/t/{game_id}/score", response_class=HTMLResponse)
async def score_page(request: Request, game_id: str) -> Response:
    game = await _reviewed(request, game_id)
    if isinstance(game, Response):
        return game
    gettext = translations(locale_of(request)).gettext
    final = game.final
    seat = game.seat_of(request.cookies.get(COOKIE + game_id))
    masks = await _masks(request, game)
    players = _players(game, final, gettext, lambda s: True, masks)
    scores = list(final.scores or ())
    for row in players:
        row["score"] = scores[row["seat"]] if scores else None
    ranked = sorted(players, key=lambda r: -(r["score"] or 0))
    rules = game.record.rules
    match = None
    if game.table.get("match"):  # a game of a table's match: its standing after it
        config = TableConfig.from_json(game.table)
        match = await match_of(request.app.state.live, game.id, config)
    report = await asyncio.to_thread(
        players_online.report_at_table, request, game.id, len(game.record.players)
    )
    return await _rendered(
        request,
        bool(report),
        "score.html",
        report=report,
        match=match,
        names={row["seat"]: row["name"] for row in players},
        game=game,
        players=ranked,
        me=seat,
        winner=final.winner,
        end=_end_text(final, gettext, shown_names(game, gettext, masks)),
        moves=len(game.steps),
        rules=rules,
        preset_title=PRESET_TITLES.get(rules.name),
    )


@router.get("/play/t/{game_id}/replay", response_class=HTMLResponse)
async def replay_page(request: Request, game_id: str, step: int = 0, racks: str = "") -> Response:
    game = await _reviewed(request, game_id)
    if isinstance(game, Response):
        return game
    gettext = translations(locale_of(request)).gettext
    last = len(game.steps)
    step = max(0, min(step, last))
    state = game.states[step]
    seat = game.seat_of(request.cookies.get(COOKIE + game_id))
    open_racks = racks == "all"
    masks = await _masks(request, game)
    players = _players(
        game, state, gettext, lambda s: open_racks or (seat is not None and s == seat), masks
    )
    move = game.steps[step - 1] if step > 0 else None
    names = shown_names(game, gettext, masks)
    said = describe(move, names, gettext, seat, open_racks) if move else []
    mover = move.move.seat if move else None
    turns = [(i + 1, names[s.move.seat]) for i, s in enumerate(game.steps)]
    return render(
        request,
        "replay.html",
        game=game,
        step=step,
        last=last,
        board=_board(state),
        players=players,
        said=said,
        mover=mover,
        pool_left=len(state.pool),
        open_racks=open_racks,
        me=seat,
        racks_query="&racks=all" if open_racks else "",
        turns=turns,
        end=_end_text(state, gettext, names),
    )


@router.get("/play/t/{game_id}/analysis", response_class=HTMLResponse)
async def analysis_page(request: Request, game_id: str) -> Response:
    game = await _reviewed(request, game_id)
    if isinstance(game, Response):
        return game
    async with game.lock:  # one analysis per game, however many ask at once
        if game.analysis is None:
            game.analysis = await asyncio.to_thread(_analyse, game)
    analysis = game.analysis
    seat = game.seat_of(request.cookies.get(COOKIE + game_id))
    masks = await _masks(request, game)
    return render(
        request,
        "analysis.html",
        game=game,
        analysis=analysis,
        me=seat,
        turns=[t.to_json() for t in analysis.turns],
        actions=ACTIONS,
        names=shown_names(game, translations(locale_of(request)).gettext, masks),
    )


def _analyse(game: Reviewed) -> Analysis:
    turns = tuple(analyse_step(s, solve) for s in game.steps)
    return Analysis(turns, summarise(turns, game.record.players))


__all__ = ["Reviewed", "describe", "router"]
