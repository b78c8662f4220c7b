"""Acceptance: whole tournaments of the seeds, played with computer-generated results.

Each result is made from real tiles by :mod:`meldtour.tournament.simulate` and passes
the score-sheet checks; each tournament ends with its awards.
"""

from __future__ import annotations

import random
from datetime import date
from fractions import Fraction

import pytest

from meldtour.core.rules import find_rules
from meldtour.tournament import (
    Division,
    StageFormat,
    StandingRules,
    Tournament,
    TournamentError,
    awards,
    check_in,
    close_round,
    drop,
    enter_table_game,
    final_ranking,
    late_entry,
    register,
    repeats,
    seat_round,
    stage_standings,
    start_division,
    start_stage,
    submit_table,
    withdraw,
)
from meldtour.tournament.ranking import (
    RankingConfig,
    TournamentResult,
    national_ranking,
    rate_games,
)
from meldtour.tournament.sheets import check_sheet
from meldtour.tournament.side import (
    PollError,
    cast_vote,
    close_poll,
    draw_prizes,
    family_prizes,
    first_final_game_played,
    open_poll,
)
from meldtour.tournament.simulate import plausible_game, play_round

KRC = find_rules("krc-2015")
JAPAN = find_rules("japan")


def play_stage(t: Tournament, division: str, seed: int) -> Tournament:
    t = start_stage(t, division).tournament
    while not t.division(division).stages[-1].finished:
        t = play_round(t, division, seed).tournament
    return t


def assert_all_sheets_valid(t: Tournament, division: str) -> int:
    div = t.division(division)
    games = 0
    for stage in div.stages:
        for rnd in stage.rounds:
            for table in rnd.tables:
                assert table.sheet.counted is not None
                assert check_sheet(table.sheet, div.rules) == ()
                for g in table.sheet.counted:
                    pts = [p or 0 for p in g.points]
                    assert sum(pts) == 0
                    assert g.winner is not None and pts[g.winner - 1] == max(pts)
                    games += 1
    return games


# ---------------------------------------------------------------------------
# Busan, 5 December 2015 (000)


def busan() -> Tournament:
    general = Division(
        "general",
        "일반부 General",
        64,
        KRC,
        (
            StageFormat("seatings", games=4, seatings=2, name="preliminaries"),
            StageFormat("final", games=3, entrants=4, name="final"),
        ),
        eligibility="middle school and older",
    )
    knockout = (StageFormat("knockout", games=1, advance=2, final_games=1, name="knockout"),)
    lower = Division(
        "lower",
        "초등 저학년부 Elementary 1-3",
        32,
        KRC,
        knockout,
        eligibility="elementary grades 1-3",
    )
    upper = Division(
        "upper",
        "초등 고학년부 Elementary 4-6",
        32,
        KRC,
        knockout,
        eligibility="elementary grades 4-6",
    )
    return Tournament("KRC 2015 Busan", "2015-12-05", (general, lower, upper), seed=2015)


def register_busan(t: Tournament) -> Tournament:
    family = {
        1: ("family:kim", 1),
        2: ("family:kim", 2),
        3: ("family:lee", 2),
        4: ("family:lee", 2),
        5: ("family:park", 2),
    }
    for i in range(1, 67):
        tag, gen = family.get(i, (None, None))
        t = register(
            t, "general", f"G{i:02d}", tags=[tag] if tag else [], generation=gen
        ).tournament
    kids = {1: ("family:kim", 3), 2: ("family:park", 3)}
    for i in range(1, 33):
        tag, gen = kids.get(i, (None, None))
        t = register(t, "lower", f"L{i:02d}", tags=[tag] if tag else [], generation=gen).tournament
    for i in range(1, 33):
        tags = ["family:lee"] if i == 1 else []
        t = register(t, "upper", f"U{i:02d}", tags=tags, generation=3 if tags else None).tournament
    return t


