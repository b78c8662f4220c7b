"""The director's circuit pages: a division by qualification (who holds which seat,
quotas, declines, grants), the people (details, merges, splits, the same person across
tournaments) and the rankings' definitions.

Who acts is an :class:`~meldtour.application.circuit.Acting`; the use cases decide
whether they may (:mod:`meldtour.application.circuit`).
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, Depends, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, Response
from starlette.datastructures import FormData

from meldtour import application as usecases
from meldtour.application import accounts, circuit
from meldtour.core.refusal import render as render_refusal
from meldtour.tournament.ranking import DEFAULT_WEIGHTS

from ...deps import FormDep, load_tournament
from ...views import refusal_text
from ..deps import (
    DirectorDep,
    StoreDep,
    TournamentDirectorDep,
    acting,
    csrf_protect,
    gettext_of,
    redirect,
    render,
)

director = APIRouter(prefix="/director", dependencies=[Depends(csrf_protect)])


@director.get("/t/{slug}/d/{key}/qualified", response_class=HTMLResponse)
def seats_page(
    request: Request, store: StoreDep, director: TournamentDirectorDep, slug: str, key: str
) -> Response:
    t = load_tournament(store, slug)
    try:
        div = t.division(key)
        views = circuit.seats(store, slug, key, who=acting(director))
    except (usecases.UseCaseError, ValueError):
        raise HTTPException(404, f"no division {key!r}") from None
    known = circuit.qualifications(store)
    grants = [
        h
        for h in circuit.holders(store, who=acting(director))
        if (h.tournament, h.division) == (slug, key)
    ]
    return render(
        request,
        "director/qualified.html",
        t=t,
        slug=slug,
        div=div,
        views=views,
        known=known,
        grants=grants,
        account=director,
    )


@director.post("/t/{slug}/d/{key}/quota")
def quota_post(
    request: Request,
    store: StoreDep,
    director: TournamentDirectorDep,
    slug: str,
    key: str,
    qualification: str = Form(""),
    seats: str = Form(""),
    open: str = Form(""),
    until: str = Form(""),
) -> Response:
    _ = gettext_of(request)
    back = f"/director/t/{slug}/d/{key}/qualified"
    try:
        n = int(seats)
    except ValueError:
        return redirect(request, back, _("The number of seats must be a whole number."), "error")
    qualification = qualification.strip()[:100]
    if not qualification:
        return redirect(request, back, _("Choose a qualification."), "error")
    try:
        circuit.set_quota(
            store,
            slug,
            key,
            qualification,
            n,
            who=acting(director),
            open=bool(open),
            until=until[:20] or None,
        )
    except usecases.UseCaseError as exc:
        return redirect(request, back, refusal_text(exc, _), "error")
    return redirect(request, back, _("Seats recorded."))


@director.post("/t/{slug}/d/{key}/decline")
def decline_post(
    request: Request,
    store: StoreDep,
    director: TournamentDirectorDep,
    slug: str,
    key: str,
    qualification: str = Form(""),
    source: str = Form(""),
    number: str = Form(""),
    why: str = Form(""),
) -> Response:
    _ = gettext_of(request)
    back = f"/director/t/{slug}/d/{key}/qualified"
    if not number.isdigit():
        return redirect(request, back, _("Choose the holder who declines."), "error")
    try:
        circuit.decline(
            store,
            qualification[:100],
            source[:100],
            int(number[:9]),
            who=acting(director),
            why=why.strip()[:500],
        )
    except usecases.UseCaseError as exc:
        return redirect(request, back, refusal_text(exc, _), "error")
    return redirect(request, back, _("Recorded: the seat passes to the next place."))


# ---------------------------------------------------------------------------
# The director: people across tournaments


def _administrator(request: Request, store: Any, account: Any) -> None:
    """People span tournaments: only the site's administrator merges and splits them."""
    if not accounts.is_administrator(store, account):
        _ = gettext_of(request)
        raise HTTPException(403, _("Only the site's administrator merges and splits people."))


@director.get("/people", response_class=HTMLResponse)
def people_page(
    request: Request, store: StoreDep, director: DirectorDep, name: str = ""
) -> Response:
    _administrator(request, store, director)
    name = " ".join(name.split())[:200]
    found = circuit.people(store, name or None)
    return render(
        request,
        "director/people.html",
        people=found[:200],
        query=name,
        more=len(found) > 200,
        account=director,
    )


