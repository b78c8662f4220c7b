"""Every user-facing string exists in Korean, Japanese and English."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

# The web app and the commands: every module that declares refusal codes.
import meldtour.cli.jsonlines
import meldtour.web.app  # noqa: F401
from meldtour.core.penalties import PENALTIES
from meldtour.core.refusal import TEMPLATES
from meldtour.core.rules import RULE_PRESETS
from meldtour.tournament.seating import SEATERS
from meldtour.web.i18n import LOCALES, catalog_paths, choose_locale

WEB = Path(__file__).resolve().parents[2] / "src" / "meldtour" / "web"


def extracted() -> set[str]:
    """The strings the pages use: marked in the web package, and every refusal's
    English template (the pages translate refusals by code, through these)."""
    method_map = [("**.py", "python"), ("templates/**.html", "jinja2")]
    keywords = {"_": None, "gettext": None, "ngettext": (1, 2), "N_": None}
    found: set[str] = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
        str(WEB), method_map, keywords=keywords
    ):
        if isinstance(message, str):
            found.add(message)
        else:
            found.update(m for m in message if m)
    return found | refusal_templates() | registry_words()


def refusal_templates() -> set[str]:
    """The English templates of every refusal code: the pages translate refusals by
    code, so these are message ids too (core/refusal.py)."""
    return set(TEMPLATES.values())


def registry_words() -> set[str]:
    """The words the domain's registries carry, shown by the pages though no web file
    spells them: rule presets' titles and descriptions, seating methods' labels and
    descriptions, penalty policies' descriptions and sentences."""
    words = {w for p in RULE_PRESETS.values() for w in (p.title, p.description)}
    words |= {w for s in SEATERS.values() for w in (s.label, s.description)}
    words |= {w for pen in PENALTIES.values() for w in (pen.description, pen.sentence)}
    return {w for w in words if w}


def catalogued(locale: str) -> dict[object, object]:
    translated: dict[object, object] = {}
    for path in catalog_paths(locale):
        with path.open("rb") as f:
            catalog = read_po(f, locale=locale)
        translated.update({m.id: m.string for m in catalog if m.id})
    return translated


@pytest.mark.parametrize("locale", LOCALES)
def test_every_string_is_translated(locale: str) -> None:
    translated = catalogued(locale)
    wanted = extracted()
    assert len(wanted) > 40
    missing = sorted(m for m in wanted if not translated.get(m))
    assert not missing, f"untranslated in {locale}: {missing}"
    stale = sorted(str(m) for m in translated if m not in wanted)
    assert not stale, f"{locale} has strings no page uses any more: {stale}"


@pytest.mark.parametrize("locale", ["ko", "ja"])
def test_placeholders_survive_translation(locale: str) -> None:
    for msgid, msgstr in catalogued(locale).items():
        if isinstance(msgid, str):
            wanted = sorted(re.findall(r"%\(\w+\)[sd]", msgid))
            assert sorted(re.findall(r"%\(\w+\)[sd]", str(msgstr))) == wanted, (locale, msgid)


@pytest.mark.parametrize("locale", LOCALES)
def test_no_string_is_in_two_catalogs(locale: str) -> None:
    seen: dict[object, str] = {}
    for path in catalog_paths(locale):
        with path.open("rb") as f:
            for m in read_po(f, locale=locale):
                if m.id:
                    assert m.id not in seen, f"{m.id!r} is in {seen[m.id]} and {path.name}"
                    seen[m.id] = path.name


def test_language_choice_query_then_cookie_then_browser() -> None:
    assert choose_locale("ja", "ko", "en-US,en;q=0.9", "ko") == "ja"
    assert choose_locale(None, "en", "ja", "ko") == "en"
    assert choose_locale(None, None, "ja-JP,ja;q=0.9,en;q=0.5", "ko") == "ja"
    assert choose_locale(None, None, "fr-FR", "ko") == "ko"
    assert choose_locale("xx", None, None, "en") == "en"
