"""The online rating advanced game by game (the cache's way) is the rating computed
from nothing: after finished games are added, an earlier game is inserted (it started
before the newest rated one), a past seat becomes an account's, or a game leaves."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from meldtour.application.online_rating import Book, Rated, advance, rate

FAMILIES = ("krc-2015/60", "japan/40")
LEVELS = ("", "", "", "beginner", "greedy", "club", "expert")


@st.composite
def game(draw: st.DrawFn, n: int) -> Rated:
    seats = draw(st.integers(2, 4))
    levels = tuple(draw(st.sampled_from(LEVELS)) for _ in range(seats))
    accounts = tuple(None if lv else draw(st.one_of(st.none(), st.integers(1, 6))) for lv in levels)
    scores = tuple(draw(st.integers(-30, 30)) for _ in range(seats))
    return Rated(f"g{n}", draw(st.sampled_from(FAMILIES)), float(n), accounts, levels, scores)


@st.composite
def histories(draw: st.DrawFn) -> list[list[Rated]]:
    """Successive states of the log: each the one before with a change."""
    games = [draw(game(i)) for i in range(draw(st.integers(0, 8)))]
    states = [list(games)]
    made = len(games)
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(("add", "add", "insert", "claim", "drop")))
        if kind == "add" or not games:
            games.append(draw(game(made)))
            made += 1
        elif kind == "insert":
            games.insert(draw(st.integers(0, len(games) - 1)), draw(game(made)))
            made += 1
        elif kind == "claim":
            i = draw(st.integers(0, len(games) - 1))
            g = games[i]
            seat = draw(st.integers(0, len(g.levels) - 1))
            accounts = list(g.accounts)
            if not g.levels[seat]:
                accounts[seat] = draw(st.integers(1, 6))
            games[i] = Rated(g.game_id, g.family, g.at, tuple(accounts), g.levels, g.scores)
        else:
            del games[draw(st.integers(0, len(games) - 1))]
        states.append(list(games))
    return states


def same(a: Book, b: Book) -> None:
    assert a.lines == b.lines
    assert a.history == b.history
    assert a.applied == b.applied


@settings(max_examples=150, deadline=None)
@given(histories())
def test_advancing_equals_recomputing(states: list[list[Rated]]) -> None:
    cached: Book | None = None
    kept: list[tuple[Book, Book]] = []
    for games in states:
        fresh = rate(games)
        cached = advance(cached, games)
        same(cached, fresh)
        kept.append((cached, rate(games)))
    # a book once returned is never changed by the books advanced from it
    for book, again in kept:
        same(book, again)


def test_a_finished_game_is_applied_not_recomputed() -> None:
    one = Rated("a", "krc-2015/60", 1.0, (1, 2), ("", ""), (10, -10))
    two = Rated("b", "krc-2015/60", 2.0, (1, None), ("", "club"), (-5, 5))
    first = rate([one])
    second = advance(first, [one, two])
    assert second.history[(1, "krc-2015/60")][0] is first.history[(1, "krc-2015/60")][0]
    assert [p.game_id for p in second.history[(1, "krc-2015/60")]] == ["a", "b"]
    assert [p.game_id for p in first.history[(1, "krc-2015/60")]] == ["a"]
    assert advance(second, [one, two]) is second