def _back(name: str) -> str:
    return "/director/people?" + urlencode({"name": name}) if name else "/director/people"


@director.post("/people/{player}/details")
def person_details(
    request: Request,
    store: StoreDep,
    director: DirectorDep,
    player: int,
    member: str = Form(""),
    birth_year: str = Form(""),
    contact: str = Form(""),
    public: str = Form(""),
    name: str = Form(""),
) -> Response:
    _administrator(request, store, director)
    _ = gettext_of(request)
    year = birth_year.strip()
    if year and not year.isdigit():
        return redirect(
            request, _back(name), _("The birth year must be a year, like 1990."), "error"
        )
    try:
        circuit.set_person(
            store,
            player,
            who=acting(director),
            member_number=member,
            birth_year=int(year) if year else None,
            contact=contact,
            public=bool(public),
        )
    except usecases.UseCaseError as exc:
        return redirect(request, _back(name), refusal_text(exc, _), "error")
    return redirect(request, _back(name), _("Details recorded."))


@director.post("/people/merge")
def people_merge(
    request: Request,
    store: StoreDep,
    director: DirectorDep,
    keep: str = Form(""),
    gone: str = Form(""),
    why: str = Form(""),
    name: str = Form(""),
    keep_member: str = Form(""),
    keep_birth_year: str = Form(""),
) -> Response:
    _administrator(request, store, director)
    _ = gettext_of(request)
    if not (keep.isdigit() and gone.isdigit()):
        return redirect(request, _back(name), _("Choose the two people to merge."), "error")
    chosen = {
        k: v.strip()[:40]
        for k, v in (("member", keep_member), ("birth-year", keep_birth_year))
        if v.strip()
    }
    try:
        out = circuit.merge(
            store, int(keep), int(gone), who=acting(director), why=why, keep_values=chosen
        )
    except usecases.UseCaseError as exc:
        return redirect(request, _back(name), refusal_text(exc, _), "error")
    return redirect(
        request,
        _back(name),
        _("Merged: %(n)s registrations are now %(name)s's; the ratings were computed again.")
        % {"n": len(out.moved), "name": out.kept.name},
    )


@director.post("/people/{player}/split")
def people_split(
    request: Request, store: StoreDep, director: DirectorDep, player: int, form: FormDep
) -> Response:
    _administrator(request, store, director)
    _ = gettext_of(request)
    name = str(form.get("name", ""))
    chosen = [str(x) for x in form.getlist("tournament")]
    try:
        out = circuit.split(
            store, player, chosen, who=acting(director), why=str(form.get("why", ""))
        )
    except usecases.UseCaseError as exc:
        return redirect(request, _back(name), refusal_text(exc, _), "error")
    text = _(
        "Split: %(n)s registrations are now person #%(person)s; the ratings were computed again."
    ) % {"n": len(out.moved), "person": out.kept.person}
    for warning in out.warnings:
        text += " " + render_refusal(warning, _)
    return redirect(request, _back(name), text, "warn" if out.warnings else "ok")


@director.get("/t/{slug}/p/{player}/same", response_class=HTMLResponse)
def same_page(
    request: Request, store: StoreDep, director: TournamentDirectorDep, slug: str, player: int
) -> Response:
    t = load_tournament(store, slug)
    try:
        mine, found = circuit.candidates(store, slug, player, who=acting(director))
    except usecases.UseCaseError:
        raise HTTPException(404, "no such player") from None
    return render(
        request,
        "director/same.html",
        t=t,
        slug=slug,
        player=player,
        mine=mine,
        found=found,
        account=director,
    )


@director.post("/t/{slug}/p/{player}/same")
def same_post(
    request: Request,
    store: StoreDep,
    director: TournamentDirectorDep,
    slug: str,
    player: int,
    person: str = Form(""),
    why: str = Form(""),
) -> Response:
    _ = gettext_of(request)
    back = f"/director/t/{slug}/p/{player}/same"
    if not person.isdigit():
        return redirect(request, back, _("Choose the person this registration is."), "error")
    try:
        out = circuit.same_person(
            store, slug, player, int(person[:9]), who=acting(director), why=why
        )
    except usecases.UseCaseError as exc:
        return redirect(request, back, refusal_text(exc, _), "error")
    return redirect(
        request,
        back,
        _("Recorded: this registration is %(name)s (#%(person)s); the ratings were computed again.")
        % {"name": out.kept.name, "person": out.kept.person},
    )


