"""The check-in desk: who is present, the division's start, withdrawals, drops and
late entries.

Every change goes through a use case of :mod:`meldtour.application`; its refusal
is shown in the reader's language (:func:`..views.refusal_text`)."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, Response

from meldtour import application as usecases
from meldtour.application import circuit
from meldtour.core.refusal import render as render_refusal

from ...deps import load_tournament
from ...views import STATUS, division_view
from ..deps import (
    StoreDep,
    TournamentDirectorDep,
    acting,
    csrf_protect,
    gettext_of,
    redirect,
    render,
)
from ..rounds_view import actions as round_actions
from .common import division_or_404, refused

router = APIRouter(prefix="/director", dependencies=[Depends(csrf_protect)])


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
    key = division_or_404(t, key)
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
        out = usecases.check_in_players(store, slug, [str(player)], who=acting(director))
    except usecases.UseCaseError as exc:
        return redirect(request, back, refused(request, exc), "error")
    # Checked in: the desk's search box is empty again, ready for the next number
    # (the flash names who came); a refusal keeps the search.
    return redirect(
        request,
        f"/director/t/{slug}/d/{key}/checkin",
        _("%(name)s is present.") % {"name": out.tournament.name_of(player)},
    )


#: The most players one bulk check-in names (a division's cap is far below).
BULK_MAX = 1000


@router.post("/t/{slug}/d/{key}/checkin-many")
def mark_many_present(
    request: Request,
    store: StoreDep,
    director: TournamentDirectorDep,
    slug: str,
    key: str,
    players: str = Form(""),
    all_but: str = Form(""),
) -> Response:
    """Bulk check-in: the numbers or names given (one a line, or separated by commas),
    or — with ``all_but`` — every registered player of the division but those."""
    _ = gettext_of(request)
    back = f"/director/t/{slug}/d/{key}/checkin"
    tokens = [x.strip() for line in players[:20_000].splitlines() for x in line.split(",")]
    tokens = [x for x in tokens if x][:BULK_MAX]
    if not tokens and not all_but:
        return redirect(request, back, _("Name the players to mark present."), "error")
    before = len(load_tournament(store, slug).in_division(key, "checked_in"))
    try:
        out = usecases.check_in_players(
            store, slug, tokens, who=acting(director), everyone_but=bool(all_but), division=key
        )
    except usecases.UseCaseError as exc:
        return redirect(request, back, refused(request, exc), "error")
    n = len(out.tournament.in_division(key, "checked_in")) - before
    return redirect(request, back, _("%(n)s players marked present.") % {"n": n})


@router.post("/t/{slug}/d/{key}/start")
def start(
    request: Request, store: StoreDep, director: TournamentDirectorDep, slug: str, key: str
) -> Response:
    _ = gettext_of(request)
    try:
        out = usecases.close_check_in(store, slug, key, who=acting(director))
    except usecases.UseCaseError as exc:
        return redirect(
            request, f"/director/t/{slug}/d/{key}/checkin", refused(request, exc), "error"
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
        out = usecases.withdraw_player(store, slug, str(player), who=acting(director))
    except usecases.UseCaseError as exc:
        return redirect(request, back, refused(request, exc), "error")
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
            store, slug, str(player), who=acting(director), why=" ".join(why.split())[:200]
        )
    except usecases.UseCaseError as exc:
        return redirect(request, back, refused(request, exc), "error")
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
            who=acting(director),
            tags=tags,
            member_number=said.member_number,
            birth_year=said.birth_year,
            person=choice,
        )
    except usecases.UseCaseError as exc:
        return redirect(request, back, refused(request, exc), "error")
    reg = out.tournament.registrations[-1]
    return redirect(
        request,
        back,
        _("%(name)s entered late as number %(n)s.") % {"name": reg.name, "n": reg.player},
    )
