"""Moves, and the legality of a play (docs/rules.md, "A turn").

A play proposes the whole board after the turn. :func:`check_play` accepts it only
if every board tile is still on the board, at least one rack tile was added, every
meld is valid, and the initial-meld and joker rules hold; otherwise it says why.

>>> from meldtour.core.melds import parse_board
>>> from meldtour.core.rules import find_rules
>>> from meldtour.core.tiles import parse_tiles
>>> v = check_play((), parse_tiles(["k8", "r8", "o8"]), parse_board([["k8", "r8", "o8"]]),
...                melded=False, rules=find_rules("krc-2015"))
>>> v.legal, v.reason
(False, 'the initial meld is worth 24: it must be worth 30 or more, from your own tiles')
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from .melds import Board, Meld
from .refusal import Refusal, english, register
from .rules import RuleSet
from .tiles import JOKER_CODE, KINDS, TILES, Tile, format_tiles

register(
    {
        "play.joker_left_board": "a joker on the board must stay on the board: a joker taken "
        "from a meld is used again in the same turn and never goes to "
        "the rack",
        "play.tile_left_board": "tile %(tile)s was on the board and is missing: every board tile "
        "must stay on the board",
        "play.not_on_rack": "tile %(tile)s is not on your rack",
        "play.more_than_rack": "the play uses %(n)s × %(tile)s but your rack holds %(have)s",
        "play.joker_not_replaced": "the joker in %(meld)s may leave it only when the tile it "
        "stands for (%(tiles)s) takes its place",
        "play.no_rack_tile": "no tile from your rack was played: play at least one tile, or draw",
        "play.initial_meld_touches_board": "before your initial meld you may not use or move "
        "tiles on the table (jokers included): put down new "
        "melds from your own rack only",
        "play.initial_meld_too_low": "the initial meld is worth %(total)s: it must be worth "
        "%(need)s or more, from your own tiles",
    }
)


class Fault(enum.Enum):
    """Why a play is not legal.

    ``MALFORMED`` plays cannot exist at a real table (a board tile vanishes, a tile
    that is not on the rack appears): always refused. ``EMPTY``: no rack tile was
    played. ``ILLEGAL``: the board breaks a rule — refused, or under
    ``illegal_end = "penalise"`` a failed turn.
    """

    MALFORMED = "malformed"
    EMPTY = "empty"
    ILLEGAL = "illegal"


@dataclass(frozen=True, slots=True)
class Verdict:
    """A play's legality: ``refusal`` (its code and arguments) says why not, ``reason``
    in English."""

    legal: bool
    refusal: Refusal | None = None
    placed: tuple[Tile, ...] = ()
    fault: Fault | None = None

    @property
    def reason(self) -> str | None:
        return None if self.refusal is None else english(self.refusal)


# ---------------------------------------------------------------- moves


@dataclass(frozen=True, slots=True)
class Draw:
    """Take one tile from the pool; the turn ends."""

    seat: int
    at: float | None = None
    action: ClassVar[str] = "draw"


@dataclass(frozen=True, slots=True)
class Play:
    """Put down tiles: ``board`` is the whole board after the turn."""

    seat: int
    board: Board = ()
    at: float | None = None
    action: ClassVar[str] = "play"


@dataclass(frozen=True, slots=True)
class Draft:
    """The player's board as it stands during the turn (online play): not a move."""

    seat: int
    board: Board = ()
    at: float | None = None
    action: ClassVar[str] = "draft"


@dataclass(frozen=True, slots=True)
class Timeout:
    """The turn's time ran out, with ``board`` (or the last draft) on the table."""

    seat: int
    board: Board | None = None
    at: float | None = None
    action: ClassVar[str] = "timeout"


@dataclass(frozen=True, slots=True)
class Pass:
    """End the turn without playing, when the pool is empty."""

    seat: int
    at: float | None = None
    action: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class Redeal:
    """Demand a new deal with three or more doubles (docs/rules.md, "Setting up a
    game")."""

    seat: int
    at: float | None = None
    action: ClassVar[str] = "redeal"


Move = Draw | Play | Draft | Timeout | Pass | Redeal
ACTIONS: dict[str, type[Move]] = {
    cls.action: cls for cls in (Draw, Play, Draft, Timeout, Pass, Redeal)
}


# ---------------------------------------------------------------- legality


def _counts(board: Sequence[Meld]) -> list[int]:
    vec = [0] * KINDS
    for m in board:
        for t in m.tiles:
            vec[t] += 1
    return vec


def conservation(
    board: Sequence[Meld], rack: Sequence[Tile], new_board: Sequence[Meld]
) -> tuple[Refusal | None, tuple[Tile, ...]]:
    """Check that ``new_board`` = ``board`` + some rack tiles; return (error, placed)."""
    before = _counts(board)
    after = _counts(new_board)
    have = [0] * KINDS
    for t in rack:
        have[t] += 1
    placed: list[Tile] = []
    for code in range(KINDS):
        d = after[code] - before[code]
        if d < 0:
            name = str(TILES[code])
            if code == JOKER_CODE:
                return Refusal("play.joker_left_board"), ()
            return Refusal("play.tile_left_board", {"tile": name}), ()
        if d > have[code]:
            name = str(TILES[code])
            if have[code] == 0:
                return Refusal("play.not_on_rack", {"tile": name}), ()
            return Refusal("play.more_than_rack", {"n": d, "tile": name, "have": have[code]}), ()
        placed.extend([TILES[code]] * d)
    return None, tuple(placed)


