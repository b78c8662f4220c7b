"""The exact dynamic programme over numbers 1..13 (after van Rijn, Takes and Vis 2015).

The problem, in count vectors: ``avail[n][c]`` copies of colour ``c`` and number
``n + 1`` may be used, of which ``need[n][c]`` must be (the board's); ``jokers`` jokers
may be used, ``need_jokers`` must. Find melds using a sub-multiset that maximises the
score ``sum over used tiles of (BIG + number)``, a joker counting the number it stands
for: most tiles first, then most value (the new board's value).

The programme goes number by number. Its state is, for each colour, the multiset of
open runs by length (1, 2, 3+; :mod:`.tables`), and the jokers used so far (before the
initial meld also the value so far, capped at the threshold). Inside one number the
colours are taken one at a time, fewest copies first — each puts ``g`` copies into
groups and ``m`` tiles (copies and jokers) into its runs — and the last one closes the
groups of that number, their feasibility depending only on how many colours gave one
or two group tiles. That sweep makes the work per number linear, not exponential, in
the colours.

Bounds: a pass asks for plans scoring at least ``lower`` and drops every state whose
score plus the most the tiles still to come could add falls below it; passes go from
"every tile used" down (:func:`solve_problem`), so the first pass that finds a plan
finds the optimum, and its bound was tight. Dominance (:func:`_prune`): at the end of
each number a state is dropped when another scores as much and, in every colour at
once, has open runs that can do all its runs can (:data:`.tables.COVERS`), no more
jokers used (once the board's are placed) and, before the initial meld, as much value.
Lookahead: a state whose short runs need more jokers at the next two numbers than are
left is never made.

A layer maps each state's key (an int of bit fields) to one int holding its score
above its back pointer: the key it came from and the choice made. Each step of the
sweep is one plain function (:func:`_step`) over the states, with the moves from each
colour state made once per problem (:class:`_Move`). Compiled, the layers of a plain
problem (no value so far, no wrapping runs) are vectors of machine integers with an
index of their own (:func:`_step_vec`): the same states in the same order as the dicts
of the Python modules, so the same plans, without an int boxed or a dict probed.

Open runs per colour are capped at four (two copies and two jokers), not two: a third
run through a number, carried by a joker, can be needed for the best value, as in
board ``[k11,k12,k13] [k11,k12,k13]`` and rack ``k9 k10 J`` → ``[k9,k10,J]`` (the
joker is an 11, worth 30) where two runs per colour reach only 29.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass
from importlib.machinery import EXTENSION_SUFFIXES
from typing import TYPE_CHECKING, Final, final

from .tables import (
    COVERED,
    COVERS,
    GROUP_JOKERS,
    RUN_CLOSED,
    RUN_NEXT,
    RUN_STATES,
    SHORTFALL,
    VIABLE,
)

#: Whether this module runs compiled (the compiled core, :mod:`.native`): it then keeps
#: the layers of plain problems in vectors of machine integers (``librt``, which comes
#: with mypyc), which the Python modules never import.
COMPILED: Final = __file__.endswith(tuple(EXTENSION_SUFFIXES))
if COMPILED:
    from librt.vecs import append, vec
if TYPE_CHECKING:
    from mypy_extensions import i64

#: The weight of one tile in the score; above any board value (at most 754).
BIG: Final = 1024

#: The first bound passes: how far below "every tile used, jokers as 13s" each looks.
#: Small steps first: a pass that finds nothing fails fast, a pass with room for the
#: jokers to stand anywhere meets many more states.
_SLACKS: Final = (0, 2, 4, 8, 12, 16, 24, BIG + 13, BIG + 13 + 12, BIG + 13 + 24)
#: Below this many board tiles, one pass without the bound beats bound passes.
SPARSE_ONE_PASS: Final = 25
#: Below this many, after the passes for at most one tile out, one pass without it.
SPARSE: Final = 40

_JSHIFT: Final = 24
_SHAPE_SHIFT: Final = 26
_CAP_SHIFT: Final = 32
_GUESS_SHIFT: Final = 44
_COLOURS_MASK: Final = (1 << 24) - 1
_NO_SHAPE: Final = ~(31 << _SHAPE_SHIFT)
_CAP_MASK: Final = (1 << 11) - 1

#: Joker counts that close the groups of one number, by shape index n1 + 5 * n2.
_SHAPE_JOKERS: Final[tuple[tuple[int, ...], ...]] = tuple(
    GROUP_JOKERS.get((i % 5, i // 5), ()) for i in range(25)
)
_SHAPE_STEP: Final = (0, 1, 5)
_NSTATES: Final = len(RUN_STATES)
_JOKER_BITS: Final = 3 << _JSHIFT
#: Joker counts that close the groups of one number, by shape, as bits ``1 << jg``.
_SHAPE_JG: Final[tuple[int, ...]] = tuple(sum(1 << j for j in js) for js in _SHAPE_JOKERS)
#: Sweep positions: the four colours of each of the 13 numbers.
_POSITIONS: Final = 52
#: Layers smaller than this are not pruned (the prune would cost more than it saves).
_PRUNE_FROM: Final = 8
_NONE: Final[tuple[int, ...]] = (0, 0, 0, 0)
#: A shortfall of no joker for every colour state.
_NO_SHORTFALL: Final[tuple[int, ...]] = tuple(0 for _ in RUN_STATES)
#: The cut of a list of moves that holds every move.
_COMPLETE: Final = 1 << 40
#: Bits of a state's value below the previous key: the choice made (< 32 options),
#: and at the last colour of a number the jokers put into its groups.
_JG_SHIFT: Final = 5
_CHOICE_BITS: Final = 7
_CHOICE_MASK: Final = (1 << _CHOICE_BITS) - 1

# A choice for one colour at one number: (group copies, run copies, run jokers).
Choice = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Problem:
    """Count vectors by number (0..12) and colour (0..3)."""

    # Four counts per number. (Tuples of any length, not of four: compiled, an index
    # that is not a constant into a tuple of fixed length boxes the tuple anew.)
    avail: tuple[tuple[int, ...], ...]
    need: tuple[tuple[int, ...], ...]
    jokers: int
    need_jokers: int
    #: Before the initial meld: the value the new melds must reach; else None.
    threshold: int | None = None
    wrap: bool = False


@dataclass(frozen=True, slots=True)
class Plan:
    """What the optimum does at each number: per colour a :data:`Choice`, and group jokers.

    ``start`` gives, with wrapping runs, the open runs entering number 1 (a colour
    state index per colour): each goes on from a run still open after 13 that is at
    least as long (:data:`.tables.WRAP_OK`).
    """

    score: int
    choices: tuple[tuple[Choice, ...], ...]  # four per number
    group_jokers: tuple[int, ...]
    start: tuple[int, ...]  # four


Option = tuple[int, int, int, int, int, int]


def _option_table() -> tuple[tuple[tuple[tuple[tuple[Option, ...], ...], ...], ...], ...]:
    """``[n][a][b][jmax]``: the choices of one colour at number ``n + 1`` with ``a``
    copies there of which ``b`` must be used and ``jmax`` jokers, cheapest first:
    (loss, group copies, run copies, run jokers, tiles used, m). The loss is what the
    choice gives up against the bound: each copy left out, each joker lower than 13.
    """
    table = []
    for n in range(13):
        w = BIG + n + 1
        by_a = []
        for a in range(3):
            by_b = []
            for b in range(3):
                by_j = []
                for jmax in range(3):
                    opts = [
                        ((a - g - r) * w + jr * (12 - n), g, r, jr, g + r + jr, r + jr)
                        for g in range(min(a, 2) + 1)
                        for r in range(a - g, max(0, b - g) - 1, -1)
                        for jr in range(jmax + 1)
                    ]
                    opts.sort()
                    by_j.append(tuple(opts))
                by_b.append(tuple(by_j))
            by_a.append(tuple(by_b))
        table.append(tuple(by_a))
    return tuple(table)


_OPTIONS: Final = _option_table()


@final
class _Move:
    """One choice of one colour from one colour state at one sweep position."""

    __slots__ = ("delta", "gain", "jneed", "jr", "loss", "step", "used")

    def __init__(
        self, loss: int, gain: int, delta: int, jr: int, jneed: int, step: int, used: int
    ) -> None:
        self.loss = loss  # what it gives up against the bound
        self.gain = gain  # score added, as a value (above the back pointer), and choice
        self.delta = delta  # added to the key, the colour's state cleared
        self.jr = jr  # jokers put into runs
        self.jneed = jneed  # jokers the runs then need, these included
        self.step = step  # added to the group shape
        self.used = used  # tiles used


@dataclass(frozen=True, slots=True)
class _Tables:
    """What every pass over one problem shares, built once per problem."""

    opts: list[list[tuple[Option, ...]]]
    viable: list[tuple[tuple[int, int, int], ...]]
    ahead: list[list[int]]
    short: list[list[tuple[int, ...]]]
    starts: list[int]
    #: Bits below the score in a state's value: the previous key and the choice.
    vshift: int
    #: Per number, the colours in the order the sweep takes them.
    order: list[tuple[int, ...]]
    #: Per sweep position (4 * number + k): the colour has no copy there and no joker
    #: may start a run there (the lookahead forbids it), so a state with no open run
    #: of that colour can only pass it by; when every state is such, the step is
    #: skipped.
    idle: list[bool]
    #: Per sweep position and colour state: its moves, cheapest first, made when
    #: first needed and shared by the passes: those that give up no more than
    #: ``cuts`` (the most slack a state had when they were made), all once complete.
    moves: list[list[_Move] | None]
    cuts: list[int]


def _row_tables() -> tuple[tuple[tuple[int, ...], tuple[tuple[int, int, int], ...]], ...]:
    """By a number's copies (base-3 digits, colour 0 lowest): its sweep order (fewest
    copies first, so that the states inside a number branch late) and the group shapes
    still closable after each position of the sweep (:data:`.tables.VIABLE`)."""
    out = []
    for code in range(81):
        row = [code // 3**c % 3 for c in range(4)]
        order = tuple(sorted(range(4), key=row.__getitem__))
        out.append((order, VIABLE[tuple(row[c] for c in order)]))
    return tuple(out)


_ROWS: Final = _row_tables()


def _tables(p: Problem) -> _Tables:
    jt = p.jokers
    jmax = min(jt, 2)
    opts: list[list[tuple[Option, ...]]] = []
    order: list[tuple[int, ...]] = []
    viable: list[tuple[tuple[int, int, int], ...]] = []
    for n in range(13):
        row = p.avail[n]
        need = p.need[n]
        table = _OPTIONS[n]
        opts.append([table[row[c]][need[c]][jmax] for c in range(4)])
        o, v = _ROWS[row[0] + 3 * row[1] + 9 * row[2] + 27 * row[3]]
        order.append(o)
        viable.append(v)
    # ahead[n][k]: the most that the colour at position k of number n's sweep, the
    # colours after it, and everything after, can add.
    ahead = [[0, 0, 0, 0] for _ in range(14)]
    acc = 0
    for n in range(12, -1, -1):
        row = p.avail[n]
        o = order[n]
        w = BIG + n + 1
        for k in range(3, -1, -1):
            acc += row[o[k]] * w
            ahead[n][k] = acc
    # Jokers that the runs too short to stop would need at the next two numbers.
    short: list[list[tuple[int, ...]]] = []
    for n in range(13):
        if p.wrap and n >= 11:
            # Past 13 a wrapping run goes on into the runs guessed to enter 1, whose
            # jokers are counted there already: no demand here (counting them again
            # forbade 13-J-2, the joker standing for the 1).
            short.append([_NO_SHORTFALL] * 4)
            continue
        one = p.avail[n + 1] if n < 12 else _NONE
        two = p.avail[n + 2] if n < 11 else _NONE
        short.append([SHORTFALL[one[c]][two[c]] for c in range(4)])
    starts = _guesses(p) if p.wrap else [0]
    key_bits = (
        _GUESS_SHIFT + 24 if p.wrap else (_GUESS_SHIFT if p.threshold is not None else _CAP_SHIFT)
    )
    # ``jr`` jokers starting runs where there is no copy make ``jr`` 1-runs (state
    # RUN_NEXT[0][jr]), listed only when their shortfall leaves jokers for it.
    idle: list[bool] = []
    for n in range(13):
        row = p.avail[n]
        for c in order[n]:
            still = row[c] == 0
            if still:
                deficit = short[n][c]
                for jr in range(1, jmax + 1):
                    if deficit[RUN_NEXT[0][jr]] + jr <= jt:
                        still = False
                        break
            idle.append(still)
    return _Tables(
        opts,
        viable,
        ahead,
        short,
        starts,
        key_bits + _CHOICE_BITS,
        order,
        idle,
        [None] * (_POSITIONS * _NSTATES),
        [-1] * (_POSITIONS * _NSTATES),
    )


def _moves(t: _Tables, p: Problem, n: int, k: int, s: int, cut: int) -> list[_Move]:
    """The moves from colour state ``s`` at position ``k`` of number ``n``'s sweep that
    give up no more than ``cut``."""
    c = t.order[n][k]
    shift = 6 * c
    deficit = t.short[n][c]
    w = BIG + n + 1
    out: list[_Move] = []
    nexts = RUN_NEXT[s]
    at = (4 * n + k) * _NSTATES + s
    t.cuts[at] = _COMPLETE
    for i, (loss, g, _r, jr, used, m) in enumerate(t.opts[n][c]):
        if loss > cut:
            t.cuts[at] = cut
            break
        ns = nexts[m]
        if ns >= 0 and deficit[ns] + jr <= p.jokers:
            step = _SHAPE_STEP[g]
            delta = (ns << shift) + (jr << _JSHIFT) + (step << _SHAPE_SHIFT)
            out.append(
                _Move(loss, (used * w << t.vshift) + i, delta, jr, deficit[ns] + jr, step, used)
            )
    t.moves[at] = out
    return out


def _step(
    p: Problem, t: _Tables, layer: dict[int, int], n: int, k: int, lower: int, cap_max: int
) -> dict[int, int]:
    """The states after the colour at position ``k`` of number ``n``'s sweep."""
    jt = p.jokers
    cap_on = p.threshold is not None
    c = t.order[n][k]
    shift = 6 * c
    clear = ~(63 << shift)
    vs = t.vshift
    w = BIG + n + 1
    num = n + 1
    bound = t.ahead[n][k] - lower
    ok0, ok1, ok2 = t.viable[n][k]
    joker_loss = 12 - n
    joker_top = BIG + 13
    last = k == 3
    cache = t.moves
    cuts = t.cuts
    at = (4 * n + k) * _NSTATES
    # No state has more slack than this: costlier moves are not needed.
    top = 0
    for v in layer.values():
        if v > top:
            top = v
    cut = (top >> vs) + bound + jt * joker_top
    new: dict[int, int] = {}
    for key, v in layer.items():
        score = v >> vs
        jleft = jt - ((key >> _JSHIFT) & 3)
        slack = score + bound + jleft * joker_top
        s = (key >> shift) & 63
        from_s = cache[at + s]
        if from_s is None or cuts[at + s] < cut:
            from_s = _moves(t, p, n, k, s, cut)
        base = key & clear
        shape = (key >> _SHAPE_SHIFT) & 31
        sv = (score << vs) + (key << _CHOICE_BITS)
        for mv in from_s:
            loss = mv.loss
            if loss > slack:
                break
            if mv.jneed > jleft:
                continue
            # Can the groups of this number still be closed?
            spare = jleft - mv.jr
            if joker_loss and spare and slack - loss < spare * joker_loss:
                spare = (slack - loss) // joker_loss
            ok = ok0 if spare == 0 else (ok1 if spare == 1 else ok2)
            nshape = shape + mv.step
            if not (ok >> nshape) & 1:
                continue
            nkey = base + mv.delta
            used = mv.used
            nv = sv + mv.gain
            if last:
                # The last colour closes the groups of this number: ``jg`` jokers
                # join them (the shape says how many can).
                nkey &= _NO_SHAPE
                fits = _SHAPE_JG[nshape]
                for jg in range(spare + 1):
                    if not (fits >> jg) & 1:
                        continue
                    ckey = nkey + (jg << _JSHIFT)
                    if cap_on and used + jg:
                        cap = (ckey >> _CAP_SHIFT) & _CAP_MASK
                        ncap = min(cap_max, cap + (used + jg) * num)
                        ckey += (ncap - cap) << _CAP_SHIFT
                    cv = nv + (jg * w << vs) + (jg << _JG_SHIFT) if jg else nv
                    was = new.setdefault(ckey, cv)
                    if cv > was:
                        new[ckey] = cv
                continue
            if cap_on and used:
                cap = (nkey >> _CAP_SHIFT) & _CAP_MASK
                ncap = min(cap_max, cap + used * num)
                nkey += (ncap - cap) << _CAP_SHIFT
            was = new.setdefault(nkey, nv)
            if nv > was:
                new[nkey] = nv
    return new


