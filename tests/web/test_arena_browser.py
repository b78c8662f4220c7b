"""An arena in Debian's Chromium (issue 29's acceptance): a director opens it from its
page (a short window), two people join from their browsers and six computer-driven
clients (HTTP and the table's websocket, as a script would) join too; they are seated
four at a time, play game after game (every table's deal lets its first seat go out at
once, so games end in a second), the leaderboard follows live, and at the end the
winner is named. Screenshots of the pages at 390 and 1280 px in Korean and Japanese
(``shots/``)."""

from __future__ import annotations

import http.cookiejar
import json
import re
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .browser import ARGS, CHROMIUM, drag, serve

playwright_api = pytest.importorskip("playwright.sync_api")
websockets_sync = pytest.importorskip("websockets.sync.client")
if not CHROMIUM.exists():
    pytest.skip("Debian's Chromium is not installed", allow_module_level=True)

from playwright.sync_api import Browser, BrowserContext, Page, expect  # noqa: E402
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError  # noqa: E402

from meldtour.application import arena as arenas  # noqa: E402
from meldtour.core.state import Deal  # noqa: E402
from meldtour.core.tiles import full_set, parse_tiles  # noqa: E402
from meldtour.live.arena import ArenaPlay  # noqa: E402
from meldtour.web.app import create_app  # noqa: E402
from meldtour.web.config import Settings  # noqa: E402
from meldtour.web.director import accounts  # noqa: E402

SHOTS = Path(__file__).resolve().parents[2] / "shots"
PASSWORD = "a long secret 1"
ONE_MELD = ["r10", "r11", "r12"]
WINDOW_MINUTES = "0.5"


def quick_deal() -> Deal:
    """The first seat holds one meld of 33 points and nothing else: it goes out."""
    racks = [parse_tiles(ONE_MELD)] + [
        parse_tiles([f"k{i}", f"o{i}", f"b{i + 4}"]) for i in (1, 2, 3)
    ]
    rest = list(full_set())
    for rack in racks:
        for t in rack:
            rest.remove(t)
    return Deal(tuple(racks), tuple(rest), 0)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    url = f"sqlite:///{tmp_path_factory.mktemp('arena') / 'm.db'}"
    app = create_app(Settings(env="test", database_url=url))
    store = app.state.director.store()
    accounts.create(store, "boss", PASSWORD)
    app.state.arenaplay = ArenaPlay(app.state.live, lambda: store, bot_delay=0.1, deal=quick_deal)
    with serve(app) as base:
        yield base, app


def context(browser: Browser, base: str, lang: str = "en", width: int = 1280) -> BrowserContext:
    ctx = browser.new_context(
        base_url=base,
        locale={"ko": "ko-KR", "ja": "ja-JP", "en": "en-GB"}[lang],
        viewport={"width": width, "height": 800 if width > 400 else 844},
        extra_http_headers={"Accept-Language": lang},
    )
    ctx.set_default_timeout(20_000)
    return ctx


def shoot(page: Page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"arena-{name}.png"), full_page=True)


