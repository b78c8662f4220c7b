"""What the director's division and round pages show of the steps forward and back:
the next sensible step (the page's main button), the questions asked before closing
check-in, closing a round and advancing (with how many players and tables they
touch), whether a step back is open, and the ranking rules' choices with what each
one does. Read from the engine's values (tournament/board.py); no rules here."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from meldtour.tournament import Tournament
from meldtour.tournament.board import Step, advance_preview, close_preview, next_step
from meldtour.tournament.standings import DEFAULT_CHAIN

from ..i18n import N_

Gettext = Callable[[str], str]

MODES = {
    "wins": N_("wins first, then points (KRC, the Japanese championship)"),
    "league": N_("league: %(n)s a win plus points (Tokyo monthly, Tohoku)"),
    "points": N_("points only"),
}
TIE_BREAKS = {
    "best_game": N_("best game"),
    "second_best": N_("second-best game"),
    "head_to_head": N_("head to head"),
    "lot": N_("lot"),
}
STEPS = {
    "register": N_("register the players (paste a list on the players page)"),
    "check_in": N_("check the players in at the desk"),
    "close_check_in": N_("close check-in and seat round 1"),
    "seat": N_("seat the next round"),
    "scores": N_("the score sheets of the round"),
    "close_round": N_("close the round"),
    "advance": N_("start the next stage"),
    "awards": N_("the awards"),
}
THREE_TABLE = {
    "as_is": N_("points as written"),
    "scale": N_("points scaled by 4/3 (a table of 3 has one loser fewer)"),
}


@dataclass(frozen=True)
class Actions:
    """A division's steps on the director's pages."""

    step: Step
    close: str  # the question before closing the round ("" when it cannot close)
    advance: str  # before advancing ("" when the next stage cannot start now)
    start: str  # before closing check-in
    can_reopen: bool
    can_undo_advance: bool
    knockout: bool


def actions(t: Tournament, key: str, _: Gettext) -> Actions:
    div = t.division(key)
    step = next_step(t, key)
    present = len(t.in_division(key, "checked_in"))
    absent = len(t.in_division(key, "registered"))
    if absent:
        start = _(
            "Close check-in for %(div)s? %(present)s players present take part; "
            "%(absent)s registered players who have not checked in become no-shows and "
            "are not seated."
        ) % {"div": div.name, "present": present, "absent": absent}
    else:  # nobody becomes a no-show: no "0 players become no-shows"
        start = _(
            "Close check-in for %(div)s? All %(present)s registered players are present "
            "and take part."
        ) % {"div": div.name, "present": present}
    close = advance = ""
    stage = div.stages[-1] if div.stages else None
    rnd = stage.rounds[-1] if stage is not None and stage.rounds else None
    if rnd is not None and not rnd.closed:
        p = close_preview(t, key)
        if p is not None:
            close = _(
                "Close round %(n)s? Its %(tables)s tables (%(players)s players) are "
                "final: a sheet is corrected after this only by reopening the round."
            ) % {"n": rnd.number, "tables": p.tables, "players": p.players}
            if p.advancing:
                close += " " + _("%(n)s players go on to the next round.") % {"n": p.advancing}
            if p.finishes:
                close += " " + _("This is the stage's last round: the stage finishes.")
        else:
            missing = ", ".join(str(x.number) for x in rnd.tables if not x.counted)
            close = _("Tables %(tables)s are not counted yet: the round cannot close.") % {
                "tables": missing
            }
    if div.started and len(div.stages) < len(div.formats):
        p = advance_preview(t, key)
        if p is not None:
            nxt = div.formats[len(div.stages)]
            advance = _(
                "Start %(stage)s with %(players)s players at %(tables)s tables? The "
                "other players of %(div)s go no further. This can be undone until "
                "the first score of %(stage)s is entered."
            ) % {"stage": nxt.title, "players": p.players, "tables": p.tables, "div": div.name}
    can_reopen = rnd is not None and rnd.closed
    can_undo = len(div.stages) > 1 and not any(
        x.sheet.entered_by is not None for r in div.stages[-1].rounds for x in r.tables
    )
    knockout = any(f.kind == "knockout" for f in div.formats)
    return Actions(step, close, advance, start, can_reopen, can_undo, knockout)


def chain_slots() -> int:
    return len(DEFAULT_CHAIN)


__all__ = ["MODES", "STEPS", "THREE_TABLE", "TIE_BREAKS", "Actions", "actions", "chain_slots"]