def _steps(p: Problem, lower: int, t: _Tables) -> Generator[int, None, Plan | None]:
    """:func:`run_dp` step by step: yields the number of states each step made."""
    if COMPILED and p.threshold is None and not p.wrap:
        return (yield from _steps_vec(p, lower, t))
    threshold = p.threshold
    cap_max = min(threshold, _CAP_MASK) if threshold is not None else 0
    plain = threshold is None and not p.wrap
    vs = t.vshift
    layer: dict[int, int] = dict.fromkeys(t.starts, 0)
    # One layer per step; None for a step skipped (every state passed the colour by).
    layers: list[dict[int, int] | None] = []
    # The colour bits set in some key of ``layer`` (-1: not yet known).
    occupied = -1
    idle = t.idle
    for n in range(13):
        stepped = False
        for k in range(4):
            if idle[4 * n + k]:
                if occupied < 0:
                    occupied = 0
                    for key in layer:
                        occupied |= key
                if not (occupied >> (6 * t.order[n][k])) & 63:
                    # No state has an open run of this colour, none can start one:
                    # each state passes by, unchanged (choice 0, no group joker).
                    layers.append(None)
                    continue
            layer = _step(p, t, layer, n, k, lower, cap_max)
            layers.append(layer)
            occupied = -1
            stepped = True
            yield len(layer)
        if stepped:
            layer = _prune(layer, vs, p.need_jokers, cap_max, plain)
        if not layer:
            return None
    return _best(p, t, layers, layer, lower, cap_max)


