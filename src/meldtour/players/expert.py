"""The ``expert`` player: it plays like ``greedy`` when the race is close, and
otherwise keeps a reserve of tiles it can still put down later (jokers first), so
that it lays a tile instead of drawing on the turns when nothing new fits."""

from __future__ import annotations

from dataclasses import dataclass

from meldtour.core.melds import Meld
from meldtour.core.moves import Move, Play
from meldtour.core.tiles import JOKER_CODE, Tile
from meldtour.core.views import PlayerView
from meldtour.solver import Solution, solve

from .base import no_play, seat_of


def _minus(rack: tuple[Tile, ...], tiles: list[Tile]) -> tuple[Tile, ...]:
    out = list(rack)
    for t in tiles:
        out.remove(t)
    return tuple(out)


@dataclass
class ExpertPlayer:
    name: str = "expert"
    seed: int = 0
    #: Tiles held back while the race is safe.
    reserve: int = 2
    #: An opponent with this many tiles or fewer makes the race close.
    danger: int = 5
    #: Below this many pool tiles the race is close.
    low_pool: int = 8
    #: Before the initial meld: lay only the melds needed to reach the threshold.
    small_meld: bool = True
    #: Most solver calls spent on holding back (keeps the decision time bounded).
    budget: int = 8

    def decide(self, view: PlayerView) -> Move:
        seat = seat_of(view)
        rules = view.rules
        melded = view.melded[seat]
        full = solve(view.board, view.rack, rules, melded)
        if not full.placed:
            return no_play(view)
        if full.placed == len(view.rack) or not self._safe(view, seat):
            return Play(seat, full.board)
        if not melded:
            return Play(seat, self._small_meld(view, full) if self.small_meld else full.board)
        return Play(seat, self._hold_back(view, full).board)

    def _safe(self, view: PlayerView, seat: int) -> bool:
        others = [n for s, n in enumerate(view.rack_sizes) if s != seat]
        return view.pool_left > self.low_pool and min(others) > self.danger

    def _small_meld(self, view: PlayerView, full: Solution) -> tuple[Meld, ...]:
        """The fewest new melds (fewest tiles, then most value) still worth the threshold."""
        rules = view.rules
        fresh = list(full.board[len(view.board):])
        best: tuple[Meld, ...] = tuple(fresh)
        best_key = (sum(len(m) for m in fresh), 0)
        n = len(fresh)
        if n > 8:
            return full.board
        for mask in range(1, 1 << n):
            chosen = [fresh[i] for i in range(n) if mask >> i & 1]
            value = sum(m.value(rules.wrap_runs) for m in chosen)
            if value < rules.initial_meld:
                continue
            key = (sum(len(m) for m in chosen), -value)
            if key < best_key:
                best, best_key = tuple(chosen), key
        return (*view.board, *best)

    def _hold_back(self, view: PlayerView, full: Solution) -> Solution:
        """The full play less up to ``reserve`` tiles that can still go down next turn."""
        rules = view.rules
        kept: list[Tile] = []
        best = full
        order = sorted(set(full.tiles), key=lambda t: (t != JOKER_CODE, t % 13, t))
        calls = 0
        for t in order:
            if len(kept) >= self.reserve or best.placed <= 1 or calls >= self.budget:
                break
            trial = solve(view.board, _minus(view.rack, [*kept, t]), rules, True)
            calls += 1
            if trial.placed != best.placed - 1:
                continue
            after = solve(trial.board, _minus(view.rack, list(trial.tiles)), rules, True)
            calls += 1
            if after.placed >= len(kept) + 1:
                kept.append(t)
                best = trial
        return best
