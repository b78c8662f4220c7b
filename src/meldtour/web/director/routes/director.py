"""The director's pages: first account, sign in and out, tournaments (from a template,
from scratch, or the demo), the tournament's details and its divisions' settings, the
check-in desk (withdraw, drop, late entry), rounds (seat, lock, reseat, close,
advance), the winner-guess vote, awards and family prizes, the audit log.

Every change goes through a use case of :mod:`meldtour.application`; its refusal
is shown in the reader's language (:func:`..views.refusal_text`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from zoneinfo import ZoneInfo

import segno
from fastapi import APIRouter, Depends, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, Response
from starlette.datastructures import FormData

from meldtour import application as usecases
from meldtour.application import circuit
from meldtour.application import clock as clock_uc
from meldtour.core.refusal import render as render_refusal
from meldtour.core.rules import PRESETS
from meldtour.store import owners
from meldtour.store.db import Store
from meldtour.tournament import StageFormat, Tournament, TournamentError, awards
from meldtour.tournament.seating import SEATERS, seaters_for
from meldtour.tournament.side import family_prizes
from meldtour.tournament.templates import TEMPLATES, from_template

from ...address import address_notice, public_url
from ...deps import FormDep, client_of, load_tournament
from .. import accounts
from ..audit_words import audit_lines, local_time, who_text, zone_name, zone_of
from ..deps import (
    DirectorDep,
    Scope,
    StoreDep,
    TournamentDirectorDep,
    WebDep,
    csrf_protect,
    current_account,
    end_session,
    gettext_of,
    locale_of,
    redirect,
    render,
    start_session,
)
from ..rounds_view import MODES, STEPS, THREE_TABLE, TIE_BREAKS
from ..rounds_view import actions as round_actions
from ..security import MIN_PASSWORD
from ..views import (
    KINDS,
    STATUS,
    TABLE_STATES,
    TEMPLATE_TITLES,
    division_view,
    points_text,
    refusal_text,
)

router = APIRouter(prefix="/director", dependencies=[Depends(csrf_protect)])

DEMO_PLAYERS = [
    ("김민준", "family:kim", 1),
    ("김서연", "family:kim", 2),
    ("김하준", "family:kim", 3),
    ("이도윤", "", None),
    ("박지우", "club:busan", None),
    ("최서준", "", None),
    ("정예준", "club:busan", None),
    ("강시우", "", None),
    ("조하은", "", None),
    ("윤지호", "", None),
    ("장수아", "", None),
    ("임지안", "", None),
    ("한유진", "", None),
]


def tournament_zone(request: Request, store: Store, slug: str) -> ZoneInfo:
    """The tournament's time zone: its template's place, else the site's
    (``MELDTOUR_TIME_ZONE``)."""
    settings = request.app.state.settings
    return zone_of(usecases.info(store, slug).template, settings.time_zone, settings.default_locale)


def _division(t: Tournament, key: str) -> str:
    try:
        return t.division(key).key
    except TournamentError as exc:
        raise HTTPException(404, exc.refusal) from None


# ---------------------------------------------------------------- accounts


@router.get("/setup", response_class=HTMLResponse)
def setup_form(request: Request, store: StoreDep) -> Response:
    if accounts.count(store):
        return redirect(request, "/director/login")
    return render(request, "director/setup.html")


@router.post("/setup")
def setup(
    request: Request,
    web: WebDep,
    store: StoreDep,
    name: str = Form(""),
    password: str = Form(""),
    again: str = Form(""),
) -> Response:
    _ = gettext_of(request)
    name = name.strip()
    if not re.fullmatch(r"[\w.@-]{2,40}", name):
        return redirect(
            request,
            "/director/setup",
            _("A name is 2 to 40 letters, digits, '.', '@', '-' or '_'."),
            "error",
        )
    if len(password) < MIN_PASSWORD or password != again:
        return redirect(
            request,
            "/director/setup",
            _("The password must have at least %(n)s characters, typed twice the same.")
            % {"n": MIN_PASSWORD},
            "error",
        )
    try:
        account = accounts.create(store, name, password, only_if_none=True)
    except (PermissionError, ValueError):
        return redirect(request, "/director/login")
    response = redirect(
        request,
        "/director",
        _("Welcome, %(name)s: your director account is ready.") % {"name": name},
    )
    start_session(web, response, account)
    return response


@router.get("/login", response_class=HTMLResponse)
def login_form(request: Request, store: StoreDep, next: str = "/director") -> Response:
    if not accounts.count(store):
        return redirect(request, "/director/setup")
    return render(request, "director/login.html", next=next)


@router.post("/login")
def login(
    request: Request,
    web: WebDep,
    store: StoreDep,
    name: str = Form(""),
    password: str = Form(""),
    next: str = Form("/director"),
) -> Response:
    _ = gettext_of(request)
    # Per address and per (account, address): never the account alone, so failures
    # from elsewhere cannot lock its owner out (web/director/security.py).
    client = "ip:" + client_of(request)
    keys = (client, f"name:{name.strip().casefold()}|{client}")
    if web.throttle.blocked(*keys):
        response: Response = render(
            request,
            "director/login.html",
            status_code=429,
            next=next,
            error=_("Too many failed sign-ins: wait a few minutes and try again."),
        )
        response.headers["Retry-After"] = str(int(web.throttle.window))
        return response
    try:
        account = accounts.authenticate(store, name.strip(), password)
    except usecases.UseCaseError as exc:  # disabled by the administrator
        return render(
            request, "director/login.html", status_code=403, next=next, error=_refused(request, exc)
        )
    if account is None:
        web.throttle.failed(*keys)
        return render(
            request,
            "director/login.html",
            status_code=401,
            next=next,
            error=_("That name and password do not match an account."),
        )
    web.throttle.succeeded(*keys)
    target = next if next.startswith("/") and not next.startswith("//") else "/director"
    response = redirect(request, target)
    start_session(web, response, account)
    return response


@router.post("/logout")
def logout(request: Request, web: WebDep) -> Response:
    response = redirect(request, "/tournaments")
    end_session(web, response, request)
    return response


@router.post("/accounts")
def add_account(
    request: Request,
    store: StoreDep,
    director: DirectorDep,
    name: str = Form(""),
    password: str = Form(""),
) -> Response:
    _ = gettext_of(request)
    if owners.administrator_id(store) != director.id:
        raise HTTPException(
            403, _("Only the site's administrator (the first account) creates accounts.")
        )
    if not re.fullmatch(r"[\w.@-]{2,40}", name.strip()) or len(password) < MIN_PASSWORD:
        return redirect(
            request,
            "/director",
            _("A name is 2 to 40 letters, digits, '.', '@', '-' or '_'.")
            + " "
            + _("The password must have at least %(n)s characters, typed twice the same.")
            % {"n": MIN_PASSWORD},
            "error",
        )
    try:
        accounts.create(store, name.strip(), password)
    except ValueError:
        return redirect(
            request,
            "/director",
            _("There is already an account %(name)s.") % {"name": name.strip()},
            "error",
        )
    return redirect(request, "/director", _("Account %(name)s created.") % {"name": name.strip()})


# ---------------------------------------------------------------- tournaments


@router.get("", response_class=HTMLResponse)
def dashboard(request: Request, store: StoreDep, director: DirectorDep) -> Response:
    rows = owners.tournaments_of(store, director.id)
    return render(
        request,
        "director/dashboard.html",
        account=director,
        tournaments=rows,
        address=address_notice(request, store),
        admin=owners.administrator_id(store) == director.id,
        templates=TEMPLATE_TITLES,
        presets=list(PRESETS),
    )


def _refused(request: Request, exc: Exception) -> str:
    return refusal_text(exc, gettext_of(request))


def _text(form: FormData, name: str, default: str = "", limit: int = 200) -> str:
    value = form.get(name)
    return " ".join(value.split())[:limit] if isinstance(value, str) else default


def _number(form: FormData, name: str, default: int) -> int:
    value = _text(form, name)
    return int(value) if value.isdigit() and len(value) < 6 else default


def _stage(
    form: FormData, i: str, old: StageFormat | None = None, rankings: Sequence[str] = ()
) -> StageFormat | None:
    """A stage format from the fields ``kind{i}``, ``games{i}`` ... (``None``: no
    stage asked for, or removed). Seeded by ranking, ``ranking{i}`` names the ranking
    (one of ``rankings``; none: the first)."""
    kind = _text(form, f"kind{i}", old.kind if old else "")
    if not kind or form.get(f"remove{i}"):
        return None
    base = old if old is not None and old.kind == kind else None
    seating = _text(form, f"seating{i}", base.seating if base else "random")
    method = SEATERS.get(seating)
    if method is not None and kind not in method.kinds:  # snake seeding: knockouts only
        seating = "random"
    entrants = _number(form, f"entrants{i}", (base.entrants if base else None) or 4)
    seed_ranking = ""
    if seating == "by-ranking":
        seed_ranking = _text(form, f"ranking{i}", base.seed_ranking if base else "", 100)
        if seed_ranking and seed_ranking not in rankings:
            raise usecases.UseCaseError(
                "circuit.no_ranking",
                key=repr(seed_ranking),
                keys=", ".join(rankings) or circuit.DEFAULT_RANKING,
            )
    return StageFormat(
        kind,  # type: ignore[arg-type]
        games=_number(form, f"games{i}", base.games if base else 1),
        seatings=_number(form, f"seatings{i}", base.seatings if base else 1)
        if kind == "seatings"
        else 1,
        advance=_number(form, f"advance{i}", base.advance if base else 2),
        entrants=entrants if kind == "final" else None,
        carry=bool(form.get(f"carry{i}")) if kind == "final" else False,
        seating=seating,
        final_games=_number(form, f"final_games{i}", (base.final_games if base else 1) or 1)
        if kind == "knockout"
        else None,
        name=_text(form, f"title{i}", base.name if base else "", 60),
        seed_ranking=seed_ranking,
    )


def _free_slug(store: Store, name: str, fallback: str) -> str:
    made = usecases.make_slug(name)
    base = made if made != "tournament" else fallback
    taken = usecases.slugs(store)
    return next(c for c in (base, *(f"{base}-{i}" for i in range(2, 10_000))) if c not in taken)


@router.post("/new-blank")
def new_blank_tournament(
    request: Request, store: StoreDep, director: DirectorDep, form: FormDep
) -> Response:
    """A tournament from scratch: its details and its first division."""
    _ = gettext_of(request)
    name = _text(form, "name", limit=120)
    division = _text(form, "division", limit=80) or _("Main division")
    key = usecases.make_key(division)[:40]
    if key == "tournament":
        key = "main"
    try:
        stages = [f for f in (_stage(form, "0"), _stage(form, "1")) if f is not None]
        spec = usecases.DivisionSpec(
            key,
            division,
            _number(form, "cap", 32),
            _text(form, "rules", "standard"),
            tuple(stages),
            eligibility=_text(form, "eligibility"),
            late_entry=bool(form.get("late_entry")),
        )
        slug, _t = usecases.create_blank_tournament(
            store,
            who=director.name,
            name=name,
            date=_text(form, "date", limit=20),
            venue=_text(form, "venue"),
            divisions=[spec],
            slug=_free_slug(store, name, "tournament"),
            owner=director.id,
        )
    except (usecases.UseCaseError, TournamentError) as exc:
        return redirect(request, "/director", _refused(request, exc), "error")
    return redirect(request, f"/director/t/{slug}", _("Tournament created."))


@router.post("/new")
def new_tournament(
    request: Request,
    store: StoreDep,
    director: DirectorDep,
    template: str = Form("busan-2015"),
    name: str = Form(""),
    date: str = Form(""),
    venue: str = Form(""),
) -> Response:
    _ = gettext_of(request)
    if template not in TEMPLATES:
        raise HTTPException(400, "unknown template")
    name = name.strip()[:120]
    # The divisions and stages are named in the director's language; so is the
    # tournament when no name is given, and its slug is made from that name.
    locale = locale_of(request)
    slug = _free_slug(store, name or from_template(template, locale=locale).name, template)
    try:
        slug, _t = usecases.create_tournament(
            store,
            template,
            who=director.name,
            name=name,
            date=date.strip()[:20],
            slug=slug,
            venue=" ".join(venue.split())[:200],
            locale=locale,
            owner=director.id,
        )
    except usecases.UseCaseError as exc:
        return redirect(request, "/director", _refused(request, exc), "error")
    return redirect(request, f"/director/t/{slug}", _("Tournament created."))


#: The demo's name in each language (its divisions and stages are the template's).
DEMO_NAMES = {
    "ko": "데모 — KRC 2015 부산",
    "ja": "デモ — KRC 2015 釜山",
    "en": "Demo — KRC 2015 Busan",
}


def create_demo(store: Store, who: str, locale: str = "en", owner: int | None = None) -> str:
    """The demo: the Busan template with 13 players in the general division, 12 of them
    checked in, and round 1 seated; named in ``locale``, directed by ``owner``."""
    slug, _t = usecases.create_tournament(
        store,
        "busan-2015",
        who=who,
        name=DEMO_NAMES.get(locale, DEMO_NAMES["en"]),
        slug="demo",
        locale=locale,
        owner=owner,
    )
    entries = [
        usecases.PlayerEntry(n, "general", (tag,) if tag else (), g) for n, tag, g in DEMO_PLAYERS
    ]
    usecases.register_players(store, slug, entries, who=who)
    usecases.check_in_players(store, slug, [n for n, _tag, _g in DEMO_PLAYERS[:-1]], who=who)
    usecases.seat(store, slug, "general", None, who=who)
    return slug


@router.post("/demo")
def demo(request: Request, store: StoreDep) -> Response:
    """The demo tournament: offered to anyone while the database has no tournament,
    and to directors after that."""
    _ = gettext_of(request)
    empty = not usecases.any_tournament(store)
    account = current_account(request)
    if not empty and account is None:
        raise HTTPException(403, "sign in to create a demo")
    try:
        # made before any account: the administrator's alone (no owner)
        slug = create_demo(
            store,
            account.name if account else "demo",
            locale_of(request),
            owner=account.id if account else None,
        )
    except usecases.UseCaseError as exc:
        return redirect(request, "/tournaments", _refused(request, exc), "error")
    return redirect(request, f"/t/{slug}", _("The demo tournament is ready: round 1 is seated."))


@router.get("/t/{slug}", response_class=HTMLResponse)
def overview(
    request: Request, store: StoreDep, director: TournamentDirectorDep, slug: str
) -> Response:
    t = load_tournament(store, slug)
    views = [division_view(t, d.key) for d in t.divisions]
    _ = gettext_of(request)
    return render(
        request,
        "director/tournament.html",
        account=director,
        t=t,
        slug=slug,
        views=views,
        kinds=KINDS,
        seaters=seaters_for("seatings"),
        rankings=circuit.rankings(store, stored=True),
        acts={d.key: round_actions(t, d.key, _) for d in t.divisions},
        modes=MODES,
        tie_breaks=TIE_BREAKS,
        three_table=THREE_TABLE,
        steps=STEPS,
        info=usecases.info(store, slug),
        polls=usecases.polls(store, slug),
        presets=list(PRESETS),
        directors=owners.directors(store, slug),
    )


@router.post("/t/{slug}/directors")
def add_director(
    request: Request,
    store: StoreDep,
    director: TournamentDirectorDep,
    slug: str,
    name: str = Form(""),
) -> Response:
    """Make another existing account a co-director of this tournament."""
    _ = gettext_of(request)
    load_tournament(store, slug)
    name = name.strip()
    back = f"/director/t/{slug}#directors"
    try:
        added = usecases.add_director(store, slug, name, who=director.name)
    except usecases.UseCaseError:
        return redirect(
            request,
            back,
            _("There is no account %(name)s: create it on the dashboard first.") % {"name": name},
            "error",
        )
    if not added:
        return redirect(
            request, back, _("%(name)s is already a director of this tournament.") % {"name": name}
        )
    return redirect(
        request, back, _("%(name)s is now a director of this tournament.") % {"name": name}
    )


@router.post("/t/{slug}/edit")
def edit_tournament(
    request: Request,
    store: StoreDep,
    director: TournamentDirectorDep,
    slug: str,
    name: str = Form(""),
    date: str = Form(""),
    venue: str = Form(""),
) -> Response:
    _ = gettext_of(request)
    load_tournament(store, slug)
    try:
        usecases.edit_tournament(
            store,
            slug,
            who=director.name,
            name=name.strip()[:120],
            date=date.strip()[:20],
            venue=" ".join(venue.split())[:200],
        )
    except usecases.UseCaseError as exc:
        return redirect(request, f"/director/t/{slug}", _refused(request, exc), "error")
    return redirect(request, f"/director/t/{slug}", _("Settings saved."))


@router.post("/t/{slug}/divisions")
def add_division(
    request: Request, store: StoreDep, director: TournamentDirectorDep, slug: str, form: FormDep
) -> Response:
    _ = gettext_of(request)
    t = load_tournament(store, slug)
    name = _text(form, "name", limit=80)
    key = usecases.make_key(name)[:40]
    if key == "tournament" or key in {d.key for d in t.divisions}:
        key = f"d{len(t.divisions) + 1}"
    try:
        stage = _stage(form, "0")
        spec = usecases.DivisionSpec(
            key,
            name,
            _number(form, "cap", 32),
            _text(form, "rules", "standard"),
            (stage,) if stage else (),
        )
        usecases.add_division(store, slug, spec, who=director.name)
    except (usecases.UseCaseError, TournamentError) as exc:
        return redirect(request, f"/director/t/{slug}", _refused(request, exc), "error")
    return redirect(request, f"/director/t/{slug}#{key}", _("Settings saved."))


@router.post("/t/{slug}/d/{key}/settings")
def division_settings(
    request: Request,
    store: StoreDep,
    director: TournamentDirectorDep,
    slug: str,
    key: str,
    form: FormDep,
) -> Response:
    """A division's name, cap, rules preset, stages and seating groups, through the
    ``edit_division`` use case (all but the name fixed once check-in has closed)."""
    _ = gettext_of(request)
    t = load_tournament(store, slug)
    div = t.division(_division(t, key))
    try:
        if div.started:
            edit = usecases.DivisionEdit(name=_text(form, "name", div.name, 80))
        else:
            keys = [r.key for r in circuit.rankings(store, stored=True)]
            formats = [_stage(form, str(i), f, keys) for i, f in enumerate(div.formats)]
            formats.append(_stage(form, "new"))
            edit = usecases.DivisionEdit(
                name=_text(form, "name", div.name, 80),
                cap=_number(form, "cap", div.cap),
                rules=_text(form, "rules") or None,
                formats=tuple(f for f in formats if f is not None),
                eligibility=_text(form, "eligibility", div.eligibility),
                keep_apart=tuple(k for k in ("family", "club") if form.get(f"apart_{k}")),
                groups_hard=form.get("hard") == "1",
                late_entry=form.get("late_entry") == "1",
            )
        usecases.edit_division(store, slug, div.key, edit, who=director.name)
    except (usecases.UseCaseError, TournamentError) as exc:
        return redirect(request, f"/director/t/{slug}#{key}", _refused(request, exc), "error")
    return redirect(request, f"/director/t/{slug}#{key}", _("Settings saved."))


# ---------------------------------------------------------------- check-in desk


@router.get("/t/{slug}/d/{key}/checkin", response_class=HTMLResponse)
def checkin_desk(
    request: Request,
    store: StoreDep,
    director: TournamentDirectorDep,
    slug: str,
    key: str,
    q: str = "",
) -> Response:
    t = load_tournament(store, slug)
    key = _division(t, key)
    # One entrance: a search ("#5", 5, or a name part) finds the players of every
    # division, each checked in to their own; the desk's own division is listed without.
    regs = usecases.search_players(t.registrations if q.strip() else t.in_division(key), q[:80])
    return render(
        request,
        "director/checkin.html",
        account=director,
        t=t,
        slug=slug,
        view=division_view(t, key),
        regs=regs,
        q=q,
        status=STATUS,
        start_question=round_actions(t, key, gettext_of(request)).start,
    )


@router.post("/t/{slug}/d/{key}/checkin/{player}")
def mark_present(
    request: Request,
    store: StoreDep,
    director: TournamentDirectorDep,
    slug: str,
    key: str,
    player: int,
    q: str = Form(""),
) -> Response:
    _ = gettext_of(request)
    back = f"/director/t/{slug}/d/{key}/checkin" + (f"?q={q}" if q else "")
    try:
        out = usecases.check_in_players(store, slug, [str(player)], who=director.name)
    except usecases.UseCaseError as exc:
        return redirect(request, back, _refused(request, exc), "error")
    return redirect(
        request, back, _("%(name)s is present.") % {"name": out.tournament.name_of(player)}
    )


@router.post("/t/{slug}/d/{key}/start")
def start(
    request: Request, store: StoreDep, director: TournamentDirectorDep, slug: str, key: str
) -> Response:
    _ = gettext_of(request)
    try:
        out = usecases.close_check_in(store, slug, key, who=director.name)
    except usecases.UseCaseError as exc:
        return redirect(
            request, f"/director/t/{slug}/d/{key}/checkin", _refused(request, exc), "error"
        )
    dropped = len(out.tournament.in_division(key, "no_show"))
    text = (
        _("Check-in is closed: %(n)s no-shows are not seated.") % {"n": dropped}
        if dropped
        else _("Check-in is closed: every player is present.")
    )
    return redirect(request, f"/director/t/{slug}#{key}", text)


@router.post("/t/{slug}/d/{key}/withdraw/{player}")
def withdraw(
    request: Request,
    store: StoreDep,
    director: TournamentDirectorDep,
    slug: str,
    key: str,
    player: int,
) -> Response:
    """A player withdraws before the start (the first on the waitlist moves up)."""
    _ = gettext_of(request)
    back = f"/director/t/{slug}/d/{key}/checkin"
    try:
        out = usecases.withdraw_player(store, slug, str(player), who=director.name)
    except usecases.UseCaseError as exc:
        return redirect(request, back, _refused(request, exc), "error")
    return redirect(
        request, back, _("%(name)s withdrew.") % {"name": out.tournament.name_of(player)}
    )


@router.post("/t/{slug}/d/{key}/drop/{player}")
def drop(
    request: Request,
    store: StoreDep,
    director: TournamentDirectorDep,
    slug: str,
    key: str,
    player: int,
    why: str = Form(""),
) -> Response:
    """A player leaves during the event: their counted games stay, no more seats."""
    _ = gettext_of(request)
    back = f"/director/t/{slug}/d/{key}/checkin"
    try:
        out = usecases.drop_player(
            store, slug, str(player), who=director.name, why=" ".join(why.split())[:200]
        )
    except usecases.UseCaseError as exc:
        return redirect(request, back, _refused(request, exc), "error")
    return redirect(
        request,
        back,
        _("%(name)s is dropped: not seated from the next round on.")
        % {"name": out.tournament.name_of(player)},
    )


@router.post("/t/{slug}/d/{key}/late")
def late(
    request: Request,
    store: StoreDep,
    director: TournamentDirectorDep,
    slug: str,
    key: str,
    name: str = Form(""),
    family: str = Form(""),
    member: str = Form(""),
    birth_year: str = Form(""),
    person: str = Form(""),
) -> Response:
    """A late entry (where the division allows it): present at once, seated from the
    next round. When people of the same name played before, a page first asks who
    this is (with the evidence) and sends the entry back with the choice."""
    _ = gettext_of(request)
    back = f"/director/t/{slug}/d/{key}/checkin"
    name = " ".join(name.split())[:80]
    family = " ".join(family.split())[:40]
    member = " ".join(member.split())[:40]
    year = birth_year.strip()[:4]
    if year and not (year.isascii() and year.isdigit()):
        return redirect(
            request, back + "#late", _("The birth year must be a year, like 1990."), "error"
        )
    tags = (f"family:{family}",) if family else ()
    choice: circuit.PersonChoice = (
        int(person) if person.isdigit() else circuit.NEW if person == "new" else None
    )
    said = usecases.PlayerEntry(
        name, member_number=member or None, birth_year=int(year) if year else None, person=choice
    )
    found = (
        circuit.identify(store, slug, [said], who=circuit.Acting(director.name, director.id))[0]
        if name
        else None
    )
    if found is not None and ((found.candidates and choice is None) or found.problems):
        t = load_tournament(store, slug)
        return render(
            request,
            "director/late_who.html",
            422 if found.problems else 200,
            account=director,
            t=t,
            slug=slug,
            div=t.division(key),
            entry_name=name,
            family=family,
            member=member,
            birth_year=year,
            found=found,
            chosen=str(found.chosen) if found.chosen is not None else "new",
            errors=[render_refusal(r, _) for _f, r in found.problems],
        )
    try:
        out = usecases.enter_late(
            store,
            slug,
            key,
            name,
            who=director.name,
            tags=tags,
            member_number=said.member_number,
            birth_year=said.birth_year,
            person=choice,
        )
    except usecases.UseCaseError as exc:
        return redirect(request, back, _refused(request, exc), "error")
    reg = out.tournament.registrations[-1]
    return redirect(
        request,
        back,
        _("%(name)s entered late as number %(n)s.") % {"name": reg.name, "n": reg.player},
    )


# ---------------------------------------------------------------- rounds


def qr_data_uri(url: str) -> str:
    return str(segno.make(url, error="m").svg_data_uri(scale=3, border=1))


@router.post("/t/{slug}/d/{key}/seat")
def seat(
    request: Request, store: StoreDep, director: TournamentDirectorDep, slug: str, key: str
) -> Response:
    _ = gettext_of(request)
    try:
        usecases.seat(store, slug, key, None, who=director.name)
    except usecases.UseCaseError as exc:
        return redirect(request, f"/director/t/{slug}#{key}", _refused(request, exc), "error")
    return redirect(request, f"/director/t/{slug}/d/{key}/round", _("The round is seated."))


@router.post("/t/{slug}/d/{key}/lock")
def lock(
    request: Request, store: StoreDep, director: TournamentDirectorDep, slug: str, key: str
) -> Response:
    """Lock the current round's seating: it is never reseated after this."""
    _ = gettext_of(request)
    back = f"/director/t/{slug}/d/{key}/round"
    try:
        usecases.lock_seating(store, slug, key, who=director.name)
    except usecases.UseCaseError as exc:
        return redirect(request, back, _refused(request, exc), "error")
    return redirect(request, back, _("The seating is locked."))


