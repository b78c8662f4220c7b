"""A round's flow: seat, lock, reseat, close, advance; the round page; the awards and
family prizes.

Every change goes through a use case of :mod:`meldtour.application`; its refusal
is shown in the reader's language (:func:`..views.refusal_text`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, Response

from meldtour import application as usecases
from meldtour.application import clock as clock_uc
from meldtour.application import refused as refused_uc
from meldtour.application.awards import MAX_SIGNERS
from meldtour.tournament import TournamentError, awards, final_ranking
from meldtour.tournament.prizes import PlacePrize, title_of
from meldtour.tournament.side import family_prizes

from ...address import public_url
from ...deps import load_tournament
from ...views import TABLE_STATES, division_view, family_event, points_text
from ..audit_words import local_time, who_text
from ..deps import (
    Scope,
    StoreDep,
    TournamentDirectorDep,
    WebDep,
    acting,
    csrf_protect,
    gettext_of,
    redirect,
    render,
)
from ..rounds_view import actions as round_actions
from .common import division_or_404, qr_data_uri, refused, tournament_zone

router = APIRouter(prefix="/director", dependencies=[Depends(csrf_protect)])


def _step(
    request: Request, run: Callable[[], object], done: str, back: str, refused_back: str = ""
) -> Response:
    """Run one of the round's steps: back to ``back`` saying ``done``, or, refused, to
    ``refused_back`` (else ``back``) saying why in the reader's words."""
    try:
        run()
    except usecases.UseCaseError as exc:
        return redirect(request, refused_back or back, refused(request, exc), "error")
    return redirect(request, back, done)


@router.post("/t/{slug}/d/{key}/seat")
def seat(
    request: Request, store: StoreDep, director: TournamentDirectorDep, slug: str, key: str
) -> Response:
    _ = gettext_of(request)
    return _step(
        request,
        lambda: usecases.seat(store, slug, key, None, who=acting(director)),
        _("The round is seated."),
        f"/director/t/{slug}/d/{key}/round",
        f"/director/t/{slug}#{key}",
    )


@router.post("/t/{slug}/d/{key}/lock")
def lock(
    request: Request, store: StoreDep, director: TournamentDirectorDep, slug: str, key: str
) -> Response:
    """Lock the current round's seating: it is never reseated after this."""
    _ = gettext_of(request)
    return _step(
        request,
        lambda: usecases.lock_seating(store, slug, key, who=acting(director)),
        _("The seating is locked."),
        f"/director/t/{slug}/d/{key}/round",
    )


@router.post("/t/{slug}/d/{key}/reseat")
def reseat(
    request: Request, store: StoreDep, director: TournamentDirectorDep, slug: str, key: str
) -> Response:
    """Seat the current round again (after a drop or a late entry), until locked."""
    _ = gettext_of(request)
    return _step(
        request,
        lambda: usecases.reseat(store, slug, key, who=acting(director)),
        _("The round is seated again."),
        f"/director/t/{slug}/d/{key}/round",
    )


@router.post("/t/{slug}/d/{key}/close")
def close(
    request: Request, store: StoreDep, director: TournamentDirectorDep, slug: str, key: str
) -> Response:
    _ = gettext_of(request)
    return _step(
        request,
        lambda: usecases.close(store, slug, key, who=acting(director)),
        _("The round is closed."),
        f"/director/t/{slug}/d/{key}/round",
    )


@router.post("/t/{slug}/d/{key}/advance")
def advance(
    request: Request, store: StoreDep, director: TournamentDirectorDep, slug: str, key: str
) -> Response:
    _ = gettext_of(request)
    return _step(
        request,
        lambda: usecases.advance(store, slug, key, who=acting(director)),
        _("The next stage has started with the players above the cut line."),
        f"/director/t/{slug}#{key}",
    )


@router.get("/t/{slug}/d/{key}/round", response_class=HTMLResponse)
def round_page(
    request: Request,
    web: WebDep,
    store: StoreDep,
    director: TournamentDirectorDep,
    slug: str,
    key: str,
) -> Response:
    t = load_tournament(store, slug)
    key = division_or_404(t, key)
    view = division_view(t, key)
    links = {}
    if view.round is not None:
        for table in view.round.tables:
            token = web.scorer_token(
                Scope(slug, key, view.stage_index, view.round.number, table.number)
            )
            url = public_url(request, f"/score/{token}")
            links[table.number] = (f"/score/{token}", qr_data_uri(url))
    lock = None
    entered = False
    if view.round is not None:
        lock = usecases.round_locks(store, slug).get((key, view.stage_index, view.round.number))
        entered = any(x.sheet.entered_by is not None for x in view.round.tables)
    # Who locked it, as the subject of the sentence, and when, at the local time.
    locked_at = (
        local_time(lock.at, tournament_zone(request, store, slug), with_date=False)
        if lock is not None
        else ""
    )
    locked_by = who_text(lock.by, gettext_of(request)) if lock is not None else ""
    zone = tournament_zone(request, store, slug)
    gettext = gettext_of(request)
    # What a refused phone entered (another phone saved first), by table, with who
    # and when in the reader's words, next to the sheet as it stands.
    refusals = {
        n: RefusedView(
            e,
            who_text(e.who, gettext),
            local_time(e.at, zone, with_date=False, seconds=True),
            [list(g.points) for g in e.games],
        )
        for n, e in refused_uc.refused_entries(store, slug, key).items()
    }
    return render(
        request,
        "director/round.html",
        account=director,
        t=t,
        slug=slug,
        view=view,
        links=links,
        lock=lock,
        entered=entered,
        locked_at=locked_at,
        locked_by=locked_by,
        refusals=refusals,
        board=usecases.round_state(store, slug, key),
        states=TABLE_STATES,
        acts=round_actions(t, key, gettext_of(request)),
        points_text=points_text,
        clocks=clock_uc.round_clocks(
            store, clock_uc.TableAt(slug, key, view.stage_index, view.round.number, 0)
        )
        if view.round is not None
        else {},
    )


