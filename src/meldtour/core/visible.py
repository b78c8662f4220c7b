"""Characters no name may hold: the invisible ones that make a name look like another
(a right-to-left override shows ``\u202eabc`` as ``cba``; a zero-width space makes two
equal-looking names different) and controls.

Refused: Unicode's control (Cc), format (Cf: the bidirectional controls U+200E/F,
U+202A–E, U+2066–9, zero-width spaces and joiners, U+FEFF, the soft hyphen …),
surrogate (Cs) and private-use (Co) characters, and the letters that show as nothing
(the Hangul fillers U+115F, U+1160, U+3164, U+FFA0, the combining grapheme joiner
U+034F, the Braille blank U+2800). Spaces are not refused: names fold them. Combining
marks and variation selectors stay (a Japanese name's variant kanji needs them).

>>> first_invisible("김민지"), first_invisible("Kim\u202eiM"), first_invisible("a\u3164")
(None, '\u202e', '\u3164')
>>> code_point("\u202e")
'U+202E'
"""

from __future__ import annotations

import unicodedata

#: Letters and marks that show as nothing (not of a refused category).
BLANK_LETTERS = frozenset("\u034f\u115f\u1160\u3164\uffa0\u2800")
#: The refused categories.
CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co"})


def invisible(ch: str) -> bool:
    """Whether ``ch`` may not be in a name (spaces and line ends aside: they fold)."""
    if ch.isspace():
        return False
    return ch in BLANK_LETTERS or unicodedata.category(ch) in CATEGORIES


def first_invisible(text: str) -> str | None:
    """The first character of ``text`` no name may hold, or ``None``."""
    return next((ch for ch in text if invisible(ch)), None)


def code_point(ch: str) -> str:
    """A character as its code point, for a refusal (``U+202E``): printing it would hide
    it again."""
    return f"U+{ord(ch):04X}"


__all__ = ["BLANK_LETTERS", "CATEGORIES", "code_point", "first_invisible", "invisible"]