@router.post("/t/{slug}/d/{key}/reseat")
def reseat(
    request: Request, store: StoreDep, director: TournamentDirectorDep, slug: str, key: str
) -> Response:
    """Seat the current round again (after a drop or a late entry), until locked."""
    _ = gettext_of(request)
    back = f"/director/t/{slug}/d/{key}/round"
    try:
        usecases.reseat(store, slug, key, who=director.name)
    except usecases.UseCaseError as exc:
        return redirect(request, back, _refused(request, exc), "error")
    return redirect(request, back, _("The round is seated again."))


@router.post("/t/{slug}/d/{key}/close")
def close(
    request: Request, store: StoreDep, director: TournamentDirectorDep, slug: str, key: str
) -> Response:
    _ = gettext_of(request)
    try:
        usecases.close(store, slug, key, who=director.name)
    except usecases.UseCaseError as exc:
        return redirect(
            request, f"/director/t/{slug}/d/{key}/round", _refused(request, exc), "error"
        )
    return redirect(request, f"/director/t/{slug}/d/{key}/round", _("The round is closed."))


@router.post("/t/{slug}/d/{key}/advance")
def advance(
    request: Request, store: StoreDep, director: TournamentDirectorDep, slug: str, key: str
) -> Response:
    _ = gettext_of(request)
    try:
        usecases.advance(store, slug, key, who=director.name)
    except usecases.UseCaseError as exc:
        return redirect(request, f"/director/t/{slug}#{key}", _refused(request, exc), "error")
    return redirect(
        request,
        f"/director/t/{slug}#{key}",
        _("The next stage has started with the players above the cut line."),
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
    key = _division(t, key)
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


@router.post("/t/{slug}/d/{key}/award")
def award(
    request: Request, store: StoreDep, director: TournamentDirectorDep, slug: str, key: str
) -> Response:
    try:
        usecases.award(store, slug, key, who=director.name)
    except usecases.UseCaseError as exc:
        return redirect(request, f"/director/t/{slug}#{key}", _refused(request, exc), "error")
    return redirect(request, f"/director/t/{slug}/d/{key}/awards")


@router.get("/t/{slug}/d/{key}/awards", response_class=HTMLResponse)
def awards_page(
    request: Request, store: StoreDep, director: TournamentDirectorDep, slug: str, key: str
) -> Response:
    t = load_tournament(store, slug)
    key = _division(t, key)
    try:
        lines = awards(t, key)
    except TournamentError as exc:
        return redirect(request, f"/director/t/{slug}#{key}", _refused(request, exc), "error")
    families = [(f, [t.name_of(p) for p in f.members]) for f in family_prizes(t)]
    return render(
        request,
        "director/awards.html",
        account=director,
        t=t,
        slug=slug,
        view=division_view(t, key),
        lines=lines,
        families=families,
    )


@router.get("/t/{slug}/audit", response_class=HTMLResponse)
def audit(
    request: Request, store: StoreDep, director: TournamentDirectorDep, slug: str
) -> Response:
    t = load_tournament(store, slug)
    zone = tournament_zone(request, store, slug)
    _ = gettext_of(request)
    lines = audit_lines(usecases.audit_log(store, slug), t, zone, _)[::-1]
    return render(
        request,
        "director/audit.html",
        account=director,
        slug=slug,
        t=t,
        lines=lines,
        zone=zone_name(zone, _),
    )
