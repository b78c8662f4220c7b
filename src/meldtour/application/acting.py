"""Who acts, as every use case takes it: an :class:`Acting` — the name the audit log
keeps and the director's account, or none for the command line's local operator (who
may act on all) — or, for the tournament's use cases, a plain name (a scorer whose
table link the web checked, a visitor's public form, a test).

A use case given an account decides itself whether that account may act: a
tournament's change only by one of its directors or the site's administrator
(:func:`require_tournament`, asked by :func:`meldtour.application.unit.act` inside the
change's transaction). The web's guards stay in front of it; this is the rule."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from meldtour.core.refusal import register as register_codes
from meldtour.store import circuit as rows

from .errors import UseCaseError

register_codes({"circuit.not_your_tournament": "%(tournament)s is not a tournament you direct"})


@dataclass(frozen=True, slots=True)
class Acting:
    """Who acts: ``name`` for the audit log, ``account`` the director's account (``None``:
    the command line's local operator, who may act on all)."""

    name: str
    account: int | None = None

    @classmethod
    def operator(cls, name: str) -> Acting:
        """The command line (a local operator: unrestricted, as for tournaments)."""
        return cls(name, None)


#: Who acts on a tournament: an :class:`Acting`, or a name (unrestricted: the adapter
#: checked the scorer's link or the public form).
Who = Acting | str


def name_of(who: Who) -> str:
    """The name the audit log keeps."""
    return who.name if isinstance(who, Acting) else who


def everything(s: Any, acting: Acting) -> bool:
    """Whether the actor may act on all: the operator or the site's administrator."""
    return acting.account is None or rows.administrator(s) == acting.account


def directs(s: Any, acting: Acting, slug: str) -> bool:
    return everything(s, acting) or rows.directs(s, acting.account or 0, slug)


def require_directs(s: Any, acting: Acting, slug: str) -> None:
    if not directs(s, acting, slug):
        raise UseCaseError("circuit.not_your_tournament", tournament=repr(slug))


def require_tournament(s: Any, who: Who, slug: str) -> None:
    """A tournament's change: refused unless ``who`` is a name, the operator, the site's
    administrator or one of the tournament's directors."""
    if isinstance(who, Acting):
        require_directs(s, who, slug)


__all__ = [
    "Acting",
    "Who",
    "directs",
    "everything",
    "name_of",
    "require_directs",
    "require_tournament",
]
