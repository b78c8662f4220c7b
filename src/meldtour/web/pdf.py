"""Printable material in Korean, Japanese and English (PDF, with fpdf2).

Score sheets per table (with a QR code for the table's score-entry link), the seat
list of a round with a card for each table, the seat list by name (가나다순, Japanese
order, alphabetical), standings with the cut line, the final ranking, award
certificates and family-prize certificates. Each function takes values of the pure
tournament engine and returns the PDF's bytes. Fonts: Noto Sans CJK from Debian's
``fonts-noto-cjk`` (the Korean face for Korean pages, the Japanese face otherwise).

Text never overflows its box nor is cut: a name too wide for its cell is set smaller
(down to 60 % of its size), then wrapped over lines (:meth:`_Doc.fit_cell`,
:meth:`_Doc.fit_line`). A character the font lacks (an emoji, a rare ideograph) is
printed as a visible "□" and the page says which characters those were, by code
point (:meth:`_Doc.normalize_text`); nothing is dropped silently.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Literal, cast

import segno
from babel.dates import format_date
from fpdf import FPDF

from meldtour.core.rules import RuleSet
from meldtour.tournament import Tournament, awards, final_ranking, stage_standings
from meldtour.tournament.collation import seats_by_name
from meldtour.tournament.model import Division, Round, Stage, Table
from meldtour.tournament.prizes import PlacePrize, title_of
from meldtour.tournament.round_names import round_name
from meldtour.tournament.sheets import penalty_marks
from meldtour.tournament.side import FamilyPrize

from .i18n import N_, translations
from .round_words import round_words
from .standing_words import score_column

FONT_DIRS = (Path("/usr/share/fonts/opentype/noto"), Path("/usr/share/fonts/truetype/noto"))
#: Face in NotoSansCJK-*.ttc: 0 Japanese, 1 Korean (2–4 Chinese).
FACE = {"ko": 1, "ja": 0, "en": 0}
#: What a character the font lacks is printed as.
MISSING = "□"
#: How far a name is shrunk before it is wrapped instead (of its size).
SHRINK = 0.6
#: Points to millimetres.
PT = 25.4 / 72


class FontsMissing(RuntimeError):
    """The CJK fonts are not installed."""


def _font_file(weight: str) -> Path:
    for d in FONT_DIRS:
        path = d / f"NotoSansCJK-{weight}.ttc"
        if path.exists():
            return path
    raise FontsMissing(
        "Noto Sans CJK is not installed: install Debian's fonts-noto-cjk (make install does)"
    )


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
        #: The characters the font lacks, on the page being written and in all.
        self.page_missing: set[str] = set()
        self.missing: set[str] = set()

    def normalize_text(self, text: str) -> str:
        """Every character the current font lacks becomes a visible □ (noted at the
        page's foot), instead of nothing."""
        text = super().normalize_text(text)
        font = self.current_font if self.is_ttf_font else None
        cmap = getattr(font, "cmap", None)
        if not cmap:
            return text
        out = []
        for c in text:
            if c in "\n\r\t" or ord(c) in cmap:
                out.append(c)
            else:
                self.page_missing.add(c)
                self.missing.add(c)
                out.append(MISSING)
        return "".join(out)

    def footer(self) -> None:
        if not self.page_missing:
            return
        codes = " ".join(f"U+{ord(c):04X}" for c in sorted(self.page_missing))
        self.page_missing = set()
        note = self._("□: a character the font cannot print (%(codes)s)") % {"codes": codes}
        self.set_auto_page_break(False)
        self.set_font("cjk", "", 7)
        self.set_xy(self.l_margin, self.h - 11)
        self.multi_cell(self.w - self.l_margin - self.r_margin, 3.2, note, align="L")
        self.set_auto_page_break(True, margin=15)

    def text_line(
        self, text: str, size: float = 11, bold: bool = False, h: float = 7, align: str = "L"
    ) -> None:
        self.fit_line(text, size, bold=bold, h=h, align=align)

    def fit_line(
        self, text: str, size: float, *, bold: bool = False, h: float = 7, align: str = "L"
    ) -> None:
        """A line across the page: set smaller while it does not fit (down to
        :data:`SHRINK` of ``size``), then wrapped over as many lines as it takes."""
        style = "B" if bold else ""
        width = self.w - self.l_margin - self.r_margin
        fitted = self._shrunk(text, width - 2 * self.c_margin, size, style)
        self.set_font("cjk", style, fitted)
        if self.get_string_width(text) <= width - 2 * self.c_margin:
            self.cell(0, h, text, new_x="LMARGIN", new_y="NEXT", align=align)
            return
        line = max(fitted * PT * 1.25, h * fitted / size)
        self.multi_cell(0, line, text, align=align, new_x="LMARGIN", new_y="NEXT")

    def _shrunk(self, text: str, width: float, size: float, style: str) -> float:
        self.set_font("cjk", style, size)
        wide = self.get_string_width(text)
        if wide <= width:
            return size
        return max(size * SHRINK, size * width / wide)

    def fit_cell(
        self,
        w: float,
        h: float,
        text: str,
        size: float,
        *,
        bold: bool = False,
        align: str = "C",
        fill: bool = False,
        border: Literal[0, 1] = 1,
    ) -> None:
        """A cell of the grid whose text always fits its box: set smaller, then wrapped
        (and smaller again until the lines fit the cell's height)."""
        style = "B" if bold else ""
        inner = w - 2 * self.c_margin
        fitted = self._shrunk(text, inner, size, style)
        self.set_font("cjk", style, fitted)
        if self.get_string_width(text) <= inner:
            self.cell(w, h, text, border=border, align=align, fill=fill)
            return
        x, y = self.get_x(), self.get_y()
        self.cell(w, h, "", border=border, fill=fill)
        after = self.get_x()
        while True:
            line = fitted * PT * 1.15
            lines = cast(
                "list[str]", self.multi_cell(inner, line, text, dry_run=True, output="LINES")
            )
            if len(lines) * line <= h - 0.4 or fitted <= 3:
                break
            fitted -= 0.5
            self.set_font("cjk", style, fitted)
        self.set_xy(x + self.c_margin, y + (h - len(lines) * line) / 2)
        self.multi_cell(inner, line, text, align=align, new_x="RIGHT", new_y="TOP")
        self.set_xy(after, y)

    def grid_row(
        self,
        cells: Sequence[str],
        widths: Sequence[float],
        h: float = 9,
        bold: bool = False,
        size: float = 10,
        fill: bool = False,
    ) -> None:
        if self.will_page_break(h):
            self.add_page()
        if fill:
            self.set_fill_color(236, 239, 242)
        for text, w in zip(cells, widths, strict=True):
            self.fit_cell(w, h, text, size, bold=bold, fill=fill)
        self.ln(h)


def _stage_round(
    t: Tournament, division: str, stage: int, round_number: int
) -> tuple[Stage, Round]:
    div = t.division(division)
    st = div.stages[stage]
    for r in st.rounds:
        if r.number == round_number:
            return st, r
    raise ValueError(f"{div.name}: stage {stage + 1} has no round {round_number}")


def _round_doc(
    t: Tournament, division: str, stage: int, round_number: int, locale: str, heading: str
) -> tuple[_Doc, Division, Stage, Round]:
    """A round's printout, its first page begun: the tournament, the division and
    ``heading`` (a message id with ``stage`` and ``round``)."""
    div = t.division(division)
    st, rnd = _stage_round(t, division, stage, round_number)
    doc = _Doc(locale, f"{t.name} — {div.name}")
    doc.add_page()
    doc.text_line(f"{t.name} · {t.date}", 10)
    doc.text_line(div.name, 12, bold=True)
    doc.text_line(
        doc._(heading)
        % {"stage": st.format.title, "round": round_words(round_name(st, rnd), doc._)},
        16,
        bold=True,
        h=10,
    )
    return doc, div, st, rnd


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
    t: Tournament,
    division: str,
    stage: int,
    round_number: int,
    locale: str,
    table_url: Callable[[int], str] | None = None,
    tables: Sequence[int] | None = None,
) -> bytes:
    """One page per table: players in seat order, a row per game, totals, signatures.

    What has been entered is printed in the cells; a blank sheet is for pen and paper.
    ``table_url(n)`` gives table n's score-entry link, printed as a QR code.
    """
    div = t.division(division)
    st, rnd = _stage_round(t, division, stage, round_number)
    doc = _Doc(locale, f"{t.name} — {div.name}")
    _ = doc._
    penalties = div.rules if div.rules.failed_turn_points > 0 else None
    for table in rnd.tables:
        if tables is not None and table.number not in tables:
            continue
        _sheet_page(doc, t, div.name, st, rnd, table, table_url, penalties)
    if doc.page == 0:
        raise ValueError(_("No table to print"))
    return bytes(doc.output())


