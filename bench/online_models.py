"""Which rating model predicts online results better, and what the computer levels
measure at — both on the self-play lab's games (issue 29).

    PYTHONPATH=src python bench/online_models.py [--games 600] [--people 24] [--seed 1]

**Players of different strengths.** A pool of ``--people`` players, each one of the
lab's levels (``beginner``, ``greedy``, ``club``, ``expert`` and the league's
``holder``, ``starver``, ``aware``: the strengths differ and some styles beat others),
in turn. Each game seats four of them drawn at random and is a real lab game
(:func:`meldtour.players.lab.play_lab_game`, the ``krc-2015`` rules, seed = the game's
number): points = score − penalties, equal points tie.

**Predicted before it is played.** Every game's order is predicted from the ratings
after the games before it only (everyone starts as a newcomer, as an account does),
then the game updates them. From game ``--burn-in`` on:

- **pairs right**: the pairs the game's order separates, put in the right order by the
  higher rating (an equal rating counts half);
- **ρ**: Spearman's ρ between the ratings before the game and its order (the mean over
  games);
- **log-loss**: the mean −log p of each separated pair's outcome, p the model's own
  probability that one beats the other (Plackett–Luce: ``e^(μa/c) / (e^(μa/c) +
  e^(μb/c))``, c² = σa² + σb² + 2β²; Glicko-2: ``1 / (1 + e^(−g(φ)(μa − μb)))``,
  φ² = φa² + φb²). Lower is better; log 2 = 0.693 is a coin.

The models: openskill's Plackett–Luce, one ranked match a game (the site's until this
measurement:
:func:`meldtour.tournament.rating.plackett_luce`), and Glicko-2 adapted to four players
(each game one rating period of every seat, its results the pairs of the table against
the ratings before the game, :func:`meldtour.tournament.rating.glicko2`: the site's now).

**The computers measured.** ``--computer-games`` other lab games among the four
computer levels alone (a pool of 24, six of each level, four drawn at random), rated
with each *level* as one player (every seat of that level is it; a level twice at a
table keeps its better place) by the site's model, Glicko-2, game after game, twice
over the games (the second pass starting from the first's μ, φ); the figures shown on
the site's scale ``1500 + 173.7 μ``, shifted so that the four computer levels'
mean stays 1500 (the published figures' mean before the measurement).
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import statistics
import time
from collections.abc import Sequence

from meldtour.core.rules import find_rules
from meldtour.players.lab import play_lab_game
from meldtour.players.league import with_league
from meldtour.tournament.rating import MODEL, glicko2, plackett_luce

LEVELS = ("beginner", "greedy", "club", "expert", "holder", "starver", "aware")
COMPUTERS = ("beginner", "greedy", "club", "expert")
RULES = find_rules("krc-2015")
G2_SCALE = 173.7178


Game = tuple[tuple[int, ...], tuple[str, ...], tuple[int, ...]]


def play(n: int, people: int, seed: int, levels_: Sequence[str] = LEVELS) -> list[Game]:
    """(the seated players, their levels, their points) of ``n`` lab games."""
    rng = random.Random(seed)
    level_of = {p: levels_[p % len(levels_)] for p in range(people)}
    out = []
    for g in range(n):
        seat = tuple(rng.sample(range(people), 4))
        levels = tuple(level_of[p] for p in seat)
        r = play_lab_game(RULES, levels, 0, seed * 100_000 + g, make=with_league)
        out.append((seat, levels, r.points))
    return out


def ranks_of(points: Sequence[int]) -> list[int]:
    order = sorted(set(points), reverse=True)
    return [order.index(x) + 1 for x in points]


def spearman(a: Sequence[float], b: Sequence[float]) -> float:
    def ranks(xs: Sequence[float]) -> list[float]:
        out = [0.0] * len(xs)
        for x in set(xs):
            at = [i for i, y in enumerate(xs) if y == x]
            below = sum(1 for y in xs if y < x)
            for i in at:
                out[i] = below + (len(at) - 1) / 2
        return out

    ra, rb = ranks(a), ranks(b)
    ma, mb = statistics.fmean(ra), statistics.fmean(rb)
    num = sum((x - ma) * (y - mb) for x, y in zip(ra, rb, strict=True))
    den = math.sqrt(sum((x - ma) ** 2 for x in ra) * sum((y - mb) ** 2 for y in rb))
    return num / den if den else 0.0


class PL:
    name = "Plackett-Luce, one match a game"

    def __init__(self) -> None:
        self.r: dict[object, tuple[float, float]] = {}

    def mu(self, p: object) -> float:
        return self.r.get(p, (MODEL.mu, MODEL.sigma))[0]

    def p_beats(self, a: object, b: object) -> float:
        (ma, sa), (mb, sb) = (self.r.get(x, (MODEL.mu, MODEL.sigma)) for x in (a, b))
        c = math.sqrt(sa * sa + sb * sb + 2 * MODEL.beta**2)
        return 1 / (1 + math.exp((mb - ma) / c))

    def update(self, seat: Sequence[object], ranks: Sequence[int]) -> None:
        before = [self.r.get(p, (MODEL.mu, MODEL.sigma)) for p in seat]
        mus, sigmas = plackett_luce([m for m, _ in before], [s for _, s in before], ranks)
        for p, m, s in zip(seat, mus, sigmas, strict=True):
            self.r[p] = (m, s)


class Glicko2:
    name = "Glicko-2, the table's pairs a period (site)"

    def __init__(self) -> None:
        self.r: dict[object, tuple[float, float, float]] = {}

    def get(self, p: object) -> tuple[float, float, float]:
        return self.r.get(p, (0.0, 350 / G2_SCALE, MODEL.volatility))

    def mu(self, p: object) -> float:
        return self.get(p)[0]

    def p_beats(self, a: object, b: object) -> float:
        (ma, fa, _), (mb, fb, _) = self.get(a), self.get(b)
        phi = math.sqrt(fa * fa + fb * fb)
        g = 1 / math.sqrt(1 + 3 * phi * phi / math.pi**2)
        return 1 / (1 + math.exp(-g * (ma - mb)))

    def update(self, seat: Sequence[object], ranks: Sequence[int]) -> None:
        before = {p: self.get(p) for p in seat}
        for i, p in enumerate(seat):
            res = [
                (
                    before[q][0],
                    before[q][1],
                    1.0 if ranks[i] < ranks[j] else 0.5 if ranks[i] == ranks[j] else 0.0,
                )
                for j, q in enumerate(seat)
                if j != i
            ]
            m, phi, vol = glicko2(*before[p], res, MODEL.glicko_tau)
            self.r[p] = (m, min(phi, 350 / G2_SCALE), vol)  # as the site: φ ≤ a newcomer's


def score(model: PL | Glicko2, games: Sequence[Game], burn_in: int) -> tuple[float, float, float]:
    right, pairs, loss = 0.0, 0, 0.0
    rhos = []
    for k, (seat, _levels, points) in enumerate(games):
        ranks = ranks_of(points)
        if k >= burn_in:
            mus = [model.mu(p) for p in seat]
            if len(set(mus)) > 1 and len(set(ranks)) > 1:
                rhos.append(spearman(mus, [-r for r in ranks]))
            for i, j in itertools.combinations(range(4), 2):
                if ranks[i] == ranks[j]:
                    continue
                a, b = (i, j) if ranks[i] < ranks[j] else (j, i)
                pairs += 1
                ma, mb = mus[a], mus[b]
                right += 0.5 if ma == mb else float(ma > mb)
                loss -= math.log(max(model.p_beats(seat[a], seat[b]), 1e-12))
        model.update(seat, ranks)
    return right / pairs, statistics.fmean(rhos), loss / pairs


def computers(games: Sequence[Game]) -> dict[str, float]:
    """Each level one player; two passes of Glicko-2 (the site's model) over the games."""
    model = Glicko2()
    for _ in range(2):
        for _seat, levels, points in games:
            ranks = ranks_of(points)
            # a level twice at a table: its seats are one player placed twice — keep the
            # better place and skip the duplicate (a player cannot meet itself)
            best: dict[str, int] = {}
            for lv, r in zip(levels, ranks, strict=True):
                best[lv] = min(best.get(lv, r), r)
            if len(best) > 1:
                order = sorted(best)
                model.update(order, [best[lv] for lv in order])
    mean = statistics.fmean(model.mu(lv) for lv in COMPUTERS)
    return {lv: 1500 + G2_SCALE * (model.mu(lv) - mean) for lv in model.r}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=600)
    ap.add_argument("--people", type=int, default=24)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--burn-in", type=int, default=100)
    ap.add_argument("--computer-games", type=int, default=400)
    args = ap.parse_args()
    started = time.perf_counter()
    games = play(min(args.games, 5000), args.people, args.seed)
    took = time.perf_counter() - started
    print(
        f"{len(games)} lab games (krc-2015), {args.people} players of {len(LEVELS)} levels, "
        f"{took:.0f} s; predicted from game {args.burn_in + 1} on"
    )
    print(f"{'model':40} {'pairs right':>11} {'ρ':>7} {'log-loss':>8}")
    for model in (PL(), Glicko2()):
        pairs, rho, loss = score(model, games, args.burn_in)
        print(f"{model.name:40} {pairs:11.4f} {rho:7.4f} {loss:8.4f}")
    print(
        "computer levels measured (each level one player, Glicko-2, "
        "the site's scale, the four levels' mean 1500):"
    )
    started = time.perf_counter()
    among = play(min(args.computer_games, 5000), 24, args.seed + 1, COMPUTERS)
    took = time.perf_counter() - started
    print(f"  ({len(among)} lab games among the computer levels, {took:.0f} s)")
    wins = {lv: [0, 0] for lv in COMPUTERS}
    for _seat, levels, points in among:
        top = max(points)
        for lv, x in zip(levels, points, strict=True):
            wins[lv][0] += x == top
            wins[lv][1] += 1
    for lv, fig in sorted(computers(among).items(), key=lambda x: -x[1]):
        w, n = wins[lv]
        print(f"  {lv:9} {fig:6.0f}   (first or tied first in {w} of {n} seats)")


if __name__ == "__main__":
    main()
