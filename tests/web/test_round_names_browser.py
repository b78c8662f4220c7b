"""The bracket of a 32-player knockout in a real browser, in Korean and Japanese: its
columns say 32강전 … 결승전 (ベスト32 … 決勝), and every column, the final's too, is on
the screen at 1280 px (a phone scrolls the bracket sideways). Screenshots at 390 and
1280 px."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .test_e2e_tournament import CHROMIUM, context

playwright_api = pytest.importorskip("playwright.sync_api")
if not CHROMIUM.exists():
    pytest.skip("chromium is not installed", allow_module_level=True)

from playwright.sync_api import Browser, expect  # noqa: E402

from meldtour.web.app import create_app  # noqa: E402
from meldtour.web.config import Settings  # noqa: E402
from meldtour.web.director import accounts  # noqa: E402
from meldtour.web.director.deps import Web  # noqa: E402

from .browser import serve  # noqa: E402
from .test_e2e_tournament import browser  # noqa: E402,F401  (the module's browser)
from .test_round_names_pages import SLUG, make_in  # noqa: E402

SHOTS = Path(__file__).resolve().parents[2] / "shots"


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    settings = Settings(env="test")
    app = create_app(settings)
    db = tmp_path_factory.mktemp("names") / "meldtour.db"
    web = Web(settings, url=f"sqlite:///{db}")
    app.state.director = web
    store = web.store()
    accounts.create(store, "boss", "correct horse battery")
    make_in(store, 1)
    with serve(app) as url:
        yield url


@pytest.mark.parametrize(
    ("lang", "first", "last"), [("ko", "32강전", "결승전"), ("ja", "ベスト32", "決勝")]
)
def test_the_bracket_in_the_programmes_words(
    base: str,
    browser: Browser,
    lang: str,
    first: str,
    last: str,
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for phone in (False, True):
        ctx = context(browser, base, lang, phone=phone)
        page = ctx.new_page()
        page.goto(f"/t/{SLUG}/bracket?division=kids")
        expect(page.locator('[data-round="1"] h3')).to_contain_text(first)
        expect(page.locator('[data-round="4"] h3')).to_contain_text(last)
        if not phone:
            # The final's column is inside the bracket's visible box, not clipped.
            col = page.locator('[data-round="4"]').bounding_box()
            frame = page.locator(".bracket").first.bounding_box()
            assert col is not None and frame is not None
            assert col["x"] + col["width"] <= frame["x"] + frame["width"] + 0.5, (col, frame)
            assert page.locator(".bracket").first.evaluate("b => b.scrollWidth <= b.clientWidth")
        page.screenshot(
            path=str(SHOTS / f"bracket-32-{lang}-{390 if phone else 1280}.png"), full_page=True
        )
        ctx.close()