@dataclass(frozen=True)
class RefusedView:
    """A refused entry on the round page: the entry, who sent it and when (the
    reader's words), and its points per game and seat."""

    entry: refused_uc.RefusedEntry
    who: str
    at: str
    points: list[list[int | None]]


@router.post("/t/{slug}/d/{key}/table/{table}/refused/{entry}/take")
def take_refused(
    request: Request,
    store: StoreDep,
    director: TournamentDirectorDep,
    slug: str,
    key: str,
    table: int,
    entry: int,
) -> Response:
    """Take what the refused device entered as the table's sheet: on a counted sheet a
    correction, its reason saying whose entry it was."""
    _ = gettext_of(request)
    back = f"/director/t/{slug}/d/{key}/round#table-{table}"
    try:
        got = refused_uc.refused_entries(store, slug, key).get(table)
        at = local_time(got.at, tournament_zone(request, store, slug)) if got else ""
        out = refused_uc.take_refused(
            store,
            slug,
            key,
            table,
            entry,
            who=acting(director),
            why=_("Took the refused entry sent at %(at)s") % {"at": at},
        )
    except usecases.UseCaseError as exc:
        return redirect(request, back, refused(request, exc), "error")
    if not out.counted:
        return redirect(
            request,
            back,
            _("The refused entry is saved as a draft: a check fails, the sheet is not counted."),
            "error",
        )
    return redirect(request, back, _("The refused entry is now the table's counted sheet."))


@router.post("/t/{slug}/d/{key}/table/{table}/refused/{entry}/dismiss")
def dismiss_refused(
    request: Request,
    store: StoreDep,
    director: TournamentDirectorDep,
    slug: str,
    key: str,
    table: int,
    entry: int,
) -> Response:
    """Set what the refused device entered aside: the sheet stands."""
    _ = gettext_of(request)
    back = f"/director/t/{slug}/d/{key}/round#table-{table}"
    try:
        refused_uc.dismiss_refused(store, slug, key, table, entry, who=acting(director))
    except usecases.UseCaseError as exc:
        return redirect(request, back, refused(request, exc), "error")
    return redirect(request, back, _("The refused entry is set aside; the sheet stands."))


#: The minutes a game is expected to take, unless the director sets it on the page.
PER_GAME_MINUTES = 20


@dataclass(frozen=True)
class Tile:
    """A table on the head table's status screen: its number, players' names, state,
    minutes since the round was seated (or since the table's last save), and late."""

    number: int
    names: list[str]
    state: str
    entered: int
    games: int
    minutes: int | None
    since_save: bool
    late: bool