@director.post("/t/{slug}/d/{key}/grant")
def grant_post(
    request: Request,
    store: StoreDep,
    director: TournamentDirectorDep,
    slug: str,
    key: str,
    qualification: str = Form(""),
    label: str = Form(""),
    seats: str = Form(""),
) -> Response:
    _ = gettext_of(request)
    back = f"/director/t/{slug}/d/{key}/qualified"
    qualification = qualification.strip()[:100]
    if not re.fullmatch(r"[a-z0-9][a-z0-9-]{0,99}", qualification):
        return redirect(
            request, back, _("A qualification's key is lower-case letters, digits and -."), "error"
        )
    if not seats.strip().isdigit():
        return redirect(request, back, _("The number of seats must be a whole number."), "error")
    try:
        circuit.grant_qualification(
            store,
            slug,
            key,
            qualification,
            label=" ".join(label.split())[:200],
            seats=int(seats[:6]),
            who=acting(director),
        )
    except usecases.UseCaseError as exc:
        return redirect(request, back, refusal_text(exc, _), "error")
    return redirect(request, back, _("Recorded: the awards of this division qualify."))


# ---------------------------------------------------------------------------
# The director: a ranking's definition (the site's administrator)

#: The divisions the ranking form lists (the newest first, and every one listed).
FORM_DIVISIONS = 300
#: The weight lines the form has beyond the ranking's levels (to add a level).
SPARE_LEVELS = 2


def _rankings_admin(request: Request, store: Any, account: Any) -> None:
    """Rankings span the site's tournaments: only the site's administrator defines
    them (as people, merges and splits)."""
    if not accounts.is_administrator(store, account):
        _ = gettext_of(request)
        raise HTTPException(403, _("Only the site's administrator defines rankings."))


def _form_divisions(
    store: Any, info: circuit.RankingInfo | None
) -> list[tuple[circuit.DivisionChoice, str]]:
    listed = dict(info.events) if info else {}
    every = circuit.ranking_divisions(store)
    shown = [d for i, d in enumerate(every) if i < FORM_DIVISIONS or d.id in listed]
    return [(d, listed.get(d.id, "")) for d in shown]


def _ranking_form(
    request: Request,
    store: Any,
    director: Any,
    form: circuit.RankingForm,
    *,
    new: bool,
    errors: dict[str, list[str]] | None = None,
    status_code: int = 200,
) -> Response:
    info = None if new else _stored(store, form.key)
    divisions = _form_divisions(store, info)
    if form.counts is not None:  # as sent back
        sent = {(slug, key): lvl for slug, key, lvl in form.counts}
        divisions = [(d, sent.get((d.tournament, d.division), lvl)) for d, lvl in divisions]
    weights = [(lv, w) for lv, w in form.weights if lv.strip() or w.strip()]
    weights += [("", "")] * SPARE_LEVELS
    levels = [lv for lv, _w in form.weights if lv.strip()] or list(DEFAULT_WEIGHTS)
    return render(
        request,
        "director/ranking.html",
        status_code,
        account=director,
        form=form,
        new=new,
        errors=errors or {},
        weights=weights,
        levels=levels,
        divisions=divisions,
        methods=circuit.RANKING_METHODS,
    )


@director.get("/rankings", response_class=HTMLResponse)
def rankings_page(request: Request, store: StoreDep, director: DirectorDep) -> Response:
    _rankings_admin(request, store, director)
    return render(
        request,
        "director/rankings.html",
        account=director,
        rankings=circuit.rankings(store, stored=True),
        pools=circuit.division_pools(store),
        pool_choices=POOL_CHOICES,
    )


#: The pools offered for a division (besides a federation's own key and "not rated").
POOL_CHOICES = ("korea", "korea-children", "japan", "other")


