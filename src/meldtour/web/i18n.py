"""Korean, Japanese and English: Babel catalogs read at start-up, one Jinja2
environment per language, and the reader's language chosen per request."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from babel import Locale, negotiate_locale
from babel.messages.pofile import read_po
from jinja2 import Environment, FileSystemLoader, select_autoescape

from meldtour.core.rules import RULE_PRESETS

from .round_words import round_namer

LOCALES = ("ko", "ja", "en")
LOCALE_NAMES = {"ko": "한국어", "ja": "日本語", "en": "English"}
HERE = Path(__file__).parent


def N_(message: str) -> str:
    """Mark a string for translation where it is defined; translate it where shown."""
    return message


@dataclass(frozen=True)
class Translations:
    locale: str
    messages: dict[str, str]

    def gettext(self, message: str) -> str:
        return self.messages.get(message) or message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.gettext(singular if n == 1 else plural)


def catalog_path(locale: str, domain: str = "messages") -> Path:
    return HERE / "locales" / locale / "LC_MESSAGES" / f"{domain}.po"


def catalog_paths(locale: str) -> list[Path]:
    """Every catalog of a language, one per domain: ``messages.po`` (the site's own
    words), ``play.po`` (a game), ``online.po`` (online rounds), ``director.po``,
    ``accounts.po``; a string is in one of them only."""
    return sorted((HERE / "locales" / locale / "LC_MESSAGES").glob("*.po"))


@cache
def translations(locale: str) -> Translations:
    messages: dict[str, str] = {}
    for path in catalog_paths(locale):
        with path.open("rb") as f:
            catalog = read_po(f, locale=locale)
        messages.update(
            {
                str(m.id): str(m.string)
                for m in catalog
                if m.id and m.string and not m.fuzzy and isinstance(m.id, str)
            }
        )
    return Translations(locale, messages)


def choose_locale(
    query: str | None, cookie: str | None, accept_language: str | None, default: str
) -> str:
    """The language to answer in: ``?lang=``, then the cookie, then the browser."""
    for candidate in (query, cookie):
        if candidate in LOCALES:
            return str(candidate)
    if accept_language:
        wanted = [
            part.split(";")[0].strip().replace("-", "_")
            for part in accept_language.split(",")
            if part.strip()
        ]
        found = negotiate_locale(wanted, list(LOCALES), sep="_")
        if found:
            return str(found).split("_")[0]
    return default


def gettext_for(locale: str) -> Callable[[str], str]:
    return translations(locale).gettext


def display_name(locale: str) -> str:
    return str(Locale.parse(locale).get_display_name(locale))


@cache
def environment(locale: str) -> Environment:
    """The Jinja2 environment of one language: the web app's templates, autoescaped,
    with ``_``/``gettext``/``ngettext`` translating into ``locale``. One per language,
    shared by every part of the app."""
    env = Environment(
        loader=FileSystemLoader(HERE / "templates"),
        autoescape=select_autoescape(["html"]),
        extensions=["jinja2.ext.i18n"],
    )
    t = translations(locale)
    env.install_gettext_callables(t.gettext, t.ngettext, newstyle=True)  # type: ignore[attr-defined]
    env.globals["asset"] = asset
    env.globals["round_name"] = round_namer(t.gettext)
    env.globals["preset_title"] = preset_titler(t.gettext)
    env.globals["tag_text"] = lambda tag: tag_text(str(tag), t.gettext)
    return env


def preset_titler(gettext: Callable[[str], str]) -> Callable[[str], str]:
    """A rules preset by its title in the reader's language (``krc-2015`` → 한국 루미큐브
    챔피언십, 부산 2015): a preset's key is not a word for people."""

    def title(key: str) -> str:
        preset = RULE_PRESETS.get(key)
        return gettext(preset.heading) if preset is not None and preset.heading else key

    return title


#: Tag kinds by their words: ``family:이영수네`` is 가족: 이영수네 (a kind is a key).
TAG_KINDS: dict[str, str] = {"family": N_("family"), "club": N_("club")}


def tag_text(tag: str, gettext: Callable[[str], str]) -> str:
    """A tag as people read it: ``family:이영수네`` → 가족: 이영수네; another as it is."""
    kind, sep, value = tag.partition(":")
    if sep and kind in TAG_KINDS:
        return f"{gettext(TAG_KINDS[kind])}: {value}"
    return tag


@cache
def asset(name: str) -> str:
    """The address of a static file with its content's hash, so that a browser holding
    an older copy in its cache fetches the new one after an upgrade."""
    digest = hashlib.sha256((HERE / "static" / name).read_bytes()).hexdigest()[:10]
    return f"/static/{name}?v={digest}"
