"""Online players without a browser (issue 29): player accounts (names folded and
refused as the site's, CSRF, the throttle, a guest's seats claimed at sign-up), the
ratings derived from the logged games (computers at fixed ratings, guests unrated),
and quick play's queue over HTTP (seated together, computers after the wait,
leaving at once, a quiet page replaced)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from meldtour.application import online_rating as ratings
from meldtour.application import players_accounts as players
from meldtour.core.rules import find_rules
from meldtour.core.state import Deal
from meldtour.core.tiles import full_set, parse_tiles
from meldtour.live import LiveServer, SeatConfig, TableConfig
from meldtour.live.quickplay import QuickPlay
from meldtour.web.app import create_app
from meldtour.web.config import Settings

PASSWORD = "a long enough password"


def csrf_of(html: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found, "no CSRF token on the page"
    return found.group(1)


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(Settings(env="test", database_url=f"sqlite:///{tmp_path / 'm.db'}"))
    app.state.quickplay = QuickPlay(
        app.state.live, lambda: app.state.director.store(), bot_delay=0.0
    )
    with TestClient(app) as c:
        yield c


class Other:
    """Another browser on the same app and event loop (a second ``TestClient`` would
    run its own loop, and the live games are the first one's): the client with a cookie
    jar of its own, swapped in for each request."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.cookies = type(client.cookies)()

    def _swap(self, method: str, *args: Any, **kwargs: Any) -> Any:
        mine, self.client.cookies = self.client.cookies, self.cookies
        try:
            return getattr(self.client, method)(*args, **kwargs)
        finally:
            self.cookies, self.client.cookies = self.client.cookies, mine

    def get(self, *args: Any, **kwargs: Any) -> Any:
        return self._swap("get", *args, **kwargs)

    def post(self, *args: Any, **kwargs: Any) -> Any:
        return self._swap("post", *args, **kwargs)


def live_of(client: TestClient) -> LiveServer:
    live: LiveServer = client.app.state.live  # type: ignore[attr-defined]
    return live


def sign_up(client: Any, name: str, password: str = PASSWORD) -> int:
    page = client.get("/play/signup?lang=en")
    made = client.post(
        "/play/signup",
        data={"csrf": csrf_of(page.text), "name": name, "password": password, "again": password},
        follow_redirects=False,
    )
    assert made.status_code == 303, made.text
    return int(made.headers["location"].rsplit("/", 1)[1])


def one_meld_deal() -> Deal:
    """Seat 0 holds r10 r11 r12 only (an initial meld of 33): it goes out on its first
    turn; seat 1 holds two tiles."""
    racks = (parse_tiles(["r10", "r11", "r12"]), parse_tiles(["k1", "o5"]))
    rest = list(full_set())
    for t in racks[0] + racks[1]:
        rest.remove(t)
    return Deal(racks, tuple(rest), 0)


def test_sign_up_names_csrf_sign_in_and_the_throttle(client: TestClient) -> None:
    page = client.get("/play/signup?lang=en")
    csrf = csrf_of(page.text)

    def attempt(name: str, password: str = PASSWORD, again: str | None = None) -> str:
        r = client.post(
            "/play/signup",
            data={"csrf": csrf, "name": name, "password": password, "again": again or password},
        )
        assert r.status_code == 400, r.status_code
        found = re.search(r'id="error">([^<]*)<', r.text)
        assert found
        return found.group(1)

    assert "choose a display name" in attempt("   ")
    assert "at most 24" in attempt("x" * 25)
    assert "U+202E" in attempt("Kim\u202eiM")
    assert "at least 10" in attempt("Kim", "short")
    assert "at least 10" in attempt("Kim", PASSWORD, PASSWORD + "!")
    # Without the CSRF token: refused, nothing made.
    r = client.post("/play/signup", data={"name": "Kim", "password": PASSWORD, "again": PASSWORD})
    assert r.status_code == 403
    kim = sign_up(client, "  Kim   Minji ")
    store = client.app.state.director.store()  # type: ignore[attr-defined]
    who = players.get(store, kim)
    assert who is not None and who.name == "Kim Minji"
    # Width, case and spaces aside, the name is taken.
    assert "taken" in attempt("ＫＩＭ minji")
    # Signed in after sign-up: the page says so; signing out and in again.
    assert "Kim Minji" in client.get("/play?lang=en").text
    out = client.get(f"/play/p/{kim}?lang=en")
    client.post("/play/signout", data={"csrf": csrf_of(out.text)})
    assert 'href="/play/signin"' in client.get("/play?lang=en").text
    form = client.get("/play/signin?lang=en")
    csrf = csrf_of(form.text)
    wrong = client.post("/play/signin", data={"csrf": csrf, "name": "kim minji", "password": "no"})
    assert wrong.status_code == 401
    ok = client.post(
        "/play/signin",
        data={"csrf": csrf, "name": "kimminji", "password": PASSWORD},
        follow_redirects=False,
    )
    assert ok.status_code == 303
    assert "Kim Minji" in client.get("/play?lang=en").text
    # Five failures from one address: the sixth try is refused, even the right one.
    for _ in range(5):
        client.post("/play/signin", data={"csrf": csrf, "name": "kimminji", "password": "x"})
    blocked = client.post(
        "/play/signin", data={"csrf": csrf, "name": "kimminji", "password": PASSWORD}
    )
    assert blocked.status_code == 429


def play_out(client: TestClient, game_id: str) -> None:
    """Seat 0 (this client's cookie) puts down its meld and goes out."""
    with client.websocket_connect(f"/play/t/{game_id}/ws?lang=en") as ws:
        snap = ws.receive_json()
        assert snap["type"] == "snapshot", snap
        ws.send_json(
            {
                "type": "move",
                "id": "m1",
                "version": snap["version"],
                "action": "play",
                "board": [["r10", "r11", "r12"]],
            }
        )
        while True:
            m = ws.receive_json()
            if m["type"] == "frame" and m["view"]["end"] is not None:
                break
            assert m["type"] in ("ack", "frame", "table"), m
    game = live_of(client).get(game_id)
    deadline = time.monotonic() + 10
    while game is not None and not game.over:
        assert time.monotonic() < deadline
        time.sleep(0.02)


def test_a_guest_claims_their_game_and_a_rated_game_moves_both(
    client: TestClient, tmp_path: Path
) -> None:
    live = live_of(client)
    config = TableConfig.make(
        "krc-2015", [SeatConfig("human"), SeatConfig("human")], seed=3, deal=one_meld_deal()
    )
    live.create_table(config, "r1")
    # Ann sits down as a guest, then creates her account: the seat is claimed.
    client.post("/play/t/r1/join", data={"seat": "0", "name": "Ann"})
    ann = sign_up(client, "Ann")
    store = client.app.state.director.store()  # type: ignore[attr-defined]
    assert players.seat_accounts(store, "r1", 2) == [ann, None]
    # Bo, on another browser, signs up first and then sits down.
    other = Other(client)
    bo = sign_up(other, "Bo")
    other.post("/play/t/r1/join", data={"seat": "1", "name": "Bo"})
    assert players.seat_accounts(store, "r1", 2) == [ann, bo]
    play_out(client, "r1")
    deadline = time.monotonic() + 10
    while not (found := ratings.book(store))[1]:  # the result is on its way to the log
        assert time.monotonic() < deadline, "the result was not logged"
        time.sleep(0.05)
    book, games = found
    assert [g.game_id for g in games] == ["r1"] and games[0].rated
    a, b = book.line(ann, "krc-2015/60"), book.line(bo, "krc-2015/60")
    assert a is not None and b is not None
    assert a.shown > ratings.NEWCOMER > b.shown and a.provisional and b.games == 1
    # Her page shows the game, the place and the rating (provisional).
    page = client.get(f"/play/p/{ann}?lang=en").text
    assert "1 / 2" in page and f"{a.shown}?" in page and "Rated" in page
    # The table's ratings on its score and lobby: the figures are there.
    assert f"{b.shown}?" in other.get(f"/play/p/{bo}?lang=en").text


def test_rating_is_derived_guests_unrated_computers_fixed() -> None:
    g = ratings.Rated
    games = [
        g("a", "f/60", 1.0, (1, 2, None), ("", "", ""), (30, -10, -20)),  # a guest: unrated
        g("b", "f/60", 2.0, (1, None), ("", "expert"), (20, -20)),
        g("c", "f/40", 3.0, (1, 2), ("", ""), (-5, 5)),
    ]
    book = ratings.rate(games)
    assert book.line(2, "f/60") is None  # only the unrated game in f/60
    one = book.line(1, "f/60")
    assert one is not None and one.games == 1 and one.shown > ratings.NEWCOMER
    # Another clock is another family.
    assert book.line(1, "f/40") is not None and book.line(1, "f/40").shown < ratings.NEWCOMER  # type: ignore[union-attr]
    # Beating the expert is worth more than beating the beginner.
    weak = ratings.rate([g("b", "f/60", 2.0, (1, None), ("", "beginner"), (20, -20))])
    assert one.mu > weak.lines[(1, "f/60")].mu
    assert ratings.level_near(1570) == "greedy" and ratings.level_near(2500) == "expert"


def join_quick(client: Any, name: str, wait: int = 5) -> None:
    page = client.get("/play/quick?lang=en")
    r = client.post(
        "/play/quick",
        data={
            "csrf": csrf_of(page.text),
            "preset": "standard",
            "turn_seconds": "30",
            "wait": str(wait),
            "name": name,
        },
        follow_redirects=False,
    )
    assert r.status_code == 303 and r.headers["location"] == "/play/quick/wait", r.text


def test_quick_play_seats_strangers_then_computers_fill(client: TestClient) -> None:
    guests = [Other(client) for _ in range(3)]
    for i, c in enumerate(guests):
        join_quick(c, f"P{i}")
    states = [c.get("/play/quick/state").json() for c in guests]
    assert [s["state"] for s in states] == ["waiting"] * 3 and states[0]["waiting"] == 3
    # A fourth comes and leaves at once: the queue forgets them.
    quitter = Other(client)
    join_quick(quitter, "Quit")
    wait_page = quitter.get("/play/quick/wait?lang=en")
    quitter.post("/play/quick/leave", data={"csrf": csrf_of(wait_page.text)})
    assert quitter.get("/play/quick/state").json()["state"] == "gone"
    assert guests[0].get("/play/quick/state").json()["waiting"] == 3
    # After the wait (5 s), the three sit together with one computer.
    seen = poll_all(guests)
    urls = {x["url"] for x in seen}
    assert len(urls) == 1
    gid = urls.pop().rsplit("/", 1)[1]
    game = live_of(client).get(gid)
    assert game is not None and game.started
    assert [x.kind for x in game.config.seats] == ["human", "human", "human", "computer"]
    assert game.config.seats[3].level == ratings.level_near(ratings.NEWCOMER)
    assert sorted(game.names[:3]) == ["P0", "P1", "P2"]
    # Each holds a seat of their own (its cookie), once.
    seats = {c.cookies.get(f"meldtour_seat_{gid}") for c in guests}
    assert len(seats) == 3 and {game.seat_of(t) for t in seats} == {0, 1, 2}
    # The queue is empty: a look again says gone.
    assert guests[1].get("/play/quick/state").json()["state"] == "gone"


def poll_all(guests: list[Any], timeout: float = 20) -> list[dict[str, Any]]:
    """Every guest's page asks as the waiting page does, until each is seated; their
    last answers."""
    seated: dict[int, dict[str, Any]] = {}
    deadline = time.monotonic() + timeout
    while len(seated) < len(guests):
        assert time.monotonic() < deadline, seated
        for i, c in enumerate(guests):
            if i not in seated:
                s = c.get("/play/quick/state").json()
                assert s["state"] in ("waiting", "seated"), s
                if s["state"] == "seated":
                    seated[i] = s
        time.sleep(0.2)
    return [seated[i] for i in range(len(guests))]


def test_four_waiting_are_seated_at_once_and_a_quiet_page_is_replaced(
    client: TestClient,
) -> None:
    from meldtour.application import quickplay as queue

    store = client.app.state.director.store()  # type: ignore[attr-defined]
    now = time.time()
    # A page that stopped asking long ago (disconnected) is not seated.
    queue.join(
        store,
        "gone",
        family="standard/30",
        preset="standard",
        turn_seconds=30,
        name="Gone",
        account_id=None,
        rating=1500,
        wait=30,
        at=now - 100,
    )
    guests = [Other(client) for _ in range(4)]
    for i, c in enumerate(guests):
        join_quick(c, f"Q{i}", wait=300)
    s = guests[3].get("/play/quick/state").json()
    assert s["state"] == "waiting" and s["found"], s  # offered: each page takes its seat
    s = poll_all(guests)[0]
    game = live_of(client).get(s["url"].rsplit("/", 1)[1])
    assert game is not None and sorted(game.names) == ["Q0", "Q1", "Q2", "Q3"]
    assert queue.look(store, "gone", time.time()) is None


def test_quick_play_refuses_bad_input(client: TestClient) -> None:
    page = client.get("/play/quick?lang=en")
    csrf = csrf_of(page.text)
    bad_wait = client.post(
        "/play/quick",
        data={"csrf": csrf, "preset": "standard", "wait": "2", "name": "A"},
        follow_redirects=False,
    )
    assert bad_wait.status_code == 303 and bad_wait.headers["location"] == "/play/quick"
    assert (
        client.post("/play/quick", data={"csrf": csrf, "preset": "nope", "name": "A"}).status_code
        == 400
    )
    bidi = client.post(
        "/play/quick",
        data={"csrf": csrf, "preset": "standard", "name": "A\u202eB"},
        follow_redirects=False,
    )
    assert bidi.headers["location"] == "/play/quick"
    assert "mt_quick" not in bidi.cookies
    assert client.post("/play/quick", data={"preset": "standard", "name": "A"}).status_code == 403
    assert find_rules("standard").turn_seconds > 0


def test_quick_play_seats_accounts_as_theirs_and_rates_them_by_their_figure(
    client: TestClient,
) -> None:
    from meldtour.application import quickplay as queue

    store = client.app.state.director.store()  # type: ignore[attr-defined]
    a, b = Other(client), Other(client)
    ids = [sign_up(a, "Ann"), sign_up(b, "Bo")]
    for c in (a, b):
        join_quick(c, "", wait=5)
    # An account waits once: pressing play again replaces the first entry.
    join_quick(a, "", wait=5)
    waiting = queue.waiting(store, "standard/30", time.time() - queue.QUIET)
    assert sorted(e.account_id or 0 for e in waiting) == sorted(ids)
    assert all(e.rating == ratings.NEWCOMER for e in waiting)
    s, t = poll_all([a, b])
    gid = s["url"].rsplit("/", 1)[1]
    assert t["url"] == s["url"]
    game = live_of(client).get(gid)
    assert game is not None and [x.kind for x in game.config.seats].count("computer") == 2
    owners = players.seat_accounts(store, gid, 4)
    assert sorted(o or 0 for o in owners if o is not None) == sorted(ids)
    assert owners[2:] == [None, None]
    assert sorted(n or "" for n in game.names[:2]) == ["Ann", "Bo"]


def test_a_page_gone_at_the_start_is_replaced_not_waited_for(client: TestClient) -> None:
    """Four are matched; one page never asks again (its player went away): after the
    offer's time the three wait again, first in line, and sit with the next comer."""
    from meldtour.application import quickplay as queue

    guests = [Other(client) for _ in range(4)]
    for i, c in enumerate(guests):
        join_quick(c, f"R{i}", wait=300)
    assert guests[0].get("/play/quick/state").json()["found"]
    deadline = time.monotonic() + queue.ACCEPT + 10
    while True:  # the three ask on; R3 does not
        states = [c.get("/play/quick/state").json() for c in guests[:3]]
        if not any(x.get("found") for x in states):
            break
        assert time.monotonic() < deadline, states
        time.sleep(0.3)
    assert all(x["state"] == "waiting" for x in states)
    assert guests[3].get("/play/quick/state").json() == {"state": "gone"}
    late = Other(client)
    join_quick(late, "Late", wait=300)
    seen = poll_all([*guests[:3], late])
    game = live_of(client).get(seen[0]["url"].rsplit("/", 1)[1])
    assert game is not None and sorted(n or "" for n in game.names) == ["Late", "R0", "R1", "R2"]


def test_leaving_while_offered_puts_the_others_back_in_line(client: TestClient) -> None:
    from meldtour.application import quickplay as queue

    store = client.app.state.director.store()  # type: ignore[attr-defined]
    guests = [Other(client) for _ in range(4)]
    for i, c in enumerate(guests):
        join_quick(c, f"L{i}", wait=300)
    assert guests[0].get("/play/quick/state").json()["found"]  # offered, and taken
    page = guests[3].get("/play/quick/wait?lang=en")
    guests[3].post("/play/quick/leave", data={"csrf": csrf_of(page.text)})
    # The next ask withdraws the offer: three wait again, nobody's table opened.
    s = guests[1].get("/play/quick/state").json()
    assert s["state"] == "waiting" and not s["found"], s
    assert queue.offers(store, "standard/30") == {}
    assert len(queue.waiting(store, "standard/30", time.time() - queue.QUIET)) == 3


def test_the_administrator_disables_a_player_account(client: TestClient) -> None:
    from meldtour.web.director import accounts as directors

    store = client.app.state.director.store()  # type: ignore[attr-defined]
    directors.create(store, "boss", "the administrator's password")
    directors.create(store, "helper", "the helper's password")
    player = Other(client)
    pid = sign_up(player, "Troll")
    assert "Troll" in player.get("/play?lang=en").text
    # Nobody else may: not a guest, not a director who is not the administrator.
    page = client.get(f"/play/p/{pid}?lang=en")
    assert 'id="moderate"' not in page.text
    token = csrf_of(client.get("/play/signup").text)
    refused = client.post(f"/play/p/{pid}/disable", data={"csrf": token})
    assert refused.status_code == 403

    def director_signs_in(name: str, password: str) -> None:
        form = client.get("/director/login?lang=en")
        r = client.post(
            "/director/login",
            data={"csrf": csrf_of(form.text), "name": name, "password": password},
            follow_redirects=False,
        )
        assert r.status_code == 303, r.text

    director_signs_in("helper", "the helper's password")
    page = client.get(f"/play/p/{pid}?lang=en")
    assert 'id="moderate"' not in page.text
    assert client.post(f"/play/p/{pid}/disable", data={"csrf": token}).status_code == 403
    director_signs_in("boss", "the administrator's password")
    page = client.get(f"/play/p/{pid}?lang=en")
    assert 'id="moderate"' in page.text
    done = client.post(f"/play/p/{pid}/disable", data={"csrf": csrf_of(page.text), "disabled": "1"})
    assert done.status_code == 200 and "is disabled" in done.text
    # The player is signed out at once, cannot sign in again, and their page is gone.
    assert 'href="/play/signin"' in player.get("/play?lang=en").text
    form = player.get("/play/signin?lang=en")
    again = player.post(
        "/play/signin",
        data={"csrf": csrf_of(form.text), "name": "Troll", "password": PASSWORD},
    )
    assert again.status_code == 403 and "disabled" in again.text
    assert player.get(f"/play/p/{pid}?lang=en").status_code == 404
    # Enabled again: the page is back (sessions stay ended).
    page = client.get(f"/play/p/{pid}?lang=en")
    client.post(f"/play/p/{pid}/disable", data={"csrf": csrf_of(page.text), "disabled": "0"})
    assert player.get(f"/play/p/{pid}?lang=en").status_code == 200
