"""Scoring one game (docs/rules.md, "Scoring a game") and ranking a match across games
("A match over several games").

>>> from meldtour.core.rules import find_rules
>>> from meldtour.core.tiles import parse_tiles
>>> hands = (["k10"], ["r5", "r10"], ["b9", "b12", "b12"], ["o10", "o10", "k10", "b10"])
>>> racks = [parse_tiles(r) for r in hands]
>>> score_game(racks, None, [True] * 4, [False] * 4, first=0, rules=find_rules("japan")).scores
(58, -5, -23, -30)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .refusal import Refused, register
from .rules import MatchRanking, RuleSet
from .tiles import JOKER_CODE, Tile

register(
    {
        "game.players_count": "a game has 2 to 4 players, not %(n)s",
        "score.entries": "%(name)s has %(got)s entries for %(n)s racks",
        "score.first_not_seat": "first seat %(first)s is not a seat of this game (0-%(last)s)",
        "score.winner_not_seat": "winner %(winner)s is not a seat of this game (0-%(last)s)",
        "score.winner_holds_tiles": "winner %(winner)s still holds %(n)s tiles",
        "score.games_winners": "%(games)s games but %(winners)s winners",
        "score.game_scores": "game %(game)s has %(got)s scores, expected %(n)s",
        "score.game_winner": "game %(game)s: winner %(winner)s is not a player",
    }
)


class ScoreError(Refused):
    """Inputs that describe no possible game end."""


def rack_total(rack: Sequence[Tile], melded: bool, could_meld: bool, rules: RuleSet) -> int:
    """What a rack counts against its owner at the end (a positive number).

    The numbers on the rack plus the joker penalty for each joker; a player who never
    made the initial meld counts a flat 100, or 200 if they could have and did not.
    """
    if not melded:
        return rules.could_meld_penalty if could_meld else rules.no_meld_penalty
    return sum(rules.joker_penalty if t == JOKER_CODE else t % 13 + 1 for t in rack)


@dataclass(frozen=True, slots=True)
class GameScore:
    """The result of one game.

    ``scores`` are the game points, which sum to zero; ``penalties`` are the penalty
    points (negative, 004's ×), kept apart. ``totals`` are the rack totals.
    """

    scores: tuple[int, ...]
    winner: int
    totals: tuple[int, ...]
    penalties: tuple[int, ...]

    @property
    def points(self) -> tuple[int, ...]:
        """Game points plus penalty points: what counts in standings."""
        return tuple(s + p for s, p in zip(self.scores, self.penalties, strict=True))


def turn_order(first: int, players: int) -> tuple[int, ...]:
    """Seats clockwise from the starting seat."""
    return tuple((first + i) % players for i in range(players))


def lowest_rack_winner(
    totals: Sequence[int], racks: Sequence[Sequence[Tile]], order: Sequence[int], rules: RuleSet
) -> int:
    """The lowest total wins; a tie goes to the tied player nearest the start (004).

    Under ``tie_rule = "fewest_tiles"`` the tied player with the fewest tiles wins
    first, and only then the one nearest the start.
    """
    low = min(totals)
    tied = [s for s in order if totals[s] == low]
    if rules.tie_rule == "fewest_tiles":
        fewest = min(len(racks[s]) for s in tied)
        tied = [s for s in tied if len(racks[s]) == fewest]
    return tied[0]


def score_game(
    racks: Sequence[Sequence[Tile]],
    winner: int | None,
    melded: Sequence[bool],
    could_meld: Sequence[bool],
    first: int,
    rules: RuleSet,
    order: Sequence[int] | None = None,
    penalties: Sequence[int] | None = None,
) -> GameScore:
    """Score a finished game.

    ``winner`` is the seat that emptied its rack, or ``None`` when the pool ran out
    (or play was blocked): then the lowest rack total wins and every loser pays the
    difference to the winner's total. ``penalties`` are penalty points per seat
    (positive numbers, recorded as negative); they reach the winner only when the
    rule set says so.
    """
    n = len(racks)
    if not 2 <= n <= 4:
        raise ScoreError("game.players_count", n=n)
    for name, seq in (("melded", melded), ("could_meld", could_meld)):
        if len(seq) != n:
            raise ScoreError("score.entries", name=name, got=len(seq), n=n)
    if not 0 <= first < n:
        raise ScoreError("score.first_not_seat", first=first, last=n - 1)
    if order is None:
        order = turn_order(first, n)
    pen = tuple(penalties) if penalties is not None else (0,) * n
    if len(pen) != n:
        raise ScoreError("score.entries", name="penalties", got=len(pen), n=n)
    totals = tuple(rack_total(racks[s], melded[s], could_meld[s], rules) for s in range(n))
    if winner is not None:
        if not 0 <= winner < n:
            raise ScoreError("score.winner_not_seat", winner=winner, last=n - 1)
        if racks[winner]:
            raise ScoreError("score.winner_holds_tiles", winner=winner, n=len(racks[winner]))
        base = 0
    else:
        winner = lowest_rack_winner(totals, racks, order, rules)
        base = totals[winner]
    scores = [-(totals[s] - base) for s in range(n)]
    scores[winner] = -sum(scores[s] for s in range(n) if s != winner)
    penalty_points = [-p for p in pen]
    if rules.penalty_to_winner:
        scores[winner] += sum(pen[s] for s in range(n) if s != winner)
    return GameScore(tuple(scores), winner, totals, tuple(penalty_points))


@dataclass(frozen=True, slots=True)
class MatchStanding:
    """One player's line in a match table: ``score`` is what the ranking sorts by."""

    rank: int
    player: int
    wins: int
    points: int
    score: int


def match_score(wins: int, points: int, mode: MatchRanking, win_points: int = 100) -> int:
    if mode == "league":
        return win_points * wins + points
    return points


def rank_match(
    games: Sequence[Sequence[int]],
    winners: Sequence[int],
    mode: MatchRanking = "wins",
    win_points: int = 100,
) -> list[MatchStanding]:
    """Rank players over several games (docs/rules.md, "A match over several games").

    ``games[g][p]`` is player p's points in game g (penalties included); ``winners[g]``
    the winner of game g. ``wins``: most wins, then points; ``league``: 100 a win plus
    points; ``points``: points only. Players equal on the ranking share a rank.
    """
    if len(games) != len(winners):
        raise ScoreError("score.games_winners", games=len(games), winners=len(winners))
    if not games:
        return []
    n = len(games[0])
    wins = [0] * n
    points = [0] * n
    for g, (row, w) in enumerate(zip(games, winners, strict=True)):
        if len(row) != n:
            raise ScoreError("score.game_scores", game=g + 1, got=len(row), n=n)
        if not 0 <= w < n:
            raise ScoreError("score.game_winner", game=g + 1, winner=w)
        wins[w] += 1
        for p, v in enumerate(row):
            points[p] += v

    def key(p: int) -> tuple[int, ...]:
        if mode == "wins":
            return (wins[p], points[p])
        return (match_score(wins[p], points[p], mode, win_points),)

    ordered = sorted(range(n), key=lambda p: tuple(-k for k in key(p)))
    out: list[MatchStanding] = []
    for i, p in enumerate(ordered):
        rank = out[-1].rank if out and key(ordered[i - 1]) == key(p) else i + 1
        out.append(
            MatchStanding(
                rank, p, wins[p], points[p], match_score(wins[p], points[p], mode, win_points)
            )
        )
    return out
