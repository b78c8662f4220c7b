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
``swiss`` seating seats one round at a time by the standings: players of close
standing together, repeated meetings kept few by swaps between nearby tables.
Everything is deterministic given the seed: the effort is counted in moves, never in
seconds.

The methods are :class:`Seater` values in the registry :data:`SEATERS`, looked up by
name (:func:`find_seater`); each receives the players, the history, the standings and
a random generator (a :class:`SeatingTask`), so a new method is one new entry.
"""

from __future__ import annotations

import math
import random
from array import array
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations, permutations
from typing import Final, Literal, Protocol

from meldtour.core.refusal import Refused

from . import refusals as _refusals  # noqa: F401  (the codes below)

#: A seating method's name: a key of :data:`SEATERS` (``balanced``, ``random``,
#: ``swiss``, ``snake``, ``by-rating``, ``by-ranking``).
SeatingMethod = str
KnockoutSeating = Literal["random", "snake"]

#: Table sizes the engine seats: never 2 or 5 (docs/tournament.md, "4. Tables of 3").
MIN_TABLE: Final = 3
MAX_TABLE: Final = 4


class SeatingError(Refused):
    """Players that cannot be seated as asked: a code and its arguments
    (:mod:`.refusals`)."""


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
                raise SeatingError("seating.table_players", table=number, n=len(table))
            for p in table:
                if p in seen:
                    raise SeatingError("seating.seated_twice", player=p)
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
        raise SeatingError("seating.table_size", size=table_size)
    other = MIN_TABLE + MAX_TABLE - table_size
    for k in range(table_size):  # k tables of the other size
        rest = n - k * other
        if rest >= 0 and rest % table_size == 0 and n > 0:
            sizes = [table_size] * (rest // table_size) + [other] * k
            return tuple(sorted(sizes, reverse=True))
    raise SeatingError("seating.cannot_seat", n=n)


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
    return _snake(ranked, table_sizes(len(ranked), table_size))


def _snake(ranked: Sequence[int], sizes: Sequence[int]) -> Seating:
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
    standings: Mapping[int, float] | None = None,
) -> tuple[Seating, ...]:
    """Seat ``players`` for ``rounds`` seatings with the seater named ``method`` (one of
    :data:`SEATERS`).

    ``history`` holds the stage's seatings already played: their meetings count, but
    they are not changed (this is how a stage is re-planned after a drop or a late
    entry). ``groups`` maps a player to the tags that must be kept apart (two players
    sharing a tag should not meet); with ``groups_hard`` a clash is an error when the
    optimiser cannot avoid it (for the seaters that keep groups apart). ``effort``
    scales the number of improving moves tried. ``standings`` gives each player's
    standing so far as a number, higher first (points, or minus the rank); a seater
    by standings reads it, and it may be empty before the first result.
    """
    people = list(dict.fromkeys(players))
    if rounds < 0:
        raise SeatingError("seating.negative_seatings")
    sizes = table_sizes(len(people), table_size)
    if rounds == 0:
        return ()
    rng = random.Random(seed)
    seater = find_seater(method)
    tags = (
        {p: frozenset(groups.get(p, ())) for p in people} if groups and seater.keeps_groups else {}
    )
    if groups_hard and tags:
        per_tag = Counter(t for p in people for t in tags[p])
        too_big = [(t, c) for t, c in per_tag.items() if c > len(sizes)]
        if too_big:
            t, c = min(too_big)
            raise SeatingError("seating.group_too_big", group=repr(t), n=c, tables=len(sizes))
    task = SeatingTask(
        tuple(people),
        rounds,
        sizes,
        tuple(history),
        dict(standings or {}),
        tags,
        groups_hard,
        effort,
        weights,
    )
    plan = seater.seat(task, rng)
    if groups_hard and tags and group_clashes(plan, tags):
        raise SeatingError("seating.groups_clash")
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
                frozenset(j for t in tags[people[i]] for j in by_tag[t] if j != i) for i in range(n)
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
                max(0, sa - 1 - hi) ** 2
                - max(0, sa - hi) ** 2
                + max(0, sb + 1 - hi) ** 2
                - max(0, sb - hi) ** 2
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
            1
            for tables in self.tables
            for table in tables
            for i, j in combinations(table, 2)
            if j in mates[i]
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
                        self.sw > 0
                        and len(table) == MIN_TABLE
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
                    sum(hist[i][s + 1] ** 2 for s, i in enumerate(perm)),
                    self.rng.random(),
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
        raise SeatingError("seating.affine_size")
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


# ---------------------------------------------------------------------------
# Seaters: the seating methods, one interface, looked up by name


@dataclass(frozen=True, slots=True)
class SeatingTask:
    """What a seater is asked to seat: ``players`` (in seed order) for ``rounds``
    seatings at tables of ``sizes``; the stage's seatings already played
    (``history``: their meetings count, they are not changed); each player's standing
    so far as a number, higher first (``standings``: points, or minus the rank; empty
    before the first result, and a player missing from it stands at 0); the tags kept
    apart (``groups``, hard or soft), the effort and the optimiser's weights."""

    players: tuple[int, ...]
    rounds: int
    sizes: tuple[int, ...]
    history: tuple[Seating, ...] = ()
    standings: Mapping[int, float] = field(default_factory=dict)
    groups: Mapping[int, frozenset[str]] = field(default_factory=dict)
    groups_hard: bool = True
    effort: float = 1.0
    weights: SeatingWeights = SeatingWeights()


