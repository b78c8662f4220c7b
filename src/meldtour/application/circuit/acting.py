"""Who acts on the circuit, and the one gate per kind of thing they act on.

A use case of people or qualifications takes an :class:`Acting` (the name the audit
log keeps and the account, or none for the command line: a local operator, who may
act on all, as :mod:`meldtour.store.owners` says) and asks here before it touches
anything:

- :func:`require_directs`: a tournament is the actor's (one of its directors, or the
  site's administrator);
- :func:`require_qualification`: a qualification key is the actor's to grant (no
  award grants it yet, or the actor directs a tournament that does);
- :func:`sees_details`: whose member number and birth year the actor may read (the
  people of the tournaments they direct; the administrator and the operator: all).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from meldtour.core.refusal import register as register_codes
from meldtour.store import circuit as rows

from ..acting import Acting, directs, everything, require_directs
from ..errors import UseCaseError

register_codes(
    {
        "circuit.administrator_only": "people span the site's tournaments: only the site's "
        "administrator merges, splits and sets them",
        "circuit.not_your_qualification": "%(key)s is granted by tournaments you do not "
        "direct (%(tournaments)s)",
    }
)


def require_everything(s: Any, acting: Acting) -> None:
    if not everything(s, acting):
        raise UseCaseError("circuit.administrator_only")


def require_qualification(s: Any, acting: Acting, key: str) -> None:
    """A key already granted belongs to the directors of the tournaments granting it."""
    if everything(s, acting):
        return
    granting = sorted({slug for _g, slug, *_ in rows.grants(s, key)})
    if granting and not any(rows.directs(s, acting.account or 0, x) for x in granting):
        raise UseCaseError(
            "circuit.not_your_qualification", key=repr(key), tournaments=", ".join(granting)
        )


class Seer:
    """Whose details (member number, birth year) the actor may read: the people with a
    registration in a tournament the actor directs (everyone for the administrator and
    the operator). Others' are "same / different / unknown" only."""

    def __init__(self, s: Any, acting: Acting) -> None:
        self.all = everything(s, acting)
        self.mine: set[str] = set() if self.all else rows.directed(s, acting.account or 0)

    def sees(self, tournaments: Iterable[str]) -> bool:
        return self.all or bool(self.mine & set(tournaments))


def sees_details(s: Any, acting: Acting, tournaments: Iterable[str]) -> bool:
    return Seer(s, acting).sees(tournaments)


__all__ = [
    "Acting",
    "Seer",
    "directs",
    "everything",
    "require_directs",
    "require_everything",
    "require_qualification",
    "sees_details",
]
