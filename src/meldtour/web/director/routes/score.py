"""Score entry for one table: the scorer's link from the printed sheet (a signed token
that opens that table only) or the director. The form asks the engine to check the
rows as they are typed; a save goes through the store's use case with the version the
device read, so a conflict with another device is shown and nothing typed is lost."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from meldtour import application as usecases
from meldtour.application import accounts
from meldtour.application.circuit.results import AwardsWouldChange, Reaward
from meldtour.store.errors import NotFound, SheetConflict
from meldtour.tournament import Problem, ScoreSheet, TournamentError
from meldtour.tournament.sheets import check_game, enter_game
from meldtour.tournament.stages import table_sheet
from meldtour.web.limits import TooLarge, parse_json

from ...i18n import N_
from ...views import points_text, problem_data, refusal_text
from ..accounts import Account
from ..deps import Scope, StoreDep, WebDep, csrf_protect, current_account, gettext_of, render

router = APIRouter(dependencies=[Depends(csrf_protect)])


def _scope(web: WebDep, token: str) -> Scope:
    scope = web.scope_of(token)
    if scope is None:
        raise HTTPException(
            404,
            N_(
                "This score-entry link is not valid: scan the QR code "
                "on the printed sheet again, or ask the director for "
                "the table's link."
            ),
        )
    return scope


def _sheet(store: StoreDep, scope: Scope) -> tuple[Any, ScoreSheet, int]:
    """The tournament, the table's sheet and its version, from one read of the
    tournament (the process's snapshot while the tournament has not changed)."""
    try:
        snap = usecases.snapshot(store, scope.slug)
        t = snap.tournament
        sheet = table_sheet(t, scope.division, scope.round, scope.table, scope.stage)
        version = snap.versions[(scope.division, scope.stage, scope.round, scope.table)]
    except (NotFound, usecases.UseCaseError, TournamentError, KeyError, IndexError, ValueError):
        raise HTTPException(
            404,
            N_(
                "This table is not in the tournament any more (the round "
                "was seated again?): ask the director for the new "
                "sheet."
            ),
        ) from None
    return t, sheet, version


def _place(n: int | None) -> str:
    return "—" if n is None else str(n)


def reaward_lines(r: Reaward, _: Any) -> list[str]:
    """What a correction to an awarded division changes, one sentence a line, in the
    reader's language."""
    out = [
        _("Place: %(name)s (#%(number)s) %(before)s → %(after)s")
        % {"name": p.name, "number": p.number, "before": _place(p.before), "after": _place(p.after)}
        for p in r.places
    ]
    out += [
        _("Prize %(place)s: %(before)s → %(after)s")
        % {"place": z.place, "before": z.before or "—", "after": z.after or "—"}
        for z in r.prizes
    ]
    out += [
        _("Qualification %(label)s (%(to)s): loses %(lost)s; gains %(gained)s")
        % {
            "label": q.label,
            "to": ", ".join(q.leads_to) or "—",
            "lost": ", ".join(q.lost) or "—",
            "gained": ", ".join(q.gained) or "—",
        }
        for q in r.seats
    ]
    out += [
        _("Ranking %(ranking)s: %(name)s %(before)s → %(after)s points")
        % {
            "ranking": x.ranking,
            "name": x.name,
            "before": f"{x.before:.2f}",
            "after": f"{x.after:.2f}",
        }
        for x in r.points
    ]
    out += [
        _("Certificate printed, now superseded: place %(place)s, %(name)s")
        % {"place": place, "name": name}
        for place, name in r.superseded
    ]
    return out


def _games(sheet: ScoreSheet) -> list[dict[str, Any]]:
    return [
        {"points": list(g.points), "penalties": list(g.penalties), "winner": g.winner}
        for g in sheet.games
    ]


def _director(request: Request, store: StoreDep, slug: str) -> Account | None:
    """The signed-in account if it directs this tournament
    (:func:`meldtour.application.accounts.may_direct`), else None: a director of another
    tournament holding the link is only its scorer."""
    account = current_account(request)
    return account if account is not None and accounts.may_direct(store, slug, account.id) else None


@router.get("/score/{token}", response_class=HTMLResponse)
def score_form(request: Request, web: WebDep, store: StoreDep, token: str) -> Response:
    scope = _scope(web, token)
    t, sheet, version = _sheet(store, scope)
    div = t.division(scope.division)
    stage = div.stages[scope.stage]
    director = _director(request, store, scope.slug)
    return render(
        request,
        "public/score.html",
        t=t,
        div=div,
        stage=stage,
        scope=scope,
        sheet=sheet,
        version=version,
        token=token,
        names=[t.name_of(p) for p in sheet.players],
        games=_games(sheet),
        penalties=div.rules.failed_turn_points > 0,
        penalty_points=div.rules.failed_turn_points,
        counted=sheet.counted is not None,
        director=director is not None,
        points_text=points_text,
    )


def _entries(body: Any, seats: int, count: int) -> list[usecases.GameEntry]:
    games = body.get("games") if isinstance(body, dict) else None
    if not isinstance(games, list) or len(games) != count:
        raise HTTPException(400, "games: one row per game")
    out = []
    for i, g in enumerate(games, 1):
        if not isinstance(g, dict):
            raise HTTPException(400, "a game is an object")
        pts = g.get("points")
        pen = g.get("penalties") or [0] * seats
        win = g.get("winner")
        if not (
            isinstance(pts, list)
            and len(pts) == seats
            and all(p is None or _whole(p) for p in pts)
            and isinstance(pen, list)
            and len(pen) == seats
            and all(_whole(p) for p in pen)
            and (win is None or (type(win) is int and 1 <= win <= seats))
        ):
            raise HTTPException(400, f"game {i}: points and penalties per seat, a winner seat")
        out.append(usecases.GameEntry(i, tuple(pts), tuple(pen), win))
    return out


def _whole(value: Any) -> bool:
    """A score or a penalty: a whole number, strictly (``true`` is not 1), of sane size."""
    return type(value) is int and abs(value) < 10_000


async def _body(request: Request) -> Any:
    """The sheet's JSON: its size is bounded (``web.limits.BodyLimit``) and it is parsed
    off the event loop, refusing deep nesting before the parser sees it."""
    raw = await request.body()
    try:
        return await run_in_threadpool(parse_json, raw)
    except TooLarge as exc:
        raise HTTPException(413, str(exc)) from None
    except (ValueError, RecursionError):  # not JSON (or not UTF-8)
        raise HTTPException(400, "the sheet is sent as a JSON object") from None


@router.post("/score/{token}/check")
async def check(request: Request, web: WebDep, store: StoreDep, token: str) -> Response:
    """The engine's checks on the rows as typed; nothing is saved."""
    scope = _scope(web, token)
    body = await _body(request)
    return await run_in_threadpool(_check, request, store, scope, body)


def _check(request: Request, store: StoreDep, scope: Scope, body: Any) -> Response:
    t, sheet, _version = _sheet(store, scope)
    rules = t.division(scope.division).rules
    entries = _entries(body, len(sheet.players), len(sheet.games))
    _ = gettext_of(request)
    problems: list[Problem] = []
    for e in entries:
        if all(p is None for p in e.points) and e.winner is None:
            continue
        sheet, _p = enter_game(
            sheet,
            e.game,
            e.points,
            winner=e.winner,
            penalties=e.penalties,
            rules=rules,
            who="check",
        )
        complete = all(p is not None for p in e.points)
        problems.extend(check_game(sheet, e.game, rules, complete=complete))
    return JSONResponse({"problems": [problem_data(p, _) for p in problems]})


@router.post("/score/{token}")
async def save(request: Request, web: WebDep, store: StoreDep, token: str) -> Response:
    scope = _scope(web, token)
    body = await _body(request)
    # The store's work in a worker thread, so that the event loop — every live standings
    # stream and game socket of this process — goes on meanwhile.
    return await run_in_threadpool(_save, request, store, scope, body)


def _save(request: Request, store: StoreDep, scope: Scope, body: Any) -> Response:
    _t, sheet, _current = _sheet(store, scope)
    entries = _entries(body, len(sheet.players), len(sheet.games))
    version = body.get("version")
    why = str(body.get("why") or "").strip()[:300]
    _ = gettext_of(request)
    director = _director(request, store, scope.slug)
    # A scorer's save over a counted sheet is refused by the use case itself (in its
    # transaction), which hands back the counted sheet and keeps what was typed.
    if sheet.counted is not None and director is not None and not why:
        return JSONResponse({"error": _("A correction needs a reason.")}, status_code=400)
    who = director.name if director else f"scorer:table {scope.table}"
    reaward = director is not None and body.get("reaward") is True
    try:
        out = usecases.enter_sheet(
            store,
            scope.slug,
            scope.division,
            scope.round,
            scope.table,
            entries,
            who=who,
            why=why,
            version=version if isinstance(version, int) else None,
            stage=scope.stage + 1,
            may_correct=director is not None,
            reaward=reaward,
        )
    except AwardsWouldChange as change:  # awarded: what changes, saved on confirmation
        return JSONResponse(
            {
                "reaward": True,
                "error": refusal_text(change, _),
                "message": _(
                    "This division is awarded: the correction changes what is "
                    "published. Nothing is saved until you confirm; confirmed, the "
                    "division is awarded again."
                ),
                "lines": reaward_lines(change.reaward, _) if change.reaward else [],
            },
            status_code=409,
        )
    except usecases.CountedSheet as counted:  # counted since the sheet above was read
        # The sheet as counted comes back: the page marks what differs from what was
        # typed here (and the director's round page shows the table as a conflict).
        theirs = counted.theirs
        return JSONResponse(
            {
                "error": _("This sheet is counted: only the director can correct it."),
                "counted": True,
                "message": _(
                    "This sheet was counted already, from another device. What "
                    "differs from what you typed is marked; tell the director if the "
                    "counted sheet is wrong."
                ),
                "theirs": _games(theirs) if theirs is not None else None,
            },
            status_code=403,
        )
    except SheetConflict as conflict:
        theirs = conflict.theirs
        return JSONResponse(
            {
                "conflict": True,
                "message": _(
                    "Another device saved this sheet while you were typing. Nothing "
                    "was saved; what you typed is still here. Compare with the sheet "
                    "as saved, then save again."
                ),
                "version": conflict.current,
                "theirs": _games(theirs) if theirs is not None else None,
            },
            status_code=409,
        )
    except usecases.UseCaseError as exc:
        return JSONResponse({"error": refusal_text(exc, _)}, status_code=400)
    # The sheet as the save left it, from the save's own transaction (a round closed
    # before it made the sheet counted: the use case read that, under its lock).
    now = out.sheet
    # A game not played yet (a final entered game by game) is no problem to show: its
    # empty cells are not red, only the games typed so far are checked.
    unplayed = {
        g
        for g, line in enumerate(now.games, 1)
        if all(p is None for p in line.points) and line.winner is None
    }
    return JSONResponse(
        {
            "counted": out.counted,
            "version": out.version,
            "problems": [problem_data(p, _) for p in out.problems if p.cell.game not in unplayed],
            "message": (
                _("Saved and counted.")
                if out.counted
                else _("Saved as a draft: it is not counted until every check passes.")
            )
            + ("" if not out.reawards else " " + _("The division is awarded again.")),
            "reawarded": [line for r in out.reawards for line in reaward_lines(r, _)],
            "games": _games(now),
        }
    )
