"""The winner-guess votes, as rows: a division's polls and the visitors' votes.

Functions of a session (a unit of work the caller runs).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, func, select

from .models import VoteCodeRow, WinnerPollRow, WinnerVoteRow


def tally(s: Any, poll_id: int) -> list[tuple[int, int]]:
    """The poll's votes: (finalist, votes) for each finalist with a vote."""
    return [
        (finalist, n)
        for finalist, n in s.execute(
            select(WinnerVoteRow.finalist, func.count())
            .where(WinnerVoteRow.poll_id == poll_id)
            .group_by(WinnerVoteRow.finalist)
        )
    ]


def latest(s: Any, division_id: int) -> WinnerPollRow | None:
    """The division's latest poll (of its latest stage with one)."""
    found: WinnerPollRow | None = s.scalars(
        select(WinnerPollRow)
        .where(WinnerPollRow.division_id == division_id)
        .order_by(WinnerPollRow.stage.desc())
        .limit(1)
    ).first()
    return found


def of_stage(s: Any, division_id: int, stage: int) -> WinnerPollRow | None:
    found: WinnerPollRow | None = s.scalars(
        select(WinnerPollRow).where(
            WinnerPollRow.division_id == division_id, WinnerPollRow.stage == stage
        )
    ).first()
    return found


def add(
    s: Any,
    *,
    tournament_id: int,
    division_id: int,
    stage: int,
    finalists: list[int],
    opened_by: str,
    opened_at: str,
) -> WinnerPollRow:
    row = WinnerPollRow(
        tournament_id=tournament_id,
        division_id=division_id,
        stage=stage,
        finalists=finalists,
        closed=False,
        opened_by=opened_by,
        opened_at=opened_at,
    )
    s.add(row)
    return row


def vote_of(s: Any, poll_id: int, voter: str) -> WinnerVoteRow | None:
    found: WinnerVoteRow | None = s.scalars(
        select(WinnerVoteRow).where(WinnerVoteRow.poll_id == poll_id, WinnerVoteRow.voter == voter)
    ).first()
    return found


def add_vote(
    s: Any,
    *,
    poll_id: int,
    voter: str,
    name: str,
    finalist: int,
    at: str,
    source: str = "",
    device: str = "",
) -> None:
    s.add(
        WinnerVoteRow(
            poll_id=poll_id,
            voter=voter,
            name=name,
            finalist=finalist,
            at=at,
            source=source,
            device=device,
        )
    )


def votes(s: Any, poll_id: int) -> list[WinnerVoteRow]:
    """The poll's votes, oldest first."""
    return list(
        s.scalars(
            select(WinnerVoteRow).where(WinnerVoteRow.poll_id == poll_id).order_by(WinnerVoteRow.id)
        )
    )


def sources(s: Any, poll_id: int) -> list[tuple[str, int, str, str]]:
    """The poll's votes by source: (source, votes, first vote's time, last's), the
    busiest first."""
    rows = s.execute(
        select(
            WinnerVoteRow.source,
            func.count(),
            func.min(WinnerVoteRow.at),
            func.max(WinnerVoteRow.at),
        )
        .where(WinnerVoteRow.poll_id == poll_id)
        .group_by(WinnerVoteRow.source)
    )
    return sorted(
        ((src, n, first, last) for src, n, first, last in rows), key=lambda r: (-r[1], r[0])
    )


def void_source(s: Any, poll_id: int, source: str) -> int:
    """Delete the poll's votes from ``source``; how many there were."""
    result = s.execute(
        delete(WinnerVoteRow).where(
            WinnerVoteRow.poll_id == poll_id, WinnerVoteRow.source == source
        )
    )
    return int(result.rowcount or 0)


def add_codes(s: Any, tournament_id: int, codes: list[str], at: str) -> None:
    s.add_all(VoteCodeRow(tournament_id=tournament_id, code=c, made_at=at) for c in codes)


def codes(s: Any, tournament_id: int) -> list[str]:
    """The tournament's vote codes, in the order they were made."""
    return list(
        s.scalars(
            select(VoteCodeRow.code)
            .where(VoteCodeRow.tournament_id == tournament_id)
            .order_by(VoteCodeRow.id)
        )
    )


def code_count(s: Any, tournament_id: int) -> int:
    return int(
        s.scalar(
            select(func.count())
            .select_from(VoteCodeRow)
            .where(VoteCodeRow.tournament_id == tournament_id)
        )
        or 0
    )


def has_code(s: Any, tournament_id: int, code: str) -> bool:
    return (
        s.scalar(
            select(VoteCodeRow.id).where(
                VoteCodeRow.tournament_id == tournament_id, VoteCodeRow.code == code
            )
        )
        is not None
    )


def choice(s: Any, poll_id: int, voter: str) -> int | None:
    """The finalist the voter chose in the poll, if any."""
    found: int | None = s.scalar(
        select(WinnerVoteRow.finalist).where(
            WinnerVoteRow.poll_id == poll_id, WinnerVoteRow.voter == voter
        )
    )
    return found


__all__ = [
    "add",
    "add_codes",
    "add_vote",
    "choice",
    "code_count",
    "codes",
    "has_code",
    "latest",
    "of_stage",
    "sources",
    "tally",
    "void_source",
    "vote_of",
    "votes",
]
