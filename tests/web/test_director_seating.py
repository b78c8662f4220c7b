"""The registries on the pages: the director's seating choice lists every method of a
seatings stage (swiss among them) in the reader's language, and a rule preset's page
takes the preset's own title, falling back to its name."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from meldtour import application as usecases
from meldtour.core.rules import PRESETS, RULE_PRESETS, Preset, find_rules
from meldtour.tournament.seating import seaters_for
from meldtour.web.app import create_app
from meldtour.web.config import Settings
from meldtour.web.i18n import translations

from .test_director import make_client, sign_up, web
from .test_director_pages import blank, form


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path) as c:
        sign_up(c)
        yield c


def options(page: str, name: str) -> dict[str, str]:
    select = re.search(rf'<select name="{name}">(.*?)</select>', page, re.S)
    assert select, name
    return {
        m[0]: m[1]
        for m in re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>', select.group(1))
    }


@pytest.mark.parametrize("lang", ["ko", "ja", "en"])
def test_the_seating_choice_lists_swiss(client: TestClient, lang: str) -> None:
    slug = blank(client, seating0="swiss")
    assert usecases.read(web(client).store(), slug).division("open").formats[0].seating == "swiss"
    page = client.get(f"/director/t/{slug}?lang={lang}").text
    choice = options(page, "seating0")
    _ = translations(lang).gettext
    assert choice == {s.name: _(s.label) for s in seaters_for("seatings")}
    assert "swiss" in choice and choice["swiss"] != ""
    assert re.search(r'<option value="swiss" title="[^"]+" selected>', page)
    if lang != "en":
        assert choice["swiss"] != seaters_for("seatings")[2].label  # translated


def test_a_stage_changed_to_swiss_is_saved(client: TestClient) -> None:
    slug = blank(client)
    text = form(
        client,
        f"/director/t/{slug}/d/open/settings",
        {
            "name": "Open",
            "cap": "9",
            "rules": "japan",
            "kind0": "seatings",
            "games0": "2",
            "seatings0": "3",
            "seating0": "swiss",
            "kind1": "final",
            "entrants1": "4",
            "games1": "2",
        },
        page=f"/director/t/{slug}",
    )
    assert "Settings saved." in text
    assert usecases.read(web(client).store(), slug).division("open").formats[0].seating == "swiss"


def test_a_preset_page_takes_the_presets_own_title(monkeypatch: pytest.MonkeyPatch) -> None:
    client = TestClient(create_app(Settings(env="test")))
    for name, preset in RULE_PRESETS.items():
        page = client.get(f"/rules/{name}?lang=en").text
        assert preset.title and preset.title in page
    plain = find_rules("standard").replace(name="club-house")
    monkeypatch.setitem(RULE_PRESETS, "club-house", Preset(plain))
    monkeypatch.setitem(PRESETS, "club-house", plain)
    page = client.get("/rules/club-house?lang=ko")
    assert page.status_code == 200 and "club-house" in page.text
