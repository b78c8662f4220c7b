"""Printing (the PDFs of :mod:`meldtour.web.pdf`) and exports (CSV and XLSX of players,
sheets and standings), for directors."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from urllib.parse import quote

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import Response

from meldtour import application as usecases
from meldtour.application.circuit.results import certificates_printed
from meldtour.application.spreadsheet import csv_text, safe_cell
from meldtour.tournament import (
    Tournament,
    TournamentError,
    awards,
    final_ranking,
    stage_standings,
)
from meldtour.tournament.side import family_prizes

from ... import pdf
from ...address import public_base
from ...deps import load_tournament
from ...i18n import N_, tag_text, translations
from ...round_words import round_namer
from ...views import CRITERIA, STATUS, refusal_text
from ..deps import Scope, StoreDep, TournamentDirectorDep, WebDep, acting, gettext_of, locale_of

router = APIRouter(prefix="/director")

Gettext = Callable[[str], str]


def disposition(kind: str, name: str) -> str:
    """A Content-Disposition header for ``name``, which may hold a Korean or Japanese
    slug: an ASCII fallback, and the name itself as RFC 6266's ``filename*``."""
    fallback = "".join(c if c.isascii() and (c.isalnum() or c in "-_.") else "_" for c in name)
    return f"{kind}; filename=\"{fallback}\"; filename*=UTF-8''{quote(name, safe='')}"


#: What each printable and export is called in its file's name.
FILE_WORDS = {
    "seats": N_("seat list and table cards"),
    "names": N_("seat list by name"),
    "sheets": N_("score sheets"),
    "standings": N_("standings"),
    "certificates": N_("certificates"),
    "ranking": N_("Final ranking"),
    "family": N_("family-prize certificates"),
    "players": N_("players"),
}


def file_name(*parts: str, ext: str = "pdf") -> str:
    """A file's name in the reader's words (``부산 2015 일반부 점수 기록지 1라운드.pdf``),
    not the app's keys; no character a file system refuses."""
    name = " ".join(" ".join(p.split()) for p in parts if p)
    name = "".join("_" if c in '/\\:*?"<>|' or ord(c) < 32 else c for c in name)
    return f"{name[:150]}.{ext}"


def _pdf(data: bytes, name: str) -> Response:
    return Response(
        data,
        media_type="application/pdf",
        headers={"Content-Disposition": disposition("inline", name)},
    )


@router.get("/t/{slug}/d/{key}/pdf/{kind}")
def printable(
    request: Request,
    web: WebDep,
    store: StoreDep,
    director: TournamentDirectorDep,
    slug: str,
    key: str,
    kind: str,
    stage: int | None = None,
    round: int | None = None,
    table: int | None = None,
) -> Response:
    t = load_tournament(store, slug)
    locale = locale_of(request)
    _ = gettext_of(request)
    try:
        div = t.division(key)

        def named(*more: str) -> str:
            return file_name(t.name, div.name, _(FILE_WORDS[kind]), *more)

        index = (stage - 1) if stage else len(div.stages) - 1
        if kind in ("sheets", "seats", "names"):
            if index < 0 or not div.stages[index].rounds:
                raise TournamentError("usecase.no_round_seated_yet")
            number = round or div.stages[index].rounds[-1].number
            if kind == "seats":
                rnd = round_namer(_)(div.stages[index], number)
                return _pdf(pdf.seat_list(t, key, index, number, locale), named(rnd))
            if kind == "names":
                return _pdf(
                    pdf.seat_names(t, key, index, number, locale),
                    named(round_namer(_)(div.stages[index], number)),
                )
            base = public_base(request)

            def url(n: int) -> str:
                return f"{base}/score/" + web.scorer_token(Scope(slug, key, index, number, n))

            data = pdf.score_sheets(t, key, index, number, locale, url, [table] if table else None)
            rnd = round_namer(_)(div.stages[index], number)
            return _pdf(data, named(rnd, _("Table %(n)s") % {"n": table} if table else ""))
        if kind == "standings":
            if index < 0:
                raise TournamentError("usecase.no_stage_started")
            from ...views import cut_of

            return _pdf(
                pdf.standings_pdf(t, key, locale, index, cut_of(div, index)),
                named(div.stages[index].format.title),
            )
        if kind == "certificates":
            said = usecases.award_settings(store, slug, key)
            data = pdf.certificates(t, key, locale, titles=said.prizes, signers=said.signers)
            # kept, so that a correction after the awards lists those it supersedes
            certificates_printed(store, slug, key, who=acting(director))
            return _pdf(data, named())
        if kind == "ranking":
            return _pdf(pdf.ranking_pdf(t, key, locale), named())
        if kind == "family":
            prizes = family_prizes(t)
            if not prizes:
                raise HTTPException(
                    409, gettext_of(request)("No family qualifies for a family prize.")
                )
            signers = usecases.award_settings(store, slug, key).signers
            return _pdf(
                pdf.family_certificates(t, prizes, locale, signers),
                file_name(t.name, _(FILE_WORDS["family"])),
            )
    except (TournamentError, ValueError, IndexError) as exc:
        raise HTTPException(409, refusal_text(exc, gettext_of(request))) from None
    raise HTTPException(404, "unknown printable")