def _sheet_page(
    doc: _Doc,
    t: Tournament,
    division_name: str,
    st: Stage,
    rnd: Round,
    table: Table,
    table_url: Callable[[int], str] | None,
    penalties: RuleSet | None,
) -> None:
    _ = doc._
    doc.add_page()
    doc.text_line(f"{t.name} · {t.date}", 10)
    doc.text_line(division_name, 12, bold=True)
    doc.text_line(
        _("%(stage)s · %(round)s · table %(table)d")
        % {
            "stage": st.format.title,
            "round": round_words(round_name(st, rnd), _),
            "table": table.number,
        },
        18,
        bold=True,
        h=11,
    )
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
    doc.grid_row(
        [_("Seat"), *[str(i + 1) for i in range(seats)], ""], widths, h=7, size=9, fill=True
    )
    doc.grid_row([_("Player"), *names, _("Winner")], widths, bold=True, fill=True)
    doc.grid_row(
        ["No.", *[str(p) for p in table.players], _("seat")], widths, h=7, size=9, fill=True
    )
    wins = [0] * seats
    totals = [0] * seats
    for g, line in enumerate(table.sheet.games, 1):
        cells = []
        for s in range(seats):
            text = _points(line.points[s])
            if line.penalties[s] and penalties is not None:  # the rules' penalty policy
                text += "  " + (penalty_marks(line.penalties[s], penalties) or "×")
            cells.append(text)
            totals[s] += (line.points[s] or 0) - line.penalties[s]
        if line.winner:
            wins[line.winner - 1] += 1
        doc.grid_row(
            [_("Game %(n)d") % {"n": g}, *cells, str(line.winner) if line.winner else ""],
            widths,
            h=12,
            size=12,
        )
    entered = any(v is not None for line in table.sheet.games for v in line.points)
    doc.grid_row(
        [_("Wins"), *[str(w) if entered else "" for w in wins], ""], widths, h=9, bold=True
    )
    doc.grid_row(
        [_("Points"), *[_points(v) if entered else "" for v in totals], ""], widths, h=9, bold=True
    )
    doc.ln(4)
    legend = _("− minus points   + plus points")
    if penalties is not None:
        legend += "   " + _("× penalty (−%(p)d, not added to the winner)") % {
            "p": penalties.failed_turn_penalty(1)
        }
    doc.text_line(legend, 9)
    doc.text_line(_("Check each game: the losers' minus points add up to the winner's plus."), 9)
    doc.ln(8)
    doc.text_line(
        _("Scorer") + "  ____________________        " + _("Referee") + "  ____________________", 10
    )


