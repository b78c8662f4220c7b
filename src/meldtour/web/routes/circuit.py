"""The circuit's pages: the ranking (each line with the tournaments behind its points),
the rating list, a person's public page, their CSV/XLSX exports and the ranking as
read-only JSON for a federation's own site; and the director's view of a division by
qualification (who holds which seat, quotas, declines).

Public pages show names only: never a contact, a member number or a birth year, and
nobody whom the director marked private.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence
from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, Depends, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from meldtour import application as usecases
from meldtour.application import circuit
from meldtour.store import owners

from ..deps import load_tournament
from ..director.deps import (
    DirectorDep,
    StoreDep,
    TournamentDirectorDep,
    csrf_protect,
    gettext_of,
    redirect,
    render,
)
from ..director.views import refusal_text

public = APIRouter(dependencies=[Depends(csrf_protect)])
director = APIRouter(prefix="/director", dependencies=[Depends(csrf_protect)])


def _table(store: Any, ranking: str | None, as_of: str | None) -> circuit.RankingTable:
    try:
        circuit.backfill(store)
        return circuit.ranking_table(store, ranking or None, circuit.parse_day(as_of),
                                     public_only=True)
    except usecases.UseCaseError as exc:
        raise HTTPException(400 if exc.code == "circuit.bad_date" else 404, str(exc)) from None


@public.get("/ranking", response_class=HTMLResponse)
def ranking_page(request: Request, store: StoreDep, ranking: str | None = None,
                 as_of: str | None = None) -> Response:
    table = _table(store, ranking, as_of)
    return render(request, "public/ranking.html", table=table,
                  rankings=circuit.rankings(store), chosen=ranking or "",
                  as_of=as_of or "")


def _ranking_rows(table: circuit.RankingTable) -> list[list[Any]]:
    rows: list[list[Any]] = [["rank", "person", "name", "points", "tournament", "division",
                              "place", "field", "event points", "counted"]]
    for line in table.lines:
        for e in line.events or ():
            rows.append([line.rank, line.person, line.name, round(line.points, 2),
                         e.tournament, e.division, e.place, e.field, round(e.points, 2),
                         "yes" if e.counted else "no"])
    return rows


def _rating_rows(lines: Iterable[circuit.RatingLine]) -> list[list[Any]]:
    rows: list[list[Any]] = [["rank", "person", "name", "mu", "sigma", "ordinal", "games",
                              "provisional"]]
    for i, r in enumerate(lines, 1):
        rows.append([i, r.person, r.name, round(r.mu, 3), round(r.sigma, 3),
                     round(r.ordinal, 3), r.games, "yes" if r.provisional else "no"])
    return rows


def _safe(value: object) -> object:
    """A text cell a spreadsheet would run as a formula is quoted (CSV injection)."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def _export(rows: Sequence[Sequence[Any]], name: str, fmt: str) -> Response:
    if fmt == "csv":
        buf = io.StringIO()
        writer = csv.writer(buf)
        for row in rows:
            writer.writerow([_safe(v) for v in row])
        return Response("\ufeff" + buf.getvalue(), media_type="text/csv; charset=utf-8",
                        headers={"Content-Disposition": f'attachment; filename="{name}.csv"'})
    if fmt != "xlsx":
        raise HTTPException(404, "exports: .csv or .xlsx")
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = name[:31]
    for row in rows:
        ws.append([_safe(v) for v in row])
    out = io.BytesIO()
    wb.save(out)
    return Response(out.getvalue(), headers={
        "Content-Disposition": f'attachment; filename="{name}.xlsx"'},
        media_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")


@public.get("/ranking.{fmt}")
def ranking_export(store: StoreDep, fmt: str, ranking: str | None = None,
                   as_of: str | None = None) -> Response:
    table = _table(store, ranking, as_of)
    return _export(_ranking_rows(table), f"ranking-{table.info.key}-{table.as_of}", fmt)


@public.get("/api/ranking")
def ranking_json(store: StoreDep, ranking: str | None = None,
                 as_of: str | None = None) -> Response:
    """The ranking as JSON, read-only, for any site to show (CORS open)."""
    table = _table(store, ranking, as_of)
    body = {"ranking": table.info.key, "name": table.info.name,
            "organisation": table.info.organisation, "as_of": table.as_of.isoformat(),
            "config": circuit.config_data(table.info.config),
            "lines": [line.as_json() for line in table.lines]}
    return JSONResponse(body, headers={"Access-Control-Allow-Origin": "*",
                                       "Cache-Control": "public, max-age=60"})


@public.get("/rating", response_class=HTMLResponse)
def rating_page(request: Request, store: StoreDep) -> Response:
    lines = circuit.ratings(store, public_only=True)
    return render(request, "public/rating.html", lines=lines,
                  provisional_games=circuit.RATING.provisional_games)


@public.get("/rating.{fmt}")
def rating_export(store: StoreDep, fmt: str) -> Response:
    return _export(_rating_rows(circuit.ratings(store, public_only=True)), "rating", fmt)


@public.get("/people/{player}", response_class=HTMLResponse)
def person_page(request: Request, store: StoreDep, player: int) -> Response:
    try:
        page = circuit.person_page(store, player)
    except usecases.UseCaseError:
        page = None
    if page is None:
        raise HTTPException(404, "no such person")
    return render(request, "public/person.html", page=page)


# ---------------------------------------------------------------------------
# The director: a division by qualification


@director.get("/t/{slug}/d/{key}/qualified", response_class=HTMLResponse)
def seats_page(request: Request, store: StoreDep, director: TournamentDirectorDep,
               slug: str, key: str) -> Response:
    t = load_tournament(store, slug)
    try:
        div = t.division(key)
        views = circuit.seats(store, slug, key)
    except (usecases.UseCaseError, ValueError):
        raise HTTPException(404, f"no division {key!r}") from None
    known = circuit.qualifications(store)
    grants = [h for h in circuit.holders(store) if (h.tournament, h.division) == (slug, key)]
    return render(request, "director/qualified.html", t=t, slug=slug, div=div, views=views,
                  known=known, grants=grants, account=director)


@director.post("/t/{slug}/d/{key}/quota")
def quota_post(request: Request, store: StoreDep, director: TournamentDirectorDep,
               slug: str, key: str, qualification: str = Form(""),
               seats: str = Form("")) -> Response:
    _ = gettext_of(request)
    back = f"/director/t/{slug}/d/{key}/qualified"
    try:
        n = int(seats)
    except ValueError:
        return redirect(request, back, _("The number of seats must be a whole number."),
                        "error")
    qualification = qualification.strip()[:100]
    if not qualification:
        return redirect(request, back, _("Choose a qualification."), "error")
    try:
        circuit.set_quota(store, slug, key, qualification, n, who=director.name)
    except usecases.UseCaseError as exc:
        return redirect(request, back, refusal_text(exc, _), "error")
    return redirect(request, back, _("Seats recorded."))


@director.post("/t/{slug}/d/{key}/decline")
def decline_post(request: Request, store: StoreDep, director: TournamentDirectorDep,
                 slug: str, key: str, qualification: str = Form(""),
                 source: str = Form(""), number: str = Form(""),
                 why: str = Form("")) -> Response:
    _ = gettext_of(request)
    back = f"/director/t/{slug}/d/{key}/qualified"
    if not number.isdigit():
        return redirect(request, back, _("Choose the holder who declines."), "error")
    try:
        circuit.decline(store, qualification, source, int(number), who=director.name,
                        why=why.strip()[:500])
    except usecases.UseCaseError as exc:
        return redirect(request, back, refusal_text(exc, _), "error")
    return redirect(request, back, _("Recorded: the seat passes to the next place."))


# ---------------------------------------------------------------------------
# The director: people across tournaments


def _administrator(request: Request, store: Any, account: Any) -> None:
    """People span tournaments: only the site's administrator merges and splits them."""
    if owners.administrator_id(store) != account.id:
        _ = gettext_of(request)
        raise HTTPException(403, _("Only the site's administrator merges and splits "
                                   "people."))


@director.get("/people", response_class=HTMLResponse)
def people_page(request: Request, store: StoreDep, director: DirectorDep,
                name: str = "") -> Response:
    _administrator(request, store, director)
    name = " ".join(name.split())[:200]
    found = circuit.people(store, name or None)
    return render(request, "director/people.html", people=found[:200], query=name,
                  more=len(found) > 200, account=director)


def _back(name: str) -> str:
    return "/director/people?" + urlencode({"name": name}) if name else "/director/people"


@director.post("/people/{player}/details")
def person_details(request: Request, store: StoreDep, director: DirectorDep, player: int,
                   member: str = Form(""), birth_year: str = Form(""),
                   contact: str = Form(""), public: str = Form(""),
                   name: str = Form("")) -> Response:
    _administrator(request, store, director)
    _ = gettext_of(request)
    year = birth_year.strip()
    if year and not year.isdigit():
        return redirect(request, _back(name), _("The birth year must be a year, like 1990."),
                        "error")
    try:
        circuit.set_person(store, player, who=director.name, member_number=member,
                           birth_year=int(year) if year else None, contact=contact,
                           public=bool(public))
    except usecases.UseCaseError as exc:
        return redirect(request, _back(name), refusal_text(exc, _), "error")
    return redirect(request, _back(name), _("Details recorded."))


@director.post("/people/merge")
def people_merge(request: Request, store: StoreDep, director: DirectorDep,
                 keep: str = Form(""), gone: str = Form(""), why: str = Form(""),
                 name: str = Form("")) -> Response:
    _administrator(request, store, director)
    _ = gettext_of(request)
    if not (keep.isdigit() and gone.isdigit()):
        return redirect(request, _back(name), _("Choose the two people to merge."), "error")
    try:
        out = circuit.merge(store, int(keep), int(gone), who=director.name, why=why)
    except usecases.UseCaseError as exc:
        return redirect(request, _back(name), refusal_text(exc, _), "error")
    return redirect(request, _back(name), _(
        "Merged: %(n)s registrations are now %(name)s's; the ratings were computed "
        "again.") % {"n": len(out.moved), "name": out.kept.name})


@director.post("/people/{player}/split")
async def people_split(request: Request, store: StoreDep, director: DirectorDep,
                       player: int) -> Response:
    _administrator(request, store, director)
    _ = gettext_of(request)
    form = await request.form()
    name = str(form.get("name", ""))
    chosen = [str(x) for x in form.getlist("tournament")]
    try:
        out = circuit.split(store, player, chosen, who=director.name,
                            why=str(form.get("why", "")))
    except usecases.UseCaseError as exc:
        return redirect(request, _back(name), refusal_text(exc, _), "error")
    return redirect(request, _back(name), _(
        "Split: %(n)s registrations are now person #%(person)s; the ratings were "
        "computed again.") % {"n": len(out.moved), "person": out.kept.person})


@director.get("/t/{slug}/p/{player}/same", response_class=HTMLResponse)
def same_page(request: Request, store: StoreDep, director: TournamentDirectorDep,
              slug: str, player: int) -> Response:
    t = load_tournament(store, slug)
    try:
        mine, found = circuit.candidates(store, slug, player)
    except usecases.UseCaseError:
        raise HTTPException(404, "no such player") from None
    return render(request, "director/same.html", t=t, slug=slug, player=player, mine=mine,
                  found=found, account=director)


@director.post("/t/{slug}/p/{player}/same")
def same_post(request: Request, store: StoreDep, director: TournamentDirectorDep,
              slug: str, player: int, person: str = Form(""),
              why: str = Form("")) -> Response:
    _ = gettext_of(request)
    back = f"/director/t/{slug}/p/{player}/same"
    if not person.isdigit():
        return redirect(request, back, _("Choose the person this registration is."),
                        "error")
    try:
        out = circuit.same_person(store, slug, player, int(person), who=director.name,
                                  why=why)
    except usecases.UseCaseError as exc:
        return redirect(request, back, refusal_text(exc, _), "error")
    return redirect(request, back, _("Recorded: this registration is %(name)s (#%(person)s)"
                                     "; the ratings were computed again.")
                    % {"name": out.kept.name, "person": out.kept.person})


@director.post("/t/{slug}/d/{key}/grant")
def grant_post(request: Request, store: StoreDep, director: TournamentDirectorDep,
               slug: str, key: str, qualification: str = Form(""), label: str = Form(""),
               seats: str = Form("")) -> Response:
    _ = gettext_of(request)
    back = f"/director/t/{slug}/d/{key}/qualified"
    qualification = qualification.strip()[:100]
    if not re.fullmatch(r"[a-z0-9][a-z0-9-]{0,99}", qualification):
        return redirect(request, back, _("A qualification's key is lower-case letters, "
                                         "digits and -."), "error")
    if not seats.strip().isdigit():
        return redirect(request, back, _("The number of seats must be a whole number."),
                        "error")
    try:
        circuit.grant_qualification(store, slug, key, qualification,
                                    label=" ".join(label.split())[:200], seats=int(seats),
                                    who=director.name)
    except usecases.UseCaseError as exc:
        return redirect(request, back, refusal_text(exc, _), "error")
    return redirect(request, back, _("Recorded: the awards of this division qualify."))


router = APIRouter()
router.include_router(public)
router.include_router(director)

__all__ = ["router"]
