"""The director's players on SQLite and PostgreSQL (issue 16, "Players"): a list read
with its errors (line and field) and likely duplicates before anything is saved, then
saved all or nothing; a player mended, moved between divisions before the start and
refused after it; a check-in undone; a no-show reinstated under their number — each
change audited, each refusal a code."""

from __future__ import annotations

import io

import pytest
from openpyxl import Workbook

from meldtour import application as uc
from meldtour.application.roster import check_roster, read_roster
from meldtour.store.db import Store
from meldtour.tournament import (
    Registration,
    TournamentError,
    check_in,
    register,
    seat_round,
    start_division,
    start_stage,
)
from meldtour.tournament.entries import reinstate
from meldtour.tournament.templates import from_template

LIST = "\n".join(
    [
        "이름,부,가족,세대",
        "김민지,general,김,1",
        "이서준,general,,",
        ",general,,",  # line 4: no name
        "박지호,seniors,,",  # line 5: no such division
        "김 민지,general,,",  # line 6: the same name as line 2
        "최하은,general,,x",  # line 7: generation not a number
        "정도윤,lower,,",
    ]
)


def problems(rows: list[uc.RosterRow]) -> dict[int, list[tuple[str, str]]]:
    return {r.line: [(p.field, p.refusal.code) for p in r.problems] for r in rows if r.problems}


def test_a_list_is_checked_line_by_line_then_saved_all_or_nothing(store: Store) -> None:
    slug, _t = uc.create_tournament(store, "busan-2015", who="d", slug="busan", locale="ko")
    uc.register_players(store, slug, [uc.PlayerEntry("정도윤", "general")], who="d")
    t = uc.read(store, slug)
    rows = check_roster(t, read_roster(LIST))
    assert problems(rows) == {
        4: [("name", "registration.needs_name")],
        5: [("division", "usecase.no_division")],
        7: [("generation", "players.generation_not_number")],
    }
    same = {r.line: [(s.code, dict(s.params)) for s in r.same_as] for r in rows if r.same_as}
    assert same == {
        6: [("players.same_in_list", {"line": 2})],
        8: [("players.same_registered", {"n": 1, "div": "일반부"})],
    }
    # A division named by a word of its name, where only one fits.
    loose = check_roster(t, read_roster("a,일반부\nb,저학년부\nc,초등\nd,GENERAL\n"))
    assert [r.division for r in loose] == ["general", "lower", "초등", "general"]
    assert problems(loose) == {3: [("division", "usecase.no_division")]}
    first = rows[0]
    assert (first.name, first.division, first.tags, first.generation) == (
        "김민지",
        "general",
        "family:김",
        "1",
    )
    # Saving with a bad line registers nobody (one transaction) and names the line.
    with pytest.raises(uc.UseCaseError) as refused:
        uc.register_players(
            store, slug, [r.entry() for r in read_roster(LIST) if r.line in (2, 3, 5)], who="d"
        )
    assert refused.value.code == "usecase.row" and refused.value.params["line"] == 5
    assert len(uc.read(store, slug).registrations) == 1
    # Mended (line 5 to a division, line 7's generation), line 4 dropped, line 6 kept
    # as a different person: all saved at once.
    mended = [r for r in rows if r.line != 4]
    mended = [r if r.line != 7 else r.__class__(7, r.name, r.division, r.tags, "2") for r in mended]
    mended = [r if r.line != 5 else r.__class__(5, r.name, "upper") for r in mended]
    again = check_roster(t, mended)
    assert problems(again) == {}
    out = uc.register_players(store, slug, [r.entry() for r in again], who="d")
    regs = out.tournament.registrations
    assert [(r.player, r.name, r.division) for r in regs] == [
        (1, "정도윤", "general"),
        (2, "김민지", "general"),
        (3, "이서준", "general"),
        (4, "박지호", "upper"),
        (5, "김 민지", "general"),
        (6, "최하은", "general"),
        (7, "정도윤", "lower"),
    ]
    assert regs[1].tags == {"family:김"} and regs[1].generation == 1
    assert regs[5].generation == 2