class Seater(Protocol):
    """A seating method. ``name`` is its key (what a stage format and ``meldtour seat
    --method`` say), ``label`` and ``description`` its English words (the catalogs
    translate them), ``kinds`` the stage kinds it serves. A seater that plans
    ``ahead`` seats every round of a stage at once; one that does not is asked for
    one round at a time, with the standings of the rounds played. A seater that
    ``keeps_groups`` apart is checked for clashes when the constraint is hard."""

    @property
    def name(self) -> str: ...
    @property
    def label(self) -> str: ...
    @property
    def description(self) -> str: ...
    @property
    def kinds(self) -> frozenset[str]: ...
    @property
    def ahead(self) -> bool: ...
    @property
    def keeps_groups(self) -> bool: ...

    def seat(self, task: SeatingTask, rng: random.Random) -> tuple[Seating, ...]:
        """``task.rounds`` seatings of ``task.players``, each a valid :class:`Seating`
        with tables of ``task.sizes``."""
        ...


_ALL_KINDS: Final = frozenset({"seatings", "knockout", "final"})


@dataclass(frozen=True, slots=True)
class RandomSeater:
    """Shuffle (seeded) and cut into tables, every round afresh."""

    name: str = "random"
    label: str = "random"
    description: str = (
        "Tables drawn at random by the computer, every seating afresh, as "
        "the Busan championship did."
    )
    kinds: frozenset[str] = _ALL_KINDS
    ahead: bool = True
    keeps_groups: bool = False

    def seat(self, task: SeatingTask, rng: random.Random) -> tuple[Seating, ...]:
        out = []
        for _ in range(task.rounds):
            order = list(task.players)
            rng.shuffle(order)
            out.append(_cut(order, task.sizes))
        return tuple(out)


@dataclass(frozen=True, slots=True)
class BalancedSeater:
    """The optimiser of :class:`_Search`: every round of the stage planned together."""

    name: str = "balanced"
    label: str = "balanced (fewest repeated opponents, groups kept apart)"
    description: str = (
        "Every seating of the stage planned together: as few repeated "
        "opponents as possible, groups kept apart, tables of 3 and first "
        "seats shared out fairly."
    )
    kinds: frozenset[str] = _ALL_KINDS
    ahead: bool = True
    keeps_groups: bool = True

    def seat(self, task: SeatingTask, rng: random.Random) -> tuple[Seating, ...]:
        search = _Search(
            list(task.players),
            task.sizes,
            task.rounds,
            task.history,
            task.groups,
            task.groups_hard,
            task.weights,
            rng,
        )
        search.run(task.effort)
        return search.result()


@dataclass(frozen=True, slots=True)
class SnakeSeater:
    """Snake seeding (a knockout's): the players in the order given, their seeds."""

    name: str = "snake"
    label: str = "snake seeding"
    description: str = (
        "Seeds 1 to T at tables 1 to T, the next T back from table T to 1, and so on."
    )
    kinds: frozenset[str] = frozenset({"knockout"})
    ahead: bool = True
    keeps_groups: bool = False

    def seat(self, task: SeatingTask, rng: random.Random) -> tuple[Seating, ...]:
        return (_snake(task.players, task.sizes),) * task.rounds


