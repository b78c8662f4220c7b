"""Moderation of the online players: a player reports another, the site's
administrator (the first director account) hides a name, disables an account or
dismisses the reports. Chat stays the table's fixed phrases, so a name is the one
thing a player writes that others read.

- **A report** is made by a signed-in player account (a guest cannot report) about
  another account that sat at a game they sat in too, for one of the fixed
  :data:`REASONS` (a code: nothing free to write, so nothing abusive), once per
  reporter, reported player and game, and at most :data:`REPORTS_PER_HOUR` by a
  reporter in any hour (``report.too_many``) — counted from the reports kept, so
  the limit holds across restarts and processes, with or without Redis.
- **The reports page** lists the open reports by reported player (the count of each
  reason, the games); the administrator hides the name, disables the account
  (:func:`.players_accounts.disable_in`) or dismisses the reports: each closes the
  player's open reports, in the same transaction, with an audit line.
- **A hidden name** is replaced by a placeholder on every public page (the web's,
  in the reader's language: "Player #12"); the account still plays, its owner is told
  on their page, and the administrator may show it again. There is no renaming: a
  hidden name stays hidden until the administrator shows it again.

Each function is one transaction.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from meldtour.core.refusal import register
from meldtour.store import accounts as director_rows
from meldtour.store import moderation as rows
from meldtour.store import players_online as player_rows
from meldtour.store.db import Store
from meldtour.store.repository import now

from .accounts import Account
from .errors import UseCaseError
from .players_accounts import PlayerAccount, _account, disable_in

#: The fixed reasons of a report (codes; the web says each in the reader's language).
REASONS: tuple[str, ...] = ("name", "stalling", "cheating", "other")
#: How many reports one player account may make in an hour.
REPORTS_PER_HOUR = 10
#: The window of that limit, in seconds.
HOUR = 3600.0
#: What the administrator did to a player's reports.
OUTCOMES: tuple[str, ...] = ("hidden", "disabled", "dismissed")

register(
    {
        "report.sign_in": "sign in with a player account to report a player: a guest cannot",
        "report.not_at_game": "only a player of the game %(game)s may report its players",
        "report.not_in_game": "that player did not sit at the game %(game)s",
        "report.self": "you cannot report yourself",
        "report.already": "you have reported this player for this game already",
        "report.unknown_reason": "choose one of the reasons of a report",
        "report.too_many": "you have made %(n)s reports in the last hour: try again later",
    }
)


@dataclass(frozen=True, slots=True)
class Reported:
    """A reported player with their open reports, as the administrator's page shows it."""

    account: PlayerAccount
    #: How many open reports give each reason (every reason, in :data:`REASONS` order).
    counts: dict[str, int]
    #: The games the reports name, oldest report first (each once).
    games: list[str] = field(default_factory=list)
    first_at: float = 0.0
    last_at: float = 0.0

    @property
    def total(self) -> int:
        return sum(self.counts.values())


def _seated(s: Any, game_id: str) -> set[int]:
    return set(player_rows.owners_of(s, [game_id]).values())


def report(
    store: Store,
    who: PlayerAccount | None,
    game_id: str,
    reported_id: int,
    reason: str,
    at: float,
) -> None:
    """``who`` reports the account ``reported_id`` of the game ``game_id`` (both sat at
    it) for ``reason``; refused for a guest, a stranger to the game, oneself, a second
    report of the same player for the same game, or a reason that is not one of
    :data:`REASONS`."""
    if who is None:
        raise UseCaseError("report.sign_in")
    if reason not in REASONS:
        raise UseCaseError("report.unknown_reason")
    if reported_id == who.id:
        raise UseCaseError("report.self")
    with store.transaction() as s:
        seated = _seated(s, game_id)
        if who.id not in seated:
            raise UseCaseError("report.not_at_game", game=game_id)
        if reported_id not in seated:
            raise UseCaseError("report.not_in_game", game=game_id)
        if rows.has_report(s, who.id, reported_id, game_id):
            raise UseCaseError("report.already")
        # The reporter's row locked: two reports at once cannot both pass the count.
        player_rows.lock_account(s, who.id)
        limit = REPORTS_PER_HOUR
        if rows.reports_since(s, who.id, at - HOUR) >= limit:
            raise UseCaseError("report.too_many", n=limit)
        rows.add_report(
            s, reporter_id=who.id, reported_id=reported_id, game_id=game_id, reason=reason, at=at
        )


def reported_by(store: Store, who: PlayerAccount) -> set[tuple[int, str]]:
    """``(reported_id, game_id)`` of the reports ``who`` has made (the pages offer no
    second report of the same)."""
    with store.reading() as s:
        return set(rows.reported_by(s, who.id))


