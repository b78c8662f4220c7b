"""The side events of 000: the winner-guess poll and draw, and the family prizes.

Winner guess ("우승자 맞히기 추첨 이벤트"): spectators vote for a finalist until the
end of the first final game; board games are drawn among those who guessed right.
The draw is seeded and recorded in the poll, so it can be shown and checked later.

>>> poll = open_poll((3, 7, 9, 12))
>>> poll = cast_vote(poll, "Ahn", 7)
>>> poll = cast_vote(poll, "Baek", 9)
>>> poll = cast_vote(poll, "Cho", 7)
>>> poll = draw_prizes(close_poll(poll), winner=7, prizes=1, seed=5)
>>> poll.draw.right, len(poll.draw.drawn)
(('Ahn', 'Cho'), 1)

Family prizes ("가족상", "3대 가족상"): a family with 3 or more participants, and a
family of three generations. A family is the players sharing a ``family:`` tag, in
any division.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Literal

from meldtour.core.refusal import Refused

from .model import Tournament, TournamentError


class PollError(Refused):
    """A vote or draw the poll does not allow: a code and its arguments
    (:mod:`.refusals`)."""


@dataclass(frozen=True, slots=True)
class Vote:
    voter: str
    finalist: int
    at: str = ""


@dataclass(frozen=True, slots=True)
class PollDraw:
    """The recorded draw: the winner, who guessed right, who won a prize, the seed."""

    winner: int
    right: tuple[str, ...]
    drawn: tuple[str, ...]
    seed: int | str


@dataclass(frozen=True, slots=True)
class WinnerPoll:
    finalists: tuple[int, ...]
    votes: tuple[Vote, ...] = ()
    closed: bool = False
    draw: PollDraw | None = None

    def tally(self) -> dict[int, int]:
        """Votes per finalist."""
        out = dict.fromkeys(self.finalists, 0)
        for v in self.votes:
            out[v.finalist] += 1
        return out


def open_poll(finalists: tuple[int, ...]) -> WinnerPoll:
    if len(set(finalists)) != len(finalists) or not finalists:
        raise PollError("poll.distinct_finalists")
    return WinnerPoll(tuple(finalists))


def cast_vote(poll: WinnerPoll, voter: str, finalist: int, at: str = "") -> WinnerPoll:
    """One vote per voter; voting again, while the poll is open, changes the vote."""
    if poll.closed:
        raise PollError("poll.closed")
    if finalist not in poll.finalists:
        raise PollError("poll.not_finalist", n=finalist)
    if not voter.strip():
        raise PollError("poll.needs_voter")
    votes = (*tuple(v for v in poll.votes if v.voter != voter), Vote(voter, finalist, at))
    return replace(poll, votes=votes)


def close_poll(poll: WinnerPoll) -> WinnerPoll:
    return replace(poll, closed=True)


def first_final_game_played(t: Tournament, division: str) -> bool:
    """Whether the first game of the division's final has been entered in full: the
    moment the poll closes."""
    div = t.division(division)
    if not div.stages or div.stages[-1].format.kind not in ("final", "knockout"):
        return False
    stage = div.stages[-1]
    if not stage.rounds:
        return False
    last = stage.rounds[-1]
    if stage.format.kind == "knockout" and len(last.tables) != 1:
        return False
    return any(x.sheet.games[0].complete for x in last.tables)


def draw_prizes(poll: WinnerPoll, winner: int, prizes: int, seed: int | str) -> WinnerPoll:
    """Draw ``prizes`` voters among the right guesses; the draw is kept in the poll."""
    if not poll.closed:
        raise PollError("poll.close_before_draw")
    if poll.draw is not None:
        raise PollError("poll.drawn_already")
    if winner not in poll.finalists:
        raise PollError("poll.not_finalist", n=winner)
    right = tuple(sorted(v.voter for v in poll.votes if v.finalist == winner))
    rng = random.Random(f"{seed}:winner-guess")
    drawn = tuple(rng.sample(right, min(prizes, len(right))))
    return replace(poll, draw=PollDraw(winner, right, drawn, seed))


@dataclass(frozen=True, slots=True)
class FamilyPrize:
    """A family prize: ``family`` (3 or more participants) or ``three_generations``."""

    family: str
    kind: Literal["family", "three_generations"]
    members: tuple[int, ...]


def family_prizes(
    t: Tournament, *, members: int = 3, generations: int = 3, both: bool = False
) -> tuple[FamilyPrize, ...]:
    """The families that win a prize. Only players who took part count (checked in,
    or dropped after playing). A three-generation family gets that prize instead of
    the plain family prize, unless ``both``."""
    if members < 1 or generations < 1:
        raise TournamentError("tournament.family_thresholds")
    families: dict[str, list[int]] = {}
    gens: dict[str, set[int]] = {}
    for r in t.registrations:
        if r.status not in ("checked_in", "dropped"):
            continue
        for tag in r.tag_values("family"):
            families.setdefault(tag, []).append(r.player)
            if r.generation is not None:
                gens.setdefault(tag, set()).add(r.generation)
    out: list[FamilyPrize] = []
    for tag in sorted(families):
        who = tuple(families[tag])
        name = tag.split(":", 1)[1]
        three = len(gens.get(tag, ())) >= generations
        if three:
            out.append(FamilyPrize(name, "three_generations", who))
        if len(who) >= members and (both or not three):
            out.append(FamilyPrize(name, "family", who))
    return tuple(out)
