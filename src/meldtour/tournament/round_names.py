"""What a round is called in a tournament's programme: a knockout round by the number
of players entering it (32강전, ベスト32, round of 32), its last round the final; a
seating round by its number. Words are the pages' concern; this gives the value."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .model import Round, Stage

RoundKind = Literal["final", "of", "number"]


@dataclass(frozen=True, slots=True)
class RoundName:
    """``final``: a knockout's final table; ``of``: a knockout round of ``n`` players
    (the round of 32); ``number``: round ``n`` of a stage played in seatings."""

    kind: RoundKind
    n: int


def knockout_round_name(players: int, table_size: int) -> RoundName:
    """The name of a knockout round entered by ``players`` players at tables of
    ``table_size``: the final when they fit one table, else the round of ``players``."""
    if players <= 0 or table_size <= 0:
        raise ValueError(f"a round of {players} players at tables of {table_size}")
    if players <= table_size:
        return RoundName("final", players)
    return RoundName("of", players)


def round_name(stage: Stage, rnd: Round | int) -> RoundName:
    """The name of a round of ``stage`` (a :class:`Round` or its number): a knockout's
    rounds by their players, any other stage's by number."""
    number = rnd if isinstance(rnd, int) else rnd.number
    if stage.format.kind != "knockout":
        return RoundName("number", number)
    if isinstance(rnd, int):
        found = [r for r in stage.rounds if r.number == rnd]
        if not found:
            return RoundName("number", number)
        rnd = found[0]
    players = sum(len(t.players) for t in rnd.tables)
    if players == 0:
        return RoundName("number", number)
    return knockout_round_name(
        players, max(stage.format.table_size, max(len(t.players) for t in rnd.tables))
    )


__all__ = ["RoundKind", "RoundName", "knockout_round_name", "round_name"]
