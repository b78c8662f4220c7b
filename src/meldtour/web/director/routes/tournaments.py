"""The director's dashboard and tournaments: made from a template, from scratch or as
the demo; the tournament's details, directors and divisions' settings; its audit log.

Every change goes through a use case of :mod:`meldtour.application`; its refusal
is shown in the reader's language (:func:`..views.refusal_text`)."""

from __future__ import annotations

from collections.abc import Sequence

from fastapi import APIRouter, Depends, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, Response
from starlette.datastructures import FormData

from meldtour import application as usecases
from meldtour.application import accounts, circuit
from meldtour.core.rules import PRESETS
from meldtour.store.db import Store
from meldtour.tournament import StageFormat, TournamentError
from meldtour.tournament.seating import SEATERS, seaters_for
from meldtour.tournament.templates import TEMPLATES, from_template

from ...address import address_notice
from ...deps import FormDep, load_tournament
from ...views import KINDS, TEMPLATE_TITLES, division_view
from ..audit_words import audit_lines, zone_name
from ..deps import (
    DirectorDep,
    StoreDep,
    TournamentDirectorDep,
    acting,
    csrf_protect,
    current_account,
    gettext_of,
    locale_of,
    redirect,
    render,
)
from ..rounds_view import MODES, STEPS, THREE_TABLE, TIE_BREAKS
from ..rounds_view import actions as round_actions
from .common import division_or_404, form_number, form_text, refused, tournament_zone

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


@router.get("", response_class=HTMLResponse)
def dashboard(request: Request, store: StoreDep, director: DirectorDep) -> Response:
    rows = accounts.tournaments_directed(store, director.id)
    return render(
        request,
        "director/dashboard.html",
        account=director,
        tournaments=rows,
        address=address_notice(request, store),
        admin=accounts.is_administrator(store, director),
        templates=TEMPLATE_TITLES,
        presets=list(PRESETS),
    )


def _stage(
    form: FormData, i: str, old: StageFormat | None = None, rankings: Sequence[str] = ()
) -> StageFormat | None:
    """A stage format from the fields ``kind{i}``, ``games{i}`` ... (``None``: no
    stage asked for, or removed). Seeded by ranking, ``ranking{i}`` names the ranking
    (one of ``rankings``; none: the first)."""
    kind = form_text(form, f"kind{i}", old.kind if old else "")
    if not kind or form.get(f"remove{i}"):
        return None
    base = old if old is not None and old.kind == kind else None
    seating = form_text(form, f"seating{i}", base.seating if base else "random")
    method = SEATERS.get(seating)
    if method is not None and kind not in method.kinds:  # snake seeding: knockouts only
        seating = "random"
    entrants = form_number(form, f"entrants{i}", (base.entrants if base else None) or 4)
    seed_ranking = ""
    if seating == "by-ranking":
        seed_ranking = form_text(form, f"ranking{i}", base.seed_ranking if base else "", 100)
        if seed_ranking and seed_ranking not in rankings:
            raise usecases.UseCaseError(
                "circuit.no_ranking",
                key=repr(seed_ranking),
                keys=", ".join(rankings) or circuit.DEFAULT_RANKING,
            )
    return StageFormat(
        kind,  # type: ignore[arg-type]
        games=form_number(form, f"games{i}", base.games if base else 1),
        seatings=form_number(form, f"seatings{i}", base.seatings if base else 1)
        if kind == "seatings"
        else 1,
        advance=form_number(form, f"advance{i}", base.advance if base else 2),
        entrants=entrants if kind == "final" else None,
        carry=bool(form.get(f"carry{i}")) if kind == "final" else False,
        seating=seating,
        final_games=form_number(form, f"final_games{i}", (base.final_games if base else 1) or 1)
        if kind == "knockout"
        else None,
        name=form_text(form, f"title{i}", base.name if base else "", 60),
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
    name = form_text(form, "name", limit=120)
    division = form_text(form, "division", limit=80) or _("Main division")
    key = usecases.make_key(division)[:40]
    if key == "tournament":
        key = "main"
    try:
        stages = [f for f in (_stage(form, "0"), _stage(form, "1")) if f is not None]
        spec = usecases.DivisionSpec(
            key,
            division,
            form_number(form, "cap", 32),
            form_text(form, "rules", "standard"),
            tuple(stages),
            eligibility=form_text(form, "eligibility"),
            late_entry=bool(form.get("late_entry")),
        )
        slug, _t = usecases.create_blank_tournament(
            store,
            who=acting(director),
            name=name,
            date=form_text(form, "date", limit=20),
            venue=form_text(form, "venue"),
            divisions=[spec],
            slug=_free_slug(store, name, "tournament"),
            owner=director.id,
        )
    except (usecases.UseCaseError, TournamentError) as exc:
        return redirect(request, "/director", refused(request, exc), "error")
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
            who=acting(director),
            name=name,
            date=date.strip()[:20],
            slug=slug,
            venue=" ".join(venue.split())[:200],
            locale=locale,
            owner=director.id,
        )
    except usecases.UseCaseError as exc:
        return redirect(request, "/director", refused(request, exc), "error")
    return redirect(request, f"/director/t/{slug}", _("Tournament created."))


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
        return redirect(request, "/tournaments", refused(request, exc), "error")
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
        directors=accounts.directors_of(store, slug),
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
        added = usecases.add_director(store, slug, name, who=acting(director))
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
            who=acting(director),
            name=name.strip()[:120],
            date=date.strip()[:20],
            venue=" ".join(venue.split())[:200],
        )
    except usecases.UseCaseError as exc:
        return redirect(request, f"/director/t/{slug}", refused(request, exc), "error")
    return redirect(request, f"/director/t/{slug}", _("Settings saved."))


