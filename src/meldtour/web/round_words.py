"""A round's name in the reader's language, made in one place from its value
(:class:`~meldtour.tournament.round_names.RoundName`): 32강전 → 16강전 → 8강전 → 결승전,
ベスト32 … 決勝, round of 32 … final; seating rounds keep their number. Every template
(the ``round_name`` global) and every PDF uses this."""

from __future__ import annotations

from collections.abc import Callable

from ..tournament.model import Round, Stage
from ..tournament.round_names import RoundName, round_name


def round_words(name: RoundName, _: Callable[[str], str]) -> str:
    if name.kind == "final":
        return _("knockout final")
    if name.kind == "of":
        return _("knockout round of %(n)s") % {"n": name.n}
    return _("round %(n)s") % {"n": name.n}


def round_namer(_: Callable[[str], str]) -> Callable[..., str]:
    """The template global ``round_name``: ``round_name(stage, round)`` (a model
    :class:`Stage` and a :class:`Round` or its number) or ``round_name(name)`` (a
    :class:`RoundName`, as the bracket carries)."""

    def named(what: Stage | RoundName, rnd: Round | int | None = None) -> str:
        if isinstance(what, RoundName):
            return round_words(what, _)
        if rnd is None:
            raise TypeError("round_name(stage, round) needs the round")
        return round_words(round_name(what, rnd), _)

    return named


__all__ = ["round_namer", "round_words"]
