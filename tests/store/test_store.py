"""The store on SQLite and PostgreSQL: values round-trip, use cases are all or
nothing, drafts are kept, corrections and every change are audited, concurrent sheet
saves conflict cleanly, the schema is checked, and backups round-trip exactly."""

from __future__ import annotations

import json
import random
import threading
import time

import pytest
from sqlalchemy import func, select, text

from meldtour import application as uc
from meldtour.store import codec
from meldtour.store.backup import dumps, restore
from meldtour.store.db import SchemaError, Store, check_schema, make_engine, open_store, upgrade
from meldtour.store.models import AuditRow, CorrectionRow, RegistrationRow
from meldtour.store.repository import SheetConflict, load, save
from meldtour.tournament import (
    Tournament,
    check_in,
    enter_table_game,
    register,
    seat_round,
    start_division,
    start_stage,
)
from meldtour.tournament.simulate import plausible_game, play_round
from meldtour.tournament.stages import table_sheet
from meldtour.tournament.templates import from_template

from .backends import database


def games_for(
    t: Tournament, division: str, rnd: int, table: int, seats: int, ngames: int
) -> list[uc.GameEntry]:
    rng = random.Random(f"{rnd}:{table}")
    rules = t.division(division).rules
    out = []
    for g in range(1, ngames + 1):
        pg = plausible_game(rng, seats, rules)
        out.append(uc.GameEntry(g, pg.points, pg.penalties, pg.winner))
    return out


def club_ready(store: Store, players: int = 13, names: list[str] | None = None) -> str:
    """A club night with players registered (``names``, or P01, P02 ...), checked in and
    round 1 seated."""
    slug, _ = uc.create_tournament(store, "club-night", who="director", seed=7, slug="club")
    names = names or [f"P{i:02d}" for i in range(1, players + 1)]
    uc.register_players(
        store,
        slug,
        [uc.PlayerEntry(n, tags=(("club:a",) if i <= 2 else ())) for i, n in enumerate(names, 1)],
        who="director",
    )
    uc.check_in_players(store, slug, [], who="director", everyone_but=True)
    uc.seat(store, slug, None, 1, who="director")
    return slug


# ---------------------------------------------------------------------------
# values


def test_codec_round_trips_whole_tournaments() -> None:
    t = from_template("japan-championship", seed=3)
    for i in range(1, 15):
        t = register(t, "open", f"J{i}", tags=["club:x"] if i < 3 else []).tournament
        t = check_in(t, i).tournament
    t = start_division(t, "open").tournament
    t = start_stage(t, "open").tournament
    t = play_round(t, "open", 1).tournament
    t = seat_round(t, "open").tournament
    t = enter_table_game(t, "open", 2, 1, 1, (10, -5, -5, 0), who="x").tournament
    for d in t.divisions:
        assert codec.division_value(codec.division_data(d), d.stages) == d
        for st in d.stages:
            assert codec.stage_value(codec.stage_data(st), st.rounds) == st
            for r in st.rounds:
                assert codec.round_value(codec.round_data(r), r.tables) == r
                for x in r.tables:
                    assert codec.sheet_value(codec.sheet_data(x.sheet)) == x.sheet
    for r in t.registrations:
        assert codec.registration_value(codec.registration_data(r)) == r


def test_the_stored_tournament_is_the_engines_value(store: Store) -> None:
    slug = club_ready(store)
    with store.transaction() as s:
        stored = load(s, slug).value
    # the same actions on the pure engine give the same value
    t = from_template("club-night", seed=7)
    for i in range(1, 14):
        t = register(t, "club", f"P{i:02d}", tags=["club:a"] if i <= 2 else []).tournament
    for i in range(1, 14):
        t = check_in(t, i).tournament
    t = start_division(t, "club").tournament
    t = start_stage(t, "club").tournament
    t = seat_round(t, "club").tournament
    assert stored == t
    for x in t.division("club").stages[0].rounds[0].tables:
        games = games_for(t, "club", 1, x.number, len(x.players), 2)
        out = uc.enter_sheet(store, slug, None, 1, x.number, games, who="ref")
        assert out.counted and out.version == 2
        for g in games:
            t = enter_table_game(
                t,
                "club",
                1,
                x.number,
                g.game,
                g.points,
                winner=g.winner,
                penalties=g.penalties,
                who="ref",
            ).tournament
    with store.transaction() as s:
        stored = load(s, slug).value
    assert [x.sheet.counted for x in stored.division("club").stages[0].rounds[0].tables] == [
        x.sheet.games for x in t.division("club").stages[0].rounds[0].tables
    ]