def shared_games(store: Store, who: PlayerAccount, other_id: int) -> list[str]:
    """The games ``who`` and the account ``other_id`` both sat in (the player's page
    offers a report about one of them), newest seat first."""
    with store.reading() as s:
        mine = player_rows.seats_of(s, who.id)
        theirs = {g for g, _seat, _how in player_rows.seats_of(s, other_id)}
    seen: list[str] = []
    for game_id, _seat, _how in reversed(mine):
        if game_id in theirs and game_id not in seen:
            seen.append(game_id)
    return seen


def hidden_among(store: Store, ids: Iterable[int]) -> set[int]:
    """The accounts among ``ids`` whose name is hidden."""
    wanted = sorted(set(ids))
    if not wanted:
        return set()
    with store.reading() as s:
        return rows.hidden_among(s, wanted)


def _administrator(s: Any, who: Account) -> None:
    if director_rows.first_id(s) != who.id:
        raise UseCaseError("account.administrator_only")


def _row(s: Any, account_id: int) -> Any:
    row = player_rows.account_by_id(s, account_id)
    if row is None:
        raise UseCaseError("account.no_account", name=f"#{account_id}")
    return row


def open_reports(store: Store, who: Account) -> list[Reported]:
    """The open reports by reported player, the most reported first (the administrator's
    page; refused to anyone else)."""
    with store.reading() as s:
        _administrator(s, who)
        found = rows.open_reports(s)
        by: dict[int, list[Any]] = {}
        for r in found:
            by.setdefault(int(r.reported_id), []).append(r)
        accounts = {i: _account(_row(s, i)) for i in by}
    out = []
    for account_id, reports in by.items():
        counts = dict.fromkeys(REASONS, 0)
        games: list[str] = []
        for r in reports:
            counts[str(r.reason)] = counts.get(str(r.reason), 0) + 1
            if str(r.game_id) not in games:
                games.append(str(r.game_id))
        out.append(
            Reported(
                accounts[account_id],
                counts,
                games,
                float(reports[0].at),
                float(reports[-1].at),
            )
        )
    out.sort(key=lambda r: (-r.total, r.first_at, r.account.id))
    return out


def hidden_accounts(store: Store, who: Account) -> list[PlayerAccount]:
    """The accounts whose name is hidden (the administrator's page, to show one again)."""
    with store.reading() as s:
        _administrator(s, who)
        return [_account(r) for r in rows.hidden_accounts(s)]


def _audit(s: Any, who: Account, action: str, row: Any, before: Any, after: Any) -> None:
    director_rows.audit(
        s,
        at=now(),
        who=who.name,
        action=action,
        name=f"player:{row.name}",
        before=before,
        after=after,
    )


def set_name_hidden(
    store: Store, who: Account, account_id: int, hidden: bool, at: float
) -> PlayerAccount:
    """The administrator hides a player's name (its open reports are closed as acted
    on) or shows it again. Audited (``hide_player_name``, ``show_player_name``)."""
    with store.transaction() as s:
        _administrator(s, who)
        row = _row(s, account_id)
        closed = rows.close_reports(s, account_id, "hidden", who.name, at) if hidden else 0
        if bool(row.name_hidden) != hidden or closed:
            rows.set_name_hidden(s, account_id, hidden)
            after: dict[str, Any] = {"name_hidden": hidden}
            if closed:
                after["reports"] = closed
            _audit(
                s,
                who,
                "hide_player_name" if hidden else "show_player_name",
                row,
                {"name_hidden": bool(row.name_hidden)},
                after,
            )
        return _account(_row(s, account_id))


def disable(store: Store, who: Account, account_id: int, at: float) -> PlayerAccount:
    """The administrator disables a reported account from the reports page
    (:func:`.players_accounts.disable_in`, audited ``disable_player``) and its open
    reports are closed, in one transaction."""
    with store.transaction() as s:
        account = disable_in(s, who, account_id, True)
        rows.close_reports(s, account_id, "disabled", who.name, at)
        return account


def dismiss(store: Store, who: Account, account_id: int, at: float) -> int:
    """The administrator dismisses a player's open reports (nothing done to the
    account); how many. Audited (``dismiss_reports``)."""
    with store.transaction() as s:
        _administrator(s, who)
        row = _row(s, account_id)
        closed = rows.close_reports(s, account_id, "dismissed", who.name, at)
        if closed:
            _audit(s, who, "dismiss_reports", row, None, {"reports": closed})
        return closed


__all__ = [
    "OUTCOMES",
    "REASONS",
    "REPORTS_PER_HOUR",
    "Reported",
    "disable",
    "dismiss",
    "hidden_accounts",
    "hidden_among",
    "open_reports",
    "report",
    "reported_by",
    "set_name_hidden",
    "shared_games",
]
