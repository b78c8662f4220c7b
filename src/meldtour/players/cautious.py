"""The expert until 2026-12-01, kept as the baseline the new expert is measured against
(``tests/players/test_strength.py``, ``bench/players.py``); not a level of the product.

It plays like ``greedy`` until an opponent is close to going
out; then, before putting tiles down, it estimates from the tiles it has not seen how
likely its play is to let that opponent go out, and draws instead when that risk
outweighs the tiles it would lay (whoever empties their rack first wins, and near the
end the previous player's turn often feeds the winner).

It weighs two options, laying its best play or drawing (which leaves the table as it
is):

* *Risk*: an opponent with few tiles holds, most likely, tiles that do not fit the
  current table (it would have played them). The expert lists the tiles it cannot see
  (pool and other racks: the full set less the table and its own rack), keeps those
  that fit at no end of a meld on the current table, and samples each close
  opponent's rack from them (determinisation). The risk of an option is the chance
  that some sampled opponent could go out on the table the option leaves.
* *Value*: ``(1 - risk) * exp(-tile_weight * tiles left on its rack)``.

With ``hold_players`` set (off by default) it also holds back the melds its rack makes
by itself (:meth:`CautiousPlayer.held_back`) and samples opponents' racks more sharply
(:func:`_fits_alone`). How its parameters were chosen, what was tried and left out,
and its strength and decision times: ``BENCHMARKS.md``, "Players".

It sees only its :class:`~meldtour.core.views.PlayerView`; its samples come from a
random generator seeded by its own seed and the turn number, so it is deterministic.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass

from meldtour.core.melds import Meld, valid_tiles
from meldtour.core.moves import Draw, Move, Play
from meldtour.core.tiles import Tile, full_set
from meldtour.core.views import PlayerView
from meldtour.solver import Solution, goes_out, solve

from .base import no_play, seat_of


def unseen_tiles(view: PlayerView) -> list[Tile]:
    """The tiles the view's owner cannot see: the pool and the other racks."""
    seen = Counter(t for m in view.board for t in m.tiles)
    seen.update(view.rack)
    return sorted((Counter(full_set()) - seen).elements())


@dataclass
class CautiousPlayer:
    name: str = "cautious"
    seed: int = 0
    #: Opponents with this many tiles or fewer are close to going out.
    close: int = 6
    #: Racks sampled per close opponent.
    samples: int = 8
    #: How much each tile left on the rack lowers an option's value.
    tile_weight: float = 0.02
    #: Most solver calls spent weighing a draw (keeps the decision time bounded).
    budget: int = 24
    #: At tables of at most this many players (0: none, the default — it measured no
    #: gain): keep the melds the rack makes on its own while every opponent holds more
    #: than ``hold_close`` tiles, laying only what needs the table; and sample
    #: opponents' racks from the tiles that fit the table by no single-tile move
    #: (else: by no move at a meld's end).
    hold_players: int = 0
    hold_close: int = 0

    def decide(self, view: PlayerView) -> Move:
        seat = seat_of(view)
        rules = view.rules
        melded = view.melded[seat]
        full = solve(view.board, view.rack, rules, melded)
        if not full.placed:
            return no_play(view)
        if full.placed == len(view.rack) or not melded or not view.pool_left:
            return Play(seat, full.board)
        others = [n for s, n in enumerate(view.rack_sizes) if s != seat]
        small = len(view.players) <= self.hold_players
        part = self.held_back(view) if small else None
        chosen = full
        if part is not None and min(others) > self.hold_close:
            chosen = part
        close = [n for n in others if n <= self.close]
        if close and self.draw_instead(view, chosen, close, small):
            if (
                part is not None
                and chosen is not part
                and not self.draw_instead(view, part, close, small)
            ):
                return Play(seat, part.board)
            return Draw(seat)
        return Play(seat, chosen.board)

    def held_back(self, view: PlayerView) -> Solution | None:
        """The best play that keeps the melds the rack makes on its own (they can be
        laid any later turn), or None when there is no such play."""
        own = solve((), view.rack, view.rules, True)
        if not own.placed:
            return None
        rest = own.rack_left
        if not rest:
            return None
        part = solve(view.board, rest, view.rules, True)
        return part if part.placed else None

    def draw_instead(
        self, view: PlayerView, full: Solution, close: list[int], sharp: bool = False
    ) -> bool:
        """Whether drawing beats laying ``full``, with opponents of ``close`` sizes.

        Drawing wins when the chance that no close opponent can go out after the play
        (``safe``) is below ``exp(-tile_weight * (placed + 1))``. Samples are tried one
        by one and the answer is given as soon as the rest cannot change it; at most
        ``budget`` solver calls are spent (a count, not a clock: decisions stay
        deterministic).
        """
        rules = view.rules
        threshold = math.exp(-self.tile_weight * (full.placed + 1))
        unseen = unseen_tiles(view)
        on_table = Counter(t for m in view.board for t in m.tiles)
        rack = Counter(view.rack)
        fits = _fits_alone if sharp else _attaches
        stuck_kinds = {
            t
            for t in set(unseen)
            if on_table[t] + rack[t] < 2 and not fits(view.board, t, rules.wrap_runs)
        }
        stuck = [t for t in unseen if t in stuck_kinds]
        calls = 0
        rng = random.Random(f"expert/{self.seed}/{view.turn_no}")
        racks = [
            [
                tuple(rng.sample(stuck if len(stuck) >= n else unseen, n))
                for _ in range(self.samples)
            ]
            for n in close
            if n <= len(unseen)
        ]
        if not racks:
            return False
        outs = [0] * len(racks)
        tried = [0] * len(racks)
        for i, sampled in enumerate(racks):
            for r in sampled:
                if calls >= self.budget:
                    break
                calls += 1
                tried[i] += 1
                outs[i] += self.fed(full.board, r, view)
                # Bounds on ``safe`` whatever the untried samples give.
                high = low = 1.0
                for j, k in enumerate(outs):
                    n = len(racks[j])
                    high *= 1 - k / n
                    low *= 1 - (k + n - tried[j]) / n
                if high < threshold:
                    return True
                if low >= threshold:
                    return False
        safe = 1.0
        for k, n in zip(outs, tried, strict=True):
            safe *= 1 - k / n if n else 1.0
        return safe < threshold

    def fed(self, board: tuple[Meld, ...], rack: tuple[Tile, ...], view: PlayerView) -> bool:
        """Whether a sampled close opponent holding ``rack`` counts as fed by ``board``:
        it could go out on it."""
        return _goes_out(board, rack, view)


def _attaches(board: tuple[Meld, ...], t: Tile, wrap: bool) -> bool:
    """Whether ``t`` fits at either end of a meld on the table, as it stands."""
    return any(valid_tiles((*m.tiles, t), wrap) or valid_tiles((t, *m.tiles), wrap) for m in board)


def _fits_alone(board: tuple[Meld, ...], t: Tile, wrap: bool) -> bool:
    """Whether ``t`` goes on the table by itself: at either end of a meld (a group's
    missing colour included), or splitting a run of five or more in two."""
    for m in board:
        ts = m.tiles
        if valid_tiles((*ts, t), wrap) or valid_tiles((t, *ts), wrap):
            return True
        for i in range(2, len(ts) - 2):
            if valid_tiles((*ts[:i], t), wrap) and valid_tiles(ts[i:], wrap):
                return True
    return False


def _goes_out(board: tuple[Meld, ...], rack: tuple[Tile, ...], view: PlayerView) -> bool:
    try:
        return goes_out(board, rack, view.rules)
    except ValueError:  # a sample holding more copies than the table leaves
        return False
