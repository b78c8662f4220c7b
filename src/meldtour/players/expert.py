"""The ``expert`` player: it plays like ``greedy`` when the race is close, and
otherwise keeps a reserve of tiles it can still put down later (jokers first), so
that it lays a tile instead of drawing on the turns when nothing new fits."""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass

from meldtour.core.melds import Meld
from meldtour.core.moves import Draw, Move, Play
from meldtour.core.tiles import JOKER_CODE, Tile, full_set
from meldtour.core.views import PlayerView
from meldtour.solver import Solution, solve

from .base import no_play, seat_of


def _minus(rack: tuple[Tile, ...], tiles: list[Tile]) -> tuple[Tile, ...]:
    out = list(rack)
    for t in tiles:
        out.remove(t)
    return tuple(out)


def _unseen(view: PlayerView) -> list[Tile]:
    """The tiles this player cannot see: in the pool or on the other racks."""
    seen = Counter(t for m in view.board for t in m.tiles)
    seen.update(view.rack)
    return sorted((Counter(full_set()) - seen).elements())


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
    #: Keep rack jokers off the table (where any player can use them) while safe.
    keep_jokers: bool = True
    #: In a close race, weigh how likely each option lets an opponent go out.
    deny: bool = True
    #: Sampled racks per opponent.
    samples: int = 8
    #: How much one tile more on the rack lowers the value of a position (per tile).
    tile_weight: float = 0.15
    #: Only opponents with this many tiles or fewer are sampled.
    close: int = 4

    def decide(self, view: PlayerView) -> Move:
        seat = seat_of(view)
        rules = view.rules
        melded = view.melded[seat]
        full = solve(view.board, view.rack, rules, melded)
        if not full.placed:
            return no_play(view)
        if full.placed == len(view.rack):
            return Play(seat, full.board)
        if not self._safe(view, seat):
            if self.deny and melded and view.pool_left:
                return self._deny(view, seat, full)
            return Play(seat, full.board)
        rack = view.rack
        if self.keep_jokers and JOKER_CODE in full.tiles:
            plain = tuple(t for t in rack if t != JOKER_CODE)
            without = solve(view.board, plain, rules, melded)
            if without.placed:
                full, rack = without, plain
        if not melded:
            return Play(seat, self._small_meld(view, full) if self.small_meld else full.board)
        return Play(seat, self._hold_back(view, full, rack).board)

    def _deny(self, view: PlayerView, seat: int, full: Solution) -> Move:
        """Play everything, or draw: whichever leaves the better race.

        For each opponent close to going out, racks of its size are drawn at random from
        the tiles this player has not seen; an option's risk is the chance that some
        opponent could go out on the board it leaves. The value of an option is
        ``(1 - risk) * exp(-tile_weight * tiles left on the rack)``.
        """
        rules = view.rules
        unseen = _unseen(view)
        rng = random.Random(f"expert/{self.seed}/{view.turn_no}")
        racks: list[list[tuple[Tile, ...]]] = []
        for s, n in enumerate(view.rack_sizes):
            if s == seat or n > self.close or n > len(unseen):
                continue
            racks.append([tuple(rng.sample(unseen, n)) for _ in range(self.samples)])
        if not racks:
            return Play(seat, full.board)

        def risk(board: tuple[Meld, ...]) -> float:
            safe = 1.0
            for sampled in racks:
                outs = sum(1 for r in sampled
                           if solve(board, r, rules, True).placed == len(r))
                safe *= 1 - outs / len(sampled)
            return 1 - safe

        left_play = len(view.rack) - full.placed
        play_value = (1 - risk(full.board)) * math.exp(-self.tile_weight * left_play)
        draw_value = (1 - risk(view.board)) * math.exp(-self.tile_weight * (len(view.rack) + 1))
        if draw_value > play_value:
            return Draw(seat)
        return Play(seat, full.board)

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

    def _hold_back(self, view: PlayerView, full: Solution, rack: tuple[Tile, ...]) -> Solution:
        """The full play less up to ``reserve`` tiles that can still go down next turn."""
        rules = view.rules
        kept: list[Tile] = []
        best = full
        order = sorted(set(full.tiles), key=lambda t: (t != JOKER_CODE, t % 13, t))
        calls = 0
        for t in order:
            if len(kept) >= self.reserve or best.placed <= 1 or calls >= self.budget:
                break
            trial = solve(view.board, _minus(rack, [*kept, t]), rules, True)
            calls += 1
            if trial.placed != best.placed - 1:
                continue
            after = solve(trial.board, _minus(rack, list(trial.tiles)), rules, True)
            calls += 1
            if after.placed >= len(kept) + 1:
                kept.append(t)
                best = trial
        return best