def test_an_xlsx_file_and_bounded_lists() -> None:
    book = Workbook()
    sheet = book.active
    sheet.append(["名前", "部門", "世代", "クラブ"])
    sheet.append(["山田花子", "general", 1, "東京 クラブ"])
    sheet.append([None, None, None, None])
    sheet.append(["佐藤", None, 2.0, None])
    data = io.BytesIO()
    book.save(data)
    rows = read_roster(data.getvalue(), "xlsx")
    assert [(r.line, r.name, r.division, r.generation, r.tags) for r in rows] == [
        (2, "山田花子", "general", "1", "club:東京_クラブ"),
        (4, "佐藤", "", "2", ""),
    ]
    for raw, kind, code in [
        (b"PK\x03\x04 not a workbook", "xlsx", "players.not_xlsx"),
        (b"name\n\xc0\xe9\n", "text", "players.not_utf8"),
        ("name\n" + "x" * 300, "text", "players.too_big"),
        ("\n".join(f"p{i}" for i in range(30)), "text", "players.too_many"),
        ('name\n"Ann\nBo\n', "text", "players.unreadable"),
        ("\n\n", "text", "players.empty"),
    ]:
        with pytest.raises(uc.UseCaseError) as refused:
            read_roster(raw, kind, limit=200, max_rows=20)  # type: ignore[arg-type]
        assert refused.value.code == code, (raw, refused.value)
    assert problems(read_roster("a\x07b\n" + "y" * 81 + "\nc,," + "t" * 61 + "\n")) == {
        1: [("name", "players.control_character")],
        2: [("name", "registration.name_too_long")],
        3: [("tags", "registration.bad_tag")],
    }


def audited(store: Store, slug: str, action: str) -> list[dict[str, object]]:
    return [a for a in uc.audit_log(store, slug) if a["action"] == action]


def test_a_player_is_mended_and_moved_before_the_start_only(store: Store) -> None:
    slug, _t = uc.create_tournament(store, "busan-2015", who="d", slug="busan")
    uc.register_players(
        store,
        slug,
        [uc.PlayerEntry(n, "general") for n in ("김민지", "이서준", "박지호", "최하은")],
        who="d",
    )
    uc.register_players(store, slug, [uc.PlayerEntry(f"L{i}", "lower") for i in range(32)], who="d")
    out = uc.edit_player(store, slug, 1, uc.PlayerEdit(" 김민지 ", (), None, "general"), who="boss")
    assert not out.changes  # the same name (spaces aside): not a change
    out = uc.edit_player(store, slug, 1, uc.PlayerEdit("김민주", ("family:kim",), 2), who="boss")
    reg = out.tournament.registration(1)
    assert (reg.name, reg.tags, reg.generation) == ("김민주", {"family:kim"}, 2)
    line = audited(store, slug, "edit_player")[-1]
    assert line["who"] == "boss" and line["before"]["name"] == "김민지"  # type: ignore[index]
    assert line["after"]["name"] == "김민주"  # type: ignore[index]
    # A move into a full division waits on its waitlist; to a division with room, not.
    out = uc.edit_player(store, slug, 2, uc.PlayerEdit("이서준", division="lower"), who="d")
    assert out.tournament.registration(2).status == "waitlisted"
    out = uc.edit_player(store, slug, 2, uc.PlayerEdit("이서준", division="upper"), who="d")
    assert out.tournament.registration(2).division == "upper"
    for bad, code in [
        (uc.PlayerEdit(""), "registration.needs_name"),
        (uc.PlayerEdit("x", generation=12), "registration.bad_generation"),
        (uc.PlayerEdit("x", division="nowhere"), "usecase.no_division"),
    ]:
        with pytest.raises(uc.UseCaseError) as refused:
            uc.edit_player(store, slug, 3, bad, who="d")
        assert refused.value.code == code
    uc.check_in_players(store, slug, ["3", "4", "1"], who="d")
    uc.close_check_in(store, slug, "general", who="d")
    before = uc.read(store, slug)
    with pytest.raises(uc.UseCaseError) as refused:
        uc.edit_player(store, slug, 3, uc.PlayerEdit("박지호", division="upper"), who="d")
    assert refused.value.code == "registration.move_started"
    assert uc.read(store, slug) == before
    # The name is mended after the start too (a typo on the badge).
    uc.edit_player(store, slug, 3, uc.PlayerEdit("박지후"), who="d")
    assert uc.read(store, slug).name_of(3) == "박지후"


