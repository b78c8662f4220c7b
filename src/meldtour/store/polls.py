"""The winner-guess votes, as rows: a division's polls and the visitors' votes.

Functions of a session (a unit of work the caller runs).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select

from .models import WinnerPollRow, WinnerVoteRow


def tally(s: Any, poll_id: int) -> list[tuple[int, int]]:
    """The poll's votes: (finalist, votes) for each finalist with a vote."""
    return [(finalist, n) for finalist, n in s.execute(
        select(WinnerVoteRow.finalist, func.count()).where(
            WinnerVoteRow.poll_id == poll_id).group_by(WinnerVoteRow.finalist))]


def latest(s: Any, division_id: int) -> WinnerPollRow | None:
    """The division's latest poll (of its latest stage with one)."""
    found: WinnerPollRow | None = s.scalars(
        select(WinnerPollRow).where(WinnerPollRow.division_id == division_id)
        .order_by(WinnerPollRow.stage.desc()).limit(1)).first()
    return found


def of_stage(s: Any, division_id: int, stage: int) -> WinnerPollRow | None:
    found: WinnerPollRow | None = s.scalars(select(WinnerPollRow).where(
        WinnerPollRow.division_id == division_id, WinnerPollRow.stage == stage)).first()
    return found


def add(s: Any, *, tournament_id: int, division_id: int, stage: int, finalists: list[int],
        opened_by: str, opened_at: str) -> WinnerPollRow:
    row = WinnerPollRow(tournament_id=tournament_id, division_id=division_id, stage=stage,
                        finalists=finalists, closed=False, opened_by=opened_by,
                        opened_at=opened_at)
    s.add(row)
    return row


def vote_of(s: Any, poll_id: int, voter: str) -> WinnerVoteRow | None:
    found: WinnerVoteRow | None = s.scalars(select(WinnerVoteRow).where(
        WinnerVoteRow.poll_id == poll_id, WinnerVoteRow.voter == voter)).first()
    return found


def add_vote(s: Any, *, poll_id: int, voter: str, name: str, finalist: int, at: str) -> None:
    s.add(WinnerVoteRow(poll_id=poll_id, voter=voter, name=name, finalist=finalist, at=at))


def choice(s: Any, poll_id: int, voter: str) -> int | None:
    """The finalist the voter chose in the poll, if any."""
    found: int | None = s.scalar(select(WinnerVoteRow.finalist).where(
        WinnerVoteRow.poll_id == poll_id, WinnerVoteRow.voter == voter))
    return found


__all__ = ["add", "add_vote", "choice", "latest", "of_stage", "tally", "vote_of"]
