"""Creating a tournament and recording its director are one use case in one
transaction (issue 26): before, the web created the tournament, then recorded its
owner in a second transaction, so a failure between them left a tournament only the
administrator saw. A co-director is added with its audit line by the application
(the store no longer writes audit rows itself). On SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from meldtour import application as usecases
from meldtour.application import accounts
from meldtour.store import owners
from meldtour.store.db import Store
from meldtour.tournament import StageFormat

SPEC = usecases.DivisionSpec(
    "main", "Main", 16, "standard", (StageFormat("seatings", games=2, seatings=2),)
)


def people(store: Store) -> tuple[int, int]:
    admin = accounts.create(store, "admin", "hash-0")  # the administrator
    boss = accounts.create(store, "boss", "hash-1")
    bee = accounts.create(store, "bee", "hash-2")
    assert admin.id < boss.id
    return boss.id, bee.id


def test_the_creator_directs_it_from_the_same_transaction(store: Store) -> None:
    boss, bee = people(store)
    slug, _t = usecases.create_tournament(store, "club-night", who="boss", slug="club", owner=boss)
    assert owners.may_direct(store, slug, boss) and not owners.may_direct(store, slug, bee)
    assert owners.directors(store, slug) == ["boss"]
    slug, _t = usecases.create_blank_tournament(
        store, who="bee", name="Bee cup", divisions=[SPEC], owner=bee
    )
    assert owners.tournaments_of(store, bee) == [(slug, "Bee cup", "")]


@pytest.mark.parametrize("blank", [False, True])
def test_a_failure_recording_the_owner_leaves_no_tournament(store: Store, blank: bool) -> None:
    people(store)
    before = usecases.slugs(store)
    with pytest.raises(usecases.UseCaseError) as refused:
        if blank:
            usecases.create_blank_tournament(
                store, who="ghost", name="Orphan", divisions=[SPEC], slug="orphan", owner=9999
            )
        else:
            usecases.create_tournament(store, "club-night", who="ghost", slug="orphan", owner=9999)
    assert refused.value.code == "owner.no_account"
    assert usecases.slugs(store) == before  # no tournament left behind
    assert not usecases.any_tournament(store)


def test_a_co_director_is_added_with_its_audit_line(store: Store) -> None:
    boss, bee = people(store)
    slug, _t = usecases.create_tournament(store, "club-night", who="boss", slug="club", owner=boss)
    lines = len(usecases.audit_log(store, slug))
    assert usecases.add_director(store, slug, "bee", who="boss") is True
    assert owners.may_direct(store, slug, bee)
    log = usecases.audit_log(store, slug)
    assert len(log) == lines + 1 and log[-1]["action"] == "add director"
    assert (log[-1]["who"], log[-1]["key"]) == ("boss", "bee")
    assert usecases.add_director(store, slug, "bee", who="boss") is False  # once
    with pytest.raises(usecases.UseCaseError) as refused:
        usecases.add_director(store, slug, "nobody", who="boss")
    assert refused.value.code == "owner.no_account"
    with pytest.raises(usecases.UseCaseError) as refused:
        usecases.add_director(store, "no-such", "bee", who="boss")
    assert refused.value.code == "store.no_tournament"
    assert len(usecases.audit_log(store, slug)) == lines + 1