def seat_list(t: Tournament, division: str, stage: int, round_number: int, locale: str) -> bytes:
    """Who sits where: a list of every table, then a card for each table."""
    doc, div, st, rnd = _round_doc(
        t, division, stage, round_number, locale, N_("%(stage)s · %(round)s: seats")
    )
    _ = doc._
    width = doc.w - doc.l_margin - doc.r_margin
    widths = [20.0] + [(width - 20) / 4] * 4
    doc.grid_row(
        [_("Table"), *[_("Seat %(n)d") % {"n": i} for i in range(1, 5)]],
        widths,
        bold=True,
        fill=True,
    )
    for table in rnd.tables:
        names = [f"{t.name_of(p)} ({p})" for p in table.players]
        doc.grid_row([str(table.number), *names, *[""] * (4 - len(names))], widths, size=9)
    for table in rnd.tables:
        doc.add_page()
        doc.text_line(div.name, 14, bold=True, align="C")
        doc.set_font("cjk", "B", 80)
        doc.cell(
            0, 50, _("Table %(n)d") % {"n": table.number}, new_x="LMARGIN", new_y="NEXT", align="C"
        )
        doc.text_line(
            _("%(stage)s · %(round)s")
            % {"stage": st.format.title, "round": round_words(round_name(st, rnd), _)},
            14,
            align="C",
        )
        doc.ln(6)
        for i, p in enumerate(table.players, 1):
            doc.text_line(
                f"{_('Seat %(n)d') % {'n': i}}   {t.name_of(p)}   ({p})", 20, h=14, align="C"
            )
    return bytes(doc.output())


