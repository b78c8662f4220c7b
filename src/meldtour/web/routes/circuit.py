"""The circuit's public pages: the ranking (each line with the tournaments behind its
points), the rating list, a person's public page, their CSV/XLSX exports and the ranking
as read-only JSON for a federation's own site (the director's circuit pages are
:mod:`meldtour.web.director.routes.circuit`).

Public pages show names only: never a contact, a member number or a birth year, and
nobody whom the director marked private.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import replace as dataclass_replace
from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from meldtour import application as usecases
from meldtour.application import circuit
from meldtour.application.spreadsheet import csv_text, safe_cell

from ..deps import (
    StoreDep,
    csrf_protect,
    gettext_of,
    render,
)
from ..i18n import N_
from ..rating_chart import chart as rating_chart

public = APIRouter(dependencies=[Depends(csrf_protect)])


def _table(store: Any, ranking: str | None, as_of: str | None) -> circuit.RankingTable:
    """The ranking asked for (none: the first defined, or the default one)."""
    try:
        circuit.backfill(store)
        return circuit.ranking_table(
            store, circuit.ranking_key(store, ranking), circuit.parse_day(as_of), public_only=True
        )
    except usecases.UseCaseError as exc:
        raise HTTPException(400 if exc.code == "circuit.bad_date" else 404, str(exc)) from None


@public.get("/ranking", response_class=HTMLResponse)
def ranking_page(
    request: Request, store: StoreDep, ranking: str | None = None, as_of: str | None = None
) -> Response:
    table = _table(store, ranking, as_of)
    return render(
        request,
        "public/ranking.html",
        table=table,
        default_names=DEFAULT_NAMES,
        level_words=LEVEL_WORDS,
        # the levels its tournaments use (none counts yet: every level)
        used_levels={r.level for r in table.results} or set(table.info.config.weights),
        rankings=circuit.rankings(store),
        chosen=ranking or "",
        as_of=as_of or "",
    )


#: The default rankings' names and the levels' (words of the catalogs).
DEFAULT_NAMES = (
    N_("National ranking"),
    N_("Korean ranking"),
    N_("Japanese ranking"),
    N_("Club nights ranking"),
    N_("Open ranking"),
)
assert set(circuit.CIRCUIT_NAMES.values()) <= set(DEFAULT_NAMES)
LEVEL_WORDS = (N_("world"), N_("national"), N_("regional"), N_("monthly"))

#: The ranking export's columns, in the language asked for (``?lang=``).
RANKING_COLUMNS = (
    N_("Rank"),
    N_("Person"),
    N_("Name"),
    N_("Points"),
    N_("Tournament"),
    N_("Division"),
    N_("Place"),
    N_("Field"),
    N_("Event points"),
    N_("Counted"),
)


def _ranking_rows(table: circuit.RankingTable, _: Any = lambda text: text) -> list[list[Any]]:
    rows: list[list[Any]] = [[_(c) for c in RANKING_COLUMNS]]
    for line in table.lines:
        name = _("(name withheld)") if line.withheld else line.name
        for e in line.events or ():
            rows.append(
                [
                    line.rank,
                    line.person or "",
                    name,
                    round(line.points, 2),
                    e.tournament_name,
                    e.division_name,
                    e.place,
                    e.field,
                    round(e.points, 2),
                    _("yes") if e.counted else _("no"),
                ]
            )
    return rows


def _rating_rows(table: circuit.RatingTable, withheld: str) -> list[list[Any]]:
    rows: list[list[Any]] = [
        [
            "pool",
            "as of",
            "rank",
            "person",
            "name",
            "rating",
            "mu",
            "sigma",
            "games",
            "events",
            "last",
            "provisional",
        ]
    ]
    for lines in (table.lines, table.provisional):
        for i, r in enumerate(lines, 1):
            rows.append(
                [
                    table.pool,
                    table.as_of.isoformat(),
                    i,
                    "" if r.withheld else r.person,
                    withheld if r.withheld else r.name,
                    round(r.ordinal, 3),
                    round(r.mu, 3),
                    round(r.sigma, 3),
                    r.games,
                    r.events,
                    r.last.isoformat(),
                    "yes" if r.provisional else "no",
                ]
            )
    return rows


def _export(rows: Sequence[Sequence[Any]], name: str, fmt: str) -> Response:
    if fmt == "csv":
        return Response(
            "\ufeff" + csv_text(rows),
            media_type="text/csv; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="{name}.csv"'},
        )
    if fmt != "xlsx":
        raise HTTPException(404, "exports: .csv or .xlsx")
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = name[:31]
    for row in rows:
        ws.append([safe_cell(v) for v in row])
    out = io.BytesIO()
    wb.save(out)
    return Response(
        out.getvalue(),
        headers={"Content-Disposition": f'attachment; filename="{name}.xlsx"'},
        media_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    )


@public.get("/ranking.{fmt}")
def ranking_export(
    request: Request,
    store: StoreDep,
    fmt: str,
    ranking: str | None = None,
    as_of: str | None = None,
) -> Response:
    table = _table(store, ranking, as_of)
    return _export(
        _ranking_rows(table, gettext_of(request)), f"ranking-{table.info.key}-{table.as_of}", fmt
    )


@public.get("/api/ranking")
def ranking_json(store: StoreDep, ranking: str | None = None, as_of: str | None = None) -> Response:
    """The ranking as JSON, read-only, for any site to show (CORS open)."""
    table = _table(store, ranking, as_of)
    body = {
        "ranking": table.info.key,
        "name": table.info.name,
        "organisation": table.info.organisation,
        "as_of": table.as_of.isoformat(),
        "config": circuit.config_data(table.info.config),
        "lines": [line.as_json() for line in table.lines],
    }
    return JSONResponse(
        body, headers={"Access-Control-Allow-Origin": "*", "Cache-Control": "public, max-age=60"}
    )


def _rating(store: Any, pool: str | None, as_of: str | None) -> circuit.RatingTable:
    """The rating pool asked for (none: the first with events) on the date asked for."""
    try:
        table = circuit.rating_table(
            store,
            (pool or "").strip()[:60] or None,
            circuit.parse_day((as_of or "")[:40] or None),
            public_only=True,
        )
    except usecases.UseCaseError as exc:
        raise HTTPException(400 if exc.code == "circuit.bad_date" else 404, exc.refusal) from None
    # each namesake told apart (:func:`circuit.public_labels`)
    labels = circuit.public_labels(
        store, [(r.person, r.name) for r in table.lines + table.provisional if not r.withheld]
    )
    return dataclass_replace(
        table,
        lines=tuple(dataclass_replace(r, name=labels.get(r.person, r.name)) for r in table.lines),
        provisional=tuple(
            dataclass_replace(r, name=labels.get(r.person, r.name)) for r in table.provisional
        ),
    )


@public.get("/rating", response_class=HTMLResponse)
def rating_page(
    request: Request, store: StoreDep, pool: str | None = None, as_of: str | None = None
) -> Response:
    table = _rating(store, pool, as_of)
    query = urlencode({k: v for k, v in (("pool", table.pool), ("as_of", as_of or "")) if v})
    return render(
        request,
        "public/rating.html",
        table=table,
        model=circuit.RATING,
        as_of=as_of or "",
        query=query,
    )


@public.get("/rating.{fmt}")
def rating_export(
    request: Request, store: StoreDep, fmt: str, pool: str | None = None, as_of: str | None = None
) -> Response:
    table = _rating(store, pool, as_of)
    _ = gettext_of(request)
    return _export(
        _rating_rows(table, _("(name withheld)")),
        f"rating-{table.pool}-{table.as_of.isoformat()}",
        fmt,
    )


@public.get("/people/{player}", response_class=HTMLResponse)
def person_page(request: Request, store: StoreDep, player: int) -> Response:
    try:
        page = circuit.person_page(store, player)
    except usecases.UseCaseError:
        page = None
    if page is None:
        raise HTTPException(404, "no such person")
    charts = {r.pool: rating_chart(r.history) for r in page.ratings}
    return render(request, "public/person.html", page=page, charts=charts)


# ---------------------------------------------------------------------------
# The director: a division by qualification


router = public

__all__ = ["router"]