def joker_replacement_error(
    board: Sequence[Meld], new_board: Sequence[Meld], wrap: bool
) -> Refusal | None:
    """Under ``joker_retrieval = "replace"``: a joker may leave its role only when the
    tile it stood for takes its place.

    A board joker keeps its role when some joker on the new board stands for the same
    tile. Otherwise the tile it stood for must be on the new board in a meld that also
    holds the rest of the joker's old meld.
    """
    new_roles: list[frozenset[Tile]] = []
    for m in new_board:
        r = m.reading(wrap)
        if r is not None:
            new_roles.extend(frozenset(options) for options in r.stands_for)
    for m in board:
        r = m.reading(wrap)
        if r is None:
            continue
        rest = Counter(t for t in m.tiles if t != JOKER_CODE)
        for options in r.stands_for:
            kept = next((j for j, role in enumerate(new_roles) if role & set(options)), None)
            if kept is not None:
                del new_roles[kept]
                continue
            if not any(
                any(t in n.tiles for t in options) and not (rest - Counter(n.tiles))
                for n in new_board
            ):
                return Refusal(
                    "play.joker_not_replaced",
                    {"meld": str(m), "tiles": " or ".join(format_tiles(options))},
                )
    return None


def check_play(
    board: Sequence[Meld],
    rack: Sequence[Tile],
    new_board: Sequence[Meld],
    melded: bool,
    rules: RuleSet,
) -> Verdict:
    """Is ``new_board`` a legal play from ``board`` with this rack? Says why not."""
    error, placed = conservation(board, rack, new_board)
    if error is not None:
        return Verdict(False, error, (), Fault.MALFORMED)
    if not placed:
        return Verdict(False, Refusal("play.no_rack_tile"), (), Fault.EMPTY)
    wrap = rules.wrap_runs
    for i, m in enumerate(new_board):
        why = m.refusal(wrap)
        if why is not None:
            return Verdict(
                False, Refusal("board.meld", {"i": i + 1, "why": why}), placed, Fault.ILLEGAL
            )
    if not melded:
        error = initial_meld_error(board, new_board, rules)
        if error is not None:
            return Verdict(False, error, placed, Fault.ILLEGAL)
    elif rules.joker_retrieval == "replace":
        error = joker_replacement_error(board, new_board, wrap)
        if error is not None:
            return Verdict(False, error, placed, Fault.ILLEGAL)
    return Verdict(True, None, placed)


def new_melds(
    board: Sequence[Meld], new_board: Sequence[Meld], wrap: bool = False
) -> list[Meld] | None:
    """The melds of ``new_board`` beyond an untouched ``board``; None if it was touched
    (a meld is the same meld when it reads the same under the rules: ``wrap``)."""
    old = Counter(m.key(wrap) for m in board)
    fresh: list[Meld] = []
    for m in new_board:
        k = m.key(wrap)
        if old[k] > 0:
            old[k] -= 1
        else:
            fresh.append(m)
    if any(old.values()):
        return None
    return fresh


def initial_meld_error(
    board: Sequence[Meld], new_board: Sequence[Meld], rules: RuleSet
) -> Refusal | None:
    """Before the initial meld: the board untouched, new melds from the rack worth 30+."""
    fresh = new_melds(board, new_board, rules.wrap_runs)
    if fresh is None:
        return Refusal("play.initial_meld_touches_board")
    total = sum(m.value(rules.wrap_runs) for m in fresh)
    if total < rules.initial_meld:
        return Refusal("play.initial_meld_too_low", {"total": total, "need": rules.initial_meld})
    return None


@dataclass(frozen=True, slots=True)
class DraftReport:
    """What a draft is worth while the player builds it: why each meld is not valid
    yet (None for a valid one), the value of the valid new melds (toward the initial
    meld) and whether the draft touches the board's melds (which the initial meld may
    not)."""

    melds: tuple[Refusal | None, ...]
    value: int
    touches_board: bool


def draft_report(board: Sequence[Meld], new_board: Sequence[Meld], rules: RuleSet) -> DraftReport:
    """The draft ``new_board`` built on ``board``, meld by meld.

    >>> r = draft_report((), (Meld.of("r10", "r11", "r12"), Meld.of("k1", "b1")),
    ...                  RuleSet())
    >>> r.value, r.melds[0], r.melds[1].code, r.touches_board
    (33, None, 'meld.too_short', False)
    """
    wrap = rules.wrap_runs
    why = tuple(m.refusal(wrap) for m in new_board)
    fresh = new_melds(board, new_board, wrap)
    value = sum(m.value(wrap) for m in (fresh or ()) if m.is_valid(wrap))
    return DraftReport(why, value, fresh is None)


__all__ = [
    "ACTIONS",
    "Draft",
    "DraftReport",
    "Draw",
    "Fault",
    "Move",
    "Pass",
    "Play",
    "Redeal",
    "Timeout",
    "Verdict",
    "check_play",
    "conservation",
    "draft_report",
    "initial_meld_error",
    "joker_replacement_error",
    "new_melds",
]