def _best(
    p: Problem,
    t: _Tables,
    layers: list[dict[int, int] | None],
    layer: dict[int, int],
    lower: int,
    cap_max: int,
) -> Plan | None:
    """The plan of the first state scoring best among those that end the game well:
    the board's jokers placed, the threshold reached, every run closed (with wrapping
    runs: carried on into the runs that entered 1)."""
    vs = t.vshift
    best_key = -1
    best = -1
    cap_on = p.threshold is not None
    for key, v in layer.items():
        score = v >> vs
        if score <= best or score < lower:
            continue
        if (key >> _JSHIFT) & 3 < p.need_jokers:
            continue
        if cap_on and (key >> _CAP_SHIFT) & _CAP_MASK < cap_max:
            continue
        if p.wrap:
            guess = key >> _GUESS_SHIFT
            if not all(COVERS[(key >> (6 * c)) & 63][(guess >> (6 * c)) & 63] for c in range(4)):
                continue
        elif not (
            RUN_CLOSED[key & 63]
            and RUN_CLOSED[(key >> 6) & 63]
            and RUN_CLOSED[(key >> 12) & 63]
            and RUN_CLOSED[(key >> 18) & 63]
        ):
            continue
        best_key, best = key, score
    if best_key < 0:
        return None
    values: list[Callable[[int], int] | None] = [
        None if at is None else at.__getitem__ for at in layers
    ]
    return _unwind(values, t.opts, best_key, best, (1 << vs) - 1, t.order)