class Client:
    """An HTTP client with its own cookies (the standard library's)."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def get(self, path: str) -> str:
        with self.opener.open(self.base + path, timeout=10) as r:
            return str(r.read().decode())

    def post(self, path: str, data: dict[str, str]) -> str:
        body = urllib.parse.urlencode(data).encode()
        with self.opener.open(self.base + path, body, timeout=10) as r:
            return str(r.read().decode())

    def cookie(self, name: str) -> str:
        return next((c.value or "" for c in self.jar if c.name == name), "")


class Bot(threading.Thread):
    """A computer-driven client: joins the arena over HTTP, waits, plays its table over
    the websocket (goes out when it holds the meld, else waits for the end), again and
    again until the arena's time is up."""

    def __init__(self, base: str, arena_id: str, name: str) -> None:
        super().__init__(daemon=True)
        self.base, self.arena_id, self.name = base, arena_id, name
        self.games: list[str] = []
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self._run()
        except BaseException as exc:  # reported by the test
            self.error = exc

    def _run(self) -> None:
        aid = self.arena_id
        c = Client(self.base)
        while True:
            page = c.get(f"/play/arena/{aid}?lang=en")
            if 'id="at-table"' in page:  # the last game's end is on its way to the log
                time.sleep(0.2)
                continue
            if 'id="arena-play"' not in page:
                return  # time is up
            csrf = re.search(r'name="csrf" value="([^"]+)"', page)
            assert csrf, page[:500]
            c.post(f"/play/arena/{aid}/join", {"csrf": csrf.group(1), "name": self.name})
            while True:
                state = json.loads(c.get(f"/play/arena/{aid}/state"))
                if state["state"] != "waiting":
                    break
                time.sleep(0.3)
            if state["state"] == "over":
                return
            if state["state"] != "seated":
                continue
            gid = state["url"].rsplit("/", 1)[1]
            self.games.append(gid)
            self._play(gid, c.cookie(f"meldtour_seat_{gid}"))

    def _play(self, gid: str, token: str) -> None:
        url = self.base.replace("http://", "ws://") + f"/play/t/{gid}/ws"
        with websockets_sync.connect(
            url, additional_headers={"Cookie": f"meldtour_seat_{gid}={token}"}
        ) as ws:
            deadline = time.time() + 20
            while time.time() < deadline:
                message = json.loads(ws.recv(timeout=20))
                view = message.get("view")
                if not isinstance(view, dict):
                    continue
                if view.get("end") is not None:
                    return
                if view.get("current") == view.get("seat") and sorted(view["rack"]) == ONE_MELD:
                    ws.send(
                        json.dumps(
                            {
                                "type": "move",
                                "id": "go-out",
                                "version": message["version"],
                                "action": "play",
                                "board": [ONE_MELD],
                            }
                        )
                    )
            raise AssertionError(f"{self.name}: game {gid} did not end")


def step(page: Page, arena_id: str) -> str:
    """One look at a person's page, as they would act on it: at their table, go out
    when it is their turn with the meld; once the game is over, back to the arena; on
    the arena's page, press "Next game". ``"played"`` once a game is over, ``"done"``
    when the arena has nothing more for them, else ``""``."""
    if re.search(r"/play/t/[\w-]+$", page.url):
        if page.locator("#result").is_visible():
            page.click("#arena-back a")  # the table links back to its arena
            try:
                page.wait_for_url(re.compile(rf"/play/arena/{arena_id}$"), timeout=5_000)
            except PlaywrightTimeoutError:
                # The game over leaves the server's memory and the page replaces
                # itself with the table's score page (play.js) as the link is
                # clicked: seen once in a loaded suite. A person clicks again on the
                # score page; the loop's deadline still fails a link that never
                # leads back.
                return ""
            return "played"
        turn = page.locator("#turn")
        rack = page.locator("#rack")
        if (
            turn.is_visible()
            and turn.inner_text() == "Your turn"
            and rack.locator(".tile").count() == 3
        ):
            drag(page, rack.locator(".tile[data-tile=r10]"), page.locator(".new-meld"))
            first = page.locator(".meld").first
            drag(page, rack.locator(".tile[data-tile=r11]"), first, at="end")
            drag(page, rack.locator(".tile[data-tile=r12]"), first, at="end")
            page.click("#b-done")
        return ""
    if page.locator("#winner").count():
        return "done"  # the arena is over: its board names the winner
    if page.locator("#arena-play").count():
        page.click("#arena-play")
    return ""  # waiting for a table (the page goes to it by itself), or for the end


