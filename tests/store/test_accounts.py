"""Director accounts live in the store: migrated, backed up, restored."""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa

from meldtour.store.backup import dump, restore
from meldtour.store.db import Store, current_revision, make_engine, upgrade


def test_accounts_from_an_earlier_web_account_table_are_kept(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'old.db'}")
    upgrade(engine, "0001")
    with engine.begin() as conn:
        conn.execute(
            sa.text(
                "CREATE TABLE web_account (id INTEGER PRIMARY KEY, name VARCHAR(80) UNIQUE, "
                "password_hash VARCHAR(255), role VARCHAR(20), created_at VARCHAR(40))"
            )
        )
        conn.execute(
            sa.text(
                "INSERT INTO web_account VALUES "
                "(1, '강수정', '$argon2id$x', 'director', '2026-11-29T00:00:00Z')"
            )
        )
    upgrade(engine, "0002")
    assert current_revision(engine) == "0002"
    with engine.connect() as conn:
        rows = conn.execute(sa.text("SELECT name, role FROM account")).all()
    assert [tuple(r) for r in rows] == [("강수정", "director")]
    assert not sa.inspect(engine).has_table("web_account")
    engine.dispose()


def test_a_backup_carries_the_accounts(tmp_path: Path) -> None:
    from meldtour.web.director import accounts

    source = Store(make_engine(f"sqlite:///{tmp_path / 'a.db'}"))
    upgrade(source.engine)
    accounts.create(source, "director", "a long enough password", only_if_none=True)
    data = dump(source)
    target = Store(make_engine(f"sqlite:///{tmp_path / 'b.db'}"))
    assert restore(target, data)["account"] == 1
    assert accounts.authenticate(target, "director", "a long enough password") is not None
    assert accounts.authenticate(target, "director", "wrong") is None
    assert dump(target) == data
    source.engine.dispose()
    target.engine.dispose()


def test_names_without_latin_letters_get_readable_distinct_slugs(tmp_path: Path) -> None:
    import pytest

    from meldtour.application import UseCaseError, create_tournament

    store = Store(make_engine(f"sqlite:///{tmp_path / 's.db'}"))
    upgrade(store.engine)
    first, _ = create_tournament(store, "club-night", who="t", name="부산 클럽 대회")
    second, _ = create_tournament(store, "club-night", who="t", name="東京月例会")
    # Readable in the address bar (issue 16); a second of the same name gets a number.
    assert (first, second) == ("부산-클럽-대회", "東京月例会")
    third, _ = create_tournament(store, "club-night", who="t", name="부산 클럽 대회")
    assert third == "부산-클럽-대회-2"
    # The store says the slug is taken, by code; the command line adds "choose another
    # --slug" (tests/cli/test_tournament_cli.py), the web its own words.
    with pytest.raises(
        UseCaseError, match=r"there is already a tournament '부산-클럽-대회'$"
    ) as refused:
        create_tournament(store, "club-night", who="t", name="x", slug="부산-클럽-대회")
    assert refused.value.code == "usecase.slug_taken"
    store.engine.dispose()