def _prune(
    layer: dict[int, int], vs: int, need_jokers: int, cap_max: int, plain: bool = False
) -> dict[int, int]:
    """Drop the states another state dominates with a score as good.

    State ``a`` dominates ``b`` when, in every colour, the open runs of ``a`` can do
    all that those of ``b`` can (:data:`.tables.COVERS`); ``a`` has used no more
    jokers (the same number, while fewer than the board's jokers are used: those
    must all be placed); before the initial meld, ``a``'s value so far is as high;
    and the rest of the key (group shape, wrapping guess) is equal. Whatever
    completes ``b`` then completes ``a``, for at least the same score.

    The states go best score first, and within a score in decreasing key order (the
    joker count flipped), which puts a state after every state that dominates it
    (:data:`.tables.RUN_STATES` is ordered so). Each dimension keeps, per value, the
    set of kept states that dominate it there, as the bits of an int. ``plain``: the
    keys hold nothing but colour states and jokers (no value so far, no wrapping).
    """
    if len(layer) < _PRUNE_FROM:
        return layer
    if plain:
        return _prune_plain(layer, vs, need_jokers)
    kept: dict[int, int] = {}
    groups: dict[int, list[list[int]]] = {}
    bit = 1
    order = sorted([(v >> vs, k ^ _JOKER_BITS, v) for k, v in layer.items()], reverse=True)
    for _, flipped, v in order:
        key = flipped ^ _JOKER_BITS
        a = key & 63
        b = (key >> 6) & 63
        c = (key >> 12) & 63
        d = (key >> 18) & 63
        j = (key >> _JSHIFT) & 3
        cap = (key >> _CAP_SHIFT) & _CAP_MASK
        rest = (key >> _SHAPE_SHIFT) & ~(_CAP_MASK << (_CAP_SHIFT - _SHAPE_SHIFT))
        sets = groups.get(rest)
        if sets is None:
            sets = groups[rest] = [[0] * _NSTATES for _ in range(4)] + [
                [0] * 3,
                [0] * (cap_max + 1),
            ]
        elif sets[0][a] & sets[1][b] & sets[2][c] & sets[3][d] & sets[4][j] & sets[5][cap]:
            continue
        kept[key] = v
        for x, row in zip((a, b, c, d), sets, strict=False):
            for y in COVERED[x]:
                row[y] |= bit
        row = sets[4]
        if j >= need_jokers:
            for y in range(j, 3):
                row[y] |= bit
        else:
            row[j] |= bit
        row = sets[5]
        for y in range(cap + 1):
            row[y] |= bit
        bit <<= 1
    return kept


