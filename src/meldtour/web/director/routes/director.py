"""The director's pages: first account, sign in and out, tournaments (from a template,
or the demo), division settings, the check-in desk, rounds (seat, close, advance),
awards and family prizes, the audit log."""

from __future__ import annotations

import re
from dataclasses import replace

import segno
from fastapi import APIRouter, Depends, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, Response
from sqlalchemy import func, select

from meldtour.store import usecases
from meldtour.store.db import Store
from meldtour.store.models import TournamentRow
from meldtour.store.repository import NotFound
from meldtour.store.templates import TEMPLATES
from meldtour.tournament import Progress, Tournament, TournamentError, awards, set_cap
from meldtour.tournament.side import family_prizes

from .. import accounts
from ..deps import (
    DirectorDep,
    Scope,
    StoreDep,
    WebDep,
    csrf_protect,
    current_account,
    end_session,
    gettext_of,
    redirect,
    render,
    start_session,
)
from ..security import MIN_PASSWORD
from ..views import KINDS, STATUS, TEMPLATE_TITLES, division_view

router = APIRouter(prefix="/director", dependencies=[Depends(csrf_protect)])

DEMO_PLAYERS = [
    ("김민준", "family:kim", 1), ("김서연", "family:kim", 2), ("김하준", "family:kim", 3),
    ("이도윤", "", None), ("박지우", "club:busan", None), ("최서준", "", None),
    ("정예준", "club:busan", None), ("강시우", "", None), ("조하은", "", None),
    ("윤지호", "", None), ("장수아", "", None), ("임지안", "", None), ("한유진", "", None),
]


def _client(request: Request) -> str:
    return "ip:" + (request.client.host if request.client else "?")


def _load(store: Store, slug: str) -> Tournament:
    try:
        return usecases.read(store, slug)
    except NotFound:
        raise HTTPException(404, f"no tournament {slug!r}") from None


def _division(t: Tournament, key: str) -> str:
    try:
        return t.division(key).key
    except TournamentError:
        raise HTTPException(404, f"no division {key!r}") from None


# ---------------------------------------------------------------- accounts


@router.get("/setup", response_class=HTMLResponse)
def setup_form(request: Request, store: StoreDep) -> Response:
    if accounts.count(store):
        return redirect(request, "/director/login")
    return render(request, "director/setup.html")


@router.post("/setup")
def setup(request: Request, web: WebDep, store: StoreDep, name: str = Form(""),
          password: str = Form(""), again: str = Form("")) -> Response:
    _ = gettext_of(request)
    name = name.strip()
    if not re.fullmatch(r"[\w.@-]{2,40}", name):
        return redirect(request, "/director/setup",
                        _("A name is 2 to 40 letters, digits, '.', '@', '-' or '_'."), "error")
    if len(password) < MIN_PASSWORD or password != again:
        return redirect(request, "/director/setup",
                        _("The password must have at least %(n)s characters, typed twice "
                          "the same.") % {"n": MIN_PASSWORD}, "error")
    try:
        account = accounts.create(store, name, password, only_if_none=True)
    except (PermissionError, ValueError):
        return redirect(request, "/director/login")
    response = redirect(request, "/director", _("Welcome, %(name)s: your director account "
                                                "is ready.") % {"name": name})
    start_session(web, response, account)
    return response


@router.get("/login", response_class=HTMLResponse)
def login_form(request: Request, store: StoreDep, next: str = "/director") -> Response:
    if not accounts.count(store):
        return redirect(request, "/director/setup")
    return render(request, "director/login.html", next=next)


@router.post("/login")
def login(request: Request, web: WebDep, store: StoreDep, name: str = Form(""),
          password: str = Form(""), next: str = Form("/director")) -> Response:
    _ = gettext_of(request)
    keys = ("name:" + name.strip().casefold(), _client(request))
    if web.throttle.blocked(*keys):
        response = render(request, "director/login.html", status_code=429, next=next,
                          error=_("Too many failed sign-ins: wait a few minutes and try "
                                  "again."))
        response.headers["Retry-After"] = str(int(web.throttle.window))
        return response
    account = accounts.authenticate(store, name.strip(), password)
    if account is None:
        web.throttle.failed(*keys)
        return render(request, "director/login.html", status_code=401, next=next,
                      error=_("That name and password do not match an account."))
    web.throttle.succeeded(*keys)
    target = next if next.startswith("/") and not next.startswith("//") else "/director"
    response = redirect(request, target)
    start_session(web, response, account)
    return response


