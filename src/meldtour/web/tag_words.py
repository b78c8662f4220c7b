"""Tags as people read them: ``family:이영수네`` is 가족: 이영수네 (a tag's kind is a key,
not a word)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from .i18n import N_

#: Tag kinds by their words.
TAG_KINDS: Mapping[str, str] = {"family": N_("family"), "club": N_("club")}


def tag_text(tag: str, gettext: Callable[[str], str]) -> str:
    """``family:이영수네`` → 가족: 이영수네; a tag of another kind as it is."""
    kind, sep, value = tag.partition(":")
    if sep and kind in TAG_KINDS:
        return f"{gettext(TAG_KINDS[kind])}: {value}"
    return tag


__all__ = ["TAG_KINDS", "tag_text"]
