"""The standings' columns in words: one column per meaning (a score column only where
the ranking sorts on something other than the points as written)."""

from __future__ import annotations

from collections.abc import Callable

from meldtour.tournament.standings import StandingRules


def score_column(rules: StandingRules, _: Callable[[str], str]) -> str | None:
    """The heading of the standings' score column by what the division's ranking
    sorts on, or ``None`` where it would repeat the points (KRC, the Japanese
    championship: wins, then the points as written): a league's 100 a win plus the
    points, or points with tables of 3 scaled by 4/3 — one column per meaning.

    >>> same = lambda s: s
    >>> score_column(StandingRules(), same) is None
    True
    >>> score_column(StandingRules(mode="league"), same)
    'League score (100 a win + points)'
    >>> score_column(StandingRules(three_table="scale"), same)
    'Points, tables of 3 × 4/3'
    """
    if rules.mode == "league":
        return _("League score (%(n)s a win + points)") % {"n": rules.win_points}
    if rules.three_table == "scale":
        return _("Points, tables of 3 × 4/3")
    return None


__all__ = ["score_column"]
