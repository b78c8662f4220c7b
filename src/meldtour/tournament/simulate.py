"""Plausible game results, for rehearsals, demonstrations and tests.

Each game is made from real tiles: a winner goes out (or, now and then, the pool runs
out), every loser keeps a rack drawn from the 106 tiles, and the core's
:func:`~meldtour.core.scoring.score_game` scores it. So every result is a possible
one: zero-sum, one winner, every minus a rack can hold.

>>> import random
>>> from meldtour.core.rules import find_rules
>>> g = plausible_game(random.Random(1), 4, find_rules("krc-2015"))
>>> sum(g.points), g.points[g.winner - 1] == max(g.points)
(0, True)
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from meldtour.core.rules import RuleSet, find_rules
from meldtour.core.scoring import score_game
from meldtour.core.tiles import Tile, full_set

from .model import Progress, Tournament
from .seating import Seating, find_seater, plan_seatings
from .stages import close_round, current_stage, enter_table_game, seat_round, submit_table


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """A game's sheet row: points per seat, penalty points per seat, winning seat."""

    points: tuple[int, ...]
    penalties: tuple[int, ...]
    winner: int


def plausible_game(
    rng: random.Random,
    seats: int,
    rules: RuleSet,
    strength: Sequence[float] | None = None,
    pool_out: float = 0.08,
) -> PlayedGame:
    """One game at a table of ``seats``; a stronger seat wins more often and keeps
    fewer tiles when it loses."""
    weights = list(strength) if strength is not None else [1.0] * seats
    tiles: list[Tile] = list(full_set())
    rng.shuffle(tiles)
    out = rng.random() >= pool_out
    winner = rng.choices(range(seats), weights=weights)[0]
    melded = [True] * seats
    could = [False] * seats
    racks: list[tuple[Tile, ...]] = []
    top = max(weights)
    for s in range(seats):
        if out and s == winner:
            racks.append(())
            continue
        if s != winner and rng.random() < 0.1:
            melded[s] = False
            could[s] = rng.random() < 0.2
            size = rng.randint(14, 20)
        else:
            edge = weights[s] / top if top > 0 else 1.0
            size = max(1, round(rng.randint(1, 12) * (1.5 - edge / 2)))
        racks.append(tuple(tiles[:size]))
        del tiles[:size]
    pen = [0] * seats
    if rules.failed_turn_points:
        for s in range(seats):
            if rng.random() < 0.05:
                pen[s] = rules.failed_turn_penalty(1)
    score = score_game(
        racks, winner if out else None, melded, could, rng.randrange(seats), rules, penalties=pen
    )
    return PlayedGame(score.scores, tuple(pen), score.winner + 1)


def play_round(
    t: Tournament,
    division: str,
    seed: int | str,
    *,
    strength: Mapping[int, float] | None = None,
    who: str = "referee",
) -> Progress:
    """Seat the current stage's next round, play every table's games with plausible
    results, submit every sheet and close the round."""
    t, notices, _ = seat_round(t, division)
    all_notices = list(notices)
    div = t.division(division)
    _, stage = current_stage(div)
    rnd = stage.rounds[-1]
    rng = random.Random(f"{seed}:{division}:{len(div.stages)}:{rnd.number}")
    for table in rnd.tables:
        power = [strength.get(p, 1.0) if strength else 1.0 for p in table.players]
        for g in range(1, len(table.sheet.games) + 1):
            game = plausible_game(rng, len(table.players), div.rules, power)
            t, _, problems = enter_table_game(
                t,
                division,
                rnd.number,
                table.number,
                g,
                game.points,
                winner=game.winner,
                penalties=game.penalties,
                who=who,
            )
            assert not problems, problems
        t, more, problems = submit_table(t, division, rnd.number, table.number, who=who)
        assert not problems, problems
        all_notices.extend(more)
    t, more, _ = close_round(t, division)
    all_notices.extend(more)
    return Progress(t, tuple(all_notices))


@dataclass(frozen=True, slots=True)
class SimulatedEvent:
    """Seatings and the points each player had before each of them (players numbered
    from 1: ``points[r][p - 1]`` before seating ``r + 1``)."""

    seatings: tuple[Seating, ...]
    points: tuple[tuple[int, ...], ...]

    def gap(self) -> float:
        """The mean standings gap at a table: over the tables of every seating after
        the first, the rank of the table's lowest-placed player minus that of its
        best (ranks by points before the seating; equal points share a rank)."""
        gaps = [
            gap
            for s, pts in zip(self.seatings[1:], self.points[1:], strict=True)
            for gap in table_gaps(s, pts)
        ]
        return sum(gaps) / len(gaps) if gaps else 0.0


def table_gaps(seating: Seating, points: Sequence[int]) -> list[int]:
    """Per table, the spread of its players' ranks (by ``points[p - 1]``, higher first).

    >>> table_gaps(Seating(((1, 2, 3), (4, 5, 6))), [9, 0, 5, 5, 1, 0])
    [4, 3]
    """
    rank = {p: 1 + sum(1 for q in points if q > points[p - 1]) for p in range(1, len(points) + 1)}
    return [max(rank[p] for p in t) - min(rank[p] for p in t) for t in seating.tables]


def simulate_seatings(
    players: int,
    seatings: int,
    method: str,
    *,
    seed: int | str = 0,
    table_size: int = 4,
    games: int = 2,
    rules: RuleSet | None = None,
    groups: Mapping[int, Collection[str]] | None = None,
    groups_hard: bool = True,
    effort: float = 1.0,
) -> SimulatedEvent:
    """Seat ``players`` for ``seatings`` seatings with ``method``, playing ``games``
    plausible games at every table after each seating (players of unequal strength,
    drawn from the seed). A method that plans ahead is asked for every seating at
    once, as :func:`~.seating.plan_seatings` would seat them; one that does not is asked
    before each seating, with the points so far as the standings."""
    rules = rules or find_rules("standard")
    people = range(1, players + 1)
    draw = random.Random(f"{seed}:strength")
    strength = {p: draw.uniform(0.5, 2.0) for p in people}
    ahead = find_seater(method).ahead
    plan = (
        plan_seatings(
            people,
            seatings,
            method=method,
            table_size=table_size,
            seed=seed,
            groups=groups,
            groups_hard=groups_hard,
            effort=effort,
        )
        if ahead
        else ()
    )
    points = dict.fromkeys(people, 0)
    seated: list[Seating] = []
    before: list[tuple[int, ...]] = []
    for r in range(seatings):
        before.append(tuple(points[p] for p in people))
        if ahead:
            seating = plan[r]
        else:
            seating = plan_seatings(
                people,
                1,
                method=method,
                table_size=table_size,
                seed=f"{seed}:{r}",
                history=seated,
                groups=groups,
                groups_hard=groups_hard,
                effort=effort,
                standings={p: float(v) for p, v in points.items()} if r else None,
            )[0]
        seated.append(seating)
        rng = random.Random(f"{seed}:games:{r}")
        for table in seating.tables:
            power = [strength[p] for p in table]
            for _ in range(games):
                game = plausible_game(rng, len(table), rules, power)
                for p, v in zip(table, game.points, strict=True):
                    points[p] += v
    return SimulatedEvent(tuple(seated), tuple(before))
