"""How a results file numbers a table's games: from 1 at every seating, or across the
stage, as a spreadsheet kept over the day numbers them (games 1-8 over four seatings
of two games: round 3 plays games 5 and 6).

:func:`sheet_games` turns the numbers found for one table into the sheet's games
(1, 2, ...), accepting either numbering, and refuses only what neither explains:

>>> sheet_games([5, 6], games=2, before=4)
(1, 2)
>>> sheet_games([1, 2], games=2, before=4)
(1, 2)
>>> try:
...     sheet_games([3, 4], games=2, before=4)
... except Refused as exc:
...     print(exc.code, exc.params["own"], exc.params["across"])
numbering.neither 1-2 5-6
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from meldtour.core.refusal import Refused, register

TEMPLATES: Final = {
    "numbering.gap": "games %(found)s are not numbered one after another",
    "numbering.neither": "games %(found)s are numbered neither %(own)s (this seating) nor "
    "%(across)s (across the stage)",
    "numbering.own": "games %(found)s: a seating's games are numbered %(own)s",
    "numbering.too_many": "games %(found)s: the table plays %(games)s games",
}
register(TEMPLATES)


def _span(first: int, n: int) -> str:
    return f"{first}" if n == 1 else f"{first}-{first + n - 1}"


def sheet_games(
    numbers: Sequence[int], *, games: int | None = None, before: int = 0
) -> tuple[int, ...]:
    """The games 1, 2, ... that ``numbers`` (one table's game numbers, any order) name.

    ``games`` is how many the table plays (``None``: as many as there are numbers, and
    no gap); ``before`` how many games the stage's earlier seatings played, so that
    numbering across the stage starts at ``before + 1``. Some of the games may be
    missing (a sheet entered in part), but a table's numbers follow one numbering."""
    found = sorted(set(numbers))
    text = ", ".join(map(str, found))
    if not found:
        return ()
    n = games if games is not None else len(found)
    if games is None and found != list(range(found[0], found[0] + len(found))):
        raise Refused("numbering.gap", found=text)
    if len(found) > n:
        raise Refused("numbering.too_many", found=text, games=n)
    if all(1 <= g <= n for g in found):
        return tuple(found)
    if before and all(before < g <= before + n for g in found):
        return tuple(g - before for g in found)
    if not before:
        raise Refused("numbering.own", found=text, own=_span(1, n))
    raise Refused("numbering.neither", found=text, own=_span(1, n), across=_span(before + 1, n))


def games_before(per_round: Mapping[int, int], round_number: int) -> int:
    """Across the stage, how many games the seatings before ``round_number`` played,
    from each round's number of games (a round missing from the file: none)."""
    return sum(g for r, g in per_round.items() if r < round_number)


__all__ = ["TEMPLATES", "games_before", "sheet_games"]
