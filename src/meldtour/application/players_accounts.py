"""Player accounts for online play, apart from the directors' (:mod:`.accounts`): a
display name and a password hashed as the directors' are (the web's argon2, handed in
as a :class:`~.accounts.Passwords`). An account is optional: a guest plays as before,
and when they create an account on the same browser the seats their cookies hold are
claimed for it (:func:`claim`), so their games count on their page.

Names are unique among the player accounts once folded — width, case and spaces aside,
as the site tells names apart (``tournament.entries.name_key``: "ＫＩＭ" is "kim") —
and refused like every name of the site: empty, longer than :data:`MAX_NAME`, or
holding a control, format or invisible character (``core.visible``: a bidirectional
override would make the name read as another).

Each function is one transaction.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from meldtour.core.refusal import register
from meldtour.core.visible import code_point, first_invisible
from meldtour.store import accounts as director_rows
from meldtour.store import players_online as rows
from meldtour.store.db import Store
from meldtour.store.repository import now
from meldtour.tournament.entries import name_key

from .accounts import MIN_PASSWORD, Account, Passwords
from .errors import UseCaseError

#: The longest display name (a seat's name at a table holds as many).
MAX_NAME = 24
#: The longest password read (argon2 takes any; a megabyte would only cost time).
MAX_PASSWORD = 1000

register(
    {
        "player.name_needed": "choose a display name",
        "player.name_too_long": "a display name has at most %(most)s characters, not %(n)s",
        "player.name_invisible": "a display name cannot hold the invisible character %(char)s",
        "player.name_taken": "the name %(name)s is taken: choose another",
        "player.password_short": "a password has at least %(n)s characters, typed the same twice",
        "player.disabled": "the account %(name)s is disabled",
    }
)


@dataclass(frozen=True, slots=True)
class PlayerAccount:
    id: int
    name: str
    disabled: bool = False
    epoch: int = 0
    created_at: str = ""
    #: The name hidden by the site's administrator (moderation): the public pages show
    #: a placeholder instead.
    hidden: bool = False


def _account(row: Any) -> PlayerAccount:
    return PlayerAccount(
        int(row.id),
        str(row.name),
        bool(row.disabled),
        int(row.session_epoch),
        str(row.created_at),
        bool(row.name_hidden),
    )


def check_name(name: str) -> str:
    """The display name as it is kept (spaces folded), or the refusal.

    >>> check_name("  Kim   Minji ")
    'Kim Minji'
    """
    folded = " ".join(str(name).split())
    if not folded:
        raise UseCaseError("player.name_needed")
    if len(folded) > MAX_NAME:
        raise UseCaseError("player.name_too_long", most=MAX_NAME, n=len(folded))
    bad = first_invisible(folded)
    if bad is not None:
        raise UseCaseError("player.name_invisible", char=code_point(bad))
    return folded


def sign_up(
    store: Store, name: str, password: str, again: str, passwords: Passwords
) -> PlayerAccount:
    """A new player account; refused for a bad or taken name or a short password (and
    nothing is written)."""
    kept = check_name(name)
    if len(password) < MIN_PASSWORD or password != again or len(password) > MAX_PASSWORD:
        raise UseCaseError("player.password_short", n=MIN_PASSWORD)
    key = name_key(kept)
    digest = passwords.hash(password)
    with store.transaction() as s:
        if rows.account_by_key(s, key) is not None:
            raise UseCaseError("player.name_taken", name=kept)
        new_id = rows.add_account(
            s, name=kept, name_key=key, password_hash=digest, created_at=now()
        )
        return _account(rows.account_by_id(s, new_id))


def sign_in(store: Store, name: str, password: str, passwords: Passwords) -> PlayerAccount | None:
    """The account of this name (folded) and password, or None; a disabled account is
    refused (``player.disabled``) once its password is right."""
    with store.reading() as s:
        row = rows.account_by_key(s, name_key(" ".join(str(name).split())))
    if row is None:
        passwords.waste_time(password[:MAX_PASSWORD])
        return None
    if not passwords.verify(row.password_hash, password[:MAX_PASSWORD]):
        return None
    if row.disabled:
        raise UseCaseError("player.disabled", name=row.name)
    return _account(row)


def get(store: Store, account_id: int) -> PlayerAccount | None:
    with store.reading() as s:
        row = rows.account_by_id(s, account_id)
    return None if row is None else _account(row)


def signed_in(store: Store, account_id: int, epoch: int) -> PlayerAccount | None:
    """The account of a session signed at ``epoch``, if it still holds."""
    account = get(store, account_id)
    if account is None or account.disabled or account.epoch != epoch:
        return None
    return account


def names(store: Store, ids: Iterable[int]) -> dict[int, str]:
    with store.reading() as s:
        return rows.account_names(s, sorted(set(ids)))


def take_seat(store: Store, who: PlayerAccount, game_id: str, seat: int, how: str) -> bool:
    """The seat ``who`` has just taken (signed in, or seated by quick play) is theirs."""
    with store.transaction() as s:
        return rows.add_seat(s, game_id, seat, who.id, how, _clock())


def claim(store: Store, who: PlayerAccount, seats: Iterable[tuple[str, int]]) -> int:
    """A guest's seats (``(game_id, seat)``, as their browser's seat cookies prove:
    the web checks each token against its game) become ``who``'s; a seat someone else's
    account has is left. Returns how many were claimed."""
    n = 0
    with store.transaction() as s:
        for game_id, seat in seats:
            if rows.add_seat(s, game_id, seat, who.id, "claimed", _clock()):
                n += 1
    return n


def seat_accounts(store: Store, game_id: str, seats: int) -> list[int | None]:
    """The account at each seat of a game (None: a guest or a computer)."""
    with store.reading() as s:
        return [rows.seat_owner(s, game_id, i) for i in range(seats)]


def seat_accounts_of(store: Store, games: dict[str, int]) -> dict[str, list[int | None]]:
    """:func:`seat_accounts` of several games (``{game_id: seats}``) in one reading."""
    with store.reading() as s:
        found = rows.owners_of(s, sorted(games))
    return {g: [found.get((g, i)) for i in range(n)] for g, n in games.items()}


def seats_of(store: Store, account_id: int) -> list[tuple[str, int, str]]:
    """The account's seats: ``(game_id, seat, how)``."""
    with store.reading() as s:
        return rows.seats_of(s, account_id)


