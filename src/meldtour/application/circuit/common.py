"""What the circuit's modules share: the refusal codes of a missing registration or
division (and the command line's words for a bad number or weight), and the lookup of a
division that refuses with them."""

from __future__ import annotations

from typing import Any

from meldtour.core.refusal import register as register_codes
from meldtour.store import circuit as rows

from ..errors import UseCaseError

register_codes(
    {
        "circuit.no_registration": "%(tournament)s has no player number %(number)s",
        "circuit.no_division": "%(tournament)s has no division %(division)s",
        "circuit.bad_number": "%(what)s must be a number (not %(value)s)",
        "circuit.weight_item": "give a level's weight as LEVEL=W, such as national=1 (not "
        "%(item)s)",
    }
)


def _division(s: Any, slug: str, division: str) -> int:
    did = rows.division_id(s, slug, division)
    if did is None:
        raise UseCaseError("circuit.no_division", tournament=repr(slug), division=repr(division))
    return did
