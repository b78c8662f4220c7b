"""Variants of the expert screened against three greedy players (issue 19): the
figures of BENCHMARKS.md, "Players", "What does not make the expert stronger".

    .venv/bin/python bench/expert_variants.py [--games 400] [--seed 1]
        [--variants expert,cautious,hold,close8,close4,big8,big10,rest8,rollout12,
                    rollout24,near1,...,near99,hold4,...,hold20,hold20small]

Every variant plays the same mirrored deals (krc-2015; game g deals from seed
S + g // 4 and seats the variant at each seat in turn) in one process, against three
``greedy`` players. Prints one Markdown row per variant: wins, the Wilson 95 %
interval, mean points (game points plus penalties) and the p99 of its decision time
(CPU of this process, the solver compiled when built).

The variants (none is a level of the product):

* ``expert``: the shipped expert (``players/expert.py``: the smallest initial meld,
  then it holds its rack until it can go out in one turn).
* ``cautious``: the expert before 2026-12-01 (``players/cautious.py``); the earlier
  tables' ``expert`` row. The variants below up to ``rollout24`` are variants of it.
* ``hold``: with ``hold_players=4, hold_close=8``: keeps the melds its rack makes on its
  own while every opponent holds more than 8 tiles.
* ``close8`` / ``close4``: an opponent is "close" at 8 / 4 tiles (today: 6).
* ``big8`` / ``big10``: never draws instead of a play of at least 8 / 10 tiles.
* ``rest8``: never draws instead of a play of 4 tiles or more that still leaves 8 or
  more on its rack (a player that far from going out cannot win soon anyway).
* ``rollout12`` / ``rollout24``: flat Monte Carlo on the expert's choice between its
  best play and drawing, whenever an opponent is close: 12 / 24 sampled futures
  (opponents' racks from the unseen tiles, tiles that fit no meld's end 4× likelier),
  each played out to the end by ``greedy`` for every seat, the same futures for both
  options; the other option is taken only when it wins in 1 / 2 more futures.
* ``near1`` … ``near99``: ``cautious``, counting a sampled close opponent as fed when
  it could lay all but 1 … 99 of its tiles after the play (99: it always draws once an
  opponent is close, unless it goes out).
* ``hold4`` … ``hold20``: once an opponent holds at most 4 … 20 tiles (20: always),
  draws unless it can go out; otherwise ``greedy`` (the initial meld with the most
  tiles). ``hold20small``: the same with the smallest initial meld, that is
  ``expert``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from meldtour.core.melds import Meld
from meldtour.core.moves import Draw, Move, Play
from meldtour.core.rules import RuleSet, find_rules
from meldtour.core.tiles import Tile
from meldtour.core.views import PlayerView
from meldtour.players import Player
from meldtour.players.base import no_play, seat_of
from meldtour.players.cautious import CautiousPlayer, _attaches, unseen_tiles
from meldtour.players.expert import ExpertPlayer
from meldtour.players.greedy import GreedyPlayer
from meldtour.players.lab import deal_of, wilson
from meldtour.players.runner import play_timed
from meldtour.solver import Solution, solve


@dataclass
class BigPlay(CautiousPlayer):
    big: int = 8

    def draw_instead(
        self, view: PlayerView, full: Solution, close: list[int], sharp: bool = False
    ) -> bool:
        return full.placed < self.big and super().draw_instead(view, full, close, sharp)


@dataclass
class FarFromOut(CautiousPlayer):
    rest: int = 8

    def draw_instead(
        self, view: PlayerView, full: Solution, close: list[int], sharp: bool = False
    ) -> bool:
        if len(view.rack) - full.placed >= self.rest and full.placed >= 4:
            return False
        return super().draw_instead(view, full, close, sharp)


def playout(
    rules: RuleSet,
    board: tuple[Meld, ...],
    racks: list[tuple[Tile, ...]],
    melded: list[bool],
    pool: list[Tile],
    order: Sequence[int],
    pos: int,
    me: int,
    cap: int = 120,
) -> int:
    """Greedy play for every seat from turn position ``pos``; the winner (or, capped or
    stuck, the seat with the fewest tiles)."""
    n = len(racks)
    idle = 0
    for _ in range(cap):
        s = order[pos]
        sol = solve(board, racks[s], rules, melded[s])
        if sol.placed:
            board, racks[s], melded[s], idle = sol.board, sol.rack_left, True, 0
            if not racks[s]:
                return s
        elif pool:
            racks[s] = (*racks[s], pool.pop())
            idle = 0
        else:
            idle += 1
            if idle >= n:
                break
        pos = (pos + 1) % n
    return min(range(n), key=lambda k: (len(racks[k]), k != me))


@dataclass
class Rollout(CautiousPlayer):
    futures: int = 12
    margin: int = 1

    def decide(self, view: PlayerView) -> Move:
        seat = seat_of(view)
        full = solve(view.board, view.rack, view.rules, view.melded[seat])
        if not full.placed:
            return no_play(view)
        if full.placed == len(view.rack) or not view.melded[seat] or not view.pool_left:
            return Play(seat, full.board)
        close = [n for s, n in enumerate(view.rack_sizes) if s != seat and n <= self.close]
        if not close:
            return Play(seat, full.board)
        draws = self.draw_instead(view, full, close)
        play_wins, draw_wins = self.compare(view, full, seat)
        if draws:
            return Play(seat, full.board) if play_wins >= draw_wins + self.margin else Draw(seat)
        return Draw(seat) if draw_wins >= play_wins + self.margin else Play(seat, full.board)

    def compare(self, view: PlayerView, full: Solution, seat: int) -> tuple[int, int]:
        n, rules, order = len(view.players), view.rules, view.order
        unseen = unseen_tiles(view)
        weight = {t: 1.0 if _attaches(view.board, t, rules.wrap_runs) else 4.0 for t in set(unseen)}
        rng = random.Random(f"rollout/{self.seed}/{view.turn_no}")
        nxt = (order.index(seat) + 1) % n
        play_wins = draw_wins = 0
        for _ in range(self.futures):
            deck = [
                t
                for _, t in sorted(
                    ((rng.random() ** (1 / weight[t]), t) for t in unseen), reverse=True
                )
            ]
            racks: list[tuple[Tile, ...]] = []
            i = 0
            for s in range(n):
                k = 0 if s == seat else view.rack_sizes[s]
                racks.append(tuple(deck[i : i + k]))
                i += k
            pool = deck[i:]
            rng.shuffle(pool)
            after = list(racks)
            after[seat] = full.rack_left
            melded = list(view.melded)
            play_wins += (
                playout(
                    rules,
                    full.board,
                    after,
                    [*melded[:seat], True, *melded[seat + 1 :]],
                    list(pool),
                    order,
                    nxt,
                    seat,
                )
                == seat
            )
            drawn = list(pool)
            racks[seat] = (*view.rack, drawn.pop())
            draw_wins += playout(rules, view.board, racks, melded, drawn, order, nxt, seat) == seat
        return play_wins, draw_wins


@dataclass
class NearOut(CautiousPlayer):
    """The former expert, counting a sampled close opponent as fed when it could lay all
    but ``slack`` of its tiles after the play (not only all of them)."""

    slack: int = 1

    def fed(self, board: tuple[Meld, ...], rack: tuple[Tile, ...], view: PlayerView) -> bool:
        try:
            return solve(board, rack, view.rules, True).placed >= len(rack) - self.slack
        except ValueError:  # a sample holding more copies than the table leaves
            return False


@dataclass
class Holding:
    """After its initial meld, draws unless it can go out, once an opponent holds
    ``close`` tiles or fewer (else plays as ``greedy``); the initial meld the smallest
    (``smallest``, as ``expert``) or the one with the most tiles."""

    name: str = "holding"
    seed: int = 0
    close: int = 20
    smallest: bool = False

    def decide(self, view: PlayerView) -> Move:
        seat = seat_of(view)
        move = ExpertPlayer(self.name, self.seed).decide(view)
        if not view.melded[seat] and not self.smallest:
            return GreedyPlayer().decide(view)
        others = [n for s, n in enumerate(view.rack_sizes) if s != seat]
        if isinstance(move, Draw) and min(others) > self.close:
            return GreedyPlayer().decide(view)
        return move


def near_out(slack: int) -> Callable[[int], Player]:
    return lambda s: NearOut("near", s, slack=slack)


def holding(close: int, smallest: bool) -> Callable[[int], Player]:
    return lambda s: Holding("holding", s, close=close, smallest=smallest)


VARIANTS: dict[str, Callable[[int], Player]] = {
    "expert": lambda s: ExpertPlayer("expert", s),
    "cautious": lambda s: CautiousPlayer("cautious", s),
    "hold": lambda s: CautiousPlayer("expert", s, hold_players=4, hold_close=8),
    "close8": lambda s: CautiousPlayer("expert", s, close=8),
    "close4": lambda s: CautiousPlayer("expert", s, close=4),
    "big8": lambda s: BigPlay("expert", s, big=8),
    "big10": lambda s: BigPlay("expert", s, big=10),
    "rest8": lambda s: FarFromOut("expert", s, rest=8),
    "rollout12": lambda s: Rollout("expert", s, futures=12, margin=1),
    "rollout24": lambda s: Rollout("expert", s, futures=24, margin=2),
    **{f"near{k}": near_out(k) for k in (1, 2, 3, 4, 6, 99)},
    **{f"hold{c}": holding(c, smallest=False) for c in (4, 8, 10, 12, 14, 20)},
    "hold20small": holding(20, smallest=True),
}


def screen(make: Callable[[int], Player], games: int, seed: int) -> str:
    rules = find_rules("krc-2015")
    wins = points = 0
    times: list[float] = []
    for i in range(games):
        game_seed, rotation = deal_of(i, seed, 4, True)
        seats = tuple((e + rotation) % 4 for e in range(4))
        me = seats[0]
        players: list[Player] = [
            make(game_seed * 8 + s) if s == me else GreedyPlayer() for s in range(4)
        ]
        state, timed = play_timed(rules, players, game_seed)
        assert state.scores is not None
        wins += state.winner == me
        points += state.scores[me] - state.penalties[me]
        times += [t for s, t in timed if s == me]
    times.sort()
    low, high = wilson(wins, games)
    return (
        f"| {games} | {wins} | {wins / games:.1%} | {low:.1%} – {high:.1%} | "
        f"{points / games:+.1f} | {1000 * times[int(0.99 * len(times))]:.0f} |"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--variants", default=",".join(VARIANTS))
    args = ap.parse_args()
    print("| variant | games | wins | win rate | 95% interval | mean points | p99 ms | wall s |")
    print("|---|---:|---:|---:|---|---:|---:|---:|")
    for name in args.variants.split(","):
        started = time.perf_counter()
        row = screen(VARIANTS[name], args.games, args.seed)
        print(f"| `{name}` {row} {time.perf_counter() - started:.0f} |", flush=True)


if __name__ == "__main__":
    main()
