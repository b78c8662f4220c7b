"""The tournament engine's refusals: every code and its English template.

The engine raises :class:`~meldtour.core.refusal.Refused` subclasses
(:class:`~.model.TournamentError`, :class:`~.seating.SeatingError`,
:class:`~.side.PollError`) with one of these codes and its arguments; the sentence is
made from the template (``str()`` of the error), and the web translates by code.
A score sheet's :class:`~.sheets.Problem` carries a ``sheet.*`` refusal the same way.

>>> from meldtour.core.refusal import Refusal, english
>>> english(Refusal("division.started_registration_closed", {"div": "General"}))
'General has started: registration is closed'
"""

from __future__ import annotations

from typing import Final

from meldtour.core.refusal import Refusal, register

#: The codes' English templates (the catalogs' message ids).
TEMPLATES: Final = {
    # stage formats (model.StageFormat)
    "stage.unknown_format": "unknown stage format %(kind)s",
    "stage.needs_seating_and_game": "a stage has at least one seating and one game",
    "stage.table_size": "tables seat 3 or 4 players",
    "stage.knockout_advance": "a knockout advances 1 to %(n)s players a table",
    "stage.too_few_entrants": "a stage needs at least 3 entrants",
    "stage.unknown_seating": "unknown seating %(seating)s",
    "stage.snake_not_knockout": "snake seeding is for knockout stages",
    "stage.no_table": "round %(n)s has no table %(table)s",
    "stage.cut_splits_tie": "the cut after place %(n)s splits players tied at rank "
    "%(rank)s: break the tie (add a lot to the tie-break chain) "
    "before the next stage",
    # divisions and the tournament (model)
    "division.cap_too_small": "division %(key)s: the cap must be at least 1",
    "division.no_formats": "division %(key)s has no stage",
    "division.final_first": "division %(key)s: a final needs a stage before it",
    "tournament.no_division": "no division %(key)s: the divisions are %(keys)s",
    "tournament.no_registration": "no registration number %(n)s",
    # registration
    "division.started_registration_closed": "%(div)s has started: registration is closed",
    "registration.needs_name": "a registration needs a name",
    "registration.invisible_character": "a name cannot hold the invisible character "
    "%(char)s (it can make one name look like "
    "another): type it again without it",
    "division.started_drop_instead": "%(div)s has started: drop the player instead",
    "registration.not_registered": "%(name)s is %(status)s, not registered",
    "division.started": "%(div)s has started",
    "division.started_nobody_enters": "%(div)s has started: nobody enters now",
    "registration.check_in_registered_only": (
        "%(name)s is %(status)s: only registered players check in"
    ),
    "division.already_started": "%(div)s has already started",
    "registration.not_playing": "%(name)s is %(status)s, not playing",
    "division.no_late_entries": "%(div)s has started and takes no late entries",
    "division.past_first_stage": "%(div)s is past its first stage: too late to enter",
    # a registration's status, as a refusal names it
    "registration.status.registered": "registered",
    "registration.status.waitlisted": "waitlisted",
    "registration.status.checked_in": "checked_in",
    "registration.status.no_show": "no_show",
    "registration.status.dropped": "dropped",
    "registration.status.withdrawn": "withdrawn",
    # stages and rounds
    "division.no_stage_under_way": "%(div)s has no stage under way",
    "division.check_in_open": "%(div)s: close check-in (start the division) first",
    "division.all_stages_played": "%(div)s has played all its stages",
    "division.stage_not_finished": "%(div)s: the %(stage)s is not finished",
    "division.too_few_players": "%(div)s: %(n)s players are too few for a table",
    "division.seating": "%(div)s: %(reason)s",
    "division.stage_finished": "%(div)s: the %(stage)s is finished",
    "division.round_not_closed": "%(div)s: round %(n)s is not closed",
    "division.no_round_open": "%(div)s: no round is open",
    "division.round_has_sheets": "%(div)s: round %(n)s has score sheets entered: it stays seated",
    "division.no_stage": "%(div)s has no stage %(n)s",
    "division.no_round": "%(div)s: there is no round %(n)s",
    "division.round_waits": "%(div)s: round %(n)s still waits for the sheets of table(s) "
    "%(tables)s",
    "division.not_finished": "%(div)s is not finished",
    "sheet.correct_counted_only": "only a counted sheet is corrected: enter and submit it",
    # seating
    "seating.table_players": "table %(table)s has %(n)s players",
    "seating.seated_twice": "player %(player)s is seated twice",
    "seating.table_size": "tables seat 3 or 4 players, not %(size)s",
    "seating.cannot_seat": "%(n)s players cannot be seated at tables of 3 and 4 (a table "
    "of 2 or 5 would be needed)",
    "seating.negative_seatings": "the number of seatings cannot be negative",
    "seating.unknown_method": "unknown seating method %(method)s: %(methods)s",
    "seating.group_too_big": "group %(group)s has %(n)s players but there are only "
    "%(tables)s tables: they cannot all sit apart (make the "
    "constraint soft)",
    "seating.groups_clash": "could not keep every group apart in every seating; make the "
    "constraint soft",
    "seating.affine_size": "affine designs are built for tables of 3 or 4",
    "seating.final_table_too_few": "%(n)s players cannot make a final table",
    # score sheets (sheets): refusals of an entry, and the problems of a check
    "sheet.needs_game": "a sheet has at least one game",
    "sheet.no_game": "table %(table)s has games 1-%(games)s, not %(game)s",
    "sheet.points_count": "table %(table)s has %(seats)s seats, got %(n)s points",
    "sheet.penalties_count": "table %(table)s has %(seats)s seats, got %(n)s penalties",
    "sheet.no_seat": "no seat %(seat)s at this table",
    "sheet.no_winner": "no winner is marked",
    "sheet.no_points": "no points entered",
    "sheet.winner_seat": "the winner must be one of seats 1-%(n)s",
    "sheet.negative_penalty": "write a penalty as a positive number of points",
    "sheet.no_penalty_points": "%(rules)s gives no penalty points",
    "sheet.penalty_not_whole": "%(pen)s is not the points of a number of × (%(totals)s, …)",
    "sheet.loser_scores": "a loser cannot score %(pts)s",
    "sheet.rack_limit": "%(pts)s is more than a rack can hold (at most −%(limit)s under "
    "%(rules)s at a table of %(seats)s)",
    "sheet.winner_negative": "the winner cannot score %(pts)s",
    "sheet.winner_fewer": "the winner has fewer points than seat %(seat)s",
    "sheet.total": "the points add up to %(total)s, not %(expected)s",
    "sheet.total_penalties_aside": "the points add up to %(total)s, not %(expected)s "
    "(penalties aside)",
    "sheet.correction_needs_reason": "a correction needs a reason",
    # standings and rankings
    "standings.unknown_mode": "unknown ranking mode %(mode)s: wins, league or points",
    "standings.unknown_tie_break": "unknown tie-break %(name)s: choose from %(names)s",
    "standings.tie_break_twice": "a tie-break appears twice in the chain",
    "standings.three_table": "three_table is 'as_is' or 'scale', not %(value)s",
    "standings.cut_splits_tie": "the cut after place %(n)s splits players tied at rank "
    "%(rank)s: add a lot to the tie-break chain",
    "ranking.best": "at least one result must count",
    "ranking.half_life": "the half-life cannot be negative",
    "ranking.unknown_level": "unknown tournament level %(level)s: %(levels)s",
    "ranking.rated_game": "a rated game needs two or more players and their points",
    # the winner-guess poll and the family prizes (side)
    "poll.distinct_finalists": "a poll needs distinct finalists",
    "poll.closed": "the vote closed at the end of the first final game",
    "poll.not_finalist": "player %(n)s is not a finalist",
    "poll.needs_voter": "a vote needs the voter's name or number",
    "poll.close_before_draw": "close the poll before the draw",
    "poll.drawn_already": "the prizes have been drawn already",
    "tournament.family_thresholds": "family prize thresholds must be positive",
    # the templates (templates.py; the code is the one it had when they were the store's)
    "store.unknown_template": "unknown template %(template)s: choose one of %(templates)s",
}

register(TEMPLATES)


def status(value: str) -> Refusal:
    """A registration's status as a refusal's argument (translated with it)."""
    return Refusal(f"registration.status.{value}")


__all__ = ["TEMPLATES", "status"]