def _prune_plain(layer: dict[int, int], vs: int, need_jokers: int) -> dict[int, int]:
    """:func:`_prune` when the keys hold only the colour states and the jokers."""
    kept: dict[int, int] = {}
    s0 = [0] * _NSTATES
    s1 = [0] * _NSTATES
    s2 = [0] * _NSTATES
    s3 = [0] * _NSTATES
    sj = [0, 0, 0]
    bit = 1
    # Best score first, then decreasing key with the joker count flipped, in one int.
    order = sorted(
        [(v >> vs) << _JSHIFT + 2 | (k ^ _JOKER_BITS) for k, v in layer.items()], reverse=True
    )
    low = (1 << _JSHIFT + 2) - 1
    for x in order:
        key = (x & low) ^ _JOKER_BITS
        a = key & 63
        b = (key >> 6) & 63
        c = (key >> 12) & 63
        d = (key >> 18) & 63
        j = key >> _JSHIFT
        if s0[a] & s1[b] & s2[c] & s3[d] & sj[j]:
            continue
        kept[key] = layer[key]
        for y in COVERED[a]:
            s0[y] |= bit
        for y in COVERED[b]:
            s1[y] |= bit
        for y in COVERED[c]:
            s2[y] |= bit
        for y in COVERED[d]:
            s3[y] |= bit
        if j >= need_jokers:
            for y in range(j, 3):
                sj[y] |= bit
        else:
            sj[j] |= bit
        bit <<= 1
    return kept


