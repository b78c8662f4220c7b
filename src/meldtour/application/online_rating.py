"""Ratings for online play, derived from the finished games (never stored: a rating is
computed from the game log and the accounts' seats, cached while neither changes).

**Families.** A rating is per *preset family*: the rules preset and the turn's
seconds (``korea-official/40`` is another game from ``korea-official/60``), a house
rule set by its name and seconds too.

**The model.** Each finished game is one ranked match of its seats (by score, a tie
for equal scores) under openskill's Plackett–Luce update — the circuit's own
(:func:`meldtour.tournament.rating.plackett_luce`, pure), game after game in the order
they started.

**What is rated.** A game counts when it was not a tournament's, hints were off, every
person's seat is held by an account (a guest at the table makes it unrated: nobody can
rate against a name that is not kept), and at least one account sat there. Computer
players count at their **fixed, published** ratings (:data:`COMPUTER_RATINGS`): the
update moves the people only, so a learner playing the computers alone sees where
they stand, and the computers' figures never drift.

**Shown.** The figure shown is ``1500 + 60 (μ − 25)`` (a newcomer shows 1500); it is
*provisional* (marked ``?``) for fewer than :data:`PROVISIONAL_GAMES` rated games or
while σ is above :data:`PROVISIONAL_SIGMA`.

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
from meldtour.tournament.rating import MODEL, plackett_luce

#: The computer players' fixed ratings, as shown (published on the lobby).
COMPUTER_RATINGS: Final[Mapping[str, int]] = {
    "beginner": 1200,
    "greedy": 1400,
    "club": 1600,
    "expert": 1800,
}
#: The σ a computer player's fixed rating takes in an update (it is never moved).
COMPUTER_SIGMA: Final = 2.0
NEWCOMER: Final = 1500
SCALE: Final = 60.0
PROVISIONAL_GAMES: Final = 10
PROVISIONAL_SIGMA: Final = 6.5


def shown(mu: float) -> int:
    return round(NEWCOMER + SCALE * (mu - MODEL.mu))


def mu_of(figure: float) -> float:
    return MODEL.mu + (figure - NEWCOMER) / SCALE


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
    account: int
    family: str
    mu: float
    sigma: float
    games: int

    @property
    def shown(self) -> int:
        return shown(self.mu)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES or self.sigma > PROVISIONAL_SIGMA


@dataclass
class Book:
    """Every account's rating per family, and its history."""

    lines: dict[tuple[int, str], Line] = field(default_factory=dict)
    history: dict[tuple[int, str], list[Point]] = field(default_factory=dict)

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


def rate(games: Iterable[Rated]) -> Book:
    """The ratings after these games, in the order given (pure)."""
    book = Book()
    state: dict[tuple[int, str], tuple[float, float, int]] = {}
    for g in games:
        if not g.rated or len(g.scores) != len(g.accounts):
            continue
        mus: list[float] = []
        sigmas: list[float] = []
        who: list[tuple[int, str] | None] = []
        for i, level in enumerate(g.levels):
            if level:
                mus.append(mu_of(COMPUTER_RATINGS.get(level, NEWCOMER)))
                sigmas.append(COMPUTER_SIGMA)
                who.append(None)
            else:
                account = g.accounts[i]
                assert account is not None
                key = (account, g.family)
                mu, sigma, _ = state.get(key, (MODEL.mu, MODEL.sigma, 0))
                mus.append(mu)
                sigmas.append(sigma)
                who.append(key)
        order = sorted(set(g.scores), reverse=True)
        ranks = [order.index(s) + 1 for s in g.scores]
        new_mu, new_sigma = plackett_luce(mus, sigmas, ranks)
        for seat_key, m, sg in zip(who, new_mu, new_sigma, strict=True):
            if seat_key is None:
                continue
            n = state.get(seat_key, (0.0, 0.0, 0))[2] + 1
            state[seat_key] = (m, sg, n)
            book.history.setdefault(seat_key, []).append(Point(g.game_id, g.at, m, sg))
    for (account, family), (mu, sigma, n) in state.items():
        book.lines[(account, family)] = Line(account, family, mu, sigma, n)
    return book


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
    """The ratings now (and the games they come from), computed again only when an
    account's seat or a finished game has been added since the last reading."""
    with store.reading() as s:
        mark = rows.finished_mark(s)
    key = id(store)
    with _LOCK:
        cached = _CACHE.get(key)
        if cached is not None and cached[0] == mark:
            return cached[1], cached[2]
    games = logged_games(store)
    computed = rate(games)
    with _LOCK:
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
    "PROVISIONAL_SIGMA",
    "Book",
    "Line",
    "Point",
    "Rated",
    "book",
    "family_of",
    "level_near",
    "logged_games",
    "mu_of",
    "rate",
    "read_game",
    "shown",
]
