"""The penalty policy: what a failed turn (a time-out with an unfinished draft, or an
illegal table at the end of a turn under ``illegal_end = "penalise"``) costs in points.

One place says it for everyone: the referee (:func:`meldtour.core.game.apply`), the
score sheet's check and its ``×`` marks (:mod:`meldtour.tournament.sheets`), the table
clock's offers (:mod:`meldtour.tournament.clock`), the review's and the table page's
sentences, and the pages' scripts (``play.js``, ``clock.js``), which read the points of
the n-th failure from what the page serves (:meth:`PenaltyPolicy.schedule`). A rule set
names its policy (``penalty``, default ``"flat"``) and gives the base number
(``failed_turn_points``); a new kind of penalty is one more entry in :data:`PENALTIES`
(and its words in the catalogs).

>>> flat = find_penalty("flat")
>>> [flat.points(n, 50) for n in (1, 2, 3)], flat.total(2, 50), flat.marks(100, 50)
([50, 50, 50], 100, '××')
>>> flat.failures(150, 50), flat.failures(120, 50), flat.of_marks("xx", 50)
(3, None, 100)
>>> rising = find_penalty("rising")
>>> rising.schedule(50, 4), rising.total(3, 50), rising.failures(150, 50)
((50, 100, 150, 200), 300, 2)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from .refusal import Refused, register

register(
    {
        "penalty.unknown": "unknown penalty policy %(name)r: choose one of %(names)s",
    }
)

#: The ``×`` of a score sheet: one mark per failed turn (Japanese championship, 004).
MARK: Final = "×"
#: Marks a sheet may carry for one player in one game, and failures a page is told the
#: points of: more failed turns than this in one game is not a game.
MOST_FAILURES: Final = 40


@dataclass(frozen=True, slots=True)
class PenaltyPolicy:
    """A way of counting failed turns' points. ``nth(n, base)`` is the points of a
    player's n-th failed turn of a game (n from 1), ``base`` the rule set's
    ``failed_turn_points``; ``description`` (English, a catalog's message id) is what the
    rules page adds to a failed turn's consequence (``%(p)d``: the base); ``sentence``
    (English, ``{name}``, ``{n}``: the points, ``{k}``: which failure) says one penalty
    in the game's log, on the table page and in the review."""

    name: str
    nth: Callable[[int, int], int]
    description: str
    sentence: str = "{name}: {n} penalty points"

    def points(self, n: int, base: int) -> int:
        """The points of the n-th failed turn (n from 1); none when the base is 0."""
        return self.nth(n, base) if base and n >= 1 else 0

    def total(self, failures: int, base: int) -> int:
        """The points of ``failures`` failed turns in one game."""
        return sum(self.points(n, base) for n in range(1, failures + 1))

    def schedule(self, base: int, upto: int = MOST_FAILURES) -> tuple[int, ...]:
        """The points of the 1st, 2nd, … failed turn: what the pages are served."""
        return tuple(self.points(n, base) for n in range(1, upto + 1))

    def failures(self, total: int, base: int) -> int | None:
        """How many failed turns make ``total`` points (what a sheet's points mean in
        ``×``), or None when no number of them does."""
        if total == 0:
            return 0
        if not base or total < 0:
            return None
        so_far = 0
        for n in range(1, MOST_FAILURES + 1):
            so_far += self.points(n, base)
            if so_far == total:
                return n
            if so_far > total:
                return None
        return None

    def totals(self, base: int, upto: int = 4) -> tuple[int, ...]:
        """The points of 1, 2, … failed turns (what a sheet's penalty may be)."""
        return tuple(self.total(k, base) for k in range(1, upto + 1))

    def marks(self, total: int, base: int) -> str:
        """Penalty points as the sheet's ``×`` marks (empty when none, or when no number
        of failed turns makes them)."""
        return MARK * (self.failures(total, base) or 0)

    def of_marks(self, text: str, base: int) -> int | None:
        """The points of ``×`` marks (``x`` and ``X`` too), or None when the text is not
        marks alone."""
        text = text.strip()
        if not text or set(text) - {MARK, "x", "X"} or len(text) > MOST_FAILURES:
            return None
        return self.total(len(text), base)


def _flat(n: int, base: int) -> int:
    return base


def _rising(n: int, base: int) -> int:
    return n * base


#: The penalty policies by name. A new kind of penalty is one more entry here, its
#: description and sentence in the catalogs (``messages``: the description, ``play``: the
#: sentence) and a test in ``tests/core/test_penalties.py``.
PENALTIES: Final[dict[str, PenaltyPolicy]] = {
    p.name: p
    for p in (
        # 004: each failed turn costs the same (50 under japan), one × on the sheet.
        PenaltyPolicy("flat", _flat, ", and %(p)d penalty points (×)"),
        # A club's house rule: the n-th failed turn of a game costs n times the base.
        PenaltyPolicy(
            "rising",
            _rising,
            ", and penalty points (×) that rise by %(p)d with each failed turn",
            "{name}: {n} penalty points (failed turn {k})",
        ),
    )
}


class PenaltyError(Refused):
    """A penalty policy that does not exist."""


def find_penalty(name: str) -> PenaltyPolicy:
    """A policy by name; the error lists the names there are."""
    try:
        return PENALTIES[name]
    except KeyError:
        raise PenaltyError("penalty.unknown", name=name, names=", ".join(PENALTIES)) from None