# ---------------------------------------------------------------------------
# transactions, drafts, corrections, audit


def count(store: Store, model: type) -> int:
    with store.transaction() as s:
        return int(s.scalar(select(func.count()).select_from(model)) or 0)


def test_a_failed_use_case_writes_nothing(store: Store) -> None:
    slug, _ = uc.create_tournament(store, "busan-2015", who="d", slug="busan")
    audit = count(store, AuditRow)
    entries = [
        uc.PlayerEntry("A", "general", line=2),
        uc.PlayerEntry("B", "lower", line=3),
        uc.PlayerEntry("C", "seniors", line=4),
        uc.PlayerEntry("D", "general", line=5),
    ]
    with pytest.raises(uc.UseCaseError, match=r"row 4: no division 'seniors'"):
        uc.register_players(store, slug, entries, who="d")
    assert count(store, RegistrationRow) == 0 and count(store, AuditRow) == audit
    # a failure inside the write itself rolls back too
    import meldtour.application.unit as module

    real = module.save

    def failing(*args: object, **kwargs: object) -> object:
        real(*args, **kwargs)  # type: ignore[arg-type]
        raise RuntimeError("disk full")

    module.save = failing  # type: ignore[assignment]
    try:
        with pytest.raises(RuntimeError):
            uc.register_players(store, slug, entries[:2], who="d")
    finally:
        module.save = real
    assert count(store, RegistrationRow) == 0 and count(store, AuditRow) == audit
    uc.register_players(store, slug, entries[:2], who="d")
    assert count(store, RegistrationRow) == 2


def test_a_failing_sheet_is_kept_as_a_draft_and_a_correction_is_audited(store: Store) -> None:
    slug = club_ready(store, 8)
    sheet, version, _ = uc.get_sheet(store, slug, None, 1, 1)
    assert version == 1 and sheet.counted is None
    bad = [uc.GameEntry(1, (30, -10, -10, -5)), uc.GameEntry(2, (20, -5, -5, -10))]
    out = uc.enter_sheet(store, slug, None, 1, 1, bad, who="ref", version=version)
    assert not out.counted and out.version == 2
    assert any("add up to +5" in str(p) for p in out.problems)
    kept, version, _ = uc.get_sheet(store, slug, None, 1, 1)
    assert kept.games[0].points == (30, -10, -10, -5) and kept.counted is None
    good = [uc.GameEntry(1, (25, -10, -10, -5)), uc.GameEntry(2, (20, -5, -5, -10))]
    out = uc.enter_sheet(store, slug, None, 1, 1, good, who="ref", version=version)
    assert out.counted and out.version == 3
    # a correction needs a reason, keeps the old value, who and why
    out = uc.correct_sheet(
        store,
        slug,
        None,
        1,
        1,
        {(2, 1, "points"): 21, (2, 2, "points"): -6},
        who="chief",
        why="misread the sheet",
    )
    assert out.counted
    with store.transaction() as s:
        rows = list(s.scalars(select(CorrectionRow).order_by(CorrectionRow.position)))
        audit = list(s.scalars(select(AuditRow).where(AuditRow.action == "correct_sheet")))
    assert [(c.game, c.seat, c.old, c.new, c.who, c.why) for c in rows] == [
        (2, 1, 20, 21, "chief", "misread the sheet"),
        (2, 2, -5, -6, "chief", "misread the sheet"),
    ]
    (line,) = audit
    assert line.who == "chief" and line.why == "misread the sheet" and line.entity == "sheet"
    assert line.before["counted"][1]["points"][0] == 20
    assert line.after["counted"][1]["points"][0] == 21
    # a correction that fails stays a draft, the old sheet still counts
    out = uc.correct_sheet(store, slug, None, 1, 1, {(2, 1, "points"): 99}, who="c", why="x")
    assert out.problems
    sheet, _, _ = uc.get_sheet(store, slug, None, 1, 1)
    assert sheet.counted is not None and sheet.counted[1].points[0] == 21
    assert sheet.games[1].points[0] == 99


def test_every_change_is_in_the_audit_log(store: Store) -> None:
    slug = club_ready(store, 8)
    lines = uc.audit_log(store, slug)
    actions = {a["action"] for a in lines}
    assert {"create_tournament", "register", "check_in", "seat"} <= actions
    checkin = [a for a in lines if a["action"] == "check_in"]
    assert len(checkin) == 8 and all(a["who"] == "director" and a["at"] for a in checkin)
    assert checkin[0]["before"]["status"] == "registered"
    assert checkin[0]["after"]["status"] == "checked_in"


