"""The steps back on a division's day, through the use cases on each backend: reopen a
closed round, undo an advancement while the next stage has no result, reseat a round
that has no result (a new draw, or a refusal with its reason), the ranking rules set
by the director (refused once they would change what is decided), and the round's
table states. Each undo is audited; each refusal is a code."""

from __future__ import annotations

import pytest

from meldtour import application as usecases
from meldtour.store.db import Store
from meldtour.tournament import StageFormat

WHO = "director"


def make(store: Store, n: int, formats: tuple[StageFormat, ...], slug: str = "day") -> str:
    spec = usecases.DivisionSpec("d", "General", 64, "krc-2015", formats)
    usecases.create_blank_tournament(
        store, who=WHO, name="Day", divisions=[spec], slug=slug, seed=7
    )
    usecases.register_players(
        store, slug, [usecases.PlayerEntry(f"P{i}", "d") for i in range(1, n + 1)], who=WHO
    )
    usecases.check_in_players(store, slug, [], everyone_but=True, division="d", who=WHO)
    return slug


def score_round(store: Store, slug: str, *, skip: tuple[int, ...] = ()) -> None:
    """Every table of the current round: seat 1 wins each game."""
    t = usecases.read(store, slug)
    stage = t.division("d").stages[-1]
    rnd = stage.rounds[-1]
    for x in rnd.tables:
        if x.number in skip:
            continue
        seats = len(x.players)
        games = [
            usecases.GameEntry(g, (10 * (seats - 2) + g,) + (-10,) * (seats - 2) + (-g,), None, 1)
            for g in range(1, len(x.sheet.games) + 1)
        ]
        usecases.enter_sheet(store, slug, "d", rnd.number, x.number, games, who=WHO)


def actions(store: Store, slug: str) -> list[str]:
    return [line["action"] for line in usecases.audit_log(store, slug)]


def refused(call: object, code: str) -> None:
    with pytest.raises(usecases.UseCaseError) as err:
        call()  # type: ignore[operator]
    assert err.value.code == code, err.value


SEATINGS = (StageFormat("seatings", games=2, seatings=2), StageFormat("final", games=1, entrants=4))


def test_reopen_a_closed_round(store: Store) -> None:
    slug = make(store, 8, SEATINGS)
    usecases.seat(store, slug, "d", None, who=WHO)
    refused(lambda: usecases.reopen(store, slug, "d", who=WHO), "undo.round_open")
    score_round(store, slug)
    usecases.close(store, slug, "d", who=WHO)
    out = usecases.reopen(store, slug, "d", who=WHO)
    rnd = out.tournament.division("d").stages[0].rounds[0]
    assert not rnd.closed and rnd.complete
    assert "reopen_round" in actions(store, slug)
    # closed again, and the next round seated: that round is open, the first one stays
    usecases.seat(store, slug, "d", None, who=WHO)
    refused(lambda: usecases.reopen(store, slug, "d", who=WHO), "undo.round_open")
    # the last round of the stage: reopening it un-finishes the stage
    score_round(store, slug)
    usecases.close(store, slug, "d", who=WHO)
    assert usecases.read(store, slug).division("d").stages[0].finished
    out = usecases.reopen(store, slug, "d", who=WHO)
    assert not out.tournament.division("d").stages[0].finished
    usecases.close(store, slug, "d", who=WHO)
    usecases.advance(store, slug, "d", who=WHO)
    refused(lambda: usecases.reopen(store, slug, "d", who=WHO), "undo.advance_first")


def test_undo_an_advancement_while_the_next_stage_has_no_result(store: Store) -> None:
    slug = make(store, 8, SEATINGS)
    usecases.seat(store, slug, "d", None, who=WHO)
    refused(lambda: usecases.undo_advance(store, slug, "d", who=WHO), "undo.first_stage")
    score_round(store, slug)
    usecases.seat(store, slug, "d", None, who=WHO)
    score_round(store, slug)
    usecases.advance(store, slug, "d", who=WHO)
    usecases.seat(store, slug, "d", None, who=WHO)  # the final table, seated, empty
    out = usecases.undo_advance(store, slug, "d", who=WHO)
    div = out.tournament.division("d")
    assert len(div.stages) == 1 and div.stages[0].finished
    again = usecases.read(store, slug).division("d")  # as stored
    assert len(again.stages) == 1
    assert "undo_advance" in actions(store, slug)
    # advance again, enter a result: the start is no longer undone
    usecases.advance(store, slug, "d", who=WHO)
    usecases.seat(store, slug, "d", None, who=WHO)
    score_round(store, slug)
    refused(lambda: usecases.undo_advance(store, slug, "d", who=WHO), "undo.stage_has_results")
    assert len(usecases.read(store, slug).division("d").stages) == 2


