"""Seating: who sits at which table, in which seat, seating after seating.

A :class:`Seating` is one round's tables, each a tuple of players in seat order
(seat 1 first). A stage's seatings are planned together so that the optimiser can see
every round at once:

>>> plan = plan_seatings(range(1, 17), 5, seed=1)
>>> repeats(plan)
0
>>> table_sizes(14)
(4, 4, 3, 3)

``random`` seating shuffles (seeded) and cuts into tables: what the seeds' events did
("컴퓨터 랜덤 조 편성"). ``balanced`` seating minimises repeated meetings over the stage,
keeps tagged groups (families, clubs) apart, as a hard or a soft constraint, shares the
tables of 3 out fairly and balances how often each player sits in each seat, seat 1
first. It starts from a resolvable design where one exists (the lines of an affine
geometry: 16 or 64 players at tables of 4, 9 or 27 at tables of 3) and otherwise from
a random seating, then repairs and anneals with swaps of two players of one round.
Everything is deterministic given the seed: the effort is counted in moves, never in
seconds.
"""

from __future__ import annotations

import math
import random
from array import array
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations, permutations
from typing import Final, Literal

SeatingMethod = Literal["balanced", "random"]
KnockoutSeating = Literal["random", "snake"]

#: Table sizes the engine seats: never 2 or 5 (docs/tournament.md, "4. Tables of 3").
MIN_TABLE: Final = 3
MAX_TABLE: Final = 4


class SeatingError(ValueError):
    """Players that cannot be seated as asked."""


@dataclass(frozen=True, slots=True)
class Seating:
    """One round's tables; each table lists its players in seat order.

    >>> s = Seating(((3, 1, 4, 2), (5, 6, 7)))
    >>> s.table_of(4), s.seat_of(4)
    (1, 3)
    >>> s
    Seating(((3, 1, 4, 2), (5, 6, 7)))
    """

    tables: tuple[tuple[int, ...], ...]

    def __post_init__(self) -> None:
        seen: set[int] = set()
        for number, table in enumerate(self.tables, 1):
            if not MIN_TABLE <= len(table) <= MAX_TABLE:
                raise SeatingError(f"table {number} has {len(table)} players")
            for p in table:
                if p in seen:
                    raise SeatingError(f"player {p} is seated twice")
                seen.add(p)

    def __repr__(self) -> str:
        return f"Seating({self.tables!r})"

    @property
    def players(self) -> tuple[int, ...]:
        return tuple(p for table in self.tables for p in table)

    def table_of(self, player: int) -> int:
        """The table number (from 1) of a player."""
        for number, table in enumerate(self.tables, 1):
            if player in table:
                return number
        raise KeyError(player)

    def seat_of(self, player: int) -> int:
        """The seat number (from 1) of a player at their table."""
        for table in self.tables:
            if player in table:
                return table.index(player) + 1
        raise KeyError(player)

    def to_lists(self) -> list[list[int]]:
        return [list(t) for t in self.tables]


