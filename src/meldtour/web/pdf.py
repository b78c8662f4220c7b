"""Printable material in Korean, Japanese and English (PDF, with fpdf2).

Score sheets per table (with a QR code for the table's score-entry link), the seat
list of a round with a card for each table, standings with the cut line, and award
certificates. Each function takes values of the pure tournament engine and returns
the PDF's bytes. Fonts: Noto Sans CJK from Debian's ``fonts-noto-cjk`` (the Korean
face for Korean pages, the Japanese face otherwise).
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from pathlib import Path

import segno
from fpdf import FPDF

from meldtour.tournament import Tournament, final_ranking, stage_standings
from meldtour.tournament.model import Round, Stage, Table

from .i18n import translations

FONT_DIRS = (Path("/usr/share/fonts/opentype/noto"), Path("/usr/share/fonts/truetype/noto"))
#: Face in NotoSansCJK-*.ttc: 0 Japanese, 1 Korean (2–4 Chinese).
FACE = {"ko": 1, "ja": 0, "en": 0}


class FontsMissing(RuntimeError):
    """The CJK fonts are not installed."""


def _font_file(weight: str) -> Path:
    for d in FONT_DIRS:
        path = d / f"NotoSansCJK-{weight}.ttc"
        if path.exists():
            return path
    raise FontsMissing(
        "Noto Sans CJK is not installed: install Debian's fonts-noto-cjk (make install does)")


class _Doc(FPDF):
    def __init__(self, locale: str, title: str, landscape: bool = False) -> None:
        super().__init__(orientation="L" if landscape else "P", unit="mm", format="A4")
        self.locale = locale
        self._ = translations(locale).gettext
        face = FACE.get(locale, 0)
        self.add_font("cjk", "", str(_font_file("Regular")), collection_font_number=face)
        self.add_font("cjk", "B", str(_font_file("Bold")), collection_font_number=face)
        self.set_title(title)
        self.set_creator("meldtour")
        self.set_lang({"ko": "ko-KR", "ja": "ja-JP"}.get(locale, "en"))
        self.set_auto_page_break(True, margin=15)
        self.set_margins(15, 15, 15)

    def text_line(self, text: str, size: float = 11, bold: bool = False, h: float = 7,
                  align: str = "L") -> None:
        self.set_font("cjk", "B" if bold else "", size)
        self.cell(0, h, text, new_x="LMARGIN", new_y="NEXT", align=align)

    def grid_row(self, cells: Sequence[str], widths: Sequence[float], h: float = 9,
                 bold: bool = False, size: float = 10, fill: bool = False) -> None:
        self.set_font("cjk", "B" if bold else "", size)
        if fill:
            self.set_fill_color(236, 239, 242)
        for text, w in zip(cells, widths, strict=True):
            self.cell(w, h, text, border=1, align="C", fill=fill)
        self.ln(h)


def _stage_round(t: Tournament, division: str, stage: int, round_number: int
                 ) -> tuple[Stage, Round]:
    div = t.division(division)
    st = div.stages[stage]
    for r in st.rounds:
        if r.number == round_number:
            return st, r
    raise ValueError(f"{div.name}: stage {stage + 1} has no round {round_number}")


def _points(value: int | None) -> str:
    if value is None:
        return ""
    return f"+{value}" if value > 0 else ("0" if value == 0 else f"−{-value}")


def _qr_png(url: str) -> io.BytesIO:
    buf = io.BytesIO()
    segno.make(url, error="m").save(buf, kind="png", scale=6, border=2)
    buf.seek(0)
    return buf


def score_sheets(
    t: Tournament, division: str, stage: int, round_number: int, locale: str,
    table_url: Callable[[int], str] | None = None, tables: Sequence[int] | None = None,
) -> bytes:
    """One page per table: players in seat order, a row per game, totals, signatures.

    What has been entered is printed in the cells; a blank sheet is for pen and paper.
    ``table_url(n)`` gives table n's score-entry link, printed as a QR code.
    """
    div = t.division(division)
    st, rnd = _stage_round(t, division, stage, round_number)
    doc = _Doc(locale, f"{t.name} — {div.name}")
    _ = doc._
    penalties = div.rules.failed_turn_points > 0
    for table in rnd.tables:
        if tables is not None and table.number not in tables:
            continue
        _sheet_page(doc, t, div.name, st, rnd, table, table_url, penalties)
    if doc.page == 0:
        raise ValueError(_("No table to print"))
    return bytes(doc.output())


def _sheet_page(doc: _Doc, t: Tournament, division_name: str, st: Stage, rnd: Round,
                table: Table, table_url: Callable[[int], str] | None, penalties: bool) -> None:
    _ = doc._
    doc.add_page()
    doc.text_line(f"{t.name} · {t.date}", 10)
    doc.text_line(division_name, 12, bold=True)
    doc.text_line(_("%(stage)s · round %(round)d · table %(table)d")
                  % {"stage": st.format.title, "round": rnd.number, "table": table.number},
                  18, bold=True, h=11)
    if table_url is not None:
        url = table_url(table.number)
        doc.image(_qr_png(url), x=doc.w - doc.r_margin - 32, y=14, w=32, h=32)
        doc.set_font("cjk", "", 7)
        doc.set_xy(doc.w - doc.r_margin - 42, 47)
        doc.cell(42, 4, _("Scan to enter the scores"), align="C")
        doc.set_xy(doc.l_margin, 50)
    doc.ln(3)
    seats = len(table.players)
    width = doc.w - doc.l_margin - doc.r_margin
    first, last = 18.0, 22.0
    col = (width - first - last) / seats
    widths = [first, *([col] * seats), last]
    names = [t.name_of(p) for p in table.players]
    doc.grid_row([_("Seat"), *[str(i + 1) for i in range(seats)], ""], widths, h=7,
                 size=9, fill=True)
    doc.grid_row([_("Player"), *names, _("Winner")], widths, bold=True, fill=True)
    doc.grid_row(["No.", *[str(p) for p in table.players], _("seat")], widths, h=7, size=9,
                 fill=True)
    wins = [0] * seats
    totals = [0] * seats
    for g, line in enumerate(table.sheet.games, 1):
        cells = []
        for s in range(seats):
            text = _points(line.points[s])
            if line.penalties[s]:
                text += "  " + "×" * max(1, line.penalties[s] // 50)
            cells.append(text)
            totals[s] += (line.points[s] or 0) - line.penalties[s]
        if line.winner:
            wins[line.winner - 1] += 1
        doc.grid_row([_("Game %(n)d") % {"n": g}, *cells,
                      str(line.winner) if line.winner else ""], widths, h=12, size=12)
    entered = any(v is not None for line in table.sheet.games for v in line.points)
    doc.grid_row([_("Wins"), *[str(w) if entered else "" for w in wins], ""], widths, h=9,
                 bold=True)
    doc.grid_row([_("Points"), *[_points(v) if entered else "" for v in totals], ""], widths,
                 h=9, bold=True)
    doc.ln(4)
    legend = _("− minus points   + plus points")
    if penalties:
        legend += "   " + _("× penalty (−%(p)d, not added to the winner)") % {"p": 50}
    doc.text_line(legend, 9)
    doc.text_line(_("Check each game: the losers' minus points add up to the winner's plus."),
                  9)
    doc.ln(8)
    doc.text_line(_("Scorer") + "  ____________________        "
                  + _("Referee") + "  ____________________", 10)


def seat_list(t: Tournament, division: str, stage: int, round_number: int,
              locale: str) -> bytes:
    """Who sits where: a list of every table, then a card for each table."""
    div = t.division(division)
    st, rnd = _stage_round(t, division, stage, round_number)
    doc = _Doc(locale, f"{t.name} — {div.name}")
    _ = doc._
    doc.add_page()
    doc.text_line(f"{t.name} · {t.date}", 10)
    doc.text_line(div.name, 12, bold=True)
    doc.text_line(_("%(stage)s · round %(round)d: seats")
                  % {"stage": st.format.title, "round": rnd.number}, 16, bold=True, h=10)
    width = doc.w - doc.l_margin - doc.r_margin
    widths = [20.0] + [(width - 20) / 4] * 4
    doc.grid_row([_("Table"), *[_("Seat %(n)d") % {"n": i} for i in range(1, 5)]], widths,
                 bold=True, fill=True)
    for table in rnd.tables:
        names = [f"{t.name_of(p)} ({p})" for p in table.players]
        doc.grid_row([str(table.number), *names, *[""] * (4 - len(names))], widths, size=9)
    for table in rnd.tables:
        doc.add_page()
        doc.text_line(div.name, 14, bold=True, align="C")
        doc.set_font("cjk", "B", 80)
        doc.cell(0, 50, _("Table %(n)d") % {"n": table.number}, new_x="LMARGIN",
                 new_y="NEXT", align="C")
        doc.text_line(_("%(stage)s · round %(round)d")
                      % {"stage": st.format.title, "round": rnd.number}, 14, align="C")
        doc.ln(6)
        for i, p in enumerate(table.players, 1):
            doc.text_line(f"{_('Seat %(n)d') % {'n': i}}   {t.name_of(p)}   ({p})", 20,
                          h=14, align="C")
    return bytes(doc.output())


def standings_pdf(t: Tournament, division: str, locale: str, stage: int | None = None,
                  cut: int | None = None) -> bytes:
    """A stage's standings (the current one by default) with the cut line."""
    div = t.division(division)
    index = len(div.stages) - 1 if stage is None else stage
    table = stage_standings(t, division, index)
    doc = _Doc(locale, f"{t.name} — {div.name}")
    _ = doc._
    crit = {
        "wins": _("wins"), "points": _("points"), "score": _("score"),
        "best_game": _("best game"), "second_best": _("second-best game"),
        "head_to_head": _("head to head"), "lot": _("lot"), "tied": _("tied"),
    }
    doc.add_page()
    doc.text_line(f"{t.name} · {t.date}", 10)
    doc.text_line(f"{div.name} · {div.stages[index].format.title}", 14, bold=True, h=9)
    doc.text_line(_("Standings"), 18, bold=True, h=11)
    width = doc.w - doc.l_margin - doc.r_margin
    widths = [14.0, 16.0, width - 14 - 16 - 18 - 22 - 22 - 34, 18.0, 22.0, 22.0, 34.0]
    head = [_("Rank"), "No.", _("Player"), _("Wins"), _("Points"), _("Score"),
            _("Decided by")]
    doc.grid_row(head, widths, bold=True, fill=True, h=8, size=9)
    for i, s in enumerate(table, 1):
        doc.grid_row([str(s.rank), str(s.player), t.name_of(s.player), str(s.wins),
                      _points(s.points), str(round(float(s.score), 1)).removesuffix(".0"),
                      crit.get(str(s.decided_by), str(s.decided_by))], widths, h=7, size=9)
        if cut is not None and i == cut:
            doc.set_draw_color(179, 38, 30)
            doc.set_line_width(0.8)
            y = doc.get_y()
            doc.line(doc.l_margin, y, doc.w - doc.r_margin, y)
            doc.set_line_width(0.2)
            doc.set_draw_color(0, 0, 0)
            doc.set_font("cjk", "B", 8)
            doc.cell(0, 5, _("cut line: the top %(n)d go on") % {"n": cut},
                     new_x="LMARGIN", new_y="NEXT")
    return bytes(doc.output())