def standings_pdf(
    t: Tournament, division: str, locale: str, stage: int | None = None, cut: int | None = None
) -> bytes:
    """A stage's standings (the current one by default) with the cut line."""
    div = t.division(division)
    index = len(div.stages) - 1 if stage is None else stage
    table = stage_standings(t, division, index)
    doc = _Doc(locale, f"{t.name} — {div.name}")
    _ = doc._
    crit = {
        "wins": _("wins"),
        "points": _("points"),
        "score": _("score"),
        "best_game": _("best game"),
        "second_best": _("second-best game"),
        "head_to_head": _("head to head"),
        "lot": _("lot"),
        "tied": _("tied"),
    }
    doc.add_page()
    doc.text_line(f"{t.name} · {t.date}", 10)
    doc.text_line(f"{div.name} · {div.stages[index].format.title}", 14, bold=True, h=9)
    doc.text_line(_("Standings"), 18, bold=True, h=11)
    width = doc.w - doc.l_margin - doc.r_margin
    # One column per meaning: the score only where the ranking sorts on another figure.
    score = score_column(div.standing_rules, _)
    wide = 40.0 if score else 0.0
    widths = [14.0, 16.0, width - 14 - 16 - 18 - 22 - wide - 34, 18.0, 22.0]
    head = [_("Rank"), "No.", _("Player"), _("Wins"), _("Points")]
    if score:
        widths.append(wide)
        head.append(score)
    widths.append(34.0)
    head.append(_("Decided by"))
    doc.grid_row(head, widths, bold=True, fill=True, h=8, size=9)
    for i, s in enumerate(table, 1):
        cells = [str(s.rank), str(s.player), t.name_of(s.player), str(s.wins), _points(s.points)]
        if score:
            cells.append(str(round(float(s.score), 1)).removesuffix(".0"))
        cells.append(crit.get(str(s.decided_by), str(s.decided_by)))
        doc.grid_row(cells, widths, h=7, size=9)
        if cut is not None and i == cut:
            doc.set_draw_color(179, 38, 30)
            doc.set_line_width(0.8)
            y = doc.get_y()
            doc.line(doc.l_margin, y, doc.w - doc.r_margin, y)
            doc.set_line_width(0.2)
            doc.set_draw_color(0, 0, 0)
            doc.set_font("cjk", "B", 8)
            doc.cell(
                0, 5, _("cut line: the top %(n)d go on") % {"n": cut}, new_x="LMARGIN", new_y="NEXT"
            )
    return bytes(doc.output())


def _place(place: int, _: Callable[[str], str]) -> str:
    return _("Place %(n)d") % {"n": place}