def test_the_busan_day() -> None:
    t = register_busan(busan())
    general = t.in_division("general")
    assert [r.status for r in general].count("waitlisted") == 2  # 66 for 64 places
    t, notices, _ = withdraw(t, general[9].player)
    assert notices[-1].text == "G65 moved up from the waitlist"
    for r in t.registrations:
        if r.status == "registered":
            t = check_in(t, r.player).tournament
    for key in ("general", "lower", "upper"):
        t = start_division(t, key).tournament
    assert len(t.in_division("general", "checked_in")) == 64
    with pytest.raises(TournamentError, match="has started"):
        check_in(t, t.in_division("general", "waitlisted")[0].player)
    with pytest.raises(TournamentError, match="no late entries"):
        late_entry(t, "general", "Latecomer")

    # general: 2 rounds of 4 games at computer-random tables, then the final of 4
    t = play_stage(t, "general", seed=1)
    prelim = stage_standings(t, "general", 0)
    assert len(prelim) == 64 and all(s.games == 8 for s in prelim)
    assert sum(s.wins for s in prelim) == 16 * 8
    keys = [(s.wins, s.score) for s in prelim]
    assert keys == sorted(keys, reverse=True)  # most wins first, then points
    top4 = prelim.top(4)

    t = start_stage(t, "general").tournament
    assert t.division("general").stages[1].entrants == top4
    poll = open_poll(top4)
    for voter in range(30):
        poll = cast_vote(poll, f"spectator {voter}", top4[voter % 4])
    t = seat_round(t, "general").tournament
    rng = random.Random(7)
    for g in range(1, 4):
        game = plausible_game(rng, 4, KRC)
        t, _, problems = enter_table_game(
            t, "general", 1, 1, g, game.points, winner=game.winner, who="주심 강수정"
        )
        assert not problems
        if g == 1:
            assert first_final_game_played(t, "general")
            poll = close_poll(poll)
            with pytest.raises(PollError, match="closed"):
                cast_vote(poll, "late spectator", top4[0])
    t = submit_table(t, "general", 1, 1, who="주심 강수정").tournament
    t = close_round(t, "general").tournament
    ranking = final_ranking(t, "general")
    final = stage_standings(t, "general", 1)
    assert all(s.games == 3 for s in final)  # the final stands on its own 3 games
    assert [p.player for p in ranking[:4]] == [s.player for s in final]
    assert [p.player for p in ranking[4:]] == [p for p in prelim.top(64) if p not in top4]
    assert [p.place for p in ranking] == list(range(1, 65))
    prizes = awards(t, "general")
    assert [a.place for a in prizes] == [1, 2, 3, 4]
    poll = draw_prizes(poll, prizes[0].player, prizes=3, seed=t.seed)
    assert poll.draw is not None and set(poll.draw.drawn) <= set(poll.draw.right)
    assert len(poll.draw.right) in (7, 8) and len(poll.draw.drawn) == 3
    assert assert_all_sheets_valid(t, "general") == 16 * 8 + 3

    # elementary: knockouts 32 → 16 → 8 → 4, a final table of one game
    for key in ("lower", "upper"):
        t = play_stage(t, key, seed=2)
        stage = t.division(key).stages[0]
        assert [len(r.tables) for r in stage.rounds] == [8, 4, 2, 1]
        assert [len(r.advanced) for r in stage.rounds] == [16, 8, 4, 0]
        assert stage.rounds[-1].tables[0].sheet.games.__len__() == 1
        for before, after in zip(stage.rounds, stage.rounds[1:], strict=False):
            assert set(after.seating.players) == set(before.advanced)
        ranking = final_ranking(t, key)
        assert len(ranking) == 32 and len({p.player for p in ranking}) == 32
        final_table = stage_standings(t, key)
        assert [p.player for p in ranking[:4]] == [s.player for s in final_table]
        assert set(final_table.top(4)) == set(stage.rounds[-1].seating.players)
        # those out in the semi-final tables: third places before fourth places
        semi = stage.rounds[-2]
        out = [p.player for p in ranking[4:8]]
        assert set(out) == set(semi.seating.players) - set(semi.advanced)
        assert len(awards(t, key)) == 4
        assert assert_all_sheets_valid(t, key) == 8 + 4 + 2 + 1

    # family prizes: kim has three generations, lee three members, park only two
    fam = {(f.family, f.kind) for f in family_prizes(t)}
    assert fam == {("kim", "three_generations"), ("lee", "family")}

    # general results feed the national ranking; every game updates the rating
    result = TournamentResult(
        "busan-2015",
        date(2015, 12, 5),
        "national",
        {p.player: p.place for p in final_ranking(t, "general")},
    )
    table = national_ranking([result], date(2015, 12, 5), RankingConfig())
    assert table[0].player == prizes[0].player and table[0].points == pytest.approx(1000)
    games = [g for st in t.division("general").stages for g in st.results()]
    ratings = rate_games({}, games)
    assert len(ratings) == 64
    assert not ratings[prizes[0].player].provisional()  # 8 + 3 games
    assert all(ratings[p].provisional() for p in prelim.top(64)[4:])  # 8 games


# ---------------------------------------------------------------------------
# Japan championship, 30 August 2009 (004)