def set_disabled(store: Store, who: Account, account_id: int, disabled: bool) -> PlayerAccount:
    """The site's administrator (the first director account) disables or enables a
    player account (moderation): a disabled one cannot sign in, its sessions end at
    once, and its page is no longer shown. Written to the accounts' audit log."""
    with store.transaction() as s:
        return disable_in(s, who, account_id, disabled)


def disable_in(s: Any, who: Account, account_id: int, disabled: bool) -> PlayerAccount:
    """:func:`set_disabled` in the caller's transaction (moderation's, which closes the
    account's reports in the same unit)."""
    if director_rows.first_id(s) != who.id:
        raise UseCaseError("account.administrator_only")
    row = rows.account_by_id(s, account_id)
    if row is None:
        raise UseCaseError("account.no_account", name=f"#{account_id}")
    if bool(row.disabled) != disabled:
        rows.set_disabled(s, account_id, disabled)
        director_rows.audit(
            s,
            at=now(),
            who=who.name,
            action="disable_player" if disabled else "enable_player",
            name=f"player:{row.name}",
            before={"disabled": bool(row.disabled)},
            after={"disabled": disabled},
        )
    return _account(rows.account_by_id(s, account_id))


def _clock() -> float:
    import time

    return time.time()


__all__ = [
    "MAX_NAME",
    "PlayerAccount",
    "check_name",
    "claim",
    "disable_in",
    "get",
    "names",
    "seat_accounts",
    "seat_accounts_of",
    "seats_of",
    "set_disabled",
    "sign_in",
    "sign_up",
    "signed_in",
    "take_seat",
]
