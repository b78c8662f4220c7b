"""Moderation's use cases on SQLite and PostgreSQL (issue 29): a player reports
another of a game they both sat in, for a fixed reason, once; the site's administrator
(the first director account) sees the open reports by player and hides the name,
disables the account or dismisses them, each audited; nobody else may."""

from __future__ import annotations

import pytest

from meldtour.application import UseCaseError
from meldtour.application import moderation as mod
from meldtour.application import players_accounts as players
from meldtour.application.players_accounts import PlayerAccount
from meldtour.store.db import Store
from meldtour.web.director import accounts as directors
from meldtour.web.security import PASSWORDS

PASSWORD = "a long enough password"


def account(store: Store, name: str) -> PlayerAccount:
    return players.sign_up(store, name, PASSWORD, PASSWORD, PASSWORDS)


def seat(store: Store, who: PlayerAccount, game: str, n: int) -> None:
    assert players.take_seat(store, who, game, n, "joined")


def refused(code: str, call: object, *args: object) -> None:
    with pytest.raises(UseCaseError) as caught:
        call(*args)  # type: ignore[operator]
    assert caught.value.code == code, caught.value.code


def test_a_report_and_its_refusals(store: Store) -> None:
    ann, bo, cy = account(store, "Ann"), account(store, "Bo"), account(store, "Cy")
    seat(store, ann, "g1", 0)
    seat(store, bo, "g1", 1)
    seat(store, cy, "g2", 0)
    mod.report(store, ann, "g1", bo.id, "name", 1.0)
    assert mod.reported_by(store, ann) == {(bo.id, "g1")}
    # Once per reporter, reported player and game.
    refused("report.already", mod.report, store, ann, "g1", bo.id, "stalling", 2.0)
    refused("report.sign_in", mod.report, store, None, "g1", bo.id, "name", 2.0)
    refused("report.self", mod.report, store, ann, "g1", ann.id, "name", 2.0)
    refused("report.unknown_reason", mod.report, store, bo, "g1", ann.id, "you stink", 2.0)
    # Cy sat at another game: he may not report them, nor be reported for g1.
    refused("report.not_at_game", mod.report, store, cy, "g1", bo.id, "name", 2.0)
    refused("report.not_in_game", mod.report, store, ann, "g1", cy.id, "name", 2.0)
    refused("report.not_at_game", mod.report, store, ann, "nope", bo.id, "name", 2.0)
    # Bo reports Ann back; a second game of theirs is another report.
    mod.report(store, bo, "g1", ann.id, "cheating", 3.0)
    seat(store, ann, "g3", 0)
    seat(store, bo, "g3", 1)
    mod.report(store, ann, "g3", bo.id, "stalling", 4.0)
    assert mod.shared_games(store, ann, bo.id) == ["g3", "g1"]
    assert mod.shared_games(store, ann, cy.id) == []


def test_the_administrator_acts_on_the_reports_and_nobody_else_may(store: Store) -> None:
    admin = directors.create(store, "admin", "the administrator's password")
    helper = directors.create(store, "helper", "the helper's password")
    ann, bo, cy = account(store, "Ann"), account(store, "Troll"), account(store, "Cy")
    for i, who in enumerate((ann, bo, cy)):
        seat(store, who, "g1", i)
    seat(store, ann, "g2", 0)
    seat(store, bo, "g2", 1)
    mod.report(store, ann, "g1", bo.id, "name", 1.0)
    mod.report(store, cy, "g1", bo.id, "name", 2.0)
    mod.report(store, ann, "g2", bo.id, "stalling", 3.0)
    mod.report(store, bo, "g1", cy.id, "other", 4.0)
    refused("account.administrator_only", mod.open_reports, store, helper)
    refused("account.administrator_only", mod.set_name_hidden, store, helper, bo.id, True, 5.0)
    refused("account.administrator_only", mod.disable, store, helper, bo.id, 5.0)
    refused("account.administrator_only", mod.dismiss, store, helper, bo.id, 5.0)
    found = mod.open_reports(store, admin)
    assert [r.account.name for r in found] == ["Troll", "Cy"]
    troll = found[0]
    assert troll.counts == {"name": 2, "stalling": 1, "cheating": 0, "other": 0}
    assert troll.games == ["g1", "g2"] and troll.total == 3
    # Hidden: the name is hidden everywhere public, the reports closed, audited.
    assert mod.hidden_among(store, [ann.id, bo.id]) == set()
    hidden = mod.set_name_hidden(store, admin, bo.id, True, 5.0)
    assert hidden.hidden and not hidden.disabled
    assert mod.hidden_among(store, [ann.id, bo.id, cy.id]) == {bo.id}
    assert [a.name for a in mod.hidden_accounts(store, admin)] == ["Troll"]
    assert [r.account.name for r in mod.open_reports(store, admin)] == ["Cy"]
    # The account still plays (signs in), and is told on its page (players.get).
    assert players.sign_in(store, "Troll", PASSWORD, PASSWORDS) is not None
    got = players.get(store, bo.id)
    assert got is not None and got.hidden
    # Dismissed: Cy's report is closed, nothing done to the account.
    assert mod.dismiss(store, admin, cy.id, 6.0) == 1
    assert mod.open_reports(store, admin) == []
    assert mod.dismiss(store, admin, cy.id, 6.0) == 0
    # A new report of Troll, then disabled from the reports page: closed too.
    seat(store, cy, "g4", 0)
    seat(store, bo, "g4", 1)
    mod.report(store, cy, "g4", bo.id, "cheating", 7.0)
    assert mod.disable(store, admin, bo.id, 8.0).disabled
    assert mod.open_reports(store, admin) == []
    # Shown again.
    assert not mod.set_name_hidden(store, admin, bo.id, False, 9.0).hidden
    assert mod.hidden_among(store, [bo.id]) == set()
    refused("account.no_account", mod.set_name_hidden, store, admin, 999, True, 9.0)
    # Every action is in the accounts' audit log.
    from meldtour.application import accounts as director_use

    actions = [line["action"] for line in director_use.account_log(store, admin)]
    for action in ("hide_player_name", "dismiss_reports", "disable_player", "show_player_name"):
        assert action in actions, actions


def test_a_reporter_makes_at_most_ten_reports_an_hour_counted_from_the_records(
    store: Store,
) -> None:
    """The hourly limit is counted from the reports kept (a restart, another process
    or no Redis change nothing): the eleventh within an hour is refused, and an hour
    after the first, one more may be made."""
    ann = account(store, "Ann")
    seat(store, ann, "g0", 0)
    others = [account(store, f"P{i}") for i in range(12)]
    for i, who in enumerate(others):
        seat(store, who, "g0", i + 1)
    for i in range(mod.REPORTS_PER_HOUR):
        mod.report(store, ann, "g0", others[i].id, "stalling", 1000.0 + i)
    refused("report.too_many", mod.report, store, ann, "g0", others[10].id, "name", 1500.0)
    # Another player is not limited by Ann's reports.
    mod.report(store, others[0], "g0", others[10].id, "name", 1500.0)
    # Just over an hour after the first (at 1000), one more is allowed, not two.
    mod.report(store, ann, "g0", others[10].id, "name", 4601.0)
    refused("report.too_many", mod.report, store, ann, "g0", others[11].id, "name", 4601.0)
