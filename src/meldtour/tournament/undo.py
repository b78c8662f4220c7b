"""Taking a step back: reopen a closed round, undo the start of a stage (an
advancement) while it has no result, and seat a round again with a new draw.

Each is a pure function of the tournament, as the steps forward are (:mod:`.stages`),
and refuses with a code when the step back would lose or change a result.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from typing import Final

from meldtour.core.refusal import register

from .model import Notice, Progress, Stage, Tournament, TournamentError
from .seating import Seating, SeatingError, find_seater
from .stages import _plan, _players_next, _with_stage, current_stage, seat_round, unseat_round

#: The codes' English templates (the catalogs' message ids).
TEMPLATES: Final = {
    "undo.no_round_closed": "%(div)s: no round of %(stage)s is closed: there is nothing to reopen",
    "undo.round_open": "%(div)s: round %(n)s is open already",
    "undo.advance_first": "%(div)s: %(stage)s has started: undo its start first, then "
    "reopen the round of %(before)s",
    "undo.first_stage": "%(div)s: %(stage)s is the first stage: there is no advancement to undo",
    "undo.stage_has_results": "%(div)s: %(stage)s has results (round %(n)s, table "
    "%(table)s): its start cannot be undone",
    "undo.one_table": "%(div)s: round %(n)s is a single table: there is no other seating",
    "undo.same_seating": "%(div)s: the seating method gives the same tables again: the "
    "seating is unchanged",
}
register(TEMPLATES)

#: How many draws a reseat tries before it says the method always gives these tables.
DRAWS: Final = 8


def reopen_round(t: Tournament, division: str) -> Progress:
    """Reopen the current stage's last round, closed: its sheets can be corrected and
    it is closed again later (a knockout fixes who advances again then). Refused while
    a later round or stage is seated."""
    div = t.division(division)
    index, stage = current_stage(div)
    if not stage.rounds:
        if index > 0:
            raise TournamentError(
                "undo.advance_first",
                div=div.name,
                stage=stage.format.title,
                before=div.stages[index - 1].format.title,
            )
        raise TournamentError("undo.no_round_closed", div=div.name, stage=stage.format.title)
    rnd = stage.rounds[-1]
    if not rnd.closed:
        raise TournamentError("undo.round_open", div=div.name, n=rnd.number)
    rounds = (*stage.rounds[:-1], replace(rnd, closed=False, advanced=()))
    stage = replace(stage, rounds=rounds, finished=False)
    return Progress(
        _with_stage(t, div, index, stage),
        (Notice("round_reopened", f"{div.name}: round {rnd.number} reopened", division),),
    )


def undo_stage(t: Tournament, division: str) -> Progress:
    """Take back the start of the division's current stage (the advancement into it),
    its seated rounds with it, while none of its sheets has anything entered."""
    div = t.division(division)
    index, stage = current_stage(div)
    if index == 0:
        raise TournamentError("undo.first_stage", div=div.name, stage=stage.format.title)
    for rnd in stage.rounds:
        for x in rnd.tables:
            if x.sheet.entered_by is not None:
                raise TournamentError(
                    "undo.stage_has_results",
                    div=div.name,
                    stage=stage.format.title,
                    n=rnd.number,
                    table=x.number,
                )
    t = t.with_division(replace(div, stages=div.stages[:-1]))
    return Progress(
        t,
        (
            Notice(
                "stage_undone", f"{div.name}: the start of {stage.format.title} is undone", division
            ),
        ),
    )


def _tables(seating: Seating) -> frozenset[frozenset[int]]:
    return frozenset(frozenset(x) for x in seating.tables)


def draw_seed(seating: Seating, attempt: int) -> str:
    """The seed text of a new draw after ``seating``: repeatable from what is recorded
    (the seating before, the attempt)."""
    text = ";".join(",".join(map(str, x)) for x in seating.tables)
    return f"reseat:{hashlib.sha256(text.encode()).hexdigest()[:12]}:{attempt}"


def reseat_round(t: Tournament, division: str) -> tuple[Progress, str]:
    """Seat the current round again with a new draw (nothing entered on its sheets
    yet): the seating differs from the one it replaces, or the step is refused. Also
    the way to seat a drop or a late entry. Returns the progress and the draw's seed
    text (for the audit line)."""
    div = t.division(division)
    index, stage = current_stage(div)
    back = unseat_round(t, division)
    old = stage.rounds[-1] if stage.rounds else None
    if old is None:  # unseat_round refused already
        raise TournamentError("division.no_round_open", div=div.name)
    t1 = back.tournament
    div1 = t1.division(division)
    stage1: Stage = div1.stages[index]
    players = _players_next(stage1)
    changed = set(players) != set(old.seating.players)
    if not changed and len(old.tables) == 1:
        raise TournamentError("undo.one_table", div=div.name, n=old.number)
    for attempt in range(1, DRAWS + 1):
        seed = draw_seed(old.seating, attempt)
        try:
            planned = _plan(t1, div1, index, stage1, draw=seed)
        except SeatingError as exc:
            raise TournamentError("division.seating", div=div.name, reason=exc.refusal) from None
        if changed or _tables(planned.plan[0]) != _tables(old.seating):
            progress = seat_round(_with_stage(t1, div1, index, planned), division)
            notice = Notice(
                "reseated", f"{div.name}: round {old.number} seated again (draw {seed})", division
            )
            return Progress(progress.tournament, (*back.notices, notice)), seed
        if not find_seater(stage1.format.method).ahead and attempt >= 2:
            break  # seated from the standings: the same standings give the same tables
    raise TournamentError("undo.same_seating", div=div.name)


__all__ = ["DRAWS", "TEMPLATES", "draw_seed", "reopen_round", "reseat_round", "undo_stage"]