# ---------------------------------------------------------------------------
# two devices, one sheet


def test_a_second_device_saving_over_an_old_version_gets_a_conflict(store: Store) -> None:
    slug = club_ready(store, 8)
    _, version, _ = uc.get_sheet(store, slug, None, 1, 2)
    first = [uc.GameEntry(1, (25, -10, -10, -5))]
    second = [uc.GameEntry(1, (40, -20, -10, -10))]
    uc.enter_sheet(store, slug, None, 1, 2, first, who="tablet A", version=version, submit=False)
    with pytest.raises(SheetConflict, match="another device") as info:
        uc.enter_sheet(
            store, slug, None, 1, 2, second, who="tablet B", version=version, submit=False
        )
    assert info.value.yours == [g.data() for g in second]
    assert info.value.theirs is not None and info.value.theirs.games[0].points[0] == 25
    sheet, now, _ = uc.get_sheet(store, slug, None, 1, 2)
    assert sheet.games[0].points == (25, -10, -10, -5) and now == version + 1
    (kept,) = [a for a in uc.audit_log(store, slug) if a["action"] == "enter_sheet_conflict"]
    assert kept["who"] == "tablet B"
    assert kept["after"]["refused"][0]["points"] == [40, -20, -10, -10]


def test_two_connections_racing_on_postgresql(tmp_path: object) -> None:
    with database("postgresql", tmp_path) as url:  # type: ignore[arg-type]
        engine = make_engine(url)
        upgrade(engine)
        engine.dispose()
        a, b = open_store(url), open_store(url)
        try:
            slug = club_ready(a, 8)
            with a.transaction() as s:
                loaded = load(s, slug, "share")
                t, _, _ = enter_table_game(
                    loaded.value, "club", 1, 1, 1, (25, -10, -10, -5), who="tablet A"
                )
                save(s, loaded, t, who="tablet A", action="enter_sheet")
                # A holds its write; B reads the same version and tries to save
                errors: list[BaseException] = []

                def device_b() -> None:
                    try:
                        uc.enter_sheet(
                            b,
                            slug,
                            None,
                            1,
                            1,
                            [uc.GameEntry(1, (9, -3, -3, -3))],
                            who="tablet B",
                            submit=False,
                        )
                    except BaseException as exc:
                        errors.append(exc)

                thread = threading.Thread(target=device_b)
                thread.start()
                time.sleep(0.8)
                assert thread.is_alive()  # B waits for A's row
            thread.join(20)
            assert len(errors) == 1 and isinstance(errors[0], SheetConflict), errors
            conflict = errors[0]
            assert conflict.expected == 1 and conflict.current == 2
            assert conflict.yours[0]["points"] == [9, -3, -3, -3]
            sheet, version, _ = uc.get_sheet(a, slug, None, 1, 1)
            assert sheet.games[0].points == (25, -10, -10, -5) and version == 2
            # different tables save side by side
            uc.enter_sheet(
                b, slug, None, 1, 2, [uc.GameEntry(1, (9, -3, -3, -3))], who="B", submit=False
            )
        finally:
            a.close()
            b.close()


# ---------------------------------------------------------------------------
# schema and backups


def test_the_schema_is_checked(db_url: str) -> None:
    with pytest.raises(SchemaError, match=r"run `meldtour db upgrade`"):
        open_store(db_url)
    engine = make_engine(db_url)
    upgrade(engine)
    check_schema(engine)
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '0000'"))
    with pytest.raises(SchemaError, match="newer than this meldtour"):
        check_schema(engine)
    engine.dispose()


def finished_club(store: Store, names: list[str] | None = None) -> str:
    slug = club_ready(store, 9, names)
    for rnd in range(1, 5):
        if rnd > 1:
            uc.seat(store, slug, None, rnd, who="d")
        t = uc.read(store, slug)
        for x in t.division("club").stages[0].rounds[rnd - 1].tables:
            uc.enter_sheet(
                store,
                slug,
                None,
                rnd,
                x.number,
                games_for(t, "club", rnd, x.number, len(x.players), 2),
                who="ref",
            )
    uc.close(store, slug, None, who="d")
    return slug