def _unwind(
    layers: list[Callable[[int], int] | None],
    opts: list[list[tuple[Option, ...]]],
    key: int,
    score: int,
    low_mask: int,
    order: list[tuple[int, ...]],
) -> Plan:
    choices: list[list[Choice]] = [[(0, 0, 0)] * 4 for _ in range(13)]
    group_jokers = [0] * 13
    step = len(layers) - 1
    choice_mask = (1 << _CHOICE_BITS) - 1
    for n in range(12, -1, -1):
        for k in range(3, -1, -1):
            c = order[n][k]
            value = layers[step]
            step -= 1
            if value is None:  # skipped: the state passed the colour by
                continue
            back = value(key) & low_mask
            key, i = back >> _CHOICE_BITS, back & choice_mask
            if k == 3:
                group_jokers[n], i = i >> _JG_SHIFT, i & ((1 << _JG_SHIFT) - 1)
            _, g, r, jr, _, _ = opts[n][c][i]
            choices[n][c] = (g, r, jr)
    return Plan(
        score,
        tuple(map(tuple, choices)),
        tuple(group_jokers),
        tuple((key >> (6 * c)) & 63 for c in range(4)),
    )


# The compiled core keeps the layers of a plain problem (no value so far, no wrapping
# runs: keys below 2**31, values below 2**63) in vectors of machine integers with a
# hash index of its own: no int is boxed, no dict is probed. The Python modules keep
# them in dicts (above); both make the same states in the same order, so the same
# plans.


@final
class _VecLayer:
    """A layer: its keys and values in the order made, and an index to find a key."""

    __slots__ = ("index", "keys", "mask", "vals")

    def __init__(self, keys: vec[i64], vals: vec[i64], index: vec[i64], mask: i64) -> None:
        self.keys = keys
        self.vals = vals
        self.index = index  # slot -> entry + 1 (0: empty), open addressing
        self.mask = mask

    def get(self, key: i64) -> i64:
        """The value of ``key``, or -1."""
        mask = self.mask
        h: i64 = ((key * _HASH) >> 20) & mask
        while True:
            e = self.index[h]
            if e == 0:
                return -1
            if self.keys[e - 1] == key:
                return self.vals[e - 1]
            h = (h + 1) & mask


#: A multiplier for the hash of a key (below 2**31: the product stays below 2**63).
_HASH: Final = 2654435761


def _reindex(keys: vec[i64], mask: i64) -> vec[i64]:
    index = vec[i64]([0] * (mask + 1))
    for e in range(len(keys)):
        h: i64 = ((keys[e] * _HASH) >> 20) & mask
        while index[h]:
            h = (h + 1) & mask
        index[h] = e + 1
    return index


def _step_vec(p: Problem, t: _Tables, layer: _VecLayer, n: int, k: int, lower: int) -> _VecLayer:
    """:func:`_step` on a plain problem, in vectors."""
    jt: i64 = p.jokers
    c = t.order[n][k]
    shift: i64 = 6 * c
    clear: i64 = ~(63 << shift)
    vs: i64 = t.vshift
    w: i64 = BIG + n + 1
    bound: i64 = t.ahead[n][k] - lower
    ok0, ok1, ok2 = t.viable[n][k]
    joker_loss: i64 = 12 - n
    joker_top: i64 = BIG + 13
    last = k == 3
    cache = t.moves
    cuts = t.cuts
    at = (4 * n + k) * _NSTATES
    in_keys = layer.keys
    in_vals = layer.vals
    size = len(in_keys)
    top: i64 = 0
    for e in range(size):
        if in_vals[e] > top:
            top = in_vals[e]
    cut: i64 = (top >> vs) + bound + jt * joker_top
    keys = vec[i64](capacity=2 * size + 8)
    vals = vec[i64](capacity=2 * size + 8)
    mask: i64 = 63
    while mask < 4 * size:
        mask = 2 * mask + 1
    index = vec[i64]([0] * (mask + 1))
    count: i64 = 0
    for e in range(size):
        key: i64 = in_keys[e]
        v: i64 = in_vals[e]
        score = v >> vs
        jleft = jt - ((key >> _JSHIFT) & 3)
        slack = score + bound + jleft * joker_top
        s: i64 = (key >> shift) & 63
        from_s = cache[at + s]
        if from_s is None or cuts[at + s] < cut:
            from_s = _moves(t, p, n, k, s, cut)
        base = key & clear
        shape: i64 = (key >> _SHAPE_SHIFT) & 31
        sv = (score << vs) + (key << _CHOICE_BITS)
        for mv in from_s:
            loss: i64 = mv.loss
            if loss > slack:
                break
            if mv.jneed > jleft:
                continue
            # Can the groups of this number still be closed?
            spare: i64 = jleft - mv.jr
            if joker_loss and spare and slack - loss < spare * joker_loss:
                spare = (slack - loss) // joker_loss
            ok = ok0 if spare == 0 else (ok1 if spare == 1 else ok2)
            nshape: i64 = shape + mv.step
            if not (ok >> nshape) & 1:
                continue
            nkey: i64 = base + mv.delta
            nv: i64 = sv + mv.gain
            fits: i64 = 1
            if last:
                # The last colour closes the groups of this number: ``jg`` jokers
                # join them (the shape says how many can).
                nkey &= _NO_SHAPE
                fits = _SHAPE_JG[nshape]
                spare = min(spare, 2)
            else:
                spare = 0
            jg: i64 = 0
            while jg <= spare:
                if (fits >> jg) & 1:
                    ckey = nkey + (jg << _JSHIFT)
                    cv = nv + (jg * w << vs) + (jg << _JG_SHIFT) if jg else nv
                    h: i64 = ((ckey * _HASH) >> 20) & mask
                    while True:
                        x = index[h]
                        if x == 0:
                            keys = append(keys, ckey)
                            vals = append(vals, cv)
                            count += 1
                            index[h] = count
                            if 2 * count > mask:
                                mask = 2 * mask + 1
                                index = _reindex(keys, mask)
                            break
                        if keys[x - 1] == ckey:
                            if cv > vals[x - 1]:
                                vals[x - 1] = cv
                            break
                        h = (h + 1) & mask
                jg += 1
    return _VecLayer(keys, vals, index, mask)


