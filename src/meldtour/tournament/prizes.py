"""What each place wins: a prize or award title per place or range of places, as the
programme gives it (Busan 2015: 1위 부산시장상 + WRC 선발전 출전권 + 트로피, 2–4위
출전권 + 보드게임), shown on the awards page and the certificates.

>>> titles = parse_prizes([(1, 1, "부산시장상 + 트로피"), (2, 4, "출전권 + 보드게임")])
>>> title_of(titles, 1), title_of(titles, 3), title_of(titles, 5)
('부산시장상 + 트로피', '출전권 + 보드게임', '')
>>> places_text(titles[1])
'2–4'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any, Final

from meldtour.core.refusal import register

from .model import TournamentError
from .registration import refuse_invisible

#: The longest title a place may have (a certificate's line fits it).
MAX_TITLE: Final = 120
#: The last place a prize may name.
MAX_PLACE: Final = 999

TEMPLATES: Final = {
    "prize.places": "a prize's places run from 1 to %(most)s, the first not after the last",
    "prize.overlap": "place %(n)s has two prizes: give each place one line",
    "prize.title": "a prize's title has at most %(most)s characters",
}

register(TEMPLATES)


@dataclass(frozen=True, slots=True)
class PlacePrize:
    """The prize of places ``first`` to ``last`` (one place: both the same)."""

    first: int
    last: int
    title: str


def parse_prizes(lines: Iterable[tuple[int, int, str]]) -> tuple[PlacePrize, ...]:
    """The prizes from (first, last, title) lines, in order of places; a line without
    a title is left out. Refused: places outside 1–999 or backwards, a place with two
    prizes, a title too long or with an invisible character."""
    out: list[PlacePrize] = []
    for first, last, title in lines:
        title = " ".join(title.split())
        if not title:
            continue
        if not 1 <= first <= last <= MAX_PLACE:
            raise TournamentError("prize.places", most=MAX_PLACE)
        if len(title) > MAX_TITLE:
            raise TournamentError("prize.title", most=MAX_TITLE)
        refuse_invisible(title)
        out.append(PlacePrize(first, last, title))
    out.sort(key=lambda p: p.first)
    for a, b in pairwise(out):
        if b.first <= a.last:
            raise TournamentError("prize.overlap", n=b.first)
    return tuple(out)


def title_of(prizes: Sequence[PlacePrize], place: int) -> str:
    """The prize of a place ('' when it has none)."""
    for p in prizes:
        if p.first <= place <= p.last:
            return p.title
    return ""


def places_text(prize: PlacePrize) -> str:
    """The places a prize names: ``1``, ``2–4``."""
    return str(prize.first) if prize.first == prize.last else f"{prize.first}–{prize.last}"


def prizes_data(prizes: Sequence[PlacePrize]) -> list[dict[str, Any]]:
    return [{"first": p.first, "last": p.last, "title": p.title} for p in prizes]


def prizes_value(data: Sequence[dict[str, Any]] | None) -> tuple[PlacePrize, ...]:
    return tuple(PlacePrize(int(d["first"]), int(d["last"]), str(d["title"])) for d in (data or ()))


__all__ = [
    "MAX_TITLE",
    "TEMPLATES",
    "PlacePrize",
    "parse_prizes",
    "places_text",
    "prizes_data",
    "prizes_value",
    "title_of",
]