@dataclass(frozen=True, slots=True)
class SwissSeater:
    """Players of close standing at one table, repeated meetings still few.

    Each round the players are sorted by their standing (players equal in it in an
    order drawn from the generator) and cut into tables in that order: the leaders
    at table 1. Then swaps of two players of different tables that lower the cost of
    the round (meetings already had by the pairs of a table, and clashes of groups
    kept apart) are made, best first, as long as every player stays within ``reach``
    tables of where their standing puts them (a player tied with others may sit at
    any table of the tied block); among swaps of equal cost the one that spreads the
    tables' standings least is chosen. At each table the player with the fewest
    first seats so far sits first, the others in standing order.

    Asked for several rounds without results in between, it seats them one after the
    other on the same standings, each round counting the meetings of the ones before.

    >>> task = SeatingTask(tuple(range(1, 9)), 1, (4, 4),
    ...                    standings={p: float(-p) for p in range(1, 9)})
    >>> SwissSeater().seat(task, random.Random(0))[0].tables
    ((1, 2, 3, 4), (5, 6, 7, 8))
    """

    name: str = "swiss"
    label: str = "swiss (players of close standing together, fewest repeated opponents)"
    description: str = (
        "Seated again after every seating by the standings: the leaders "
        "together at the first tables, players who already met apart "
        "where a nearby swap allows."
    )
    kinds: frozenset[str] = _ALL_KINDS
    ahead: bool = False
    keeps_groups: bool = True
    reach: int = 1

    def seat(self, task: SeatingTask, rng: random.Random) -> tuple[Seating, ...]:
        people = task.players
        n = len(people)
        index = {p: i for i, p in enumerate(people)}
        met = [[0] * n for _ in range(n)]
        firsts = [0] * n
        for s in task.history:
            for table in s.tables:
                here = [index[p] for p in table if p in index]
                if table and table[0] in index:
                    firsts[index[table[0]]] += 1
                for i, j in combinations(here, 2):
                    met[i][j] += 1
                    met[j][i] += 1
        mates: list[frozenset[int]] = [frozenset()] * n
        if task.groups:
            by_tag: dict[str, set[int]] = {}
            for p, tags in task.groups.items():
                if p in index:
                    for tag in tags:
                        by_tag.setdefault(tag, set()).add(index[p])
            mates = [
                frozenset(
                    j for tag in task.groups.get(people[i], ()) for j in by_tag[tag] if j != i
                )
                for i in range(n)
            ]
        w = task.weights
        gw = w.hard_group if task.groups_hard else w.soft_group
        value = [float(task.standings.get(p, 0.0)) for p in people]
        out: list[Seating] = []
        for _ in range(task.rounds):
            tables = self._round(value, task.sizes, met, mates, gw, task.effort, rng)
            seated: list[tuple[int, ...]] = []
            for row in tables:
                head = min(row, key=lambda i: firsts[i])  # ties: the better standing
                order = [head, *(i for i in row if i != head)]
                firsts[head] += 1
                for i, j in combinations(order, 2):
                    met[i][j] += 1
                    met[j][i] += 1
                seated.append(tuple(people[i] for i in order))
            out.append(Seating(tuple(seated)))
        return tuple(out)

    def _round(
        self,
        value: list[float],
        sizes: tuple[int, ...],
        met: list[list[int]],
        mates: list[frozenset[int]],
        gw: int,
        effort: float,
        rng: random.Random,
    ) -> list[list[int]]:
        n = len(value)
        noise = [rng.random() for _ in range(n)]
        order = sorted(range(n), key=lambda i: (-value[i], noise[i]))
        rank = [0] * n  # the position of the first player of one's tied block
        last = [0] * n  # ... and of its last
        start = 0
        for k in range(1, n + 1):
            if k == n or value[order[k]] != value[order[start]]:
                for m in range(start, k):
                    rank[order[m]] = start
                    last[order[m]] = k - 1
                start = k
        table_at: list[int] = []
        tables: list[list[int]] = []
        for t, size in enumerate(sizes):
            tables.append(order[len(table_at) : len(table_at) + size])
            table_at.extend([t] * size)
        lo = [table_at[rank[i]] - self.reach for i in range(n)]
        hi = [table_at[last[i]] + self.reach for i in range(n)]

        def cost(table: list[int]) -> int:
            return sum(met[i][j] + (gw if j in mates[i] else 0) for i, j in combinations(table, 2))

        def spread(table: list[int]) -> int:
            return max(rank[i] for i in table) - min(rank[i] for i in table)

        costs = [cost(tb) for tb in tables]
        count = len(tables)
        for _ in range(max(1, round(50 * effort)) * count):
            best: tuple[int, int, int, int, int, int] | None = None
            for t in range(count):
                for u in range(t + 1, count):
                    if not costs[t] and not costs[u]:
                        continue
                    ta, tb = tables[t], tables[u]
                    for x, a in enumerate(ta):
                        if not lo[a] <= u <= hi[a]:
                            continue
                        for y, b in enumerate(tb):
                            if not lo[b] <= t <= hi[b]:
                                continue
                            na = [*ta[:x], b, *ta[x + 1 :]]
                            nb = [*tb[:y], a, *tb[y + 1 :]]
                            d = cost(na) + cost(nb) - costs[t] - costs[u]
                            if d > 0:
                                continue
                            ds = spread(na) + spread(nb) - spread(ta) - spread(tb)
                            if (d, ds) >= (0, 0):
                                continue
                            if best is None or (d, ds) < best[:2]:
                                best = (d, ds, t, u, x, y)
            if best is None:
                break
            _, _, t, u, x, y = best
            tables[t][x], tables[u][y] = tables[u][y], tables[t][x]
            costs[t], costs[u] = cost(tables[t]), cost(tables[u])
        for table in tables:
            table.sort(key=lambda i: (rank[i], noise[i]))
        return tables