def test_a_check_in_undone_and_a_no_show_reinstated(store: Store) -> None:
    slug, _t = uc.create_tournament(store, "club-night", who="d", slug="club")
    uc.register_players(store, slug, [uc.PlayerEntry(f"선수{i}") for i in range(1, 11)], who="d")
    uc.check_in_players(store, slug, [str(i) for i in range(1, 10)], who="d")
    out = uc.undo_check_in_player(store, slug, 9, who="d")
    assert out.tournament.registration(9).status == "registered"
    assert audited(store, slug, "undo_check_in")
    with pytest.raises(uc.UseCaseError) as refused:
        uc.undo_check_in_player(store, slug, 9, who="d")
    assert refused.value.code == "registration.undo_not_present"
    with pytest.raises(uc.UseCaseError) as refused:
        uc.reinstate_player(store, slug, 9, who="d")
    assert refused.value.code == "registration.reinstate_no_show_only"
    uc.close_check_in(store, slug, None, who="d")  # 9 and 10 are no-shows
    with pytest.raises(uc.UseCaseError) as refused:
        uc.undo_check_in_player(store, slug, 1, who="d")
    assert refused.value.code == "registration.undo_started"
    # Before any round: present again at once, under their number.
    out = uc.reinstate_player(store, slug, 9, who="d")
    assert out.tournament.registration(9).status == "checked_in"
    assert not out.tournament.registration(9).late
    assert audited(store, slug, "reinstate")
    seated = uc.seat(store, slug, None, None, who="d")
    first = {
        p for x in seated.tournament.division("club").stages[0].rounds[0].tables for p in x.players
    }
    assert 9 in first and 10 not in first
    # After the first seating: a late entry of the division (club night takes them).
    out = uc.reinstate_player(store, slug, 10, who="d")
    reg = out.tournament.registration(10)
    assert (reg.status, reg.late, reg.player) == ("checked_in", True, 10)
    assert 10 in out.tournament.division("club").stages[0].entrants
    assert len(out.tournament.registrations) == 10  # no new number


def test_the_search_box_finds_a_number_or_a_part_of_a_name() -> None:
    regs = [
        Registration(i, n, "club")
        for i, n in enumerate(("김민지", "이서준", "박지호", "김민준", "Kim Ji"), 1)
    ]

    def found(q: str) -> list[int]:
        return [r.player for r in uc.search_players(regs, q)]

    assert found("#5") == [5] and found("5") == [5] and found("# 2") == [2]
    assert found("김민") == [1, 4] and found("kim") == [5] and found("") == [1, 2, 3, 4, 5]
    assert found("#9") == []


def test_a_no_show_after_the_first_seating_where_the_division_takes_no_late_entries() -> None:
    t = from_template("busan-2015", seed=1)
    for i in range(9):
        t = register(t, "general", f"P{i}").tournament
    for n in range(1, 9):
        t = check_in(t, n).tournament
    t = start_division(t, "general").tournament
    t = start_stage(t, "general").tournament
    t = seat_round(t, "general").tournament
    with pytest.raises(TournamentError) as refused:
        reinstate(t, 9)
    assert refused.value.code == "division.no_late_entries"