def _prune_vec(layer: _VecLayer, vs: int, need_jokers: int) -> _VecLayer:
    """:func:`_prune_plain` in vectors (the layer it gives has no index: none looks a
    key up in it)."""
    keys = layer.keys
    vals = layer.vals
    size = len(keys)
    if size < _PRUNE_FROM:
        return layer
    s0 = [0] * _NSTATES
    s1 = [0] * _NSTATES
    s2 = [0] * _NSTATES
    s3 = [0] * _NSTATES
    sj = [0, 0, 0]
    bit = 1
    # Best score first, then decreasing key with the joker count flipped, in one int.
    order = sorted(
        [(vals[e] >> vs) << _JSHIFT + 2 | (keys[e] ^ _JOKER_BITS) for e in range(size)],
        reverse=True,
    )
    low = (1 << _JSHIFT + 2) - 1
    kept_keys = vec[i64](capacity=size)
    kept_vals = vec[i64](capacity=size)
    for x in order:
        key = (x & low) ^ _JOKER_BITS
        a = key & 63
        b = (key >> 6) & 63
        c = (key >> 12) & 63
        d = (key >> 18) & 63
        j = key >> _JSHIFT
        if s0[a] & s1[b] & s2[c] & s3[d] & sj[j]:
            continue
        kept_keys = append(kept_keys, key)
        kept_vals = append(kept_vals, layer.get(key))
        for y in COVERED[a]:
            s0[y] |= bit
        for y in COVERED[b]:
            s1[y] |= bit
        for y in COVERED[c]:
            s2[y] |= bit
        for y in COVERED[d]:
            s3[y] |= bit
        if j >= need_jokers:
            for y in range(j, 3):
                sj[y] |= bit
        else:
            sj[j] |= bit
        bit <<= 1
    return _VecLayer(kept_keys, kept_vals, vec[i64](), 0)


def _steps_vec(p: Problem, lower: int, t: _Tables) -> Generator[int, None, Plan | None]:
    """:func:`_steps` on a plain problem, in vectors."""
    vs = t.vshift
    layer = _VecLayer(vec[i64]([0]), vec[i64]([0]), vec[i64](), 0)
    layers: list[_VecLayer | None] = []
    occupied = -1
    idle = t.idle
    for n in range(13):
        stepped = False
        for k in range(4):
            if idle[4 * n + k]:
                if occupied < 0:
                    occupied = 0
                    for key in layer.keys:
                        occupied |= key
                if not (occupied >> (6 * t.order[n][k])) & 63:
                    layers.append(None)
                    continue
            layer = _step_vec(p, t, layer, n, k, lower)
            layers.append(layer)
            occupied = -1
            stepped = True
            yield len(layer.keys)
        if stepped:
            layer = _prune_vec(layer, vs, p.need_jokers)
        if not len(layer.keys):
            return None
    best_key = -1
    best = -1
    keys = layer.keys
    vals = layer.vals
    for e in range(len(keys)):
        key = keys[e]
        score = vals[e] >> vs
        if score <= best or score < lower:
            continue
        if (key >> _JSHIFT) & 3 < p.need_jokers:
            continue
        if not (
            RUN_CLOSED[key & 63]
            and RUN_CLOSED[(key >> 6) & 63]
            and RUN_CLOSED[(key >> 12) & 63]
            and RUN_CLOSED[(key >> 18) & 63]
        ):
            continue
        best_key, best = key, score
    if best_key < 0:
        return None
    values: list[Callable[[int], int] | None] = [None if at is None else at.get for at in layers]
    return _unwind(values, t.opts, best_key, best, (1 << vs) - 1, t.order)