@router.post("/t/{slug}/divisions")
def add_division(
    request: Request, store: StoreDep, director: TournamentDirectorDep, slug: str, form: FormDep
) -> Response:
    _ = gettext_of(request)
    t = load_tournament(store, slug)
    name = form_text(form, "name", limit=80)
    key = usecases.make_key(name)[:40]
    if key == "tournament" or key in {d.key for d in t.divisions}:
        key = f"d{len(t.divisions) + 1}"
    try:
        stage = _stage(form, "0")
        spec = usecases.DivisionSpec(
            key,
            name,
            form_number(form, "cap", 32),
            form_text(form, "rules", "standard"),
            (stage,) if stage else (),
        )
        usecases.add_division(store, slug, spec, who=acting(director))
    except (usecases.UseCaseError, TournamentError) as exc:
        return redirect(request, f"/director/t/{slug}", refused(request, exc), "error")
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
    div = t.division(division_or_404(t, key))
    try:
        if div.started:
            edit = usecases.DivisionEdit(name=form_text(form, "name", div.name, 80))
        else:
            keys = [r.key for r in circuit.rankings(store, stored=True)]
            formats = [_stage(form, str(i), f, keys) for i, f in enumerate(div.formats)]
            formats.append(_stage(form, "new"))
            edit = usecases.DivisionEdit(
                name=form_text(form, "name", div.name, 80),
                cap=form_number(form, "cap", div.cap),
                rules=form_text(form, "rules") or None,
                formats=tuple(f for f in formats if f is not None),
                eligibility=form_text(form, "eligibility", div.eligibility),
                keep_apart=tuple(k for k in ("family", "club") if form.get(f"apart_{k}")),
                groups_hard=form.get("hard") == "1",
                late_entry=form.get("late_entry") == "1",
            )
        usecases.edit_division(store, slug, div.key, edit, who=acting(director))
    except (usecases.UseCaseError, TournamentError) as exc:
        return redirect(request, f"/director/t/{slug}#{key}", refused(request, exc), "error")
    return redirect(request, f"/director/t/{slug}#{key}", _("Settings saved."))


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
