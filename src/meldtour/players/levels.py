"""The computer players by level: one sentence each for the players, and a lookup.

>>> sorted(LEVELS)
['beginner', 'club', 'expert', 'greedy']
>>> make_player("greedy").name
'greedy'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from meldtour.core.refusal import Refused, register

from . import Player
from .beginner import BeginnerPlayer
from .club import ClubPlayer
from .expert import ExpertPlayer
from .greedy import GreedyPlayer

#: What each level does, in a sentence a player understands (English; the web app
#: translates these by key).
DESCRIPTIONS: Final[dict[str, str]] = {
    "beginner": "Makes its first meld as soon as it can, then only adds tiles to the "
    "ends of melds on the table or lays new melds from its own rack; it never "
    "rearranges the table.",
    "greedy": "Every turn it puts down as many tiles as it possibly can, rearranging the "
    "table as needed, and draws only when it cannot play at all.",
    "club": "Plays like a good club player: puts down as many tiles as it can, "
    "rearranging the table, but holds its tiles back while another player is "
    "close to going out.",
    "expert": "Makes the smallest initial meld it can and keeps its tiles, drawing every "
    "turn, until it can put its whole rack down in one turn; just before the last "
    "tiles of the pool it may put down a single tile that opens nothing for the "
    "others, so as not to be the last to reach them; near the end, when "
    "another player is close to going out or everyone else is holding too, it "
    "lays all it can — but not a play that would let a player with few tiles go "
    "out: then it lays only what opens nothing for the others, or draws; in the last "
    "tiles of the pool it plays the game out in its head on a few guesses of the "
    "hidden tiles, and makes the move that wins most often.",
}

LEVELS: Final[dict[str, Callable[[str, int], Player]]] = {
    "beginner": lambda name, seed: BeginnerPlayer(name),
    "greedy": lambda name, seed: GreedyPlayer(name),
    "club": lambda name, seed: ClubPlayer(name, seed),
    "expert": lambda name, seed: ExpertPlayer(name, seed),
}


register(
    {
        "player.unknown_level": "unknown player level %(level)r: choose one of %(levels)s",
    }
)


def make_player(level: str, name: str | None = None, seed: int = 0) -> Player:
    """A computer player of this level; the error lists the levels there are."""
    try:
        factory = LEVELS[level]
    except KeyError:
        raise Refused("player.unknown_level", level=level, levels=", ".join(LEVELS)) from None
    return factory(name or level, seed)
