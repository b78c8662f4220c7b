"""Standings, the final ranking and the awards (the ratings are derived from the
awarded divisions: :mod:`.circuit.rating`); the
visitors' winner-guess vote is :mod:`.votes`."""

from __future__ import annotations

from dataclasses import dataclass

from meldtour.store import audit
from meldtour.store import awards as award_rows
from meldtour.store.db import Store
from meldtour.store.repository import load, now, touch
from meldtour.tournament import (
    Standings,
    Tournament,
    TournamentError,
    awards,
    final_ranking,
    stage_standings,
)
from meldtour.tournament.prizes import PlacePrize, parse_prizes, prizes_data, prizes_value
from meldtour.tournament.registration import refuse_invisible
from meldtour.tournament.stages import Placing

from .acting import Who, name_of, require_tournament
from .cache import read, slug_of
from .circuit import record_results
from .divisions import resolve_division
from .errors import UseCaseError
from .sheets import stage_index


def standings(
    store: Store, slug: str | None, division: str | None, stage: int | None = None
) -> tuple[Tournament, str, Standings]:
    t = read(store, slug)
    try:
        key = resolve_division(t, division)
        index = stage_index(t, key, stage)
        return t, key, stage_standings(t, key, index)
    except TournamentError as exc:
        raise UseCaseError.of(exc) from None


def ranking(
    store: Store, slug: str | None, division: str | None
) -> tuple[Tournament, str, tuple[Placing, ...]]:
    t = read(store, slug)
    try:
        key = resolve_division(t, division)
        return t, key, final_ranking(t, key)
    except TournamentError as exc:
        raise UseCaseError.of(exc) from None


@dataclass(frozen=True, slots=True)
class AwardLine:
    place: int
    number: int
    name: str
    division: str


def award(
    store: Store, slug: str | None, division: str | None, *, who: Who
) -> tuple[AwardLine, ...]:
    """Record the division's awards (once it is finished); its games count for the
    ratings from then on (:mod:`.circuit.rating`).

    The awards are derived: awarding again gives the awards of the sheets as they are
    now (a correction after the awards has awarded again, :mod:`.circuit.results`)."""
    at = now()
    with store.transaction() as s:
        loaded = load(s, slug, "update")
        require_tournament(s, who, loaded.row.slug)
        t = loaded.value
        try:
            key = resolve_division(t, division)
            prizes = awards(t, key)
        except TournamentError as exc:
            raise UseCaseError.of(exc) from None
        div_row = loaded.divisions[key]
        recorded = award_rows.recorded(s, div_row.id)
        lines = tuple(AwardLine(a.place, a.player, a.name, key) for a in prizes)
        if recorded:
            return lines
        award_rows.replace(s, div_row.id, [(a.place, a.number, a.name) for a in lines], at=at)
        audit.record(
            s,
            at=at,
            who=name_of(who),
            action="award",
            tournament_id=loaded.row.id,
            entity="award",
            key=key,
            before=None,
            after=[{"place": a.place, "number": a.number, "name": a.name} for a in lines],
            why="",
        )
        record_results(s, loaded, key)  # the places the rankings read (the circuit)
        touch(loaded)
    return lines


def awarded(store: Store, slug: str | None) -> list[tuple[str, int, int, str]]:
    """Every award of the tournament's awarded divisions, from the sheets as they are
    now: division key, place, number, name."""
    real = slug_of(store, slug)
    with store.reading() as s:
        keys = {k for k, *_ in award_rows.of_tournament(s, real)}
    t = read(store, real)
    out: list[tuple[str, int, int, str]] = []
    for d in t.divisions:
        if d.key in keys:
            try:
                out.extend((d.key, a.place, a.player, a.name) for a in awards(t, d.key))
            except TournamentError:
                continue
    return out


#: The most signer lines a certificate has.
MAX_SIGNERS = 3
#: The longest signer line.
MAX_SIGNER = 80


@dataclass(frozen=True, slots=True)
class AwardSettings:
    """What the awards say beyond the places: the division's prize per place or range
    of places, and the certificates' signer lines (none: the director's and the chief
    referee's, in the reader's words)."""

    prizes: tuple[PlacePrize, ...]
    signers: tuple[str, ...]


def award_settings(store: Store, slug: str | None, division: str | None) -> AwardSettings:
    with store.reading() as s:
        loaded = load(s, slug)
        key = resolve_division(loaded.value, division)
        row = loaded.divisions[key]
        return AwardSettings(
            prizes_value(row.prize_titles), tuple(str(x) for x in loaded.row.signers or ())
        )


def set_prizes(
    store: Store,
    slug: str | None,
    division: str | None,
    lines: list[tuple[int, int, str]],
    *,
    who: Who,
) -> tuple[PlacePrize, ...]:
    """Set the division's prize per place or range of places (audited, old and new):
    a line without a title is left out; refused, nothing changed, for places out of
    order or a place with two prizes."""
    try:
        prizes = parse_prizes(lines)
    except TournamentError as exc:
        raise UseCaseError.of(exc) from None
    with store.transaction() as s:
        loaded = load(s, slug, "update")
        require_tournament(s, who, loaded.row.slug)
        key = resolve_division(loaded.value, division)
        row = loaded.divisions[key]
        before = prizes_value(row.prize_titles)
        if before == prizes:
            return prizes
        row.prize_titles = prizes_data(prizes)
        audit.record(
            s,
            at=now(),
            who=name_of(who),
            action="set_prizes",
            tournament_id=loaded.row.id,
            entity="division",
            key=key,
            before={"prizes": prizes_data(before)},
            after={"prizes": prizes_data(prizes)},
            why="",
        )
    return prizes


def set_signers(store: Store, slug: str | None, signers: list[str], *, who: Who) -> tuple[str, ...]:
    """Set the certificates' signer lines (audited; blank lines left out, none: the
    default two)."""
    lines = tuple(" ".join(x.split()) for x in signers if x.strip())
    if len(lines) > MAX_SIGNERS or any(len(x) > MAX_SIGNER for x in lines):
        raise UseCaseError("usecase.signers", most=MAX_SIGNERS, length=MAX_SIGNER)
    try:
        for line in lines:
            refuse_invisible(line)
    except TournamentError as exc:
        raise UseCaseError.of(exc) from None
    with store.transaction() as s:
        loaded = load(s, slug, "update")
        require_tournament(s, who, loaded.row.slug)
        before = tuple(loaded.row.signers or ())
        if before == lines:
            return lines
        loaded.row.signers = list(lines) or None
        audit.record(
            s,
            at=now(),
            who=name_of(who),
            action="set_signers",
            tournament_id=loaded.row.id,
            entity="tournament",
            key="signers",
            before={"signers": list(before)},
            after={"signers": list(lines)},
            why="",
        )
    return lines


__all__ = [
    "AwardLine",
    "AwardSettings",
    "award",
    "award_settings",
    "awarded",
    "ranking",
    "set_prizes",
    "set_signers",
    "standings",
]