def test_reseat_draws_a_new_seating_or_says_why_not(store: Store) -> None:
    slug = make(store, 12, SEATINGS)
    usecases.seat(store, slug, "d", None, who=WHO)
    before = usecases.read(store, slug).division("d").stages[0].rounds[0].seating
    out = usecases.reseat(store, slug, "d", who=WHO)
    after = out.tournament.division("d").stages[0].rounds[0].seating
    assert {frozenset(x) for x in after.tables} != {frozenset(x) for x in before.tables}
    assert sorted(after.players) == sorted(before.players)
    line = [
        x
        for x in usecases.audit_log(store, slug)
        if x["action"] == "reseat" and isinstance(x["after"], dict) and "draw" in x["after"]
    ][-1]
    assert line["before"] == [list(x) for x in before.tables]
    assert line["after"]["draw"].startswith("reseat:")  # the draw is recorded
    stored = usecases.read(store, slug).division("d").stages[0].rounds[0].seating
    assert stored == after
    # a result on one sheet: the round is no longer reseated
    score_round(store, slug, skip=(2, 3))
    refused(lambda: usecases.reseat(store, slug, "d", who=WHO), "usecase.seating_locked")


def test_a_single_table_is_not_reseated(store: Store) -> None:
    slug = make(store, 4, (StageFormat("seatings", games=1, seatings=2),), slug="four")
    usecases.seat(store, slug, "d", None, who=WHO)
    refused(lambda: usecases.reseat(store, slug, "d", who=WHO), "undo.one_table")


def test_ranking_rules_are_refused_once_they_would_change_a_decided_order(store: Store) -> None:
    slug = make(store, 8, SEATINGS)
    out = usecases.set_ranking(
        store,
        slug,
        "d",
        mode="points",
        chain=["lot"],
        three_table="scale",
        table_sizes={1: 3},
        who=WHO,
    )
    div = out.tournament.division("d")
    assert div.standing_rules.mode == "points" and div.formats[1].table_size == 3
    refused(
        lambda: usecases.set_ranking(
            store, slug, "d", mode="nonsense", chain=[], three_table="as_is", who=WHO
        ),
        "settings.bad_rules",
    )
    usecases.seat(store, slug, "d", None, who=WHO)
    refused(
        lambda: usecases.set_ranking(
            store,
            slug,
            "d",
            mode="wins",
            chain=["lot"],
            three_table="as_is",
            table_sizes={0: 3},
            who=WHO,
        ),
        "settings.stage_started",
    )
    score_round(store, slug)
    usecases.seat(store, slug, "d", None, who=WHO)
    score_round(store, slug)
    usecases.close(store, slug, "d", who=WHO)
    # the stage is decided: the same order under other rules is accepted, another is not
    same = usecases.set_ranking(
        store, slug, "d", mode="points", chain=["lot"], three_table="as_is", who=WHO
    )
    assert same.tournament.division("d").standing_rules.three_table == "as_is"
    refused(
        lambda: usecases.set_ranking(
            store, slug, "d", mode="points", chain=["head_to_head"], three_table="as_is", who=WHO
        ),
        "settings.would_change",
    )
    assert "set_ranking" in actions(store, slug)


def test_the_round_state_names_each_table_and_what_is_missing(store: Store) -> None:
    slug = make(store, 12, SEATINGS)
    assert usecases.round_state(store, slug, "d") is None
    usecases.seat(store, slug, "d", None, who=WHO)
    score_round(store, slug, skip=(2, 3))
    usecases.enter_sheet(
        store,
        slug,
        "d",
        1,
        2,
        [usecases.GameEntry(1, (5, None, None, None))],
        who="scorer:table 2",
        submit=False,
    )
    board = usecases.round_state(store, slug, "d")
    assert board is not None
    assert [x.state for x in board.tables] == ["counted", "draft", "empty"]
    assert board.missing == (2, 3)
    assert board.tables[0].totals[0] == 21 + 22 and board.tables[2].totals == (None,) * 4
    # a second phone's save over the counted sheet: refused, the sheet comes back, the
    # director sees a conflict
    with pytest.raises(usecases.CountedSheet) as err:
        usecases.enter_sheet(
            store,
            slug,
            "d",
            1,
            1,
            [usecases.GameEntry(1, (30, -10, -10, -10), None, 1)],
            who="scorer:table 1",
            may_correct=False,
        )
    assert err.value.theirs is not None and err.value.theirs.counted is not None
    board = usecases.round_state(store, slug, "d")
    assert board is not None and board.tables[0].state == "conflict"
