"""Names in the reader's order: Korean 가나다순, Japanese order and alphabetical.

The standard library has no collation of its own and neither PyICU nor a collation of
Babel is at hand, so the order is a documented key (docs/tournament.md, "10. The venue
and printing"). A name is first normalised (NFKC: half-width katakana become full-width,
decomposed Hangul become syllables), then compared character by character, each
character by its script's rank in the reader's language and then within its script:

- Hangul syllables in code-point order, which is 가나다 order (the syllables are
  encoded by initial consonant, vowel, final consonant in dictionary order);
- kana in the order of the gojūon table, katakana read as hiragana (ア = あ), a voiced
  kana right after its plain one (か, が, き), by code point;
- Latin letters alphabetically, without regard to case or accents (É = e);
- kanji (CJK ideographs) in code-point order, the radical-and-stroke order of the
  Unicode tables: a registration has no reading (furigana) field, so a kanji name is
  not sorted by its sound (:func:`seats_by_name` takes readings where a caller has
  them);
- digits first, a space before any letter, everything else last by code point.

Korean pages put Hangul first, then Latin, kana, kanji; Japanese pages kana, kanji,
Latin, Hangul; English pages Latin, then the others. Equal keys fall back to the name
itself, then the number, so the order is total and the same on every page.

>>> by_name(["이서준", "김민지", "박지우", "강수정"], "ko")
['강수정', '김민지', '박지우', '이서준']
>>> by_name(["すずき", "サトウ", "あおき", "ｲﾄｳ"], "ja")
['あおき', 'ｲﾄｳ', 'サトウ', 'すずき']
>>> by_name(["bob", "Émile", "Alice", "eve"], "en")
['Alice', 'bob', 'Émile', 'eve']
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .model import Round, Tournament

DIGIT, SPACE, HANGUL, KANA, LATIN, HAN, OTHER = range(7)

#: Each script's rank for a language (lower first).
RANKS: dict[str, tuple[int, ...]] = {
    "ko": (SPACE, DIGIT, HANGUL, LATIN, KANA, HAN, OTHER),
    "ja": (SPACE, DIGIT, KANA, HAN, LATIN, HANGUL, OTHER),
    "en": (SPACE, DIGIT, LATIN, HANGUL, KANA, HAN, OTHER),
}


def _script(c: str) -> tuple[int, str]:
    o = ord(c)
    if c.isspace():
        return SPACE, " "
    if c.isdigit():
        return DIGIT, c
    if 0xAC00 <= o <= 0xD7A3 or 0x1100 <= o <= 0x11FF or 0x3130 <= o <= 0x318F:
        return HANGUL, c
    if 0x30A1 <= o <= 0x30F6:  # katakana read as hiragana
        return KANA, chr(o - 0x60)
    if 0x3041 <= o <= 0x309F or 0x30F7 <= o <= 0x30FF:
        return KANA, c
    if (
        0x4E00 <= o <= 0x9FFF
        or 0x3400 <= o <= 0x4DBF
        or 0xF900 <= o <= 0xFAFF
        or 0x20000 <= o <= 0x3FFFF
        or c in "々〆"
    ):
        return HAN, c
    base = "".join(
        x for x in unicodedata.normalize("NFKD", c) if not unicodedata.combining(x)
    ).casefold()
    if base and base.isascii() and base.isalpha():
        return LATIN, base
    return OTHER, c


def name_key(name: str, locale: str) -> tuple[tuple[tuple[int, str], ...], str]:
    """The sort key of ``name`` for a reader of ``locale`` (``ko``, ``ja``, ``en``)."""
    rank = RANKS.get(locale, RANKS["en"])
    text = unicodedata.normalize("NFKC", name).strip()
    key = []
    for c in text:
        script, folded = _script(c)
        key.append((rank.index(script), folded))
    return tuple(key), text


def by_name(names: Iterable[str], locale: str) -> list[str]:
    """``names`` in the reader's order."""
    return sorted(names, key=lambda n: name_key(n, locale))


@dataclass(frozen=True, slots=True)
class SeatLine:
    """A player of the round and where they sit."""

    name: str
    player: int
    table: int
    seat: int


def seats_by_name(
    t: Tournament, rnd: Round, locale: str, readings: Mapping[int, str] | None = None
) -> tuple[SeatLine, ...]:
    """Every player of the round with their table and seat, in the reader's order of
    names (for the seat list that players look their own name up in). ``readings``
    (a player's name in kana, by number), where known, is sorted by instead of the
    name: 鈴木 read すずき goes among the す names.

    """
    readings = readings or {}
    lines = [
        SeatLine(t.name_of(p), p, table.number, seat)
        for table in rnd.tables
        for seat, p in enumerate(table.players, 1)
    ]
    return tuple(
        sorted(lines, key=lambda x: (name_key(readings.get(x.player) or x.name, locale), x.player))
    )


__all__ = ["SeatLine", "by_name", "name_key", "seats_by_name"]
