"""Ratings for online play, derived from the finished games (never stored: a rating is
computed from the game log and the accounts' seats, cached while neither changes).

**Families.** A rating is per *preset family*: the rules preset and the turn's
seconds (``korea-official/40`` is another game from ``korea-official/60``), a house
rule set by its name and seconds too.

**The model.** Glicko-2 adapted to four players: each finished game is one rating
period of every account at the table, its results the pairs of the table (a win over
each seat with a lower score, a draw with an equal one, a loss to a higher), all
against the ratings before the game — the circuit's own Glicko-2 step
(:func:`meldtour.tournament.rating.glicko2`, pure), game after game in the order they
started. On the self-play lab's games it predicts the next game's order better than
openskill's Plackett–Luce on every figure measured (``bench/online_models.py``; the
figures in docs/online.md).

**What is rated.** A game counts when it was not a tournament's, hints were off, every
person's seat is held by an account (a guest at the table makes it unrated: nobody can
rate against a name that is not kept), and at least one account sat there. Computer
players count at their **fixed, published** ratings (:data:`COMPUTER_RATINGS`): the
update moves the people only, so a learner playing the computers alone sees where
they stand, and the computers' figures never drift.

**Shown.** The figure shown is Glicko's ``1500 + 173.7 μ`` (a newcomer shows 1500,
deviation 350); it is *provisional* (marked ``?``) for fewer than
:data:`PROVISIONAL_GAMES` rated games or while the deviation is above
:data:`PROVISIONAL_RD`.

>>> book = rate([Rated("g1", "krc-2015/60", 0.0, (1, None), ("", "greedy"), (20, -20))])
>>> book.line(1, "krc-2015/60").shown > 1500, book.line(1, "krc-2015/60").provisional
(True, True)
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from meldtour.core.rules import PRESETS
from meldtour.store import players_online as rows
from meldtour.store.db import Store
from meldtour.tournament.rating import MODEL, glicko2

#: The computer players' fixed ratings, as shown (published on the lobby), weakest
#: first: *measured*, each level rated as one player by the site's model over 400 lab
#: games among the four levels (``bench/online_models.py``, twice over the games, the
#: four levels' mean kept at 1500), rounded to tens. Club is first more often than
#: greedy yet places below it: the rating reads the table's whole order.
COMPUTER_RATINGS: Final[Mapping[str, int]] = {
    "beginner": 1350,
    "club": 1420,
    "greedy": 1580,
    "expert": 1650,
}
#: Glicko-2's scale: a shown rating is ``1500 + SCALE μ``, its deviation ``SCALE φ``.
SCALE: Final = 173.7178
#: A newcomer's rating and deviation (Glickman's), as shown.
NEWCOMER: Final = 1500
NEWCOMER_RD: Final = 350.0
#: The deviation a computer's fixed rating takes in an update (it is never moved).
COMPUTER_RD: Final = 30.0
PROVISIONAL_GAMES: Final = 10
#: Provisional while the deviation (as shown) is above this.
PROVISIONAL_RD: Final = 110.0
#: Glicko-2's volatility: a newcomer's, and τ (how fast it may change).
VOLATILITY: Final = MODEL.volatility
TAU: Final = MODEL.glicko_tau


def shown(mu: float) -> int:
    return round(NEWCOMER + SCALE * mu)


def mu_of(figure: float) -> float:
    return (figure - NEWCOMER) / SCALE


def family_of(preset: str, turn_seconds: int | None) -> str:
    """``krc-2015/60``; a game without a turn clock is ``/0``."""
    return f"{preset}/{int(turn_seconds or 0)}"


@dataclass(frozen=True, slots=True)
class Rated:
    """One finished game as the rating reads it: per seat, the account (None: a guest
    or a computer), the computer's level (``""``: a person) and the score."""

    game_id: str
    family: str
    at: float
    accounts: tuple[int | None, ...]
    levels: tuple[str, ...]
    scores: tuple[int, ...]

    @property
    def rated(self) -> bool:
        people = [i for i, lv in enumerate(self.levels) if not lv]
        return bool(people) and all(self.accounts[i] is not None for i in people)


@dataclass(frozen=True, slots=True)
class Point:
    """A player's rating after one game."""

    game_id: str
    at: float
    mu: float
    sigma: float

    @property
    def shown(self) -> int:
        return shown(self.mu)