def _place(place: int, _: Callable[[str], str]) -> str:
    return _("Place %(n)d") % {"n": place}


def certificates(t: Tournament, division: str, locale: str, prizes: int | None = None) -> bytes:
    """An award certificate for each place that wins a prize."""
    div = t.division(division)
    ranking = final_ranking(t, division)[: prizes or div.prizes]
    doc = _Doc(locale, f"{t.name} — {div.name}", landscape=True)
    _ = doc._
    for placing in ranking:
        doc.add_page()
        doc.set_draw_color(179, 38, 30)
        doc.set_line_width(1.2)
        doc.rect(10, 10, doc.w - 20, doc.h - 20)
        doc.set_line_width(0.2)
        doc.set_y(30)
        doc.text_line(_("Certificate of award"), 30, bold=True, h=18, align="C")
        doc.ln(6)
        doc.text_line(div.name, 16, align="C", h=10)
        doc.set_font("cjk", "B", 48)
        doc.cell(0, 28, _place(placing.place, _), new_x="LMARGIN", new_y="NEXT", align="C")
        doc.text_line(placing.name, 32, bold=True, h=20, align="C")
        doc.ln(8)
        doc.text_line(t.name, 14, align="C")
        doc.text_line(t.date, 12, align="C")
    return bytes(doc.output())
