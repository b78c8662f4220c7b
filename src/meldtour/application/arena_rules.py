"""An arena's rules, pure (no I/O): who sits with whom, and the leaderboard.

An arena is an online event open to everyone for a set time: players join any time,
are seated as soon as four are free, and play as many games as they can. The waiting
players are seated by their arena standing (its ranking key: wins then points, or
points then wins, by the preset's match ranking), then by rating, then by arrival,
four at a time: a leader plays the leaders. Fewer than four wait for more (never a
computer: an arena's points are between its people).

A game's points are the preset's: the game's score less its penalties (the winner
takes what the others hold, as at a tournament's table); a win counts once.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

#: The seats of an arena's table.
SEATS = 4

Ranking = Literal["wins", "points"]


@dataclass(frozen=True, slots=True)
class Waiting:
    """A player free to be seated: their entry, arena standing key, rating, arrival."""

    id: str
    key: tuple[int, int]
    rating: float
    joined_at: float


def tables(waiting: Sequence[Waiting], seats: int = SEATS) -> list[list[str]]:
    """The tables to seat now: groups of ``seats`` by standing, rating, then arrival.

    >>> w = [Waiting("a", (0, 0), 1500, 1), Waiting("b", (1, 30), 1400, 2),
    ...      Waiting("c", (0, 0), 1600, 3), Waiting("d", (1, 10), 1500, 4),
    ...      Waiting("e", (0, -5), 1500, 5)]
    >>> tables(w)
    [['b', 'd', 'c', 'a']]
    >>> tables(w[:3])
    []
    """
    order = sorted(waiting, key=lambda w: (-w.key[0], -w.key[1], -w.rating, w.joined_at, w.id))
    full = len(order) // seats * seats
    return [[w.id for w in order[i : i + seats]] for i in range(0, full, seats)]


@dataclass(frozen=True, slots=True)
class Played:
    """An arena game over: its players' ids by seat, and its result as the log has it
    (``scores``, ``penalties``, ``winner``)."""

    game_id: str
    players: tuple[str, ...]
    result: Mapping[str, Any]


def points(result: Mapping[str, Any]) -> list[int]:
    """Each seat's points in a game over: its score less its penalties.

    >>> points({"scores": [30, -10, -20], "penalties": [0, -5, 0], "winner": 0})
    [30, -15, -20]
    """
    scores = [int(x) for x in result.get("scores") or []]
    penalties = [abs(int(x)) for x in result.get("penalties") or [0] * len(scores)]
    penalties += [0] * (len(scores) - len(penalties))
    return [s - p for s, p in zip(scores, penalties, strict=False)]


@dataclass(slots=True)
class Line:
    """A player's line on the leaderboard."""

    id: str
    name: str
    games: int = 0
    wins: int = 0
    points: int = 0
    rank: int = 0
    #: Each game's points, in the order played.
    each: list[int] = field(default_factory=list)

    def key(self, ranking: Ranking) -> tuple[int, int]:
        return (self.wins, self.points) if ranking == "wins" else (self.points, self.wins)


def leaderboard(
    names: Mapping[str, str], games: Iterable[Played], ranking: Ranking = "wins"
) -> list[Line]:
    """Every player's line (those who have not played yet too, at the foot), ranked by
    the preset's match ranking, ties sharing a rank (then by name, for the eye).

    >>> games = [Played("g1", ("a", "b", "c", "d"),
    ...                 {"scores": [40, -10, -10, -20], "penalties": [0, 0, 0, 0], "winner": 0}),
    ...          Played("g2", ("b", "c", "d", "e"),
    ...                 {"scores": [-5, 25, -10, -10], "penalties": [0, 0, 0, 0], "winner": 1})]
    >>> names = {k: k.upper() for k in "abcdef"}
    >>> [(x.id, x.wins, x.points, x.rank) for x in leaderboard(names, games)][:4]
    [('a', 1, 40, 1), ('c', 1, 15, 2), ('f', 0, 0, 3), ('e', 0, -10, 4)]
    """
    lines = {pid: Line(pid, name) for pid, name in names.items()}
    for game in games:
        got = points(game.result)
        winner = game.result.get("winner")
        for seat, pid in enumerate(game.players):
            if seat >= len(got):
                break
            line = lines.setdefault(pid, Line(pid, names.get(pid, "?")))
            line.games += 1
            line.points += got[seat]
            line.each.append(got[seat])
            if winner is not None and int(winner) == seat:
                line.wins += 1
    ordered = sorted(lines.values(), key=lambda x: (x.name, x.id))
    ordered.sort(key=lambda x: x.key(ranking), reverse=True)
    last: tuple[int, int] | None = None
    for i, line in enumerate(ordered, start=1):
        k = line.key(ranking)
        line.rank = i if k != last else ordered[i - 2].rank
        last = k
    return ordered


def standing_keys(lines: Iterable[Line], ranking: Ranking = "wins") -> dict[str, tuple[int, int]]:
    """The pairing key of each player (their leaderboard's ranking key)."""
    return {x.id: x.key(ranking) for x in lines}


def winners(lines: Sequence[Line]) -> list[Line]:
    """The arena's winners once it is over: the first rank's (more than one on a tie),
    none while nobody has played."""
    return [x for x in lines if x.rank == 1 and x.games > 0]


__all__ = [
    "SEATS",
    "Line",
    "Played",
    "Ranking",
    "Waiting",
    "leaderboard",
    "points",
    "standing_keys",
    "tables",
    "winners",
]