def day_of(date: str, locale: str) -> str:
    """The tournament's date as a reader writes it (2026년 12월 5일, 2026年12月5日,
    5 December 2026); a date that is not ISO as it is.

    >>> day_of("2026-12-05", "ko"), day_of("2026-12-05", "ja"), day_of("2026-12-05", "en")
    ('2026년 12월 5일', '2026年12月5日', '5 December 2026')
    """
    from datetime import date as Date

    try:
        day = Date.fromisoformat(date[:10])
    except ValueError:
        return date
    return format_date(day, "long", locale={"ko": "ko_KR", "ja": "ja_JP"}.get(locale, "en_GB"))


def _frame(doc: _Doc) -> None:
    doc.add_page()
    doc.set_draw_color(179, 38, 30)
    doc.set_line_width(1.2)
    doc.rect(10, 10, doc.w - 20, doc.h - 20)
    doc.set_line_width(0.3)
    doc.rect(13, 13, doc.w - 26, doc.h - 26)
    doc.set_line_width(0.2)
    doc.set_draw_color(0, 0, 0)


def _body(doc: _Doc, text: str) -> None:
    doc.set_font("cjk", "", 15)
    doc.set_x(40)
    doc.multi_cell(doc.w - 80, 9, text, align="C", new_x="LMARGIN", new_y="NEXT")


def _signatures(doc: _Doc, t: Tournament, signers: Sequence[str] = ()) -> None:
    """The date, and a line to sign for each signer: the director's choice (the
    awards page), else the tournament's director and its chief referee."""
    _ = doc._
    doc.set_y(doc.h - 52)
    doc.text_line(day_of(t.date, doc.locale), 13, align="C", h=8)
    doc.ln(3)
    y = doc.get_y() + 8
    director, referee = _("Tournament director"), _("Chief referee")
    titles = list(signers) or [f"{t.name} {director}", referee]
    n = len(titles)
    width = (doc.w - 60 - 10 * (n - 1)) / n
    for i, title in enumerate(titles):
        x = 30 + i * (width + 10)
        doc.set_xy(x, y - 8)
        doc.set_font("cjk", "", 11 if n < 3 else 10)
        doc.cell(width, 6, title, align="L")
        doc.line(x, y + 4, x + width - 5, y + 4)
        doc.set_xy(x + width - 16, y - 2)
        doc.cell(12, 6, _("(seal)"), align="R")


def certificates(
    t: Tournament,
    division: str,
    locale: str,
    prizes: int | None = None,
    titles: Sequence[PlacePrize] = (),
    signers: Sequence[str] = (),
) -> bytes:
    """An award certificate for each place that wins a prize: the place, the name, the
    place's prize (``titles``, as the awards page sets them), a sentence in the
    reader's language, the date and the lines to sign (``signers``, else two).

    Refused (``division.not_finished``) until the division's last stage is finished:
    no certificate names a place before that place is decided."""
    div = t.division(division)
    decided = awards(t, division)
    if prizes is not None:
        decided = decided[:prizes]
    doc = _Doc(locale, f"{t.name} — {div.name}", landscape=True)
    _ = doc._
    day = day_of(t.date, locale)
    for placing in decided:
        _frame(doc)
        doc.set_y(24)
        doc.text_line(_("Certificate of award"), 34, bold=True, h=18, align="C")
        doc.ln(2)
        doc.text_line(f"{div.name}  {_place(placing.place, _)}", 20, bold=True, align="C", h=12)
        doc.ln(2)
        doc.fit_line(_("Name: %(name)s") % {"name": placing.name}, 28, bold=True, h=16, align="C")
        prize = title_of(titles, placing.place)
        if prize:
            doc.fit_line(prize, 17, bold=True, h=10, align="C")
        doc.ln(4 if not prize else 1)
        _body(
            doc,
            _(
                "This certificate is awarded for taking place %(n)d in the "
                "%(division)s of %(tournament)s held on %(date)s."
            )
            % {"n": placing.place, "division": div.name, "tournament": t.name, "date": day},
        )
        _signatures(doc, t, signers)
    return bytes(doc.output())


