"""Authorisation is the application's job (issue 26): a tournament's use case given who
acts (an account) refuses a director who does not direct the tournament — whatever
adapter calls it — and changes nothing; the site's administrator and the tournament's
directors may act; a name (the command line, a scorer's checked link) is not
restricted. On SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from meldtour import application as uc
from meldtour.application import accounts
from meldtour.application.acting import Acting
from meldtour.store.db import Store

from ..circuit_play import play_out


def site(store: Store) -> tuple[Acting, Acting, Acting]:
    """The administrator, the tournament's director (boss) and director B (bee), who
    directs a tournament of his own only; boss's club night, played and awarded."""
    admin = accounts.create(store, "admin", "hash-0")
    boss = accounts.create(store, "boss", "hash-1")
    bee = accounts.create(store, "bee", "hash-2")
    uc.create_tournament(store, "club-night", who="boss", slug="club", owner=boss.id, seed=4)
    uc.create_tournament(store, "club-night", who="bee", slug="bees", owner=bee.id, seed=5)
    uc.register_players(store, "club", [uc.PlayerEntry(f"P{i}") for i in range(1, 9)], who="boss")
    return Acting("admin", admin.id), Acting("boss", boss.id), Acting("bee", bee.id)


CHANGES: dict[str, Callable[[Store, Any], object]] = {
    "edit the tournament": lambda s, w: uc.edit_tournament(
        s, "club", who=w, name="Renamed", date="2026-01-01", venue=""
    ),
    "add a co-director": lambda s, w: uc.add_director(s, "club", "bee", who=w),
    "register": lambda s, w: uc.register_players(s, "club", [uc.PlayerEntry("X")], who=w),
    "check in": lambda s, w: uc.check_in_players(
        s, "club", [], who=w, everyone_but=True, division="club"
    ),
    "seat": lambda s, w: uc.seat(s, "club", "club", None, who=w),
    "lock the seating": lambda s, w: uc.lock_seating(s, "club", "club", who=w),
    "open the vote": lambda s, w: uc.open_vote(s, "club", "club", who=w),
    "set the prizes": lambda s, w: uc.set_prizes(s, "club", "club", [(1, 1, "Trophy")], who=w),
    "set the signers": lambda s, w: uc.set_signers(s, "club", ["The referee"], who=w),
}


@pytest.mark.parametrize("change", list(CHANGES))
def test_a_director_of_another_tournament_is_refused_and_nothing_changes(
    store: Store, change: str
) -> None:
    _admin, _boss, bee = site(store)
    before = uc.audit_mark(store, "club")
    with pytest.raises(uc.UseCaseError) as refused:
        CHANGES[change](store, bee)
    assert refused.value.code == "circuit.not_your_tournament"
    assert uc.audit_mark(store, "club") == before
    assert uc.read(store, "club").name != "Renamed"


def test_the_directors_and_the_administrator_may_act(store: Store) -> None:
    admin, boss, bee = site(store)
    uc.edit_tournament(store, "club", who=boss, name="Boss cup", date="", venue="")
    uc.edit_tournament(store, "club", who=admin, name="Admin cup", date="", venue="")
    assert uc.read(store, "club").name == "Admin cup"
    uc.add_director(store, "club", "bee", who=boss)  # now bee directs it too
    uc.edit_tournament(store, "club", who=bee, name="Bee cup", date="", venue="")
    assert uc.read(store, "club").name == "Bee cup"


def test_an_award_and_a_correction_after_it_are_the_directors(store: Store) -> None:
    _admin, boss, bee = site(store)
    uc.check_in_players(store, "club", [], who="boss", everyone_but=True, division="club")
    play_out(store, "club", "club", seed=4)  # played and awarded by name (the operator)
    t = uc.read(store, "club")
    rnd = t.division("club").stages[0].rounds[-1]
    x = rnd.tables[0]
    lines = x.sheet.counted or x.sheet.games
    games = [
        uc.GameEntry(i, tuple(line.points), tuple(line.penalties), line.winner)
        for i, line in enumerate(lines, 1)
    ]
    with pytest.raises(uc.UseCaseError) as refused:
        uc.enter_sheet(store, "club", "club", rnd.number, x.number, games, who=bee, why="x")
    assert refused.value.code == "circuit.not_your_tournament"
    with pytest.raises(uc.UseCaseError) as refused:
        uc.award(store, "club", "club", who=bee)
    assert refused.value.code == "circuit.not_your_tournament"
    assert uc.award(store, "club", "club", who=boss)