@dataclass(frozen=True, slots=True)
class SeededSeater:
    """Seeded by rating or ranking (the circuit's): the players come in seed order —
    the application orders a first stage's entrants by their rating or their ranking
    points — and the first seating snakes them (seeds 1 to T at tables 1 to T: the
    strongest kept apart early); the seatings after it are planned by the balanced
    optimiser, with the first one as history. Groups are not kept apart (the seeds
    decide the first seating).

    >>> s = SeededSeater().seat(SeatingTask(tuple(range(1, 9)), 2, (4, 4)),
    ...                         random.Random(1))
    >>> s[0].tables
    ((1, 4, 5, 8), (2, 3, 6, 7))
    """

    name: str = "by-rating"
    label: str = "seeded by rating (the strongest apart)"
    description: str = (
        "The players seeded by their rating: the first seating puts seeds 1 "
        "to T at tables 1 to T, then back, so the strongest meet late; "
        "the seatings after it are balanced."
    )
    kinds: frozenset[str] = _ALL_KINDS
    ahead: bool = True
    keeps_groups: bool = False

    def seat(self, task: SeatingTask, rng: random.Random) -> tuple[Seating, ...]:
        if task.rounds == 0:
            return ()
        first: tuple[Seating, ...] = () if task.history else (_snake(task.players, task.sizes),)
        left = task.rounds - len(first)
        if left <= 0:
            return first
        search = _Search(
            list(task.players),
            task.sizes,
            left,
            (*task.history, *first),
            task.groups,
            task.groups_hard,
            task.weights,
            rng,
        )
        search.run(task.effort)
        return (*first, *search.result())


#: Seeded by ranking: the same seating, the seeds from the circuit's ranking points.
BY_RANKING: Final = SeededSeater(
    "by-ranking",
    "seeded by ranking (the strongest apart)",
    "The players seeded by their ranking points: the first seating puts seeds 1 to T at "
    "tables 1 to T, then back, so the strongest meet late; the seatings after it are "
    "balanced.",
)

#: The seating methods by name: a new method is one entry here.
_METHODS: Final[tuple[Seater, ...]] = (
    RandomSeater(),
    BalancedSeater(),
    SwissSeater(),
    SnakeSeater(),
    SeededSeater(),
    BY_RANKING,
)
SEATERS: Final[dict[str, Seater]] = {s.name: s for s in _METHODS}


def find_seater(name: str) -> Seater:
    """The seating method called ``name``; the error lists the names there are.

    >>> find_seater("swiss").ahead, find_seater("balanced").keeps_groups
    (False, True)
    """
    try:
        return SEATERS[name]
    except KeyError:
        raise SeatingError(
            "seating.unknown_method", method=repr(name), methods=", ".join(SEATERS)
        ) from None


def seaters_for(kind: str) -> tuple[Seater, ...]:
    """The seating methods a stage of ``kind`` offers, in the registry's order."""
    return tuple(s for s in SEATERS.values() if kind in s.kinds)