def table_sizes(n: int, table_size: int = 4) -> tuple[int, ...]:
    """Table sizes for ``n`` players: tables of ``table_size`` and the fewest tables of
    the other size (3 or 4), larger tables first; never a table of 2 or 5.

    >>> table_sizes(64)[:2], table_sizes(7), table_sizes(9, 3), table_sizes(10, 3)
    ((4, 4), (4, 3), (3, 3, 3), (4, 3, 3))
    """
    if table_size not in (MIN_TABLE, MAX_TABLE):
        raise SeatingError(f"tables seat 3 or 4 players, not {table_size}")
    other = MIN_TABLE + MAX_TABLE - table_size
    for k in range(table_size):  # k tables of the other size
        rest = n - k * other
        if rest >= 0 and rest % table_size == 0 and n > 0:
            sizes = [table_size] * (rest // table_size) + [other] * k
            return tuple(sorted(sizes, reverse=True))
    raise SeatingError(
        f"{n} players cannot be seated at tables of 3 and 4 "
        f"(a table of 2 or 5 would be needed)"
    )


# ---------------------------------------------------------------------------
# Measures


def meetings(seatings: Iterable[Seating]) -> Counter[tuple[int, int]]:
    """How often each pair of players (smaller first) sat at one table."""
    met: Counter[tuple[int, int]] = Counter()
    for s in seatings:
        for table in s.tables:
            for a, b in combinations(sorted(table), 2):
                met[a, b] += 1
    return met


def repeats(seatings: Iterable[Seating]) -> int:
    """Meetings beyond the first, over all pairs (what ``meldtour seat`` reports)."""
    return sum(c - 1 for c in meetings(seatings).values())


def repeated_pairs(seatings: Iterable[Seating]) -> int:
    """Pairs of players who met more than once."""
    return sum(1 for c in meetings(seatings).values() if c > 1)


def group_clashes(seatings: Iterable[Seating], groups: Mapping[int, Collection[str]]) -> int:
    """Pairs of players sharing a group tag who sat at one table (per seating)."""
    n = 0
    for s in seatings:
        for table in s.tables:
            for a, b in combinations(table, 2):
                if set(groups.get(a, ())) & set(groups.get(b, ())):
                    n += 1
    return n


def seat_counts(seatings: Iterable[Seating]) -> dict[int, Counter[int]]:
    """For each player, how often they sat in each seat (1 = first)."""
    out: dict[int, Counter[int]] = {}
    for s in seatings:
        for table in s.tables:
            for seat, p in enumerate(table, 1):
                out.setdefault(p, Counter())[seat] += 1
    return out


def repeat_lower_bound(n: int, rounds: int, table_size: int = 4) -> int:
    """A lower bound on :func:`repeats` for ``rounds`` fresh seatings of ``n`` players.

    Each seating gives ``size - 1`` opponent places to each player at a table of
    ``size``; over the rounds a player's places beyond ``n - 1`` are meetings beyond the
    first. With the tables of 3 shared out evenly (24 players, 10 seatings at tables of
    4: each has 30 places for 23 others, 24 × 7 / 2 = 84).
    """
    sizes = table_sizes(n, table_size)
    places = sum(size * (size - 1) for size in sizes) * rounds  # over all players
    q, rem = divmod(places, n)  # the most even share: rem players get q + 1 places
    extra = rem * max(0, q + 1 - (n - 1)) + (n - rem) * max(0, q - (n - 1))
    return (extra + 1) // 2


# ---------------------------------------------------------------------------
# Random and knockout seating


def random_seating(players: Sequence[int], seed: int | str = 0, table_size: int = 4) -> Seating:
    """Shuffle (seeded) and cut into tables: the seeds' computer-random seating."""
    rng = random.Random(seed)
    order = list(players)
    rng.shuffle(order)
    return _cut(order, table_sizes(len(order), table_size))


def snake_seating(ranked: Sequence[int], table_size: int = 4) -> Seating:
    """Snake seeding for a knockout: seeds 1..T go to tables 1..T, seeds T+1..2T back
    from table T to 1, and so on; a table lists its players by seed.

    >>> snake_seating(range(1, 9)).tables
    ((1, 4, 5, 8), (2, 3, 6, 7))
    """
    sizes = table_sizes(len(ranked), table_size)
    tables: list[list[int]] = [[] for _ in sizes]
    order = list(ranked)
    i = 0
    lap = 0
    while i < len(order):
        rng_tables = range(len(sizes)) if lap % 2 == 0 else range(len(sizes) - 1, -1, -1)
        for t in rng_tables:
            if i < len(order) and len(tables[t]) < sizes[t]:
                tables[t].append(order[i])
                i += 1
        lap += 1
    return Seating(tuple(tuple(t) for t in tables))


def _cut(order: Sequence[int], sizes: Sequence[int]) -> Seating:
    tables = []
    i = 0
    for size in sizes:
        tables.append(tuple(order[i : i + size]))
        i += size
    return Seating(tuple(tables))


# ---------------------------------------------------------------------------
# Balanced seating


@dataclass(frozen=True, slots=True)
class SeatingWeights:
    """How the balanced optimiser weighs its aims against one another.

    A meeting counted ``c`` times costs ``c(c - 1) / 2`` (0, 0, 1, 3, ...), so the
    optimiser spreads meetings out. A soft group clash costs ``soft_group``; a hard one
    is refused. Sitting at a table of 3 ``k`` times beyond one's fair share (rounded
    up) costs ``small_table * k²``.
    """

    soft_group: int = 4
    hard_group: int = 10_000
    small_table: int = 2


def plan_seatings(
    players: Iterable[int],
    rounds: int,
    *,
    method: SeatingMethod = "balanced",
    table_size: int = 4,
    seed: int | str = 0,
    history: Sequence[Seating] = (),
    groups: Mapping[int, Collection[str]] | None = None,
    groups_hard: bool = True,
    effort: float = 1.0,
    weights: SeatingWeights = SeatingWeights(),
) -> tuple[Seating, ...]:
    """Seat ``players`` for ``rounds`` seatings.

    ``history`` holds the stage's seatings already played: their meetings count, but
    they are not changed (this is how a stage is re-planned after a drop or a late
    entry). ``groups`` maps a player to the tags that must be kept apart (two players
    sharing a tag should not meet); with ``groups_hard`` a clash is an error when the
    optimiser cannot avoid it. ``effort`` scales the number of improving moves tried.
    """
    people = list(dict.fromkeys(players))
    if rounds < 0:
        raise SeatingError("the number of seatings cannot be negative")
    sizes = table_sizes(len(people), table_size)
    if rounds == 0:
        return ()
    rng = random.Random(seed)
    if method == "random":
        out = []
        for _ in range(rounds):
            order = people[:]
            rng.shuffle(order)
            out.append(_cut(order, sizes))
        return tuple(out)
    if method != "balanced":
        raise SeatingError(f"unknown seating method {method!r}: balanced or random")
    tags = {p: frozenset(groups.get(p, ())) for p in people} if groups else {}
    if groups_hard and tags:
        per_tag = Counter(t for p in people for t in tags[p])
        too_big = [(t, c) for t, c in per_tag.items() if c > len(sizes)]
        if too_big:
            t, c = min(too_big)
            raise SeatingError(
                f"group {t!r} has {c} players but there are only {len(sizes)} tables: "
                f"they cannot all sit apart (make the constraint soft)"
            )
    search = _Search(people, sizes, rounds, history, tags, groups_hard, weights, rng)
    search.run(effort)
    plan = search.result()
    if groups_hard and tags and search.group_clashes():
        raise SeatingError(
            "could not keep every group apart in every seating; make the constraint soft"
        )
    return plan


class _Search:
    """The optimiser's working state: mutable, local to one :func:`plan_seatings` call."""

    def __init__(
        self,
        people: list[int],
        sizes: tuple[int, ...],
        rounds: int,
        history: Sequence[Seating],
        tags: Mapping[int, frozenset[str]],
        hard: bool,
        weights: SeatingWeights,
        rng: random.Random,
    ) -> None:
        self.people = people
        self.n = n = len(people)
        self.sizes = sizes
        self.rounds = rounds
        self.rng = rng
        index = {p: i for i, p in enumerate(people)}
        self.index = index
        self.met: list[array[int]] = [array("H", bytes(2 * n)) for _ in range(n)]
        self.small = [0] * n
        self.seat_hist = [[0] * MAX_TABLE for _ in range(n)]
        for s in history:
            for table in s.tables:
                here = [index[p] for p in table if p in index]
                for seat, p in enumerate(table):
                    if p in index:
                        self.seat_hist[index[p]][seat] += 1
                        if len(table) == MIN_TABLE and len(set(sizes)) > 1:
                            self.small[index[p]] += 1
                for i, j in combinations(here, 2):
                    self.met[i][j] += 1
                    self.met[j][i] += 1
        self.mates: list[frozenset[int]] | None = None
        if tags:
            by_tag: dict[str, set[int]] = {}
            for p, ts in tags.items():
                for t in ts:
                    by_tag.setdefault(t, set()).add(index[p])
            self.mates = [
                frozenset(j for t in tags[people[i]] for j in by_tag[t] if j != i)
                for i in range(n)
            ]
        self.gw = weights.hard_group if hard else weights.soft_group
        self.sw = weights.small_table if len(set(sizes)) > 1 else 0
        # the fair share of small tables, rounded up: only seats beyond it cost
        small_seats = sum(size for size in sizes if size == MIN_TABLE) if self.sw else 0
        self.small_share = -(-(sum(self.small) + small_seats * rounds) // n)
        self.tables: list[list[list[int]]] = []
        self.where: list[list[int]] = []
        self._initial(history)

    # -- construction -------------------------------------------------------

    def _initial(self, history: Sequence[Seating]) -> None:
        design = None if history else _design(self.n, self.sizes, self.rounds, self.rng)
        for r in range(self.rounds):
            if design is not None:
                order = design[r]
            else:
                order = list(range(self.n))
                self.rng.shuffle(order)
            tables: list[list[int]] = []
            i = 0
            for size in self.sizes:
                tables.append(order[i : i + size])
                i += size
            self._add_round(tables)

    def _add_round(self, tables: list[list[int]]) -> None:
        where = [0] * self.n
        for t, table in enumerate(tables):
            for i in table:
                where[i] = t
            for i, j in combinations(table, 2):
                self.met[i][j] += 1
                self.met[j][i] += 1
            if self.sw and len(table) == MIN_TABLE:
                for i in table:
                    self.small[i] += 1
        self.tables.append(tables)
        self.where.append(where)

    # -- costs --------------------------------------------------------------

    def table_cost(self, table: list[int]) -> int:
        met = self.met
        cost = 0
        for i, j in combinations(table, 2):
            c = met[i][j]
            cost += c - 1  # the derivative of c(c-1)/2 at this table: > 0 means a repeat
            if self.mates is not None and j in self.mates[i]:
                cost += self.gw
        return cost

    def swap_delta(self, r: int, a: int, b: int) -> int:
        where = self.where[r]
        ta = self.tables[r][where[a]]
        tb = self.tables[r][where[b]]
        ma = self.met[a]
        mb = self.met[b]
        d = 0
        for x in ta:
            if x != a:
                d += mb[x] - ma[x] + 1
        for y in tb:
            if y != b:
                d += ma[y] - mb[y] + 1
        mates = self.mates
        if mates is not None:
            g = 0
            ga = mates[a]
            gb = mates[b]
            for x in ta:
                if x != a:
                    g += (x in gb) - (x in ga)
            for y in tb:
                if y != b:
                    g += (y in ga) - (y in gb)
            d += self.gw * g
        if self.sw and len(ta) != len(tb):
            sa = self.small[a]
            sb = self.small[b]
            if len(ta) != MIN_TABLE:  # b leaves a small table, a joins it
                sa, sb = sb, sa
            hi = self.small_share
            # a leaves a small table (sa → sa − 1), b joins one (sb → sb + 1)
            d += self.sw * (
                max(0, sa - 1 - hi) ** 2 - max(0, sa - hi) ** 2
                + max(0, sb + 1 - hi) ** 2 - max(0, sb - hi) ** 2
            )
        return d

    def swap(self, r: int, a: int, b: int) -> None:
        where = self.where[r]
        ka, kb = where[a], where[b]
        ta = self.tables[r][ka]
        tb = self.tables[r][kb]
        ma = self.met[a]
        mb = self.met[b]
        met = self.met
        for x in ta:
            if x != a:
                ma[x] -= 1
                met[x][a] -= 1
                mb[x] += 1
                met[x][b] += 1
        for y in tb:
            if y != b:
                mb[y] -= 1
                met[y][b] -= 1
                ma[y] += 1
                met[y][a] += 1
        if self.sw and len(ta) != len(tb):
            if len(ta) == MIN_TABLE:
                self.small[a] -= 1
                self.small[b] += 1
            else:
                self.small[a] += 1
                self.small[b] -= 1
        ta[ta.index(a)] = b
        tb[tb.index(b)] = a
        where[a], where[b] = kb, ka

    def objective(self) -> int:
        """The whole cost: pair meetings, group clashes and shares of small tables."""
        met = self.met
        pairs = 0
        for i in range(self.n):
            row = met[i]
            for j in range(i + 1, self.n):
                c = row[j]
                if c > 1:
                    pairs += c * (c - 1) // 2
        hi = self.small_share
        small = sum(max(0, s - hi) ** 2 for s in self.small) if self.sw else 0
        return pairs + self.gw * self.group_clashes() + self.sw * small

    def group_clashes(self) -> int:
        if self.mates is None:
            return 0
        mates = self.mates
        return sum(
            1 for tables in self.tables for table in tables
            for i, j in combinations(table, 2) if j in mates[i]
        )

    def bound(self) -> int:
        """A lower bound of :meth:`objective`, to stop as soon as it is reached."""
        m = self.n - 1
        pairs = 0
        for i in range(self.n):
            q, rem = divmod(sum(self.met[i]), m)
            pairs += rem * (q + 1) * q // 2 + (m - rem) * q * (q - 1) // 2
        return (pairs + 1) // 2

    # -- search -------------------------------------------------------------

    def run(self, effort: float) -> None:
        if len(self.sizes) >= 2 and self.rounds:
            self._repair(sweeps=max(1, round(20 * effort)))
            cost = self.objective()
            bound = self.bound()
            if cost > bound:
                budget = int(effort * min(1_500_000, 4000 * self.n * self.rounds))
                self._anneal(budget, cost, bound)
        self._order_seats()

    def _repair(self, sweeps: int) -> None:
        """Fix the tables that hold a repeat or a clash with the best of a few swaps."""
        rng = self.rng
        n = self.n
        tries = 12
        small = self.small
        high = self.small_share
        for _ in range(sweeps):
            improved = False
            for r in range(self.rounds):
                tables = self.tables[r]
                where = self.where[r]
                for t in range(len(tables)):
                    table = tables[t]
                    unfair = (
                        self.sw > 0 and len(table) == MIN_TABLE
                        and any(small[i] > high for i in table)
                    )
                    if not unfair and self.table_cost(table) <= 0:
                        continue
                    for a in list(tables[t]):
                        if where[a] != t:
                            continue
                        best = 0
                        best_b = -1
                        for _ in range(tries):
                            b = rng.randrange(n)
                            if where[b] == t:
                                continue
                            d = self.swap_delta(r, a, b)
                            if d < best:
                                best, best_b = d, b
                        if best_b >= 0:
                            self.swap(r, a, best_b)
                            improved = True
            if not improved:
                break

    def _anneal(self, budget: int, cost: int, bound: int) -> None:
        """Simulated annealing over swaps of two players of one round, keeping the best.

        The temperature falls geometrically from 2 to 0.05; the search stops early
        when the cost reaches the lower bound.
        """
        rng = self.rng
        n = self.n
        rounds = self.rounds
        rand = rng.random
        randrange = rng.randrange
        exp = math.exp
        best_cost = cost
        saved: list[list[list[int]]] | None = None  # the best, once the search left it
        t0, t1 = 2.0, 0.05
        chunk = 1000
        step = 0
        while step < budget and cost > bound:
            temp = t0 * (t1 / t0) ** (step / budget)
            for _ in range(chunk):
                r = randrange(rounds)
                a = randrange(n)
                b = randrange(n)
                where = self.where[r]
                if where[a] == where[b]:
                    continue
                d = self.swap_delta(r, a, b)
                if d <= 0 or rand() < exp(-d / temp):
                    if d > 0 and cost == best_cost and saved is None:
                        saved = self._snapshot()
                    self.swap(r, a, b)
                    cost += d
                    if cost < best_cost:
                        best_cost = cost
                        saved = None
                        if cost <= bound:
                            break
            step += chunk
        if cost > best_cost and saved is not None:
            self._restore(saved)

    def _snapshot(self) -> list[list[list[int]]]:
        return [[t[:] for t in tables] for tables in self.tables]

    def _restore(self, snap: list[list[list[int]]]) -> None:
        """Put the planned rounds back to ``snap``, keeping the counts right."""
        met = self.met
        for r in range(self.rounds):
            for table in self.tables[r]:
                for i, j in combinations(table, 2):
                    met[i][j] -= 1
                    met[j][i] -= 1
                if self.sw and len(table) == MIN_TABLE:
                    for i in table:
                        self.small[i] -= 1
        self.tables = []
        self.where = []
        for tables in snap:
            self._add_round([t[:] for t in tables])

    def _order_seats(self) -> None:
        """Choose who sits first at each table so that first seats are shared out as
        evenly as the tables allow, then order the other seats to even out each
        player's seats."""
        hist = self.seat_hist
        first_count = [h[0] for h in hist]
        slots = [(r, t) for r in range(self.rounds) for t in range(len(self.tables[r]))]
        first: dict[tuple[int, int], int] = {}
        for r, t in slots:  # greedy start
            table = self.tables[r][t]
            p = min(table, key=lambda i: (first_count[i], self.rng.random()))
            first[r, t] = p
            first_count[p] += 1
        self._even_out_firsts(slots, first, first_count)
        for r, t in slots:
            table = self.tables[r][t]
            p = first[r, t]
            rest = [i for i in table if i != p]
            best = min(
                permutations(rest),
                key=lambda perm: (
                    sum(hist[i][s + 1] ** 2 for s, i in enumerate(perm)), self.rng.random()
                ),
            )
            order = [p, *best]
            self.tables[r][t] = order
            for s, i in enumerate(order):
                hist[i][s] += 1

    def _even_out_firsts(
        self, slots: list[tuple[int, int]], first: dict[tuple[int, int], int], count: list[int]
    ) -> None:
        """Move first seats along chains (a flow augmentation): a player with the most
        first seats hands one to a tablemate, who hands one of theirs on, and so on,
        until it reaches a player with two fewer."""
        held: dict[int, list[tuple[int, int]]] = {}
        for slot, p in first.items():
            held.setdefault(p, []).append(slot)
        for _ in range(4 * len(slots) + 1):
            top = max(count)
            low = min(count)
            if top - low <= 1:
                return
            sources = [p for p in range(self.n) if count[p] == top]
            # breadth-first search from every player at the top
            parent: dict[int, tuple[int, tuple[int, int]] | None] = dict.fromkeys(sources)
            queue = list(sources)
            end = -1
            while queue and end < 0:
                nxt = []
                for p in queue:
                    for slot in held.get(p, ()):
                        r, t = slot
                        for q in self.tables[r][t]:
                            if q in parent:
                                continue
                            parent[q] = (p, slot)
                            if count[q] <= top - 2:
                                end = q
                                break
                            nxt.append(q)
                        if end >= 0:
                            break
                    if end >= 0:
                        break
                queue = nxt
            if end < 0:
                return
            q = end
            count[q] += 1
            while parent[q] is not None:
                link = parent[q]
                assert link is not None
                p, slot = link
                held[p].remove(slot)
                held.setdefault(q, []).append(slot)
                first[slot] = q
                q = p
            count[q] -= 1

    def result(self) -> tuple[Seating, ...]:
        people = self.people
        return tuple(
            Seating(tuple(tuple(people[i] for i in table) for table in tables))
            for tables in self.tables
        )


# ---------------------------------------------------------------------------
# Resolvable designs: the parallel classes of the affine geometry AG(k, q)

_GF4_MUL: Final = (
    (0, 0, 0, 0),
    (0, 1, 2, 3),
    (0, 2, 3, 1),
    (0, 3, 1, 2),
)


def _gf_add(q: int, x: int, y: int) -> int:
    return x ^ y if q == 4 else (x + y) % q


def _gf_mul(q: int, x: int, y: int) -> int:
    return _GF4_MUL[x][y] if q == 4 else (x * y) % q


def affine_classes(q: int, k: int) -> list[list[list[int]]]:
    """The parallel classes of AG(k, q) for q = 3 or 4: each class splits the q^k
    points into lines of q, and two points share exactly one line, so the classes are
    seatings with no pair meeting twice ((q^k − 1)/(q − 1) of them).

    >>> len(affine_classes(4, 2)), len(affine_classes(4, 3))
    (5, 21)
    """
    if q not in (3, 4):
        raise SeatingError("affine designs are built for tables of 3 or 4")
    size = q**k

    def coords(p: int) -> list[int]:
        return [(p // q**i) % q for i in range(k)]

    def point(c: Sequence[int]) -> int:
        return sum(x * q**i for i, x in enumerate(c))

    directions: list[list[int]] = []
    for code in range(1, size):
        c = coords(code)
        lead = next(x for x in reversed(c) if x)
        if lead == 1:
            directions.append(c)
    classes = []
    for d in directions:
        seen = [False] * size
        lines = []
        for p in range(size):
            if seen[p]:
                continue
            pc = coords(p)
            line = []
            for s in range(q):
                x = point([_gf_add(q, pc[i], _gf_mul(q, s, d[i])) for i in range(k)])
                seen[x] = True
                line.append(x)
            lines.append(line)
        classes.append(lines)
    return classes


def _design(
    n: int, sizes: tuple[int, ...], rounds: int, rng: random.Random
) -> list[list[int]] | None:
    """Player orders (cut into tables by ``sizes``) from an affine design, if one fits."""
    if len(set(sizes)) != 1:
        return None
    q = sizes[0]
    k = round(math.log(n, q)) if n > 1 else 0
    if k < 2 or q**k != n or k > 4:
        return None
    classes = affine_classes(q, k)
    if rounds > len(classes):
        return None
    label = list(range(n))
    rng.shuffle(label)
    rng.shuffle(classes)
    out = []
    for lines in classes[:rounds]:
        rng.shuffle(lines)
        out.append([label[p] for line in lines for p in line])
    return out