@dataclass(frozen=True, slots=True)
class Line:
    """An account's rating in a family: Glicko-2's μ, φ (its scale) and volatility."""

    account: int
    family: str
    mu: float
    sigma: float
    games: int
    vol: float = VOLATILITY

    @property
    def shown(self) -> int:
        return shown(self.mu)

    @property
    def deviation(self) -> float:
        return SCALE * self.sigma

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES or self.deviation > PROVISIONAL_RD


Key = tuple[int, str]


@dataclass
class Book:
    """Every account's rating per family, and its history — and the games applied, in
    order, each with what it changed (to take the newest games back off when an
    earlier one changes). A book once returned is never changed: :func:`advance` makes
    a new one, sharing what the games left alone."""

    lines: dict[Key, Line] = field(default_factory=dict)
    history: dict[Key, list[Point]] = field(default_factory=dict)
    #: The games applied (the first ``count``), each with each seat's line before it
    #: (None: the account's first game in the family). The list may run on past
    #: ``count``: a book advanced from this one appends to it rather than copy it.
    steps: list[tuple[Rated, tuple[tuple[Key, Line | None], ...]]] = field(default_factory=list)
    count: int = 0
    #: The steps' games alone (compared at C speed, element by element).
    played: list[Rated] = field(default_factory=list)

    @property
    def applied(self) -> list[Rated]:
        return self.played[: self.count]

    def line(self, account: int, family: str) -> Line | None:
        return self.lines.get((account, family))

    def of(self, account: int) -> list[Line]:
        return sorted(
            (x for (a, _), x in self.lines.items() if a == account), key=lambda x: -x.games
        )

    def figure(self, account: int | None, family: str) -> float:
        """The figure quick play matches on: the shown rating (a newcomer's without one)."""
        line = None if account is None else self.line(account, family)
        return NEWCOMER if line is None else line.shown


class _Writer:
    """Changes a copy of a book: its dicts copied, a history list copied on its first
    change (the lists the copy shares with the old book are never written), the steps
    shared while only appended to."""

    def __init__(self, old: Book, keep: int) -> None:
        if keep == old.count == len(old.steps):
            steps, played = old.steps, old.played
        else:
            steps, played = old.steps[: old.count], old.played[: old.count]
        self.book = Book(dict(old.lines), dict(old.history), steps, old.count, played)
        self.own: set[Key] = set()

    def points(self, key: Key) -> list[Point]:
        if key not in self.own:
            self.own.add(key)
            self.book.history[key] = list(self.book.history.get(key, ()))
        return self.book.history.setdefault(key, [])

    def take_back(self) -> None:
        """Take the newest applied game off."""
        b = self.book
        b.count -= 1
        b.played.pop()
        _game, undo = b.steps.pop()
        for key, before in reversed(undo):
            points = self.points(key)
            points.pop()
            if before is None:
                del b.lines[key]
                if not points:
                    del b.history[key]
            else:
                b.lines[key] = before

    def apply(self, g: Rated) -> None:
        b = self.book
        b.count += 1
        b.played.append(g)
        if not g.rated or len(g.scores) != len(g.accounts):
            b.steps.append((g, ()))
            return
        before: list[tuple[float, float, float]] = []
        who: list[Key | None] = []
        for i, level in enumerate(g.levels):
            if level:
                fixed = mu_of(COMPUTER_RATINGS.get(level, NEWCOMER))
                before.append((fixed, COMPUTER_RD / SCALE, VOLATILITY))
                who.append(None)
            else:
                account = g.accounts[i]
                assert account is not None
                key = (account, g.family)
                line = b.lines.get(key)
                before.append(
                    (0.0, NEWCOMER_RD / SCALE, VOLATILITY)
                    if line is None
                    else (line.mu, line.sigma, line.vol)
                )
                who.append(key)
        changed: list[tuple[Key, Line | None]] = []
        for i, seat_key in enumerate(who):
            if seat_key is None:
                continue
            results = [
                (
                    before[j][0],
                    before[j][1],
                    1.0
                    if g.scores[i] > g.scores[j]
                    else 0.5
                    if g.scores[i] == g.scores[j]
                    else 0.0,
                )
                for j in range(len(who))
                if j != i
            ]
            m, phi, vol = glicko2(*before[i], results, TAU)
            phi = min(phi, NEWCOMER_RD / SCALE)
            old_line = b.lines.get(seat_key)
            changed.append((seat_key, old_line))
            n = 1 if old_line is None else old_line.games + 1
            b.lines[seat_key] = Line(seat_key[0], seat_key[1], m, phi, n, vol)
            self.points(seat_key).append(Point(g.game_id, g.at, m, phi))
        b.steps.append((g, tuple(changed)))


