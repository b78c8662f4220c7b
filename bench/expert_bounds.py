"""What seeing more would be worth (issue 19): players that are given what no player
sees, against three ``greedy`` players on the mirrored deals of
``bench/expert_variants.py`` (krc-2015). Diagnostics for BENCHMARKS.md, "Players", "The
expert that holds"; none is a player of the product.

    .venv/bin/python bench/expert_bounds.py [--games 200] [--seed 1] [--futures 8]
        [--only oracle,racks,cautious-racks]

* ``oracle``: sees every rack and the pool's order; at each turn it tries its
  candidates (the best play, the best play keeping back each tile in turn, drawing)
  and plays the one whose future, played out exactly (everyone ``greedy`` after it),
  it wins — the most any look-ahead could give.
* ``racks``: sees the opponents' racks but not the pool: each candidate is judged on
  ``--futures`` shuffles of the pool, played out by ``greedy``.
* ``cautious-racks``: the former expert (``players/cautious.py``) deciding with the
  close opponents' true racks instead of sampled ones: it draws exactly when its play
  would let one of them go out.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from meldtour.core.game import apply, new_game
from meldtour.core.melds import Meld
from meldtour.core.moves import Draw, Move, Play
from meldtour.core.rules import find_rules
from meldtour.core.state import GameState
from meldtour.core.tiles import Tile
from meldtour.core.views import PlayerView, player_view
from meldtour.players.cautious import CautiousPlayer, _goes_out
from meldtour.players.greedy import GreedyPlayer
from meldtour.players.lab import deal_of, wilson
from meldtour.solver import Solution, finder, solve

RULES = find_rules("krc-2015")
GREEDY = GreedyPlayer()


def candidates(view: PlayerView) -> list[Solution | None]:
    """The best play, the best plays keeping one of its tiles back (at most 6 in all),
    and drawing (None)."""
    seat = view.seat
    assert seat is not None
    best = solve(view.board, view.rack, RULES, view.melded[seat])
    out: list[Solution | None] = [best]
    seen = {tuple(sorted(best.tiles))}
    for t in sorted(set(best.tiles), key=lambda t: (t.is_joker, -t.number)):
        rest = list(view.rack)
        rest.remove(t)
        s = solve(view.board, rest, RULES, view.melded[seat])
        key = tuple(sorted(s.tiles))
        if s.placed and key not in seen and len(out) < 6:
            seen.add(key)
            out.append(s)
    return [*out, None]


def greedy_future(
    board: tuple[Meld, ...],
    racks: list[tuple[Tile, ...]],
    melded: list[bool],
    pool: list[Tile],
    order: tuple[int, ...],
    pos: int,
    me: int,
) -> bool:
    """Everyone ``greedy`` from turn position ``pos`` (the pool drawn from its end):
    whether ``me`` is first to go out (capped, or stuck: the lowest rack total)."""
    hands = [list(r) for r in racks]
    stuck = 0
    for _ in range(400):
        s = order[pos % len(order)]
        pos += 1
        found = solve(board, hands[s], RULES, melded[s])
        if found.placed:
            board, hands[s], melded[s], stuck = found.board, list(found.rack_left), True, 0
            if not hands[s]:
                return s == me
        elif pool:
            hands[s].append(pool.pop())
        else:
            stuck += 1
            if stuck >= len(order):
                break
    totals = [sum(30 if t.is_joker else t.number for t in h) for h in hands]
    return min(range(len(hands)), key=lambda k: (totals[k], k)) == me


def judged(state: GameState, me: int, pools: list[list[Tile]]) -> Move:
    """The candidate that wins the most of the given futures (the pool in each order)."""
    view = player_view(state, me)
    cands = candidates(view)
    if cands[0] is None or not cands[0].placed:
        return Draw(me) if view.pool_left else GREEDY.decide(view)
    if cands[0].placed == len(view.rack) or not view.pool_left:
        return Play(me, cands[0].board)
    pos = state.order.index(me) + 1
    wins = [0] * len(cands)
    for pool in pools:
        for c, cand in enumerate(cands):
            racks, melded, drawn = list(state.racks), list(state.melded), list(pool)
            if cand is None:
                racks[me] = (*view.rack, drawn.pop())
                board = view.board
            else:
                racks[me], melded[me], board = cand.rack_left, True, cand.board
            wins[c] += greedy_future(board, racks, melded, drawn, state.order, pos, me)
    best = max(range(len(cands)), key=lambda c: (wins[c], c == 0))
    chosen = cands[best]
    return Draw(me) if chosen is None else Play(me, chosen.board)


@dataclass
class CautiousWithRacks(CautiousPlayer):
    state: GameState | None = None

    def draw_instead(
        self, view: PlayerView, full: Solution, close: list[int], sharp: bool = False
    ) -> bool:
        assert self.state is not None
        return any(
            _goes_out(full.board, self.state.racks[s], view)
            for s, n in enumerate(view.rack_sizes)
            if s != view.seat and n <= self.close
        )


def play(kind: str, index: int, seed: int, futures: int) -> bool:
    game_seed, rotation = deal_of(index, seed, 4, True)
    me = rotation % 4
    rng = random.Random(game_seed)
    mine = CautiousWithRacks("cautious", game_seed)
    state = new_game(RULES, ["a", "b", "c", "d"], game_seed).state
    while state.end is None:
        seat = state.current
        if seat != me:
            move = GREEDY.decide(player_view(state, seat))
        elif kind == "oracle":
            move = judged(state, me, [list(reversed(state.pool))])
        elif kind == "racks":
            pools = []
            for _ in range(futures):
                pool = list(state.pool)
                rng.shuffle(pool)
                pools.append(pool)
            move = judged(state, me, pools)
        else:
            mine.state = state
            move = mine.decide(player_view(state, me))
        state = apply(state, move, finder=finder).state
    return state.winner == me


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--futures", type=int, default=8)
    ap.add_argument("--only", default="oracle,racks,cautious-racks")
    args = ap.parse_args()
    print("| player | games | wins | win rate | 95% interval | wall s |")
    print("|---|---:|---:|---:|---|---:|")
    for kind in args.only.split(","):
        started = time.perf_counter()
        wins = sum(play(kind, i, args.seed, args.futures) for i in range(args.games))
        low, high = wilson(wins, args.games)
        print(
            f"| `{kind}` | {args.games} | {wins} | {wins / args.games:.1%} | "
            f"{low:.1%} – {high:.1%} | {time.perf_counter() - started:.0f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