@router.post("/logout")
def logout(request: Request, web: WebDep) -> Response:
    response = redirect(request, "/tournaments")
    end_session(web, response)
    return response


@router.post("/accounts")
def add_account(request: Request, store: StoreDep, director: DirectorDep,
                name: str = Form(""), password: str = Form("")) -> Response:
    _ = gettext_of(request)
    if not re.fullmatch(r"[\w.@-]{2,40}", name.strip()) or len(password) < MIN_PASSWORD:
        return redirect(request, "/director", _("A name is 2 to 40 letters, digits, '.', "
                                                "'@', '-' or '_'.") + " " +
                        _("The password must have at least %(n)s characters, typed twice "
                          "the same.") % {"n": MIN_PASSWORD}, "error")
    try:
        accounts.create(store, name.strip(), password)
    except ValueError:
        return redirect(request, "/director", _("There is already an account %(name)s.")
                        % {"name": name.strip()}, "error")
    return redirect(request, "/director", _("Account %(name)s created.")
                    % {"name": name.strip()})


# ---------------------------------------------------------------- tournaments


@router.get("", response_class=HTMLResponse)
def dashboard(request: Request, store: StoreDep, director: DirectorDep) -> Response:
    with store.transaction() as s:
        rows = [(r.slug, r.name, r.date) for r in s.scalars(
            select(TournamentRow).order_by(TournamentRow.id.desc()))]
    return render(request, "director/dashboard.html", account=director, tournaments=rows,
                  templates=TEMPLATE_TITLES)


@router.post("/new")
def new_tournament(request: Request, store: StoreDep, director: DirectorDep,
                   template: str = Form("busan-2015"), name: str = Form(""),
                   date: str = Form("")) -> Response:
    _ = gettext_of(request)
    if template not in TEMPLATES:
        raise HTTPException(400, "unknown template")
    name = name.strip()[:120]
    base = usecases.make_slug(name) if usecases.make_slug(name) != "tournament" else template
    with store.transaction() as s:
        taken = set(s.scalars(select(TournamentRow.slug)))
    slug = next(c for c in (base, *(f"{base}-{i}" for i in range(2, 10_000)))
                if c not in taken)
    try:
        slug, _t = usecases.create_tournament(store, template, who=director.name, name=name,
                                              date=date.strip()[:20], slug=slug)
    except usecases.UseCaseError as exc:
        return redirect(request, "/director", str(exc), "error")
    return redirect(request, f"/director/t/{slug}", _("Tournament created."))


def create_demo(store: Store, who: str) -> str:
    """The demo: the Busan template with 13 players in the general division, 12 of them
    checked in, and round 1 seated."""
    slug, _t = usecases.create_tournament(store, "busan-2015", who=who,
                                          name="Demo — KRC 2015 Busan", slug="demo")
    entries = [usecases.PlayerEntry(n, "general", (tag,) if tag else (), g)
               for n, tag, g in DEMO_PLAYERS]
    usecases.register_players(store, slug, entries, who=who)
    usecases.check_in_players(store, slug, [n for n, _tag, _g in DEMO_PLAYERS[:-1]], who=who)
    usecases.seat(store, slug, "general", None, who=who)
    return slug


@router.post("/demo")
def demo(request: Request, store: StoreDep) -> Response:
    """The demo tournament: offered to anyone while the database has no tournament,
    and to directors after that."""
    _ = gettext_of(request)
    with store.transaction() as s:
        empty = not s.scalar(select(func.count()).select_from(TournamentRow))
    account = current_account(request)
    if not empty and account is None:
        raise HTTPException(403, "sign in to create a demo")
    try:
        slug = create_demo(store, account.name if account else "demo")
    except usecases.UseCaseError as exc:
        return redirect(request, "/tournaments", str(exc), "error")
    return redirect(request, f"/t/{slug}", _("The demo tournament is ready: round 1 is "
                                             "seated."))


