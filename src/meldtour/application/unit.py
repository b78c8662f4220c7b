"""One use case, one transaction: read the tournament, let the engine act, write
what changed (an audit line each), commit — or roll the whole unit back."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from meldtour.store.db import Store
from meldtour.store.repository import Change, Lock, SheetKey, load, save, touch
from meldtour.tournament import Notice, Problem, Progress, Tournament, TournamentError

from .errors import UseCaseError


@dataclass(frozen=True)
class Outcome:
    """What a use case did: the tournament after it, the notices, the problems of a
    sheet kept as a draft, and the changes written."""

    tournament: Tournament
    notices: tuple[Notice, ...] = ()
    problems: tuple[Problem, ...] = ()
    changes: tuple[Change, ...] = ()


def act(
    store: Store, slug: str | None, who: str, action: str,
    step: Callable[[Tournament], Progress], *, lock: Lock = "update", why: str = "",
    expected: Mapping[SheetKey, int] | None = None,
) -> Outcome:
    """Run the engine's ``step`` on the tournament in one transaction and save it."""
    with store.transaction() as s:
        loaded = load(s, slug, lock)
        try:
            progress = step(loaded.value)
        except TournamentError as exc:
            raise UseCaseError.of(exc) from None
        changes = save(s, loaded, progress.tournament, who=who, action=action, why=why,
                       expected=expected)
        if lock == "update" and changes:
            touch(loaded)
    return Outcome(progress.tournament, progress.notices, progress.problems, tuple(changes))


__all__ = ["Outcome", "act"]