#: The exports' column names, in the language chosen on the page (``?lang=``).
COLUMNS = {
    "number": N_("Number"),
    "name": N_("Name"),
    "division": N_("Division"),
    "status": N_("Status"),
    "tags": N_("Tags"),
    "generation": N_("Generation"),
    "late": N_("Late entry"),
    "stage": N_("Stage"),
    "round": N_("Round"),
    "table": N_("Table"),
    "game": N_("Game"),
    "seat": N_("Seat"),
    "player": N_("Player"),
    "points": N_("Points"),
    "penalty": N_("Penalty"),
    "winner": N_("Winner"),
    "counted": N_("Counted"),
    "rank": N_("Rank"),
    "wins": N_("Wins"),
    "score": N_("Score"),
    "games": N_("Games"),
    "decided_by": N_("Decided by"),
    "place": N_("Place"),
    "decided_in": N_("Decided in"),
}


def _players(t: Tournament, _: Gettext) -> Iterator[list[object]]:
    yield ["number", "name", "division", "status", "tags", "generation", "late"]
    names = {d.key: d.name for d in t.divisions}
    for r in t.registrations:
        yield [
            r.player,
            r.name,
            names.get(r.division, r.division),
            _(STATUS.get(r.status, r.status)),
            ", ".join(tag_text(tag, _) for tag in sorted(r.tags)),
            r.generation,
            _yes(r.late, _),
        ]


def _yes(value: bool, _: Gettext) -> str:
    """A yes/no column in words (a spreadsheet's 0 and 1 say nothing)."""
    return _("yes") if value else _("no")


def _sheets(t: Tournament, _: Gettext) -> Iterator[list[object]]:
    yield [
        "division",
        "stage",
        "round",
        "table",
        "game",
        "seat",
        "number",
        "name",
        "points",
        "penalty",
        "winner",
        "counted",
    ]
    for div in t.divisions:
        for stage in div.stages:
            for rnd in stage.rounds:
                for table in rnd.tables:
                    sheet = table.sheet
                    for g, line in enumerate(sheet.games, 1):
                        for seat, player in enumerate(sheet.players, 1):
                            yield [
                                div.name,
                                stage.format.title,
                                rnd.number,
                                table.number,
                                g,
                                seat,
                                player,
                                t.name_of(player),
                                line.points[seat - 1],
                                line.penalties[seat - 1],
                                _yes(line.winner == seat, _),
                                _yes(table.counted, _),
                            ]


def _number(value: object) -> object:
    """A score as a number (a whole one when it is whole)."""
    f = float(value)  # type: ignore[arg-type]
    return int(f) if f.is_integer() else round(f, 3)


def _standings(t: Tournament, _: Gettext) -> Iterator[list[object]]:
    yield [
        "division",
        "stage",
        "rank",
        "number",
        "name",
        "wins",
        "points",
        "score",
        "games",
        "decided_by",
    ]
    for div in t.divisions:
        for i, stage in enumerate(div.stages):
            for s in stage_standings(t, div.key, i):
                yield [
                    div.name,
                    stage.format.title,
                    s.rank,
                    s.player,
                    t.name_of(s.player),
                    s.wins,
                    s.points,
                    _number(s.score),
                    s.games,
                    _(CRITERIA.get(str(s.decided_by), str(s.decided_by))),
                ]


def _ranking(t: Tournament, _: Gettext) -> Iterator[list[object]]:
    """The final ranking of every finished division (a division still playing has no
    places yet, and is left out)."""
    yield ["division", "place", "number", "name", "decided_in", "wins", "points"]
    for div in t.divisions:
        try:
            awards(t, div.key)
        except TournamentError:
            continue
        for p in final_ranking(t, div.key):
            s = p.standing
            yield [
                div.name,
                p.place,
                p.player,
                p.name,
                p.stage,
                s.wins if s else None,
                s.points if s else None,
            ]


TABLES = {"players": _players, "sheets": _sheets, "standings": _standings, "ranking": _ranking}


@router.get("/t/{slug}/export/{what}.{fmt}")
def export(
    request: Request,
    store: StoreDep,
    director: TournamentDirectorDep,
    slug: str,
    what: str,
    fmt: str,
) -> Response:
    """A table as CSV or XLSX: numbers as numbers, the column names in the reader's
    language."""
    t = load_tournament(store, slug)
    if what not in TABLES or fmt not in ("csv", "xlsx"):
        raise HTTPException(404, "exports: players, sheets, standings, ranking as .csv or .xlsx")
    _ = translations(locale_of(request)).gettext
    rows = list(TABLES[what](t, _))
    rows[0] = [_(COLUMNS[str(c)]) for c in rows[0]]
    name = file_name(t.name, _(FILE_WORDS.get(what, what)), ext=fmt)
    if fmt == "csv":
        # A BOM so that spreadsheet programs read Korean and Japanese names as UTF-8.
        return Response(
            "\ufeff" + csv_text(rows),
            media_type="text/csv; charset=utf-8",
            headers={"Content-Disposition": disposition("attachment", name)},
        )
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = what
    for row in rows:
        ws.append([safe_cell(v) for v in row])
    ws.freeze_panes = "A2"  # the column names stay in view
    out = io.BytesIO()
    wb.save(out)
    return Response(
        out.getvalue(),
        headers={"Content-Disposition": disposition("attachment", name)},
        media_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    )
