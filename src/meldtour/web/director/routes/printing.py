"""Printing (the PDFs of :mod:`meldtour.web.pdf`) and exports (CSV and XLSX of players,
sheets and standings), for directors."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from urllib.parse import quote

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import Response

from meldtour.tournament import Tournament, TournamentError, stage_standings
from meldtour.tournament.standings import score_text

from ... import pdf
from ...deps import load_tournament
from ..deps import Scope, StoreDep, TournamentDirectorDep, WebDep, gettext_of, locale_of
from ..views import refusal_text

router = APIRouter(prefix="/director")



def disposition(kind: str, name: str) -> str:
    """A Content-Disposition header for ``name``, which may hold a Korean or Japanese
    slug: an ASCII fallback, and the name itself as RFC 6266's ``filename*``."""
    fallback = "".join(c if c.isascii() and (c.isalnum() or c in "-_.") else "_"
                       for c in name)
    return f"{kind}; filename=\"{fallback}\"; filename*=UTF-8''{quote(name, safe='')}"


def _pdf(data: bytes, name: str) -> Response:
    return Response(data, media_type="application/pdf",
                    headers={"Content-Disposition": disposition("inline", name)})


@router.get("/t/{slug}/d/{key}/pdf/{kind}")
def printable(request: Request, web: WebDep, store: StoreDep, director: TournamentDirectorDep,
              slug: str, key: str, kind: str, stage: int | None = None,
              round: int | None = None, table: int | None = None) -> Response:
    t = load_tournament(store, slug)
    locale = locale_of(request)
    try:
        div = t.division(key)
        index = (stage - 1) if stage else len(div.stages) - 1
        if kind in ("sheets", "seats"):
            if index < 0 or not div.stages[index].rounds:
                raise TournamentError("usecase.no_round_seated_yet")
            number = round or div.stages[index].rounds[-1].number
            if kind == "seats":
                return _pdf(pdf.seat_list(t, key, index, number, locale), f"seats-{key}.pdf")
            base = str(request.base_url).rstrip("/")

            def url(n: int) -> str:
                return f"{base}/score/" + web.scorer_token(Scope(slug, key, index, number, n))

            data = pdf.score_sheets(t, key, index, number, locale, url,
                                    [table] if table else None)
            return _pdf(data, f"sheets-{key}-r{number}.pdf")
        if kind == "standings":
            if index < 0:
                raise TournamentError("usecase.no_stage_started")
            from ..views import cut_of
            return _pdf(pdf.standings_pdf(t, key, locale, index, cut_of(div, index)),
                        f"standings-{key}.pdf")
        if kind == "certificates":
            return _pdf(pdf.certificates(t, key, locale), f"certificates-{key}.pdf")
    except (TournamentError, ValueError, IndexError) as exc:
        raise HTTPException(409, refusal_text(exc, gettext_of(request))) from None
    raise HTTPException(404, "unknown printable")


def _players(t: Tournament) -> Iterator[list[object]]:
    yield ["number", "name", "division", "status", "tags", "generation", "late"]
    for r in t.registrations:
        yield [r.player, r.name, r.division, r.status, " ".join(sorted(r.tags)),
               r.generation if r.generation is not None else "", int(r.late)]


def _sheets(t: Tournament) -> Iterator[list[object]]:
    yield ["division", "stage", "round", "table", "game", "seat", "player", "name", "points",
           "penalty", "winner", "counted"]
    for div in t.divisions:
        for s, stage in enumerate(div.stages, 1):
            for rnd in stage.rounds:
                for table in rnd.tables:
                    sheet = table.sheet
                    for g, line in enumerate(sheet.games, 1):
                        for seat, player in enumerate(sheet.players, 1):
                            pts = line.points[seat - 1]
                            yield [div.key, s, rnd.number, table.number, g, seat, player,
                                   t.name_of(player), "" if pts is None else pts,
                                   line.penalties[seat - 1], int(line.winner == seat),
                                   int(table.counted)]


def _standings(t: Tournament) -> Iterator[list[object]]:
    yield ["division", "stage", "rank", "player", "name", "wins", "points", "score", "games",
           "decided_by"]
    for div in t.divisions:
        for i, stage in enumerate(div.stages):
            for s in stage_standings(t, div.key, i):
                yield [div.key, stage.format.title, s.rank, s.player, t.name_of(s.player),
                       s.wins, s.points, score_text(s.score), s.games, str(s.decided_by)]


TABLES = {"players": _players, "sheets": _sheets, "standings": _standings}


@router.get("/t/{slug}/export/{what}.{fmt}")
def export(store: StoreDep, director: TournamentDirectorDep, slug: str, what: str,
           fmt: str) -> Response:
    t = load_tournament(store, slug)
    if what not in TABLES or fmt not in ("csv", "xlsx"):
        raise HTTPException(404, "exports: players, sheets, standings as .csv or .xlsx")
    rows = list(TABLES[what](t))
    name = f"{slug}-{what}.{fmt}"
    if fmt == "csv":
        buf = io.StringIO()
        writer = csv.writer(buf)
        for row in rows:
            writer.writerow([_safe_cell(v) for v in row])
        # A BOM so that spreadsheet programs read Korean and Japanese names as UTF-8.
        return Response("\ufeff" + buf.getvalue(), media_type="text/csv; charset=utf-8",
                        headers={"Content-Disposition": disposition("attachment", name)})
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = what
    for row in rows:
        ws.append([_safe_cell(v) for v in row])
    out = io.BytesIO()
    wb.save(out)
    return Response(out.getvalue(), headers={
        "Content-Disposition": disposition("attachment", name)},
        media_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")


def _safe_cell(value: object) -> object:
    """A text cell that a spreadsheet would run as a formula is quoted (CSV injection)."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value
