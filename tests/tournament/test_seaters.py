"""The seating methods' registry: every method seats validly behind one interface, and
``swiss`` seats players of close standing together without more repeats than random."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meldtour.core.rules import find_rules
from meldtour.tournament import (
    Division,
    StageFormat,
    Tournament,
    TournamentError,
    check_in,
    register,
    stage_standings,
    start_division,
    start_stage,
)
from meldtour.tournament.seating import (
    SEATERS,
    Seating,
    SeatingError,
    SeatingTask,
    find_seater,
    group_clashes,
    plan_seatings,
    repeats,
    seaters_for,
    table_sizes,
)
from meldtour.tournament.simulate import play_round, simulate_seatings, table_gaps


def assert_valid(plan: tuple[Seating, ...], people: set[int], table_size: int) -> None:
    for s in plan:
        assert len(s.players) == len(people) and set(s.players) == people
        assert sorted((len(t) for t in s.tables), reverse=True) == list(
            table_sizes(len(people), table_size)
        )


def test_the_registry_names_its_methods() -> None:
    assert list(SEATERS) == ["random", "balanced", "swiss", "snake", "by-rating", "by-ranking"]
    for name, seater in SEATERS.items():
        assert seater.name == name and seater.label and seater.description
        assert find_seater(name) is seater
    assert [s.name for s in seaters_for("seatings")] == [
        "random",
        "balanced",
        "swiss",
        "by-rating",
        "by-ranking",
    ]
    assert "snake" in [s.name for s in seaters_for("knockout")]
    with pytest.raises(SeatingError, match="unknown seating method 'nope'"):
        plan_seatings(range(1, 9), 1, method="nope")
    with pytest.raises(TournamentError):
        StageFormat("seatings", seating="nope")


@settings(max_examples=30, deadline=None)
@given(
    n=st.integers(min_value=6, max_value=40),
    rounds=st.integers(min_value=1, max_value=3),
    table_size=st.sampled_from([3, 4]),
    seed=st.integers(min_value=0, max_value=10**6),
    method=st.sampled_from(sorted(SEATERS)),
    with_history=st.booleans(),
)
def test_every_method_seats_everyone_once_and_keeps_groups_apart(
    n: int,
    rounds: int,
    table_size: int,
    seed: int,
    method: str,
    with_history: bool,
) -> None:
    people = set(range(1, n + 1))
    rng = random.Random(seed)
    standings = {p: float(rng.randint(-50, 50)) for p in people} if with_history else None
    history = (
        plan_seatings(people, 1, method="random", table_size=table_size, seed=seed)
        if with_history
        else ()
    )
    groups = {1: {"family:kim"}, 2: {"family:kim"}, 3: {"club:busan"}, 4: {"club:busan"}}
    kwargs = {
        "method": method,
        "table_size": table_size,
        "seed": seed,
        "history": history,
        "standings": standings,
        "groups": groups,
        "effort": 0.2,
    }
    plan = plan_seatings(people, rounds, **kwargs)  # type: ignore[arg-type]
    assert len(plan) == rounds
    assert_valid(plan, people, table_size)
    if find_seater(method).keeps_groups:
        assert group_clashes(plan, groups) == 0
    assert plan_seatings(people, rounds, **kwargs) == plan  # type: ignore[arg-type]


def test_swiss_seats_by_standings_and_counts_the_meetings_had() -> None:
    swiss = find_seater("swiss")
    people = tuple(range(1, 13))
    task = SeatingTask(people, 1, (4, 4, 4), standings={p: float(-p) for p in people})
    assert swiss.seat(task, random.Random(1))[0].tables == (
        (1, 2, 3, 4),
        (5, 6, 7, 8),
        (9, 10, 11, 12),
    )
    # 1-2-3-4 met before: a swap with the next table breaks the table up
    met = Seating(((1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12)))
    again = swiss.seat(
        SeatingTask(people, 1, (4, 4, 4), history=(met,), standings=task.standings),
        random.Random(1),
    )[0]
    assert repeats((met, again)) < repeats((met, met))
    assert set(again.tables[2]) & {9, 10, 11, 12}  # nobody is moved far
    for p in people:  # each stays within one table of where the standings put them
        assert abs(again.table_of(p) - (p - 1) // 4 - 1) <= 1


@pytest.mark.parametrize("seed", [0, 1])
def test_swiss_on_a_simulated_event(seed: int) -> None:
    """24 players, 10 seatings, 2 plausible games a table each time: swiss seats closer
    standings together than balanced and random, with no more repeats than random."""
    events = {
        m: simulate_seatings(24, 10, m, seed=seed, effort=0.5)
        for m in ("swiss", "balanced", "random")
    }
    for event in events.values():
        assert_valid(event.seatings, set(range(1, 25)), 4)
    gap = {m: e.gap() for m, e in events.items()}
    assert gap["swiss"] < gap["balanced"] and gap["swiss"] < gap["random"]
    assert gap["swiss"] < 0.6 * min(gap["balanced"], gap["random"])
    assert repeats(events["swiss"].seatings) <= repeats(events["random"].seatings)
    # deterministic given the seed
    assert simulate_seatings(24, 10, "swiss", seed=seed, effort=0.5) == events["swiss"]


def test_a_swiss_stage_is_seated_again_from_the_standings_every_round() -> None:
    div = Division(
        "open",
        "Open",
        24,
        find_rules("japan"),
        (StageFormat("seatings", games=2, seatings=4, seating="swiss"),),
    )
    t = Tournament("Swiss cup", "2026-05-01", (div,), seed=7)
    for i in range(1, 25):
        t = register(t, "open", f"P{i}").tournament
    for r in t.registrations:
        t = check_in(t, r.player).tournament
    t = start_division(t, "open").tournament
    t = start_stage(t, "open").tournament
    assert len(t.division("open").stages[0].plan) == 1  # one round at a time
    gaps: list[int] = []
    strength = {p: 0.5 + p / 12 for p in range(1, 25)}
    for number in range(1, 5):
        before = {s.player: s.rank for s in stage_standings(t, "open")} if number > 1 else {}
        t = play_round(t, "open", seed=3, strength=strength).tournament
        seating = t.division("open").stages[0].rounds[number - 1].seating
        assert_valid((seating,), set(range(1, 25)), 4)
        if before:
            points = [-before[p] for p in range(1, 25)]
            gaps.extend(table_gaps(seating, points))
    assert t.division("open").stages[0].finished
    assert sum(gaps) / len(gaps) < 8  # random seating gives about 15