@router.get("/t/{slug}", response_class=HTMLResponse)
def overview(request: Request, store: StoreDep, director: DirectorDep,
             slug: str) -> Response:
    t = _load(store, slug)
    views = [division_view(t, d.key) for d in t.divisions]
    return render(request, "director/tournament.html", account=director, t=t, slug=slug,
                  views=views, kinds=KINDS)


def _act(store: Store, slug: str, who: str, action: str, step: object) -> usecases.Outcome:
    # The store's unit of work for an engine step that has no use case of its own yet.
    return usecases._act(store, slug, who, action, step)  # type: ignore[arg-type]


@router.post("/t/{slug}/d/{key}/settings")
async def division_settings(request: Request, store: StoreDep, director: DirectorDep,
                            slug: str, key: str) -> Response:
    _ = gettext_of(request)
    form = await request.form()

    def number(name: str, default: int) -> int:
        value = str(form.get(name, "")).strip()
        return int(value) if value.isdigit() else default

    def step(t: Tournament) -> Progress:
        div = t.division(key)
        if div.started:
            raise TournamentError(f"{div.name} has started: its settings are fixed")
        formats = []
        for i, f in enumerate(div.formats):
            formats.append(replace(
                f, games=number(f"games{i}", f.games), seatings=number(f"seatings{i}",
                                                                        f.seatings),
                entrants=number(f"entrants{i}", f.entrants or 0) or f.entrants,
                seating=str(form.get(f"seating{i}", f.seating))))
        apart = tuple(k for k in ("family", "club") if form.get(f"apart_{k}"))
        new = replace(div, formats=tuple(formats), keep_apart=apart,
                      groups_hard=form.get("hard") == "1",
                      eligibility=str(form.get("eligibility", div.eligibility))[:200])
        t = t.with_division(new)
        cap = number("cap", div.cap)
        if cap != div.cap:
            return set_cap(t, key, cap)
        return Progress(t)

    try:
        _act(store, slug, director.name, "edit_division", step)
    except usecases.UseCaseError as exc:
        return redirect(request, f"/director/t/{slug}#{key}", str(exc), "error")
    return redirect(request, f"/director/t/{slug}#{key}", _("Settings saved."))


# ---------------------------------------------------------------- check-in desk


@router.get("/t/{slug}/d/{key}/checkin", response_class=HTMLResponse)
def checkin_desk(request: Request, store: StoreDep, director: DirectorDep, slug: str,
                 key: str, q: str = "") -> Response:
    t = _load(store, slug)
    key = _division(t, key)
    regs = t.in_division(key)
    if q.strip():
        needle = q.strip().casefold()
        regs = tuple(r for r in regs if needle in r.name.casefold() or q.strip() == str(r.player))
    return render(request, "director/checkin.html", account=director, t=t, slug=slug,
                  view=division_view(t, key), regs=regs, q=q, status=STATUS)


@router.post("/t/{slug}/d/{key}/checkin/{player}")
def mark_present(request: Request, store: StoreDep, director: DirectorDep, slug: str,
                 key: str, player: int, q: str = Form("")) -> Response:
    _ = gettext_of(request)
    back = f"/director/t/{slug}/d/{key}/checkin" + (f"?q={q}" if q else "")
    try:
        out = usecases.check_in_players(store, slug, [str(player)], who=director.name)
    except usecases.UseCaseError as exc:
        return redirect(request, back, str(exc), "error")
    return redirect(request, back, _("%(name)s is present.")
                    % {"name": out.tournament.name_of(player)})


@router.post("/t/{slug}/d/{key}/start")
def start(request: Request, store: StoreDep, director: DirectorDep, slug: str,
          key: str) -> Response:
    _ = gettext_of(request)
    try:
        out = usecases.close_check_in(store, slug, key, who=director.name)
    except usecases.UseCaseError as exc:
        return redirect(request, f"/director/t/{slug}/d/{key}/checkin", str(exc), "error")
    dropped = len(out.tournament.in_division(key, "no_show"))
    return redirect(request, f"/director/t/{slug}#{key}",
                    _("Check-in is closed: %(n)s no-shows are not seated.") % {"n": dropped})


