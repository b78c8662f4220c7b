"""The vote cards: a sheet of cut-out cards, each with one vote code and a QR code
that opens the vote with the code filled in (fpdf2, the fonts of :mod:`.pdf`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .pdf import _Doc, _qr_png

#: Cards per A4 page: 3 across, 7 down (63 × 38 mm each, a business card's size).
ACROSS, DOWN = 3, 7
CARD_W, CARD_H = 60.0, 38.0


def vote_cards(
    title: str,
    codes: Sequence[str],
    locale: str,
    url: Callable[[str], str],
    shown: Callable[[str], str],
) -> bytes:
    """One card per code: the tournament's name, what the card is for, the code as
    printed (``shown``), the card's number (its place in ``codes``: the prize draw names
    a card by it) and a QR code of ``url(code)``; cutting marks around each."""
    doc = _Doc(locale, title)
    _ = doc._
    doc.set_auto_page_break(False)
    left = (210 - ACROSS * CARD_W) / 2
    top = (297 - DOWN * CARD_H) / 2
    for i, code in enumerate(codes):
        if i % (ACROSS * DOWN) == 0:
            doc.add_page()
        cell = i % (ACROSS * DOWN)
        x = left + (cell % ACROSS) * CARD_W
        y = top + (cell // ACROSS) * CARD_H
        doc.set_draw_color(180, 180, 180)
        doc.set_line_width(0.2)
        doc.set_dash_pattern(dash=1, gap=1)
        doc.rect(x, y, CARD_W, CARD_H)
        doc.set_dash_pattern()
        doc.image(_qr_png(url(code)), x + 2, y + 3, 26, 26)
        doc.set_xy(x + 29, y + 3)
        doc.set_font("cjk", "", 7)
        doc.multi_cell(CARD_W - 31, 3.2, title[:60], align="L")
        doc.set_xy(x + 29, y + 12)
        doc.set_font("cjk", "B", 8)
        doc.multi_cell(CARD_W - 31, 3.6, _("Winner-guess vote"), align="L")
        doc.set_xy(x + 29, y + 20)
        doc.set_font("cjk", "B", 10)
        doc.cell(CARD_W - 31, 6, shown(code), align="L")
        # The card's number: what the prize draw shows in public (never the code).
        doc.set_xy(x + CARD_W - 14, y + 25)
        doc.set_font("cjk", "", 7)
        doc.cell(12, 4, f"#{i + 1}", align="R")
        doc.set_xy(x + 2, y + 30)
        doc.set_font("cjk", "", 6.5)
        doc.multi_cell(
            CARD_W - 4,
            3,
            _("Scan the code, or type it on the vote page. One vote per card."),
            align="L",
        )
    if not codes:
        doc.add_page()
    return bytes(doc.output())