def family_certificates(
    t: Tournament, prizes: Sequence[FamilyPrize], locale: str, signers: Sequence[str] = ()
) -> bytes:
    """A certificate for each family prize (a family, or three generations of one,
    who played the day together): the family, its members, a sentence, signatures."""
    if not prizes:
        raise ValueError("no family prize")
    doc = _Doc(locale, f"{t.name} — family", landscape=True)
    _ = doc._
    day = day_of(t.date, locale)
    for prize in prizes:
        three = prize.kind == "three_generations"
        names = ", ".join(t.name_of(p) for p in prize.members)
        _frame(doc)
        doc.set_y(24)
        doc.text_line(_("Certificate of award"), 34, bold=True, h=18, align="C")
        doc.ln(2)
        doc.text_line(
            _("three-generation family prize") if three else _("family prize"),
            22,
            bold=True,
            align="C",
            h=12,
        )
        doc.ln(2)
        doc.fit_line(
            _("The %(family)s family") % {"family": prize.family}, 26, bold=True, h=14, align="C"
        )
        doc.fit_line(names, 16, h=9, align="C")
        doc.ln(4)
        text = (
            _(
                "This certificate is awarded to this family, three generations of which "
                "played %(tournament)s together on %(date)s."
            )
            if three
            else _(
                "This certificate is awarded to this family, who played %(tournament)s "
                "together on %(date)s."
            )
        )
        _body(doc, text % {"tournament": t.name, "date": day})
        _signatures(doc, t, signers)
    return bytes(doc.output())


def seat_names(t: Tournament, division: str, stage: int, round_number: int, locale: str) -> bytes:
    """The round's players in the reader's order of names (가나다순, Japanese order,
    alphabetical) with their table and seat: the list players look their name up in."""
    doc, _div, _st, rnd = _round_doc(
        t, division, stage, round_number, locale, N_("%(stage)s · %(round)s: seats by name")
    )
    _ = doc._
    doc.text_line(_("Names in alphabetical order"), 9)
    doc.ln(2)
    width = doc.w - doc.l_margin - doc.r_margin
    widths = [width - 22 - 26 - 26, 22.0, 26.0, 26.0]
    head = [_("Player"), "No.", _("Table"), _("Seat")]
    doc.grid_row(head, widths, bold=True, fill=True, h=8, size=10)
    for line in seats_by_name(t, rnd, locale):
        if doc.will_page_break(8):
            doc.add_page()
            doc.grid_row(head, widths, bold=True, fill=True, h=8, size=10)
        doc.grid_row(
            [line.name, str(line.player), str(line.table), str(line.seat)], widths, h=8, size=12
        )
    return bytes(doc.output())


def ranking_pdf(t: Tournament, division: str, locale: str) -> bytes:
    """The division's final ranking: every player's place and the stage it was decided
    in. Refused (``division.not_finished``) until the last stage is finished."""
    div = t.division(division)
    awards(t, division)  # refuses while places are undecided
    doc = _Doc(locale, f"{t.name} — {div.name}")
    _ = doc._
    doc.add_page()
    doc.text_line(f"{t.name} · {t.date}", 10)
    doc.text_line(div.name, 14, bold=True, h=9)
    doc.text_line(_("Final ranking"), 18, bold=True, h=11)
    width = doc.w - doc.l_margin - doc.r_margin
    widths = [16.0, 16.0, width - 16 - 16 - 40 - 18 - 22, 40.0, 18.0, 22.0]
    head = [_("Rank"), "No.", _("Player"), _("Decided in"), _("Wins"), _("Points")]
    doc.grid_row(head, widths, bold=True, fill=True, h=8, size=9)
    for p in final_ranking(t, division):
        s = p.standing
        doc.grid_row(
            [
                str(p.place),
                str(p.player),
                p.name,
                p.stage,
                str(s.wins) if s else "",
                _points(s.points) if s else "",
            ],
            widths,
            h=7,
            size=9,
        )
    return bytes(doc.output())