def test_awards_are_recorded_and_games_rated(store: Store) -> None:
    slug = finished_club(store)
    lines = uc.award(store, slug, None, who="d")
    assert [a.place for a in lines] == [1, 2, 3]
    assert uc.award(store, slug, None, who="d") == lines  # once only
    from meldtour.application.circuit import rating_table

    table = rating_table(store)  # derived from the awarded division: nothing stored
    assert len(table.lines) + len(table.provisional) == 9


def test_backup_restore_backup_is_identical(store: Store, tmp_path: object) -> None:
    slug = finished_club(store)
    uc.award(store, slug, None, who="d")
    first = dumps(store)
    for kind in ("sqlite", "postgresql"):
        with database(kind, tmp_path) as url:  # type: ignore[arg-type]
            other = open_store(url, check=False)
            try:
                restore(other, json.loads(first))
                assert dumps(other) == first
                with pytest.raises(Exception, match="not empty"):
                    restore(other, json.loads(first))
                # the restored database goes on working: new rows get fresh ids
                uc.create_tournament(other, "club-night", who="d", slug="next")
                assert uc.read(other, slug) == uc.read(store, slug)
            finally:
                other.close()


# ---------------------------------------------------------------------------
# The director's use cases (migration 0004)


def test_a_tournament_from_scratch_and_its_division_edited(store: Store) -> None:
    from meldtour.tournament import StageFormat

    spec = uc.DivisionSpec(
        "open", "Open", 8, "standard", (StageFormat("seatings", games=2, seatings=2),)
    )
    slug, t = uc.create_blank_tournament(
        store, who="d", name="Spring cup", date="2026-04-01", venue="Seoul hall", divisions=[spec]
    )
    assert slug == "spring-cup" and t.division("open").rules.name == "standard"
    assert uc.info(store, slug).venue == "Seoul hall"
    assert uc.info(store, slug).template == "scratch"
    with pytest.raises(uc.UseCaseError, match="rules preset"):
        uc.create_blank_tournament(
            store,
            who="d",
            name="X",
            divisions=[uc.DivisionSpec("a", "A", 4, "nope", (StageFormat("seatings"),))],
        )
    uc.register_players(store, slug, [uc.PlayerEntry(f"P{i}") for i in range(1, 10)], who="d")
    assert [r.status for r in uc.read(store, slug).registrations][-1] == "waitlisted"
    out = uc.edit_division(
        store,
        slug,
        "open",
        uc.DivisionEdit(
            name="Open A",
            cap=9,
            rules="japan",
            formats=(
                StageFormat("seatings", games=1, seatings=3),
                StageFormat("final", games=2, entrants=4),
            ),
        ),
        who="d",
    )
    div = out.tournament.division("open")
    assert (div.name, div.cap, div.rules.name, len(div.formats)) == ("Open A", 9, "japan", 2)
    assert out.tournament.registrations[-1].status == "registered"  # moved up
    uc.add_division(
        store,
        slug,
        uc.DivisionSpec("kids", "Kids", 4, "krc-2015", (StageFormat("seatings"),)),
        who="d",
    )
    assert [d.key for d in uc.read(store, slug).divisions] == ["open", "kids"]
    uc.edit_tournament(
        store, slug, who="d", name="Spring cup", date="2026-04-02", venue="Busan hall"
    )
    assert uc.info(store, slug).venue == "Busan hall"
    assert uc.read(store, slug).date == "2026-04-02"
    actions = {a["action"] for a in uc.audit_log(store, slug)}
    assert {"edit_division", "add_division", "edit_tournament"} <= actions
    uc.close_check_in(store, slug, "open", who="d")
    with pytest.raises(uc.UseCaseError, match="has started"):
        uc.edit_division(store, slug, "open", uc.DivisionEdit(cap=20), who="d")
    uc.edit_division(store, slug, "open", uc.DivisionEdit(name="Open B"), who="d")


def test_withdraw_drop_and_late_entry(store: Store) -> None:
    slug, _ = uc.create_tournament(store, "club-night", who="d", seed=3, slug="c")
    uc.register_players(store, slug, [uc.PlayerEntry(f"P{i:02d}") for i in range(1, 10)], who="d")
    uc.withdraw_player(store, slug, "P09", who="d")
    uc.check_in_players(store, slug, [], who="d", everyone_but=True)
    with pytest.raises(uc.UseCaseError, match="not registered"):
        uc.withdraw_player(store, slug, "P09", who="d")
    uc.seat(store, slug, None, 1, who="d")
    out = uc.drop_player(store, slug, "#2", who="d", why="ill")
    assert out.tournament.registration(2).status == "dropped"
    out = uc.enter_late(store, slug, None, "Late Lee", who="d")
    late = out.tournament.registrations[-1]
    assert late.late and late.status == "checked_in"
    audit = uc.audit_log(store, slug)
    assert any(a["action"] == "drop" and a["why"] == "ill" for a in audit)