def advance(previous: Book | None, games: Sequence[Rated]) -> Book:
    """The ratings after ``games`` (in the order given), from a book of earlier games:
    the games it applied that ``games`` still begins with are kept, the others taken
    back off, and the rest applied — the same book as :func:`rate` gives (pure; the
    previous book is left as it was)."""
    old = previous or Book()
    games = list(games)
    same = min(old.count, len(games))
    if old.played[:same] != games[:same]:
        same = next(i for i, (a, b) in enumerate(zip(old.played, games, strict=False)) if a != b)
    if same == old.count == len(games):
        return old
    writer = _Writer(old, same)
    while writer.book.count > same:
        writer.take_back()
    for g in games[same:]:
        writer.apply(g)
    return writer.book


def rate(games: Iterable[Rated]) -> Book:
    """The ratings after these games, in the order given, computed from nothing (pure)."""
    return advance(None, list(games))


def read_game(
    game_id: str,
    header: Mapping[str, Any],
    result: Mapping[str, Any],
    started_at: float,
    seats: Mapping[int, int],
) -> Rated | None:
    """A logged game as the rating reads it, or None when it cannot count (a
    tournament's, hints on, no result)."""
    table = header.get("table")
    scores = result.get("scores")
    if not isinstance(table, dict) or not isinstance(scores, list) or not scores:
        return None
    if table.get("tournament") or table.get("hints"):
        return None
    spec = table.get("rules", header.get("rules"))
    if isinstance(spec, str):
        preset = PRESETS.get(spec)
        if preset is None:
            return None
        family = family_of(spec, preset.turn_seconds)
    elif isinstance(spec, dict):
        family = family_of(str(spec.get("name", "?")), spec.get("turn_seconds"))
    else:
        return None
    levels = tuple(
        str(s.get("level") or "") if s.get("kind") == "computer" else ""
        for s in table.get("seats", [])
    )
    if len(levels) != len(scores):
        return None
    accounts = tuple(seats.get(i) for i in range(len(levels)))
    return Rated(game_id, family, started_at, accounts, levels, tuple(int(x) for x in scores))


def logged_games(store: Store) -> list[Rated]:
    """Every finished game an account sat in, as the rating reads it."""
    with store.reading() as s:
        seats: dict[str, dict[int, int]] = {}
        for game_id, seat, account in rows.every_seat(s):
            seats.setdefault(game_id, {})[seat] = account
        games = rows.finished_games(s)
    out = []
    for game_id, header, result, started in games:
        found = read_game(game_id, header, result, started, seats.get(game_id, {}))
        if found is not None:
            out.append(found)
    return out


_LOCK = threading.Lock()
_CACHE: dict[int, tuple[tuple[int, int], Book, list[Rated]]] = {}


def book(store: Store) -> tuple[Book, list[Rated]]:
    """The ratings now (and the games they come from). Read again only when an
    account's seat or a finished game has been added since the last reading, and then
    advanced (:func:`advance`) from the cached book: a game that finished is applied to it;
    only when an earlier record changed (a seat claimed by a new account, a game that
    started before the newest rated one) are the games after it taken back and applied
    again."""
    with store.reading() as s:
        mark = rows.finished_mark(s)
    key = id(store)
    with _LOCK:
        cached = _CACHE.get(key)
        if cached is not None and cached[0] == mark:
            return cached[1], cached[2]
    games = logged_games(store)
    with _LOCK:  # advancing appends to the steps the cached book shares: one at a time
        cached = _CACHE.get(key)
        computed = advance(None if cached is None else cached[1], games)
        _CACHE[key] = (mark, computed, games)
    return computed, games


def level_near(figure: float, levels: Sequence[str] | None = None) -> str:
    """The computer level whose fixed rating is nearest ``figure``."""
    pool = list(levels or COMPUTER_RATINGS)
    return min(pool, key=lambda lv: (abs(COMPUTER_RATINGS[lv] - figure), COMPUTER_RATINGS[lv]))


__all__ = [
    "COMPUTER_RATINGS",
    "NEWCOMER",
    "PROVISIONAL_GAMES",
    "PROVISIONAL_RD",
    "Book",
    "Line",
    "Point",
    "Rated",
    "advance",
    "book",
    "family_of",
    "level_near",
    "logged_games",
    "mu_of",
    "rate",
    "read_game",
    "shown",
]