@director.post("/rating-pools")
def pool_post(
    request: Request,
    store: StoreDep,
    director: DirectorDep,
    slug: str = Form("", max_length=200),
    division: str = Form("", max_length=80),
    pool: str = Form("", max_length=60),
    own: str = Form("", max_length=60),
) -> Response:
    """A division's rating pool: one of meldtour's, the federation's own key, ``none``
    (not rated) or ``default`` (its template's or its rules' again)."""
    _ = gettext_of(request)
    _rankings_admin(request, store, director)
    chosen = own.strip().lower() if pool == "own" else pool
    try:
        now_in = circuit.set_pool(
            store, slug, division, None if chosen == "default" else chosen, who=acting(director)
        )
    except usecases.UseCaseError as exc:
        return redirect(request, "/director/rankings#pools", refusal_text(exc, _), "error")
    return redirect(
        request,
        "/director/rankings#pools",
        _("%(division)s counts in the rating pool %(pool)s now.")
        % {"division": f"{slug}/{division}", "pool": now_in},
    )


@director.get("/rankings/new", response_class=HTMLResponse)
def ranking_new(request: Request, store: StoreDep, director: DirectorDep) -> Response:
    _rankings_admin(request, store, director)
    return _ranking_form(request, store, director, circuit.RankingForm.blank(), new=True)


def _stored(store: Any, key: str) -> circuit.RankingInfo:
    info = next((r for r in circuit.rankings(store, stored=True) if r.key == key), None)
    if info is None:
        raise HTTPException(404, f"no ranking {key!r}")
    return info


@director.get("/rankings/{key}", response_class=HTMLResponse)
def ranking_edit(request: Request, store: StoreDep, director: DirectorDep, key: str) -> Response:
    _rankings_admin(request, store, director)
    info = _stored(store, key)
    return _ranking_form(request, store, director, circuit.RankingForm.of(info), new=False)


def _form_of(form: FormData, key: str, new: bool) -> circuit.RankingForm:
    def text(name: str, limit: int = 200) -> str:
        value = form.get(name)
        return value[:limit] if isinstance(value, str) else ""

    n = text("levels", 4)
    weights = tuple(
        (text(f"level{i}", 60), text(f"weight{i}", 40))
        for i in range(min(int(n), 100) if n.isdigit() else 0)
    )
    counts = []
    for name, value in form.multi_items():
        if name.startswith("count:") and isinstance(value, str):
            slug, _, division = name[6:].partition("/")
            counts.append((slug, division, value[:60]))
    return circuit.RankingForm(
        key=key,
        name=text("name"),
        organisation=text("organisation"),
        method=text("method", 20),
        base=text("base", 40),
        table=text("table", 4000),
        weights=weights,
        half_life=text("half_life", 40),
        best=text("best", 40),
        season_start=text("season_start", 40),
        season_end=text("season_end", 40),
        only_listed=bool(form.get("only_listed")),
        level=text("default_level", 60),
        counts=tuple(counts),
        new=new,
    )


@director.post("/rankings")
def ranking_create(
    request: Request, store: StoreDep, director: DirectorDep, form: FormDep
) -> Response:
    _rankings_admin(request, store, director)
    key = form.get("key")
    return _ranking_save(
        request,
        store,
        director,
        _form_of(form, key.strip()[:100] if isinstance(key, str) else "", True),
    )


@director.post("/rankings/{key}")
def ranking_post(
    request: Request, store: StoreDep, director: DirectorDep, key: str, form: FormDep
) -> Response:
    _rankings_admin(request, store, director)
    _stored(store, key)
    return _ranking_save(request, store, director, _form_of(form, key, False))


def _ranking_save(
    request: Request, store: Any, director: Any, form: circuit.RankingForm
) -> Response:
    _ = gettext_of(request)
    try:
        info = circuit.save_ranking(store, form, who=director.name)
    except circuit.RankingRefused as exc:
        errors: dict[str, list[str]] = {}
        for field, refusal in exc.fields.items():
            errors.setdefault(field, []).append(render_refusal(refusal, _))
        return _ranking_form(
            request, store, director, form, new=form.new, errors=errors, status_code=422
        )
    return redirect(
        request,
        f"/director/rankings/{info.key}",
        _("The ranking is saved: the public ranking page shows it now."),
    )


router = director

__all__ = ["router"]