def test_the_seating_lock_stops_a_reseat(store: Store) -> None:
    slug = club_ready(store, 9)
    t = uc.read(store, slug)
    first = [x.players for x in t.division("club").stages[0].rounds[0].tables]
    uc.drop_player(store, slug, str(first[0][0]), who="d")
    out = uc.reseat(store, slug, None, who="d")
    again = [x.players for x in out.tournament.division("club").stages[0].rounds[0].tables]
    assert first[0][0] not in {p for table in again for p in table}
    assert uc.read(store, slug) == out.tournament  # the rows hold what the engine has
    assert uc.round_locks(store, slug) == {}
    uc.lock_seating(store, slug, None, who="d")
    assert ("club", 0, 1) in uc.round_locks(store, slug)
    with pytest.raises(uc.UseCaseError, match="locked"):
        uc.reseat(store, slug, None, who="d")


def test_a_saved_sheet_locks_the_seating(store: Store) -> None:
    slug = club_ready(store, 8)
    _, version, _ = uc.get_sheet(store, slug, None, 1, 1)
    uc.enter_sheet(
        store,
        slug,
        None,
        1,
        1,
        [uc.GameEntry(1, (25, -10, -10, -5))],
        who="tablet",
        version=version,
        submit=False,
    )
    lock = uc.round_locks(store, slug)[("club", 0, 1)]
    assert lock.by == "tablet"
    with pytest.raises(uc.UseCaseError, match="locked"):
        uc.reseat(store, slug, None, who="d")


def test_the_winner_guess_vote(store: Store) -> None:
    slug = club_ready(store, 8)
    with pytest.raises(uc.UseCaseError, match="not open"):
        uc.cast_vote(store, slug, None, "voter-aaaa", 1)
    poll = uc.open_vote(store, slug, None, who="d")
    assert poll.finalists == tuple(range(1, 9)) and not poll.closed
    uc.cast_vote(store, slug, None, "voter-aaaa", 3, name="Ahn")
    uc.cast_vote(store, slug, None, "voter-bbbb", 3)
    uc.cast_vote(store, slug, None, "voter-aaaa", 5)  # changes the vote, not a second
    with pytest.raises(uc.UseCaseError, match="not a finalist"):
        uc.cast_vote(store, slug, None, "voter-cccc", 99)
    assert uc.my_vote(store, slug, "club", "voter-aaaa") == 5
    view = uc.close_vote(store, slug, None, who="d")
    assert view.closed and view.votes == 2 and view.tally[3] == 1 and view.tally[5] == 1
    with pytest.raises(uc.UseCaseError, match="closed"):
        uc.cast_vote(store, slug, None, "voter-dddd", 3)
    assert uc.polls(store, slug)["club"].tally == view.tally
    with pytest.raises(uc.UseCaseError, match="no vote is open"):
        uc.close_vote(store, slug, None, who="d")
    assert uc.open_vote(store, slug, None, who="d").votes == 2  # reopened, votes kept


def test_one_voter_voting_twice_at_once_is_one_vote(store: Store) -> None:
    slug = club_ready(store, 8)
    uc.open_vote(store, slug, None, who="d")
    errors: list[BaseException] = []

    def vote(finalist: int) -> None:
        try:
            uc.cast_vote(store, slug, None, "same-voter-key", finalist)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=vote, args=(1 + i % 3,)) for i in range(6)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors, errors
    assert uc.polls(store, slug)["club"].votes == 1


