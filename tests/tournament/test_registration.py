"""Registration: cap, waitlist, check-in, no-shows, drops, late entry; stage rules."""

from __future__ import annotations

import pytest

from meldtour.core.rules import find_rules
from meldtour.tournament import (
    Division,
    StageFormat,
    Tournament,
    TournamentError,
    check_in,
    close_round,
    drop,
    late_entry,
    register,
    seat_round,
    set_cap,
    start_division,
    start_stage,
    withdraw,
)
from meldtour.tournament.seating import snake_seating
from meldtour.tournament.simulate import play_round

KRC = find_rules("krc-2015")


def small(cap: int = 8, late: bool = False, fmt: StageFormat | None = None) -> Tournament:
    div = Division(
        "d",
        "Division",
        cap,
        KRC,
        (fmt or StageFormat("seatings", games=1, seatings=3, seating="balanced"),),
        eligibility="anyone who can play",
        late_entry=late,
    )
    return Tournament("Club night", "2024-01-01", (div,), seed=3)


def test_cap_waitlist_and_moving_up() -> None:
    t = small(cap=2)
    for name in ("A", "B", "C", "D"):
        t = register(t, "d", name).tournament
    assert [r.status for r in t.registrations] == [
        "registered",
        "registered",
        "waitlisted",
        "waitlisted",
    ]
    t, notices, _ = withdraw(t, 2)
    assert [n.text for n in notices] == ["B withdrew", "C moved up from the waitlist"]
    t, notices, _ = set_cap(t, "d", 4)
    assert t.registration(4).status == "registered"
    assert t.division("d").eligibility == "anyone who can play"


def test_check_in_and_no_shows() -> None:
    t = small()
    for i in range(1, 8):
        t = register(t, "d", f"P{i}").tournament
    for p in (1, 2, 3, 4, 5, 6):
        t = check_in(t, p).tournament
    t, notices, _ = start_division(t, "d")
    assert t.registration(7).status == "no_show"
    assert notices[-1].text == "Division starts with 6 players"
    with pytest.raises(TournamentError, match="nobody enters"):
        check_in(t, 7)
    with pytest.raises(TournamentError, match="registration is closed"):
        register(t, "d", "Late")
    t = start_stage(t, "d").tournament
    t = seat_round(t, "d").tournament
    rnd = t.division("d").stages[0].rounds[0]
    assert sorted(len(x.players) for x in rnd.tables) == [3, 3]  # 6: two tables of 3


def test_a_stage_needs_its_sheets_before_the_round_closes() -> None:
    t = small()
    for i in range(1, 9):
        t = register(t, "d", f"P{i}").tournament
        t = check_in(t, i).tournament
    with pytest.raises(TournamentError, match="close check-in"):
        start_stage(t, "d")
    t = start_division(t, "d").tournament
    t = start_stage(t, "d").tournament
    t = seat_round(t, "d").tournament
    with pytest.raises(TournamentError, match="waits for the sheets"):
        close_round(t, "d")
    with pytest.raises(TournamentError, match="not closed"):
        seat_round(t, "d")


def test_drop_and_late_entry_replan_the_seatings() -> None:
    t = small(cap=12, late=True)
    for i in range(1, 10):
        t = register(t, "d", f"P{i}").tournament
        t = check_in(t, i).tournament
    t = start_division(t, "d").tournament
    t = start_stage(t, "d").tournament
    t = play_round(t, "d", 1).tournament
    t = late_entry(t, "d", "P10").tournament
    assert t.registration(10).late and t.registration(10).status == "checked_in"
    t = play_round(t, "d", 1).tournament
    t = drop(t, 3, "ill").tournament
    t = play_round(t, "d", 1).tournament
    rounds = t.division("d").stages[0].rounds
    assert [len(r.seating.players) for r in rounds] == [9, 10, 9]
    assert 10 not in rounds[0].seating.players and 3 not in rounds[2].seating.players
    with pytest.raises(TournamentError, match="not playing"):
        drop(t, 3)


def test_no_late_entry_unless_allowed_and_not_past_the_first_stage() -> None:
    t = small(late=False)
    for i in range(1, 5):
        t = register(t, "d", f"P{i}").tournament
        t = check_in(t, i).tournament
    t = start_division(t, "d").tournament
    with pytest.raises(TournamentError, match="no late entries"):
        late_entry(t, "d", "X")


def test_five_players_cannot_be_seated() -> None:
    t = small()
    for i in range(1, 6):
        t = register(t, "d", f"P{i}").tournament
        t = check_in(t, i).tournament
    t = start_division(t, "d").tournament
    with pytest.raises(TournamentError, match="table of 2 or 5"):
        start_stage(t, "d")


def test_knockout_snake_seeding_and_formats() -> None:
    fmt = StageFormat("knockout", games=1, advance=2, seating="snake")
    t = small(cap=16, fmt=fmt)
    for i in range(1, 17):
        t = register(t, "d", f"P{i}").tournament
        t = check_in(t, i).tournament
    t = start_division(t, "d").tournament
    seeded = start_stage(t, "d", seeding=[16, 15]).tournament
    assert seeded.division("d").stages[0].entrants[:3] == (16, 15, 1)
    t = start_stage(t, "d").tournament
    t = play_round(t, "d", 9).tournament  # seats, plays and closes round 1
    rnd = t.division("d").stages[0].rounds[0]
    assert rnd.seating.tables[0] == (1, 8, 9, 16)  # snake by registration order
    game_winners = set()
    for x in rnd.tables:
        (line,) = x.sheet.counted or ()
        assert line.winner is not None
        game_winners.add(x.players[line.winner - 1])
    assert set(rnd.advanced[:4]) == game_winners  # table winners are seeded first
    t = play_round(t, "d", 9).tournament
    second = t.division("d").stages[0].rounds[1].seating
    assert second == snake_seating(rnd.advanced)
    with pytest.raises(TournamentError):
        StageFormat("knockout", advance=4)
    with pytest.raises(TournamentError):
        StageFormat("seatings", seating="snake")
    with pytest.raises(TournamentError):
        Division("x", "X", 4, KRC, (StageFormat("final"),))


def test_a_cut_that_splits_a_shared_rank_is_refused() -> None:
    from meldtour.tournament import StandingRules, enter_table_game, submit_table

    div = Division(
        "d",
        "D",
        8,
        KRC,
        (StageFormat("seatings", games=1), StageFormat("final", entrants=3)),
        ranking=StandingRules(chain=()),
    )  # no tie-break at all
    t = Tournament("Cut", "2024-01-01", (div,))
    for i in range(1, 9):
        t = register(t, "d", f"P{i}").tournament
        t = check_in(t, i).tournament
    t = start_division(t, "d").tournament
    t = start_stage(t, "d").tournament
    t = seat_round(t, "d").tournament
    for table in (1, 2):
        t = enter_table_game(t, "d", 1, table, 1, (10, -10, 0, 0), who="ref").tournament
        t = submit_table(t, "d", 1, table, who="ref").tournament
    t = close_round(t, "d").tournament
    with pytest.raises(TournamentError, match="splits players tied at rank 3"):
        start_stage(t, "d")
