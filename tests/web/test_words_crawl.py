"""Every page in Korean and Japanese, crawled: no English sentence that has a
translation is left on a page.

The pages are found from the app's own routes (every ``GET`` route that answers
``HTMLResponse``, the convention of the pages), their path parameters filled from
seeded tournaments in each state — registration open, a round being played (a
counted sheet and a draft), finished and awarded — so that a page added later is
crawled too (a new path parameter fails here until it has a seed value in
:func:`seeds`). Error pages are crawled as well.

A page fails on a message id of the catalogs found in its visible text (or its
``title``, ``placeholder``, ``aria-label``, ``alt`` attributes and its buttons'
values) when that language translates it differently. Names and other data (the
tournament's, its divisions', stages' and players' names, the account's) are taken
out first; message ids that a translation itself contains (``UTC``, ``PDF``) and ids
with no word of three letters are not looked for. English words match whole.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from starlette.responses import HTMLResponse

from meldtour import application as usecases
from meldtour.application import accounts as accounts_use
from meldtour.application import arena as arenas
from meldtour.application import moderation, players_accounts
from meldtour.application.acting import Acting
from meldtour.application.unit import act
from meldtour.tournament import Progress, Tournament
from meldtour.tournament.simulate import play_round
from meldtour.tournament.stages import start_stage
from meldtour.web.director.accounts import PASSWORDS
from meldtour.web.director.deps import Scope
from meldtour.web.director.routes.tournaments import create_demo
from meldtour.web.i18n import catalog_paths, translations

from .test_director import make_client, sign_up, web

PAGE = {"accept": "text/html,application/xhtml+xml"}
PLACEHOLDER = re.compile(r"%\(\w+\)[sdr]|\{\w+\}")


# ---------------------------------------------------------------- the pages' text


class _Text(HTMLParser):
    """The words a reader sees: text outside scripts and styles, and the attributes
    read aloud or shown."""

    SHOWN = ("title", "placeholder", "aria-label", "alt")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "template"):
            self._skip += 1
        a = dict(attrs)
        self.parts.extend(v for k, v in a.items() if k in self.SHOWN and v)
        if tag == "input" and a.get("type") in ("submit", "button") and a.get("value"):
            self.parts.append(str(a["value"]))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "template") and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def visible_text(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    return " \n ".join(parser.parts)


# ---------------------------------------------------------------- what to look for


def _msgids() -> set[str]:
    from babel.messages.pofile import read_po

    ids: set[str] = set()
    for path in catalog_paths("en"):
        with path.open("rb") as f:
            ids.update(str(m.id) for m in read_po(f, locale="en") if m.id and isinstance(m.id, str))
    return ids


Pattern = tuple[str, str, re.Pattern[str]]


def patterns(locale: str) -> list[Pattern]:
    """The English message ids a page in ``locale`` must not show, as patterns (a
    placeholder matches a short stretch of anything)."""
    t = translations(locale).messages
    said = "\n".join(t.values())
    out = []
    for msgid in sorted(_msgids()):
        translated = t.get(msgid)
        if not translated or translated == msgid:
            continue
        pieces = PLACEHOLDER.split(msgid)
        if not any(re.search(r"[A-Za-z]{3,}", p) for p in pieces):
            continue
        literal = max(pieces, key=len).strip()
        if literal in said:  # the translation keeps it (a product name, a code)
            continue
        body = r".{1,80}?".join(re.escape(p) for p in pieces)
        out.append(
            (msgid, literal, re.compile(r"(?<![A-Za-z])" + body.strip() + r"(?![A-Za-z])", re.S))
        )
    return out


def english_left(text: str, found: list[Pattern]) -> list[str]:
    # The longest literal piece first, as a plain substring: most ids are not there.
    return [msgid for msgid, literal, pattern in found if literal in text and pattern.search(text)]


# ---------------------------------------------------------------- the seeded site


@dataclass
class Site:
    client: TestClient
    slugs: dict[str, str]
    params: dict[str, dict[str, str]] = field(default_factory=dict)
    data: set[str] = field(default_factory=set)
    game: str = ""


def _names(t: Tournament) -> set[str]:
    names = {t.name}
    for d in t.divisions:
        names |= {d.name, d.eligibility, d.key}
        names |= {f.name for f in d.formats if f.name}
    names |= {r.name for r in t.registrations}
    return {n for n in names if n}


def _finish(t: Tournament) -> Progress:
    t = start_stage(t, "club").tournament
    while not t.division("club").stages[-1].finished:
        t = play_round(t, "club", 7, who="boss").tournament
    return Progress(t)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    tmp: Path = tmp_path_factory.mktemp("crawl")
    with make_client(tmp) as client:
        sign_up(client)
        store = web(client).store()
        # Registration open: a club night with players, none checked in yet.
        opened, _t = usecases.create_tournament(
            store, "club-night", who="boss", slug="open", locale="ko"
        )
        usecases.register_players(
            store,
            opened,
            [
                usecases.PlayerEntry(n, "club", (f"club:{c}",), None)
                for n, c in [
                    ("김민지", "a"),
                    ("이서준", "b"),
                    ("박하은", "a"),
                    ("最上 遥", "b"),
                    ("정우진", "c"),
                ]
            ],
            who="boss",
        )
        # A round under way: the demo (12 of 13 checked in, round 1 seated), one table
        # counted, one a draft, the seating locked.
        playing = create_demo(store, "boss", "ko")
        usecases.lock_seating(store, playing, "general", who="boss")
        t = usecases.read(store, playing)
        table = t.division("general").stages[0].rounds[0].tables[0]
        games = len(table.sheet.games)
        usecases.enter_sheet(
            store,
            playing,
            "general",
            1,
            1,
            [usecases.GameEntry(g, (-10, -20, -5, 35), None, 4) for g in range(1, games + 1)],
            who="scorer:table 1",
        )
        usecases.enter_sheet(
            store,
            playing,
            "general",
            1,
            2,
            [usecases.GameEntry(1, (-3, None, -8, None))]
            + [usecases.GameEntry(g, (None,) * 4) for g in range(2, games + 1)],
            who="scorer:table 2",
        )
        # Finished and awarded: a club night of 8 played through, its prizes recorded.
        done, _t = usecases.create_tournament(
            store, "club-night", who="boss", slug="done", locale="ja", seed=3
        )
        usecases.register_players(
            store,
            done,
            [usecases.PlayerEntry(f"選手{i}", "club", (), None) for i in range(1, 9)],
            who="web:registration@1a2b3c4d",
        )
        usecases.check_in_players(store, done, [], who="boss", everyone_but=True)
        usecases.close_check_in(store, done, "club", who="boss")
        act(store, done, "boss", "close_round", _finish)
        usecases.award(store, done, "club", who="boss")
        game = (
            client.post(
                "/play/tables",
                data={"preset": "krc-2015", "seat_count": "2", "seat0": "human", "seat1": "human"},
                follow_redirects=False,
            )
            .headers["location"]
            .rsplit("/", 1)[-1]
        )
        # An online player's account (their page: /play/p/{account_id}).
        online_player = players_accounts.sign_up(
            store, "온라인", "a long enough password", "a long enough password", PASSWORDS
        )
        # A report of them by another player of the game, and a hidden name (the
        # administrator's reports page, the table's report form for a guest).
        reporter = players_accounts.sign_up(
            store, "신고자", "a long enough password", "a long enough password", PASSWORDS
        )
        players_accounts.take_seat(store, online_player, game, 0, "joined")
        players_accounts.take_seat(store, reporter, game, 1, "joined")
        moderation.report(store, reporter, game, online_player.id, "name", time.time())
        found = accounts_use.find(store, "boss")
        assert found is not None
        boss = found[0]
        moderation.set_name_hidden(store, boss, reporter.id, True, time.time())
        # An arena open now (its page and its board: /play/arena/{arena_id}).
        now = time.time()
        arena = arenas.open_arena(
            store,
            Acting("boss", None),
            name="아레나",
            preset="krc-2015",
            turn_seconds=60,
            seconds=3600,
            starts_at=now,
            at=now,
        )
        s = Site(client, {"open": opened, "playing": playing, "done": done}, game=game)
        for state, slug in s.slugs.items():
            value = usecases.read(store, slug)
            s.data |= _names(value)
            key = "general" if state == "playing" else "club"
            div = value.division(key)
            stage = len(div.stages) - 1 if div.stages else 0
            rnd = div.stages[stage].rounds[-1].number if div.stages else 1
            s.params[state] = {
                "slug": slug,
                "key": key,
                "player": "1",
                "preset": "krc-2015",
                "game_id": game,
                "account_id": str(online_player.id),
                "arena_id": arena.id,
                "token": web(client).scorer_token(Scope(slug, key, stage, rnd, 1)),
            }
        s.data |= {"boss", "Busan", "KRC", "온라인", "아레나", "신고자"}
        yield s


def page_routes(client: TestClient) -> list[str]:
    """Every page's path template: the app's ``GET`` routes that answer HTML."""
    found: list[str] = []

    def walk(routes: Any, prefix: str = "") -> None:
        for r in routes:
            inner = getattr(r, "original_router", None)
            if inner is not None:  # an included router (FastAPI's lazy inclusion)
                walk(inner.routes, prefix + (getattr(r.include_context, "prefix", "") or ""))
            elif (
                isinstance(r, APIRoute)
                and "GET" in r.methods
                and isinstance(r.response_class, type)
                and issubclass(r.response_class, HTMLResponse)
            ):
                found.append(prefix + r.path)
            elif getattr(r, "routes", None) and not hasattr(r, "app"):
                walk(r.routes, prefix + getattr(r, "path", ""))

    walk(client.app.routes)  # type: ignore[attr-defined]
    return sorted(set(found))


def urls(site: Site) -> tuple[list[str], list[str]]:
    """The addresses to crawl, and the parameters no seed fills."""
    out: list[str] = []
    unknown: list[str] = []
    for route in page_routes(site.client):
        names = re.findall(r"\{(\w+)(?::\w+)?\}", route)
        states = (
            site.params.items()
            if names and any(n in ("slug", "key", "player", "token") for n in names)
            else [next(iter(site.params.items()))]
        )
        for _state, params in states:
            missing = [n for n in names if n not in params]
            if missing:
                unknown.append(f"{route}: {', '.join(missing)}")
                break
            out.append(re.sub(r"\{(\w+)(?::\w+)?\}", lambda m, p=params: p[m.group(1)], route))  # type: ignore[misc]
    errors = [
        "/t/no-such-tournament",
        "/score/not-a-token",
        "/no/such/page",
        f"/t/{site.slugs['open']}/p/999",
        f"/t/{site.slugs['open']}/p/abc",
        f"/director/t/{site.slugs['open']}/d/nope/checkin",
    ]
    return sorted(set(out)) + errors, unknown


def strip_data(text: str, data: set[str]) -> str:
    for name in sorted(data, key=len, reverse=True):
        text = text.replace(name, " ")
    return text


@pytest.mark.parametrize("locale", ["ko", "ja"])
def test_no_page_shows_english_that_has_a_translation(site: Site, locale: str) -> None:
    started = time.perf_counter()
    found = patterns(locale)
    assert len(found) > 300
    addresses, unknown = urls(site)
    assert not unknown, (
        f"a page's path parameter has no seed value: add it to the crawl's params ({unknown})"
    )
    assert len(addresses) > 40, addresses
    site.client.cookies.set("lang", locale)
    left: dict[str, list[str]] = {}
    crawled = 0
    for url in addresses:
        r = site.client.get(url, headers=PAGE)
        if "text/html" not in r.headers.get("content-type", ""):
            continue
        assert r.status_code < 500, (url, r.status_code)
        crawled += 1
        english = english_left(strip_data(visible_text(r.text), site.data), found)
        if english:
            left[url] = english
    # Errors as pages (a wrong method, a form from elsewhere) and a form post refused
    # at the edge.
    extra = [
        site.client.put("/tournaments", headers=PAGE),
        site.client.post(
            f"/director/t/{site.slugs['open']}/edit",
            headers=PAGE,
            data={"csrf": "stale", "name": "x"},
        ),
        site.client.post(
            "/director/login", headers=PAGE, data={"name": "bo\x00ss", "password": "x"}
        ),
    ]
    for r in extra:
        assert "text/html" in r.headers["content-type"] and r.status_code in (400, 403, 405)
        english = english_left(visible_text(r.text), found)
        if english:
            left[f"{r.request.method} {r.request.url.path}"] = english
    site.client.cookies.delete("lang")
    assert crawled > 40
    assert not left, f"English left on {locale} pages: {left}"
    assert time.perf_counter() - started < 30


def test_the_checker_finds_english_and_ignores_names() -> None:
    found = patterns("ko")
    page = (
        "<main><h1>순위표</h1><p>Audit log</p><script>var x = 'Audit log';</script>"
        "<input type=submit value='Close check-in'><p>KRC 2015 Busan</p></main>"
    )
    left = english_left(strip_data(visible_text(page), {"KRC 2015 Busan"}), found)
    assert set(left) >= {"Audit log", "Close check-in"}
    assert "Busan" not in " ".join(left)
    assert not english_left(visible_text("<p>r5 b13 #5 김민지 2026-12-01 21:20</p>"), found)
