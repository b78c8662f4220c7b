"""The use cases' refusals: :class:`UseCaseError` (a code of
:mod:`meldtour.store.refusals` or the engine's, with its arguments) and
:class:`CountedSheet`."""

from __future__ import annotations

from typing import Any

from meldtour.core.refusal import Refused
from meldtour.store.db import StoreError
from meldtour.tournament import TournamentError


class UseCaseError(StoreError):
    """A use case refused, with the reason (from the engine or the store)."""


class CountedSheet(UseCaseError):
    """A scorer's save over a sheet that is counted: only the director corrects it.
    ``theirs`` is the sheet as counted (filled in by the use case), so that the
    device shows what differs from what it typed."""

    theirs: Any = None


def engine_error(refused: Refused) -> TournamentError:
    """A store refusal inside an engine step, raised as the engine's (same code)."""
    return TournamentError(refused.code, **refused.params)


__all__ = ["CountedSheet", "UseCaseError", "engine_error"]
