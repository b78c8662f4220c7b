"""Standings, the final ranking and the awards (with the players' ratings); the
visitors' winner-guess vote is :mod:`.votes`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from meldtour.store import audit
from meldtour.store import awards as award_rows
from meldtour.store.db import Store
from meldtour.store.repository import Loaded, load, now, touch
from meldtour.tournament import (
    Standings,
    Tournament,
    TournamentError,
    awards,
    final_ranking,
    stage_standings,
)
from meldtour.tournament.ranking import Rating, rate_games
from meldtour.tournament.stages import Placing

from .cache import read, slug_of
from .circuit import record_results
from .divisions import resolve_division
from .errors import UseCaseError
from .sheets import stage_index


def standings(store: Store, slug: str | None, division: str | None,
              stage: int | None = None) -> tuple[Tournament, str, Standings]:
    t = read(store, slug)
    try:
        key = resolve_division(t, division)
        index = stage_index(t, key, stage)
        return t, key, stage_standings(t, key, index)
    except TournamentError as exc:
        raise UseCaseError.of(exc) from None


def ranking(store: Store, slug: str | None,
            division: str | None) -> tuple[Tournament, str, tuple[Placing, ...]]:
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


def award(store: Store, slug: str | None, division: str | None, *,
          who: str) -> tuple[AwardLine, ...]:
    """Record the division's awards (once it is finished) and rate its games.

    The awards are derived: awarding again gives the awards of the sheets as they are
    now (a correction after the awards has awarded again, :mod:`.circuit.results`)."""
    at = now()
    with store.transaction() as s:
        loaded = load(s, slug, "update")
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
        award_rows.replace(s, div_row.id, [(a.place, a.number, a.name) for a in lines],
                           at=at)
        audit.record(s, at=at, who=who, action="award", tournament_id=loaded.row.id,
                     entity="award", key=key, before=None,
                     after=[{"place": a.place, "number": a.number, "name": a.name}
                            for a in lines], why="")
        _rate(s, loaded, key, who=who, at=at)
        record_results(s, loaded, key)  # the places the rankings read (the circuit)
        touch(loaded)
    return lines


def _rate(s: Any, loaded: Loaded, division: str, *, who: str, at: str) -> None:
    """Update the players' ratings from every counted game of the division."""
    games = [g for st in loaded.value.division(division).stages for g in st.results()]
    player_of = {n: r.player_id for n, r in loaded.registrations.items()}
    involved = sorted({p for g in games for p in g.players})
    rows = award_rows.ratings(s, [player_of[p] for p in involved])
    before = {p: Rating(rows[player_of[p]].mu, rows[player_of[p]].sigma,
                        rows[player_of[p]].games)
              for p in involved if player_of[p] in rows}
    after = rate_games(before, games)
    for p in involved:
        r = after[p]
        row = rows.get(player_of[p])
        if row is None:
            award_rows.add_rating(s, player_of[p], r.mu, r.sigma, r.games, at=at)
        else:
            row.mu, row.sigma, row.games, row.updated_at = r.mu, r.sigma, r.games, at
    audit.record(s, at=at, who=who, action="rate", tournament_id=loaded.row.id,
                 entity="rating", key=division,
                 before={str(p): [x.mu, x.sigma, x.games] for p, x in before.items()},
                 after={str(p): [after[p].mu, after[p].sigma, after[p].games]
                        for p in involved}, why="")


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


__all__ = ["AwardLine", "award", "awarded", "ranking", "standings"]
