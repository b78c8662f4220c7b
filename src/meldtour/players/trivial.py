"""The trivial computer player: lays the most valuable new melds it finds on its own
rack (when they make a legal play), and otherwise draws.

It never rearranges the board. With the pool empty it passes — except under the
``continue`` rule, where a player must play if they can: then it asks its play finder
for any legal play, and passes only when there is none.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from meldtour.core.moves import Draw, Move, Pass, Play
from meldtour.core.search import PlayFinder, best_rack_melds, default_finder
from meldtour.core.views import PlayerView


@dataclass
class TrivialPlayer:
    name: str = "trivial"
    finder: PlayFinder = field(default=default_finder)

    def decide(self, view: PlayerView) -> Move:
        assert view.seat is not None
        rules = view.rules
        seat = view.seat
        value, melds = best_rack_melds(view.rack, rules.wrap_runs)
        melded = view.melded[seat]
        if melds and (melded or value >= rules.initial_meld):
            return Play(seat, (*view.board, *melds))
        if view.pool_left:
            return Draw(seat)
        if rules.pool_out != "continue":
            return Pass(seat)
        play = self.finder(view.board, view.rack, melded, rules.wrap_runs, rules.initial_meld)
        return Play(seat, play) if play is not None else Pass(seat)
