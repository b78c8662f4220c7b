"""One use case, one transaction: read the tournament, let the engine act, write
what changed (an audit line each), commit — or roll the whole unit back."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from meldtour.store.db import Store
from meldtour.store.repository import Change, Loaded, Lock, SheetKey, load, save, touch
from meldtour.tournament import Notice, Problem, Progress, Tournament, TournamentError

from .acting import Who, name_of, require_tournament
from .errors import UseCaseError

#: What every unit of work does after it saved a tournament, in the same transaction
#: (the session, the rows as read, the value saved). The circuit's derived results
#: register here (:func:`meldtour.application.circuit.results.rederive`: an awarded
#: division's places, awards and the ratings follow any change to it); a list rather
#: than an import, since the circuit's use cases are themselves units of work.
AFTER_SAVE: list[Callable[[Any, Loaded, Tournament], object]] = []


@dataclass(frozen=True)
class Outcome:
    """What a use case did: the tournament after it, the notices, the problems of a
    sheet kept as a draft, and the changes written."""

    tournament: Tournament
    notices: tuple[Notice, ...] = ()
    problems: tuple[Problem, ...] = ()
    changes: tuple[Change, ...] = ()


def act(
    store: Store,
    slug: str | None,
    who: Who,
    action: str,
    step: Callable[[Tournament], Progress],
    *,
    lock: Lock = "update",
    why: str = "",
    expected: Mapping[SheetKey, int] | None = None,
    then: Callable[[Any, Loaded], Sequence[Notice]] | None = None,
    people: Callable[[Any, Loaded, Tournament], Mapping[int, int]] | None = None,
) -> Outcome:
    """Run the engine's ``step`` on the tournament in one transaction and save it;
    ``people`` (the session, the rows as read and the tournament after the step) says
    which person each new registration is, before it is written (or refuses it all);
    ``then`` (the session and the rows as saved) does what else belongs to the same
    unit of work and may add notices (or refuse it all). ``who`` with an account may
    change only a tournament they direct (or any, the site's administrator)."""
    with store.transaction() as s:
        loaded = load(s, slug, lock)
        require_tournament(s, who, loaded.row.slug)
        try:
            progress = step(loaded.value)
        except TournamentError as exc:
            raise UseCaseError.of(exc) from None
        chosen = people(s, loaded, progress.tournament) if people is not None else None
        changes = save(
            s,
            loaded,
            progress.tournament,
            who=name_of(who),
            action=action,
            why=why,
            expected=expected,
            people=chosen,
        )
        for after in AFTER_SAVE:  # an awarded division's results, derived again
            after(s, loaded, progress.tournament)
        more = tuple(then(s, loaded)) if then is not None else ()
        if lock == "update" and changes:
            touch(loaded)
    return Outcome(progress.tournament, progress.notices + more, progress.problems, tuple(changes))


__all__ = ["AFTER_SAVE", "Outcome", "act"]
