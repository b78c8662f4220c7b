"""Which division a person means by what they typed in a pasted list: the key or the
title, width, case and spaces aside, with or without the title's bracket ("초등 저학년부"
for "초등 저학년부 (1~3학년)"), one word of the title, or the start of it — if only one
division fits. Pure: the divisions' keys and titles in, a key (or nothing) out."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence

_BRACKETS = re.compile(r"[(\[（【［][^)\]）】］]*[)\]）】］]")


def fold(text: str) -> str:
    """Width, case and spaces aside: NFKC, casefolded, no white space."""
    return "".join(unicodedata.normalize("NFKC", text).casefold().split())


def bare(title: str) -> str:
    """A title without its brackets' asides: "초등 저학년부 (1~3학년)" → "초등 저학년부"."""
    return " ".join(_BRACKETS.sub(" ", unicodedata.normalize("NFKC", title)).split())


def match_division(divisions: Sequence[tuple[str, str]], typed: str) -> str | None:
    """The key of the one division (of ``(key, title)`` pairs) that ``typed`` names, or
    ``None`` when none fits or more than one does. Tried in order, the first kind of
    match that fits any division decides: the key or title as written; folded, the
    key, the title, the title without brackets, or a word of it; the start (two
    characters or more) of the folded title or key.

    >>> divs = [("general", "일반부"), ("lower", "초등 저학년부 (1~3학년)"),
    ...         ("upper", "초등 고학년부 (4~6학년)")]
    >>> [match_division(divs, s) for s in ("초등 저학년부", "ＧＥＮＥＲＡＬ", "고학년부", "초등")]
    ['lower', 'general', 'upper', None]
    """
    text = typed.strip()
    if not text:
        return None
    loose = fold(text)
    tiers: tuple[Callable[[str, str], bool], ...] = (
        lambda key, title: text in (key, title),
        lambda key, title: (
            loose in (fold(key), fold(title), fold(bare(title)))
            or loose in {fold(w) for w in bare(title).split()}
        ),
        lambda key, title: (
            len(loose) >= 2 and (fold(title).startswith(loose) or fold(key).startswith(loose))
        ),
    )
    for fits in tiers:
        found = {key for key, title in divisions if fits(key, title)}
        if found:
            return found.pop() if len(found) == 1 else None
    return None


__all__ = ["bare", "fold", "match_division"]