def test_the_migrations_make_the_models_tables(db_url: str) -> None:
    """Upgraded to the head, the schema is what the models say (no difference for
    alembic's autogenerate); 0004 goes down to 0003 and up again."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from meldtour.store.models import Base

    engine = make_engine(db_url)
    try:
        upgrade(engine)
        from alembic import command

        from meldtour.store.db import alembic_config

        with engine.begin() as conn:
            command.downgrade(alembic_config(conn), "0003")
        upgrade(engine)
        with engine.connect() as conn:
            assert compare_metadata(MigrationContext.configure(conn), Base.metadata) == []
    finally:
        engine.dispose()


# ---------------------------------------------------------------------------
# the process's snapshot of a tournament (usecases.snapshot)


def fresh(store: Store, slug: str) -> tuple[Tournament, dict[tuple[str, int, int, int], int]]:
    """The tournament loaded from the database, bypassing every cache."""
    with store.transaction() as s:
        loaded = load(s, slug)
        return loaded.value, {k: r.version for k, r in loaded.sheets.items()}


def assert_current(store: Store, slug: str) -> None:
    snap = uc.snapshot(store, slug)
    value, versions = fresh(store, slug)
    assert snap.tournament == value
    assert dict(snap.versions) == versions
    assert uc.read(store, slug) == value


def test_a_cached_snapshot_never_shows_stale_data(db_url: str) -> None:
    engine = make_engine(db_url)
    upgrade(engine)
    engine.dispose()
    mine, other = open_store(db_url), open_store(db_url)  # other: another process
    try:
        slug = club_ready(mine, 8)
        assert_current(mine, slug)
        first = uc.snapshot(mine, slug)
        assert uc.snapshot(mine, slug) is first  # unchanged: the same snapshot, no load
        # a save in this process (the snapshot it leaves on SQLite is the value it wrote)
        uc.enter_sheet(
            mine, slug, None, 1, 1, [uc.GameEntry(1, (25, -10, -10, -5))], who="ref", submit=False
        )
        assert_current(mine, slug)
        assert uc.snapshot(mine, slug).mark > first.mark
        # a save by another process: this one's cache must not hide it
        before = uc.read(mine, slug)
        _, version, _ = uc.get_sheet(mine, slug, None, 1, 2)
        uc.enter_sheet(
            other,
            slug,
            None,
            1,
            2,
            [uc.GameEntry(1, (40, -20, -10, -10))],
            who="other",
            version=version,
            submit=False,
        )
        after = uc.read(mine, slug)
        assert after != before
        assert uc.get_sheet(mine, slug, None, 1, 2)[0].games[0].points == (40, -20, -10, -10)
        assert uc.get_sheet(mine, slug, None, 1, 2)[1] == version + 1
        assert_current(mine, slug)
        # a structural change (a player dropped, not a sheet) by the other process, then
        # one by this process
        status = uc.read(mine, slug).registration(8).status
        uc.drop_player(other, slug, "8", who="director")
        assert_current(mine, slug)
        assert uc.read(mine, slug).registration(8).status != status
        uc.edit_tournament(mine, slug, who="director", name="Renamed", date="", venue="")
        assert uc.read(mine, slug).name == "Renamed"
        assert_current(mine, slug)
        # a conflict (refused save) leaves the snapshot current too
        with pytest.raises(SheetConflict):
            uc.enter_sheet(
                mine,
                slug,
                None,
                1,
                2,
                [uc.GameEntry(1, (9, -3, -3, -3))],
                who="late",
                version=version,
                submit=False,
            )
        assert_current(mine, slug)
    finally:
        mine.close()
        other.close()


def test_the_mark_moves_when_saves_commit_out_of_order_on_postgresql(tmp_path: object) -> None:
    """On PostgreSQL two sheet saves run side by side: the one that got the smaller
    audit id may commit last. A snapshot read between the two commits must still give
    way to the later commit (the newest audit id would not have moved)."""
    with database("postgresql", tmp_path) as url:  # type: ignore[arg-type]
        engine = make_engine(url)
        upgrade(engine)
        engine.dispose()
        a, b, reader = open_store(url), open_store(url), open_store(url)
        try:
            slug = club_ready(a, 8)
            with a.transaction() as s:
                loaded = load(s, slug, "share")
                t, _, _ = enter_table_game(
                    loaded.value, "club", 1, 1, 1, (25, -10, -10, -5), who="tablet A"
                )
                save(s, loaded, t, who="tablet A", action="enter_sheet")
                s.flush()  # A's audit line has its id now, below B's
                uc.enter_sheet(
                    b,
                    slug,
                    None,
                    1,
                    2,
                    [uc.GameEntry(1, (9, -3, -3, -3))],
                    who="tablet B",
                    submit=False,
                )
                seen = uc.read(reader, slug)  # B's save, not A's yet: kept at that mark
                assert table_sheet(seen, "club", 1, 2).games[0].points == (9, -3, -3, -3)
                assert table_sheet(seen, "club", 1, 1).games[0].points[0] is None
            now = uc.read(reader, slug)
            assert table_sheet(now, "club", 1, 1).games[0].points == (25, -10, -10, -5)
            assert_current(reader, slug)
        finally:
            a.close()
            b.close()
            reader.close()