def test_an_arena_of_eight_over_a_short_window_with_its_leaderboard(
    browser: Browser, site: tuple[str, Any]
) -> None:
    base, app = site
    desk_ctx = context(browser, base)
    people = [context(browser, base) for _ in range(2)]
    bots: list[Bot] = []
    try:
        desk = desk_ctx.new_page()
        desk.goto("/director/login")
        desk.fill('input[name="name"]', "boss")
        desk.fill('input[name="password"]', PASSWORD)
        desk.locator("form button").first.click()
        desk.wait_for_url(re.compile(r"/director$"))
        desk.goto("/play?lang=en")
        desk.click("#new-arena")
        desk.fill("input[name=name]", "Friday night")
        desk.select_option("select[name=preset]", "standard")
        desk.fill("input[name=turn_seconds]", "30")
        desk.fill("input[name=minutes]", WINDOW_MINUTES)
        desk.click("#open-arena")
        desk.wait_for_url(re.compile(r"/play/arena/[\w-]+$"))
        arena_id = desk.url.rsplit("/", 1)[1]
        expect(desk.locator("h1")).to_contain_text("Friday night")
        expect(desk.locator("#nobody")).to_be_visible()

        pages = [c.new_page() for c in people]
        for page, name in zip(pages, ("Ann", "Bo"), strict=True):
            page.goto("/play?lang=en")
            expect(page.locator("#arenas")).to_contain_text("Friday night")
            page.click(f"#arenas a[href='/play/arena/{arena_id}']")
            page.fill("input[name=name]", name)
            page.click("#arena-play")
            expect(page.locator("#arena-status")).to_be_visible()
        for lang in ("ko", "ja"):  # the page while the arena is open: its join form
            for width in (390, 1280):
                desk.set_viewport_size({"width": width, "height": 800 if width > 400 else 844})
                desk.goto(f"/play/arena/{arena_id}?lang={lang}")
                shoot(desk, f"open-{lang}-{width}")
        desk.set_viewport_size({"width": 1280, "height": 800})
        desk.goto(f"/play/arena/{arena_id}?lang=en")
        bots = [Bot(base, arena_id, f"Bot {i + 1}") for i in range(6)]
        for bot in bots:
            bot.start()

        # The people play game after game while the window is open.
        rounds = [0, 0]
        active = [True, True]
        deadline = time.time() + 50
        while any(active):
            assert time.time() < deadline, [p.url for p in pages]
            for i, page in enumerate(pages):
                if active[i]:
                    got = step(page, arena_id)
                    rounds[i] += got == "played"
                    active[i] = got != "done"
            pages[0].wait_for_timeout(100)
        expect(desk.locator("#leaderboard tbody tr")).to_have_count(8, timeout=10_000)
        assert min(rounds) >= 1

        for bot in bots:
            bot.join(40)
            assert bot.error is None, (bot.name, bot.error)
            assert bot.games, bot.name
        store = app.state.director.store()
        deadline = time.time() + 40
        while time.time() < deadline and not arenas.board(store, arena_id, time.time()).over:
            time.sleep(0.2)
        board = arenas.board(store, arena_id, time.time())
        assert board.over and board.winners
        assert len(board.lines) == 8 and board.played >= 3
        # Every game had four different players; nobody was at two games at once (each
        # player's games were one after the other: their count is their seats').
        seats = sum(line.games for line in board.lines)
        assert seats == 4 * board.played
        # The winner, on every page, when the time is up.
        top = board.lines[0]
        desk.goto(f"/play/arena/{arena_id}?lang=en")
        expect(desk.locator("#winner")).to_contain_text(top.name)
        first_row = desk.locator("#leaderboard tbody tr").first
        expect(first_row).to_contain_text(top.name)
        expect(first_row).to_contain_text(str(top.points))
        expect(desk.locator("#arena-play")).to_have_count(0)  # nobody joins any more

        for lang in ("ko", "ja"):
            for width in (390, 1280):
                desk.set_viewport_size({"width": width, "height": 800 if width > 400 else 844})
                desk.goto(f"/play/arena/{arena_id}?lang={lang}")
                shoot(desk, f"over-{lang}-{width}")
                desk.goto(f"/play/arenas/new?lang={lang}")
                shoot(desk, f"new-{lang}-{width}")
                desk.goto(f"/play?lang={lang}")
                desk.locator("#arenas").scroll_into_view_if_needed()
                shoot(desk, f"lobby-{lang}-{width}")
    finally:
        for c in [desk_ctx, *people]:
            c.close()