def test_the_japan_championship() -> None:
    div = Division(
        "open",
        "日本選手権",
        24,
        JAPAN,
        (
            StageFormat("seatings", games=2, seatings=5, seating="balanced", name="予選"),
            StageFormat("final", games=2, entrants=4, carry=True, name="決勝"),
        ),
    )
    t = Tournament("ラミィキューブ日本選手権", "2009-08-30", (div,), seed=2009)
    for i in range(1, 25):
        t = register(t, "open", f"J{i:02d}").tournament
        t = check_in(t, i).tournament
    t = start_division(t, "open").tournament
    strength = {p: 1.0 + (p % 6) / 2 for p in range(1, 25)}
    t = start_stage(t, "open").tournament
    while not t.division("open").stages[-1].finished:
        t = play_round(t, "open", 3, strength=strength).tournament
    prelim_stage = t.division("open").stages[0]
    assert repeats(r.seating for r in prelim_stage.rounds) == 0  # 24 × 5 balanced
    prelim = stage_standings(t, "open", 0)
    assert all(s.games == 10 for s in prelim)
    t = play_stage(t, "open", seed=4)
    final = stage_standings(t, "open", 1)
    assert all(s.games == 12 for s in final)  # トータル12回戦: points carried
    final_games = t.division("open").stages[1].results()
    for s in final:
        before = prelim.of(s.player)
        won = sum(1 for g in final_games if g.winner == s.player)
        assert s.wins == before.wins + won
        assert s.points == before.points + sum(g.total(s.player) for g in final_games)
    keys = [(s.wins, s.score) for s in final]
    assert keys == sorted(keys, reverse=True)
    ranking = final_ranking(t, "open")
    assert [p.player for p in ranking[:4]] == [s.player for s in final]
    assert [p.player for p in ranking[4:]] == [
        s.player for s in prelim if s.player not in set(prelim.top(4))
    ]
    assert ranking[4].place == 5 and ranking[4].standing is not None
    assert ranking[4].standing.games == 10  # the others rank from 5th on their 10 games
    assert [a.place for a in awards(t, "open")] == [1, 2, 3, 4]
    assert assert_all_sheets_valid(t, "open") == 6 * 5 * 2 + 2
    # penalties (×, −50) were entered and count in the standings, not for the winner
    pens = [g for st in t.division("open").stages for g in st.results() if any(g.penalties)]
    assert pens and all(sum(g.points) == 0 for g in pens)


# ---------------------------------------------------------------------------
# Tokyo monthly and Tohoku (004): league scoring


def test_a_tokyo_monthly_night_with_league_scoring() -> None:
    rules = JAPAN.replace(match_ranking="league", name="japan (league)")
    div = Division(
        "monthly",
        "東京月例会",
        20,
        rules,
        (StageFormat("seatings", games=2, seatings=4, seating="balanced", name="月例会"),),
        ranking=StandingRules(mode="league", three_table="scale"),
        late_entry=True,
        keep_apart=("club",),
        prizes=3,
    )
    t = Tournament("東京月例会 8月", "2009-08-08", (div,), seed=808)
    for i in range(1, 15):
        club = ["club:masudaya"] if i <= 3 else []
        t = register(t, "monthly", f"T{i:02d}", tags=club).tournament
        t = check_in(t, i).tournament
    t = start_division(t, "monthly").tournament
    t = start_stage(t, "monthly").tournament
    t = play_round(t, "monthly", 5).tournament
    t, notices, _ = late_entry(t, "monthly", "T15")  # allowed here: joins from seating 2
    assert notices[0].what == "late_entry"
    t = play_round(t, "monthly", 5).tournament
    t = drop(t, 2, "train home").tournament
    t = play_round(t, "monthly", 5).tournament
    t = play_round(t, "monthly", 5).tournament
    stage = t.division("monthly").stages[0]
    assert stage.finished
    sizes = [sorted(len(x.players) for x in r.tables) for r in stage.rounds]
    assert sizes == [[3, 3, 4, 4], [3, 4, 4, 4], [3, 3, 4, 4], [3, 3, 4, 4]]
    assert 15 in stage.rounds[1].seating.players and 2 not in stage.rounds[2].seating.players
    for r in stage.rounds:  # the club is kept apart
        for x in r.tables:
            assert len(set(x.players) & {1, 2, 3}) <= 1
    table = stage_standings(t, "monthly")
    for s in table:
        assert s.score == 100 * s.wins + sum(
            (g.total(s.player) * (Fraction(4, 3) if len(g.players) == 3 else 1))
            for g in stage.results()
            if s.player in g.players
        )
    keys = [s.score for s in table]
    assert keys == sorted(keys, reverse=True)
    assert table.of(2).games == 4 and table.of(15).games == 6
    prizes = awards(t, "monthly")
    assert [a.place for a in prizes] == [1, 2, 3]
    assert assert_all_sheets_valid(t, "monthly") == (4 + 4 + 4 + 4) * 2


def test_tohoku_league_with_a_carried_final() -> None:
    rules = JAPAN.replace(match_ranking="league")
    div = Division(
        "tohoku",
        "東北大会",
        16,
        rules,
        (
            StageFormat("seatings", games=2, seatings=3, seating="balanced"),
            StageFormat("final", games=2, entrants=4, carry=True),
        ),
        prizes=1,
    )
    t = Tournament("東北大会", "2009-08-01", (div,), seed=801)
    for i in range(1, 13):
        t = register(t, "tohoku", f"H{i}").tournament
        t = check_in(t, i).tournament
    t = start_division(t, "tohoku").tournament
    t = play_stage(t, "tohoku", 1)
    t = play_stage(t, "tohoku", 2)
    final = stage_standings(t, "tohoku", 1)
    assert all(s.games == 8 for s in final)
    assert all(s.score == 100 * s.wins + s.points for s in final)
    # One prize, but four played the final: the four are placed (issue #27, 8).
    placed = awards(t, "tohoku")
    assert [a.place for a in placed] == [1, 2, 3, 4]
    assert [a.player for a in placed] == [s.player for s in final.standings]
