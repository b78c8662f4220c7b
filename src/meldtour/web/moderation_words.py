"""The words of moderation both the public pages and the administrator's share: the
fixed reasons of a report, and the placeholder a hidden name is shown as (in the
reader's language: "Player #12", the account's number)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from .i18n import N_

Gettext = Callable[[str], str]

#: Each reason's words (the codes are ``application.moderation.REASONS``).
REASON_WORDS: Mapping[str, str] = {
    "name": N_("Offensive name"),
    "stalling": N_("Abandoning or stalling games"),
    "cheating": N_("Suspected collusion or cheating"),
    "other": N_("Something else against fair play"),
}

#: A hidden name on the public pages.
HIDDEN_NAME = N_("Player #%(n)d")


def hidden_name(account_id: int, gettext: Gettext) -> str:
    """The placeholder of a hidden name.

    >>> hidden_name(12, lambda s: s)
    'Player #12'
    """
    return gettext(HIDDEN_NAME) % {"n": account_id}


def public_names(names: Mapping[int, str], hidden: set[int], gettext: Gettext) -> dict[int, str]:
    """Accounts' names as the public pages show them: a hidden one as its placeholder."""
    return {i: hidden_name(i, gettext) if i in hidden else n for i, n in names.items()}


__all__ = ["HIDDEN_NAME", "REASON_WORDS", "hidden_name", "public_names"]