# ---------------------------------------------------------------- rounds


def qr_data_uri(url: str) -> str:
    return str(segno.make(url, error="m").svg_data_uri(scale=3, border=1))


@router.post("/t/{slug}/d/{key}/seat")
def seat(request: Request, store: StoreDep, director: DirectorDep, slug: str,
         key: str) -> Response:
    _ = gettext_of(request)
    try:
        usecases.seat(store, slug, key, None, who=director.name)
    except usecases.UseCaseError as exc:
        return redirect(request, f"/director/t/{slug}#{key}", str(exc), "error")
    return redirect(request, f"/director/t/{slug}/d/{key}/round", _("The round is seated."))


@router.post("/t/{slug}/d/{key}/close")
def close(request: Request, store: StoreDep, director: DirectorDep, slug: str,
          key: str) -> Response:
    _ = gettext_of(request)
    try:
        usecases.close(store, slug, key, who=director.name)
    except usecases.UseCaseError as exc:
        return redirect(request, f"/director/t/{slug}/d/{key}/round", str(exc), "error")
    return redirect(request, f"/director/t/{slug}/d/{key}/round", _("The round is closed."))


@router.post("/t/{slug}/d/{key}/advance")
def advance(request: Request, store: StoreDep, director: DirectorDep, slug: str,
            key: str) -> Response:
    _ = gettext_of(request)
    try:
        usecases.advance(store, slug, key, who=director.name)
    except usecases.UseCaseError as exc:
        return redirect(request, f"/director/t/{slug}#{key}", str(exc), "error")
    return redirect(request, f"/director/t/{slug}#{key}",
                    _("The next stage has started with the players above the cut line."))


@router.get("/t/{slug}/d/{key}/round", response_class=HTMLResponse)
def round_page(request: Request, web: WebDep, store: StoreDep, director: DirectorDep,
               slug: str, key: str) -> Response:
    t = _load(store, slug)
    key = _division(t, key)
    view = division_view(t, key)
    links = {}
    if view.round is not None:
        for table in view.round.tables:
            token = web.scorer_token(Scope(slug, key, view.stage_index, view.round.number,
                                           table.number))
            url = str(request.base_url).rstrip("/") + f"/score/{token}"
            links[table.number] = (f"/score/{token}", qr_data_uri(url))
    return render(request, "director/round.html", account=director, t=t, slug=slug,
                  view=view, links=links)


@router.post("/t/{slug}/d/{key}/award")
def award(request: Request, store: StoreDep, director: DirectorDep, slug: str,
          key: str) -> Response:
    try:
        usecases.award(store, slug, key, who=director.name)
    except usecases.UseCaseError as exc:
        return redirect(request, f"/director/t/{slug}#{key}", str(exc), "error")
    return redirect(request, f"/director/t/{slug}/d/{key}/awards")


@router.get("/t/{slug}/d/{key}/awards", response_class=HTMLResponse)
def awards_page(request: Request, store: StoreDep, director: DirectorDep, slug: str,
                key: str) -> Response:
    t = _load(store, slug)
    key = _division(t, key)
    try:
        lines = awards(t, key)
    except TournamentError as exc:
        return redirect(request, f"/director/t/{slug}#{key}", str(exc), "error")
    families = [(f, [t.name_of(p) for p in f.members]) for f in family_prizes(t)]
    return render(request, "director/awards.html", account=director, t=t, slug=slug,
                  view=division_view(t, key), lines=lines, families=families)


@router.get("/t/{slug}/audit", response_class=HTMLResponse)
def audit(request: Request, store: StoreDep, director: DirectorDep, slug: str) -> Response:
    _load(store, slug)
    lines = usecases.audit_log(store, slug)[::-1]
    return render(request, "director/audit.html", account=director, slug=slug, lines=lines)