def _guesses(p: Problem) -> list[int]:
    """With wrapping runs: every set of open runs that may cross from 13 to 1."""
    per_colour: list[list[int]] = []
    for c in range(4):
        room = min(p.avail[12][c], p.avail[0][c]) + p.jokers
        per_colour.append([i for i, s in enumerate(RUN_STATES) if sum(s) <= room])
    keys = [0]
    for c in range(4):
        keys = [k | (s << (6 * c)) for k in keys for s in per_colour[c]]
    return [k | (k << _GUESS_SHIFT) for k in keys]


def upper_bound(p: Problem) -> int:
    """The score if every tile were used and every joker stood for a 13."""
    total = sum(p.avail[n][c] * (BIG + n + 1) for n in range(13) for c in range(4))
    return total + p.jokers * (BIG + 13)


def run_dp(p: Problem, lower: int, tables: _Tables | None = None) -> Plan | None:
    """The best plan scoring at least ``lower``, or None when no plan reaches it.

    Exact: a state is dropped only when its score plus the most that the tiles still
    to come could add (every copy used, every joker a 13) is below ``lower``.

    A layer maps each state's key to its value: the score, shifted above the key of
    the state it came from and the choice made (the back pointer, in one int).
    """
    plan, _ = _run(p, lower, tables if tables is not None else _tables(p))
    return plan


def _run(p: Problem, lower: int, t: _Tables) -> tuple[Plan | None, int]:
    """:func:`run_dp`, and its work: the states it made."""
    return _finish(_steps(p, lower, t))


def _finish(steps: Generator[int, None, Plan | None]) -> tuple[Plan | None, int]:
    """Run a pass to its end: its plan, and the states it made (from here on)."""
    work = 0
    while True:
        try:
            work += next(steps)
        except StopIteration as stop:
            plan: Plan | None = stop.value
            return plan, work


def solve_problem(p: Problem, floor: int = 0) -> Plan | None:
    """The exact optimum, or None when no plan scores ``floor`` or more.

    Iterative deepening on the bound: first only plans that leave no tile out with
    the jokers as 13s, then jokers a little lower, …, then one tile out, two, four, …
    A pass that finds a
    plan has kept every state that could beat it, so its best plan is the optimum;
    a pass that finds none has cost little, because the bound cut it short.

    Not always little: when many tiles stay out (often with jokers, which open many
    runs), each failing pass costs nearly what one pass with no bound but ``floor``
    does. So that pass runs beside the deepening, step by step: after each failing
    pass it goes on until it has made twice the states the failing passes made
    (work counted in states, so the outcome is deterministic); whichever finishes
    first gives the optimum.
    """
    board = sum(map(sum, p.need))
    if board < SPARSE_ONE_PASS:
        # A sparse board: many rack tiles stay out, the bound is loose, and the
        # states are few: one pass without the bound costs less than several with.
        return run_dp(p, floor)
    tables = _tables(p)
    spent = 0
    unbounded = _steps(p, floor, tables)
    its_work = 0
    for lower in _lowers(p, floor, board):
        if lower == floor:
            break
        plan, work = _run(p, lower, tables)
        if plan is not None:
            return plan
        spent += work
        try:
            while its_work < 2 * spent:
                its_work += next(unbounded)
        except StopIteration as stop:
            found: Plan | None = stop.value
            return found
    plan, _ = _finish(unbounded)
    return plan


def _lowers(p: Problem, floor: int, board: int) -> list[int]:
    """The bounds of the deepening passes, in order; the last is ``floor``."""
    top = upper_bound(p)
    # A score falls short of ``top`` by the tiles left out (BIG + number each) and by
    # at most 12 per joker standing lower than 13: a slack beyond the jokers' 12s
    # and below a whole tile admits no more plans than that, so its pass is skipped.
    jokers_low = 12 * p.jokers
    out: list[int] = []
    for slack in _SLACKS:
        tiles, rest = divmod(slack, BIG + 13)
        slack = tiles * (BIG + 13) + min(rest, jokers_low)
        lower = max(floor, top - slack)
        if lower not in out:
            out.append(lower)
        if lower == floor:
            return out
    if board < SPARSE:
        # More than a tile out on a sparse board: most likely many; one pass without
        # the bound costs less than the passes that would find how many.
        out.append(floor)
        return out
    dropped = 2
    while out[-1] != floor:
        out.append(max(floor, top - dropped * (BIG + 13) - jokers_low))
        dropped *= 2
    return out
