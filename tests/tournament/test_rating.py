"""The rating model (tournament/rating.py): what is rated (the stage's own order: wins,
then points), pools kept apart by the caller, rating periods with σ growing while idle,
provisional players apart, the as-of date, the events' date order; and, by hypothesis,
that the rating is a function of the records alone (no order of rows, no run, changes
it)."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import date, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from meldtour.tournament.rating import (
    MODEL,
    RatedEvent,
    RatingBook,
    TableGames,
    default_pool,
    grown,
    orders,
    plackett_luce,
    rate_pool,
    stage_order,
    table_order,
)

DAY = date(2026, 8, 30)


def every(book: RatingBook) -> dict[int, tuple[float, float, int]]:
    return {r.person: (r.mu, r.sigma, r.games) for r in (*book.lines, *book.provisional)}


def japan_event(key: str = "japan-2026/open", day: date = DAY) -> RatedEvent:
    """The finding's shape: 1 wins 6 of 12 games with few points; 2 wins 4 with many
    more points; 3 and 4 are the field. Every table holds all four (all else equal)."""
    tables = []
    for r in range(1, 7):
        games = (
            (1, (5, -2, -1, -2), 1),  # 1 wins small
            (2, (-40, 60, -10, -10), 2) if r <= 4 else (2, (-20, -10, 40, -10), 3),
        )
        tables.append(TableGames(0, r, 1, (1, 2, 3, 4), games))
    return RatedEvent(key, day, "wins", 100, tuple(tables), frozenset({0}))


def test_the_champion_by_wins_rates_above_more_points_with_fewer_wins() -> None:
    ev = japan_event()
    standing = stage_order(ev.tables, "wins")
    assert standing[0] == (1,) and standing[1] == (2,)
    wins = {p: sum(g[2] == p for t in ev.tables for g in t.games) for p in (1, 2)}
    points = {p: sum(g[1][p - 1] for t in ev.tables for g in t.games) for p in (1, 2)}
    assert wins[1] > wins[2] and points[2] > points[1]
    for unit in ("stage", "table"):
        mu = {
            p: m
            for p, (m, _s, _g) in every(rate_pool([ev], DAY, replace(MODEL, unit=unit))).items()
        }
        assert mu[1] > mu[2], unit


def test_league_and_points_modes_rank_as_the_stage_does() -> None:
    # wins 2, 0, 1; points 12, -157, 145; league 212, -157, 245
    t = TableGames(
        0, 1, 1, (1, 2, 3), ((1, (10, -5, -5), 1), (2, (5, -2, -3), 1), (3, (-3, -150, 153), 3))
    )
    assert table_order(t, "wins") == ((1,), (3,), (2,))
    assert table_order(t, "points") == ((3,), (1,), (2,))
    assert table_order(t, "league", 100) == ((3,), (1,), (2,))
    tied = TableGames(0, 1, 1, (1, 2), ((1, (5, -5), 1), (2, (-5, 5), 2)))
    assert table_order(tied, "wins") == ((1, 2),)  # equal on the rule: a tie, no lot


def test_sigma_grows_while_idle_and_the_next_event_starts_from_it() -> None:
    ev = japan_event(day=date(2025, 1, 10))
    soon = rate_pool([ev], date(2025, 1, 20)).line(1)
    later = rate_pool([ev], date(2026, 1, 20)).line(1)
    assert soon is not None and later is not None
    assert later.mu == soon.mu and later.sigma > soon.sigma
    assert later.sigma == grown(soon.sigma, (date(2026, 1, 20) - ev.day).days // 30)
    assert grown(soon.sigma, 10_000) == MODEL.sigma  # never above a new player's
    # a second event a year later moves the rating more than one a week later
    again = japan_event("b/open", date(2026, 1, 20))
    week = japan_event("b/open", date(2025, 1, 17))
    far = rate_pool([ev, again], date(2026, 1, 21)).line(4)
    near = rate_pool([ev, week], date(2025, 1, 18)).line(4)
    first = rate_pool([ev], date(2025, 1, 11)).line(4)
    assert far is not None and near is not None and first is not None
    assert abs(far.mu - first.mu) > abs(near.mu - first.mu)


def test_provisional_players_are_listed_apart() -> None:
    ev = japan_event()
    book = rate_pool([ev], DAY)
    assert not book.lines and {r.person for r in book.provisional} == {1, 2, 3, 4}
    # four more events make them established; a long absence makes them provisional again
    evs = [japan_event(f"e{i}/open", DAY + timedelta(days=7 * i)) for i in range(6)]
    book = rate_pool(evs, DAY + timedelta(days=40))
    assert {r.person for r in book.lines} == {1, 2, 3, 4} and not book.provisional
    assert [r.ordinal for r in book.lines] == sorted((r.ordinal for r in book.lines), reverse=True)
    away = rate_pool(evs, DAY + timedelta(days=3 * 365))
    assert not away.lines and len(away.provisional) == 4


def test_the_as_of_date_counts_only_the_events_held_by_then() -> None:
    a, b = japan_event("a/open", date(2026, 3, 1)), japan_event("b/open", date(2026, 5, 1))
    book = rate_pool([a, b], date(2026, 4, 1))
    assert book.events == ("a/open",)
    assert every(book) == every(rate_pool([a], date(2026, 4, 1)))
    assert [h.event for h in rate_pool([a, b], DAY).history[1]] == ["a/open", "b/open"]


def test_events_are_rated_in_date_order_whatever_order_they_come_in() -> None:
    a = japan_event("z-late-award/open", date(2026, 3, 1))  # awarded last, played first
    b = replace(
        japan_event("a-early-award/open", date(2026, 5, 1)),
        tables=tuple(replace(t, players=(4, 3, 2, 1)) for t in japan_event().tables),
    )
    one, two = rate_pool([a, b], DAY), rate_pool([b, a], DAY)
    assert every(one) == every(two)
    assert [h.event for h in one.history[1]] == ["z-late-award/open", "a-early-award/open"]


def test_the_templates_pools_keep_korean_adults_children_and_japan_apart() -> None:
    assert default_pool("busan-2015", "general") == "korea"
    assert (
        default_pool("busan-2015", "lower")
        == default_pool("busan-2015", "upper")
        == "korea-children"
    )
    assert default_pool("japan-championship", "open") == "japan"
    assert default_pool("my-own", "x") == "other"


def test_a_knockout_and_a_final_are_rated_by_their_tables() -> None:
    seat = TableGames(0, 1, 1, (1, 2, 3, 4), ((1, (9, -3, -3, -3), 1),))
    ko = TableGames(1, 1, 1, (5, 6, 7, 8), ((1, (9, -3, -3, -3), 5),))
    ko2 = TableGames(1, 1, 2, (1, 2, 7, 8), ((1, (9, -3, -3, -3), 1),))
    ev = RatedEvent("x/d", DAY, "wins", 100, (seat, ko, ko2), frozenset({0}))
    assert len(orders(ev, "stage")) == 3 and len(orders(ev, "table")) == 3
    assert len(orders(replace(ev, tables=(seat, replace(seat, round=2))), "stage")) == 1


# --------------------------------------------------------------------------
# Invariants


@st.composite
def seasons(draw: st.DrawFn) -> list[RatedEvent]:
    rng = random.Random(draw(st.integers(0, 10_000)))
    people = list(range(1, draw(st.integers(4, 12)) + 1))
    out = []
    for e in range(draw(st.integers(1, 5))):
        day = DAY + timedelta(days=rng.randrange(400))
        tables = []
        for r in range(1, rng.randint(1, 3) + 1):
            rng.shuffle(people)
            for i in range(len(people) // 4):
                seat = tuple(people[4 * i : 4 * i + 4])
                games = []
                for g in range(1, rng.randint(1, 3) + 1):
                    w = rng.randrange(4)
                    loss = [-rng.randint(0, 40) for _ in range(4)]
                    loss[w] = -sum(x for j, x in enumerate(loss) if j != w)
                    games.append((g, tuple(loss), seat[w]))
                tables.append(TableGames(0, r, i + 1, seat, tuple(games)))
        out.append(
            RatedEvent(
                f"t{e}/d",
                day,
                rng.choice(("wins", "league", "points")),
                100,
                tuple(tables),
                frozenset({0}),
            )
        )
    return out


@settings(max_examples=40, deadline=None)
@given(seasons(), st.randoms(use_true_random=False), st.sampled_from(("stage", "table", "game")))
def test_the_rating_is_a_function_of_the_records_alone(
    season: list[RatedEvent], rnd: random.Random, unit: str
) -> None:
    model = replace(MODEL, unit=unit)  # type: ignore[arg-type]
    as_of = DAY + timedelta(days=500)
    book = rate_pool(season, as_of, model)
    # the rows in any order: events, their tables, each table's games
    shuffled = []
    for ev in rnd.sample(season, len(season)):
        tables = [replace(t, games=tuple(rnd.sample(t.games, len(t.games)))) for t in ev.tables]
        shuffled.append(replace(ev, tables=tuple(rnd.sample(tables, len(tables)))))
    again = rate_pool(shuffled, as_of, model)
    assert again == book
    assert rate_pool(season, as_of, model) == book  # deterministic
    # everyone who played is rated once, in one of the two lists, each list best first
    played = {p for ev in season for t in ev.tables if t.games for p in t.players}
    rated = [r.person for r in (*book.lines, *book.provisional)]
    assert sorted(rated) == sorted(played)
    for lines in (book.lines, book.provisional):
        assert [r.ordinal for r in lines] == sorted((r.ordinal for r in lines), reverse=True)
    assert all(r.sigma <= MODEL.sigma + 1e-9 for r in (*book.lines, *book.provisional))


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.floats(0, 50), st.floats(0.5, 8.4), st.integers(1, 4)), min_size=2, max_size=4
    )
)
def test_the_direct_update_is_openskills_plackett_luce(
    players: list[tuple[float, float, int]],
) -> None:
    from openskill.models import PlackettLuce

    # ranks as a table gives them: 1, 2, ... with ties sharing one
    levels = sorted({r for _m, _s, r in players})
    ranks = [levels.index(r) + 1 for _m, _s, r in players]
    pl = PlackettLuce(mu=MODEL.mu, sigma=MODEL.sigma, beta=MODEL.beta, tau=MODEL.tau)
    after = pl.rate(
        [[pl.rating(mu=m, sigma=s)] for m, s, _r in players], ranks=[float(r) for r in ranks]
    )
    mus, sigmas = plackett_luce([m for m, _s, _r in players], [s for _m, s, _r in players], ranks)
    for team, m, s in zip(after, mus, sigmas, strict=True):
        assert abs(team[0].mu - m) < 1e-9 and abs(team[0].sigma - s) < 1e-9
