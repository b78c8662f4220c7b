"""Standings, the final ranking and the awards (with the players' ratings), and the
visitors' winner-guess vote."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from meldtour.store import audit
from meldtour.store import awards as award_rows
from meldtour.store import polls as poll_rows
from meldtour.store.db import RowExists, Store
from meldtour.store.models import WinnerPollRow
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
from meldtour.tournament.side import PollError, WinnerPoll, open_poll
from meldtour.tournament.side import cast_vote as side_cast_vote
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

    Awarding again gives the recorded awards back and changes nothing."""
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
        if recorded:
            return tuple(AwardLine(a.place, a.number, a.name, key) for a in recorded)
        lines = tuple(AwardLine(a.place, a.player, a.name, key) for a in prizes)
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


# ---------------------------------------------------------------------------
# The winner-guess vote


@dataclass(frozen=True)
class PollView:
    """A division's winner-guess vote: its finalists, whether it is closed, the votes
    per finalist and in all."""

    division: str
    stage: int
    finalists: tuple[int, ...]
    closed: bool
    tally: dict[int, int]
    votes: int
    opened_at: str
    closed_at: str | None


def _poll_view(s: Any, division: str, row: WinnerPollRow) -> PollView:
    tally = dict.fromkeys(row.finalists, 0)
    for finalist, n in poll_rows.tally(s, row.id):
        tally[finalist] = tally.get(finalist, 0) + n
    return PollView(division, row.stage, tuple(row.finalists), row.closed, tally,
                    sum(tally.values()), row.opened_at, row.closed_at)


def _latest_poll(s: Any, loaded: Loaded, division: str) -> WinnerPollRow | None:
    div_row = loaded.divisions[division]
    return poll_rows.latest(s, div_row.id)


def polls(store: Store, slug: str | None) -> dict[str, PollView]:
    """Each division's latest winner-guess vote (divisions without one are left out)."""
    with store.reading() as s:
        loaded = load(s, slug)
        out = {}
        for key in loaded.divisions:
            row = _latest_poll(s, loaded, key)
            if row is not None:
                out[key] = _poll_view(s, key, row)
        return out


def open_vote(store: Store, slug: str | None, division: str | None, *,
              who: str) -> PollView:
    """Open the winner-guess vote of the division's current stage: the finalists are
    the stage's players still in it. A closed vote of the same stage opens again."""
    with store.transaction() as s:
        loaded = load(s, slug, "update")
        t = loaded.value
        key = resolve_division(t, division)
        div = t.division(key)
        if not div.stages:
            raise UseCaseError("usecase.vote_before_start", div=div.name)
        index = len(div.stages) - 1
        stage = div.stages[index]
        if stage.finished and index + 1 == len(div.formats):
            raise UseCaseError("usecase.vote_too_late", div=div.name)
        try:
            open_poll(stage.active)
        except PollError as exc:
            raise UseCaseError.of(exc) from None
        div_row = loaded.divisions[key]
        row = poll_rows.of_stage(s, div_row.id, index)
        at = now()
        if row is None:
            row = poll_rows.add(s, tournament_id=loaded.row.id, division_id=div_row.id,
                                stage=index, finalists=list(stage.active), opened_by=who,
                                opened_at=at)
        elif not row.closed:
            raise UseCaseError("usecase.vote_open", div=div.name)
        else:
            row.closed, row.closed_at = False, None
        audit.record(s, at=at, who=who, action="open_vote", tournament_id=loaded.row.id,
                     entity="vote", key=f"{key}/stage {index + 1}", before=None,
                     after={"finalists": list(row.finalists)}, why="")
        s.flush()
        return _poll_view(s, key, row)


def close_vote(store: Store, slug: str | None, division: str | None, *,
               who: str) -> PollView:
    """Close the division's open vote; its results are public from now on."""
    with store.transaction() as s:
        loaded = load(s, slug, "update")
        key = resolve_division(loaded.value, division)
        row = _latest_poll(s, loaded, key)
        if row is None or row.closed:
            raise UseCaseError("usecase.no_vote_open", div=loaded.value.division(key).name)
        row.closed, row.closed_at = True, now()
        view = _poll_view(s, key, row)
        audit.record(s, at=row.closed_at, who=who, action="close_vote",
                     tournament_id=loaded.row.id, entity="vote",
                     key=f"{key}/stage {row.stage + 1}", before=None,
                     after={str(k): v for k, v in view.tally.items()}, why="")
        return view


def cast_vote(store: Store, slug: str | None, division: str | None, voter: str,
              finalist: int, *, name: str = "") -> PollView:
    """A visitor's guess: one vote per voter key; voting again, while the vote is
    open, changes the vote. (Two votes of one voter at once: the second finds the
    first's row on its retry and changes it.)"""
    if not re.fullmatch(r"[A-Za-z0-9_-]{8,64}", voter):
        raise UseCaseError("usecase.voter_key")
    try:
        return _cast_vote(store, slug, division, voter, finalist, name)
    except RowExists:
        return _cast_vote(store, slug, division, voter, finalist, name)


def _cast_vote(store: Store, slug: str | None, division: str | None, voter: str,
               finalist: int, name: str) -> PollView:
    with store.transaction() as s:
        loaded = load(s, slug)
        key = resolve_division(loaded.value, division)
        row = _latest_poll(s, loaded, key)
        if row is None:
            raise UseCaseError("usecase.vote_not_open")
        poll = WinnerPoll(tuple(row.finalists), closed=row.closed)
        try:
            side_cast_vote(poll, voter, finalist)
        except PollError as exc:
            raise UseCaseError.of(exc) from None
        vote = poll_rows.vote_of(s, row.id, voter)
        if vote is None:
            poll_rows.add_vote(s, poll_id=row.id, voter=voter, name=name.strip()[:80],
                               finalist=finalist, at=now())
        else:
            vote.finalist, vote.at = finalist, now()
            if name.strip():
                vote.name = name.strip()[:80]
        s.flush()
        return _poll_view(s, key, row)


def my_vote(store: Store, slug: str | None, division: str, voter: str | None) -> int | None:
    """The finalist this voter chose in the division's latest vote, if any."""
    if not voter:
        return None
    with store.reading() as s:
        loaded = load(s, slug)
        row = _latest_poll(s, loaded, division)
        if row is None:
            return None
        return poll_rows.choice(s, row.id, voter)


def awarded(store: Store, slug: str | None) -> list[tuple[str, int, int, str]]:
    """Every recorded award of the tournament: division key, place, number, name."""
    real = slug_of(store, slug)
    with store.transaction() as s:
        return award_rows.of_tournament(s, real)


__all__ = ["AwardLine", "PollView", "award", "awarded", "cast_vote", "close_vote",
           "my_vote", "open_vote", "polls", "ranking", "standings"]