def _minutes(at: str | None, now: str) -> int | None:
    if not at:
        return None
    try:
        a = datetime.fromisoformat(at.replace("Z", "+00:00"))
        b = datetime.fromisoformat(now.replace("Z", "+00:00"))
    except ValueError:
        return None
    if a.tzinfo is None:
        a = a.replace(tzinfo=UTC)
    return max(0, int((b - a).total_seconds() // 60))


@router.get("/t/{slug}/d/{key}/status", response_class=HTMLResponse)
def status_page(
    request: Request,
    store: StoreDep,
    director: TournamentDirectorDep,
    slug: str,
    key: str,
    per_game: str = "",
) -> Response:
    """The current round on one screen for a tablet at the head table: every table as
    a tile with its state and the minutes since the round was seated (or the table's
    last save); a table still playing after ``per_game`` minutes a game is late. The
    page fetches itself again every 15 seconds."""
    t = load_tournament(store, slug)
    key = division_or_404(t, key)
    typed = per_game.strip()
    # A threshold that is not a number of minutes (1 to 240) is the default's.
    ok = typed.isascii() and typed.isdigit() and len(typed) <= 3
    per = int(typed) if ok and 1 <= int(typed) <= 240 else PER_GAME_MINUTES
    status = refused_uc.round_status(store, slug, key)
    tiles: list[Tile] = []
    seated = None
    if status is not None:
        seated = _minutes(status.seated_at, status.at)
        for x in status.tables:
            saved = _minutes(x.saved_at, status.at)
            playing = x.state not in ("counted",)
            late = playing and seated is not None and seated > per * x.games
            tiles.append(
                Tile(
                    x.number,
                    [t.name_of(p) for p in x.players],
                    x.state,
                    x.entered,
                    x.games,
                    saved if saved is not None else seated,
                    saved is not None,
                    late,
                )
            )
    order = {"conflict": 0, "empty": 1, "draft": 2, "counted": 3}
    return render(
        request,
        "director/status.html",
        account=director,
        t=t,
        slug=slug,
        view=division_view(t, key),
        status=status,
        tiles=tiles,
        late=sum(1 for x in tiles if x.late),
        counts={s: sum(1 for x in tiles if x.state == s) for s in order},
        seated=seated,
        per_game=per,
        states=TABLE_STATES,
    )


@router.post("/t/{slug}/d/{key}/award")
def award(
    request: Request, store: StoreDep, director: TournamentDirectorDep, slug: str, key: str
) -> Response:
    try:
        usecases.award(store, slug, key, who=acting(director))
    except usecases.UseCaseError as exc:
        return redirect(request, f"/director/t/{slug}#{key}", refused(request, exc), "error")
    return redirect(request, f"/director/t/{slug}/d/{key}/awards")


@dataclass(frozen=True)
class AwardRow:
    """A line of the awards list: the place, the player, the wins and points behind
    the place (none for a knockout's), and the place's prize."""

    place: int
    player: int
    name: str
    wins: int | None
    points: int | None
    prize: str


#: Empty prize lines the awards page offers after those set.
SPARE_PRIZE_LINES = 3


@router.get("/t/{slug}/d/{key}/awards", response_class=HTMLResponse)
def awards_page(
    request: Request, store: StoreDep, director: TournamentDirectorDep, slug: str, key: str
) -> Response:
    """The division's places with their wins, points and prizes (once it is
    finished), the prize of each place or range of places, and the certificates'
    signer lines (both may be set before the day ends)."""
    t = load_tournament(store, slug)
    key = division_or_404(t, key)
    said = usecases.award_settings(store, slug, key)
    rows: list[AwardRow] = []
    finished = True
    try:
        placed = awards(t, key)
    except TournamentError:
        placed, finished = (), False
    if placed:
        lines = {p.player: p.standing for p in final_ranking(t, key)}
        for a in placed:
            line = lines.get(a.player)
            rows.append(
                AwardRow(
                    a.place,
                    a.player,
                    a.name,
                    line.wins if line else None,
                    line.points if line else None,
                    title_of(said.prizes, a.place),
                )
            )
    families = [(f, [t.name_of(p) for p in f.members]) for f in family_prizes(t)]
    _ = gettext_of(request)
    director_word, referee_word = _("Tournament director"), _("Chief referee")
    spare = [PlacePrize(0, 0, "")] * SPARE_PRIZE_LINES
    return render(
        request,
        "director/awards.html",
        account=director,
        t=t,
        slug=slug,
        view=division_view(t, key),
        lines=rows,
        finished=finished,
        families=families,
        prize_lines=list(said.prizes) + spare,
        signers=list(said.signers) + [""] * (MAX_SIGNERS - len(said.signers)),
        default_signers=[f"{t.name} {director_word}", referee_word],
        family_event=family_event(t),
    )


def _place(text: str) -> int:
    text = text.strip()
    return int(text) if text.isdigit() and len(text) <= 4 else -1


@router.post("/t/{slug}/d/{key}/prizes")
def prizes_post(
    request: Request,
    store: StoreDep,
    director: TournamentDirectorDep,
    slug: str,
    key: str,
    first: Annotated[list[str] | None, Form()] = None,
    last: Annotated[list[str] | None, Form()] = None,
    title: Annotated[list[str] | None, Form()] = None,
) -> Response:
    """The prize of each place or range of places: a line's places are its first and
    last (the last may be left empty: one place); a line without a title is left out."""
    lines: list[tuple[int, int, str]] = []
    rows = zip(first or [], last or [], title or [], strict=False)
    for a, b, text in list(rows)[:50]:
        if not text.strip():
            continue
        lines.append((_place(a), _place(b) if b.strip() else _place(a), text[:200]))
    page = f"/director/t/{slug}/d/{key}/awards#prizes"
    try:
        usecases.set_prizes(store, slug, key, lines, who=acting(director))
    except usecases.UseCaseError as exc:
        return redirect(request, page, refused(request, exc), "error")
    _ = gettext_of(request)
    return redirect(request, page, _("The prizes are saved."))


@router.post("/t/{slug}/d/{key}/signers")
def signers_post(
    request: Request,
    store: StoreDep,
    director: TournamentDirectorDep,
    slug: str,
    key: str,
    signer: Annotated[list[str] | None, Form()] = None,
) -> Response:
    """The certificates' signer lines (the tournament's: every division's
    certificates carry them)."""
    page = f"/director/t/{slug}/d/{key}/awards#signers"
    try:
        usecases.set_signers(
            store, slug, [x[:200] for x in (signer or [])[:10]], who=acting(director)
        )
    except usecases.UseCaseError as exc:
        return redirect(request, page, refused(request, exc), "error")
    _ = gettext_of(request)
    return redirect(request, page, _("The signer lines are saved."))
