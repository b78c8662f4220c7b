"""Moderation on the web (issue 29): a signed-in player reports another player of their
table (a guest is told they cannot), once, within the hourly limit; the site's
administrator sees the report on ``/director/reports`` (nobody else may), hides the
name, and from then on every public page shows the placeholder (the lobby, the table
and its socket, the score page, the player's page) while the player is told on their
own page; dismissing and showing again; every action audited."""

from __future__ import annotations

import html
import re
import time
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from meldtour.application import moderation
from meldtour.live import SeatConfig, TableConfig
from meldtour.web.director import accounts as directors

from .test_players_online import Other, client, csrf_of, live_of, one_meld_deal, play_out, sign_up

__all__ = ["client"]  # the fixture, shared

ADMIN_PASSWORD = "the administrator's password"


def flash_of(r: object) -> str:
    text: str = r.text  # type: ignore[attr-defined]
    found = re.search(r'class="flash[^"]*"[^>]*>(.*?)<', text, re.S)
    return found.group(1) if found else ""


def director_signs_in(c: Other, name: str, password: str) -> None:
    form = c.get("/director/login?lang=en")
    r = c.post(
        "/director/login",
        data={"csrf": csrf_of(form.text), "name": name, "password": password},
        follow_redirects=False,
    )
    assert r.status_code == 303, r.text


@pytest.fixture()
def table(client: TestClient) -> Iterator[tuple[Other, Other, int, int]]:
    """Ann (seat 0, this client's cookie) and Troll (seat 1), both signed in."""
    live = live_of(client)
    config = TableConfig.make(
        "krc-2015", [SeatConfig("human"), SeatConfig("human")], seed=3, deal=one_meld_deal()
    )
    live.create_table(config, "m1")
    ann = Other(client)
    troll = Other(client)
    ann_id, troll_id = sign_up(ann, "Ann"), sign_up(troll, "Troll")
    ann.post("/play/t/m1/join", data={"seat": "0", "name": "Ann"})
    troll.post("/play/t/m1/join", data={"seat": "1", "name": "Troll"})
    yield ann, troll, ann_id, troll_id


def test_a_player_reports_and_the_administrator_hides_the_name(
    client: TestClient, table: tuple[Other, Other, int, int]
) -> None:
    ann, troll, ann_id, troll_id = table
    store = client.app.state.director.store()  # type: ignore[attr-defined]
    directors.create(store, "boss", ADMIN_PASSWORD)
    directors.create(store, "helper", "the helper's password")
    # A guest at the table is told that guests cannot report.
    guest = Other(client)
    page = guest.get("/play/t/m1?lang=en")
    assert 'id="report-guest"' in page.text and "guests cannot" in page.text
    # Ann sees a report form for Troll (not for herself).
    page = ann.get("/play/t/m1?lang=en")
    assert f'data-account="{troll_id}"' in page.text
    assert f'data-account="{ann_id}"' not in page.text
    data = {
        "csrf": csrf_of(page.text),
        "game": "m1",
        "account": str(troll_id),
        "next": "/play/t/m1",
    }
    # Without a reason (a made-up one): refused, said on the page.
    r = ann.post("/play/report", data={**data, "reason": "free text here"})
    assert "choose one of the reasons" in flash_of(r)
    r = ann.post("/play/report", data={**data, "reason": "name"}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/play/t/m1"
    r = ann.get("/play/t/m1?lang=en")
    assert "Your report is sent" in r.text
    assert "reported" in r.text
    again = ann.post("/play/report", data={**data, "reason": "stalling"})
    assert "already" in flash_of(again)
    # A guest's post is refused with the reason.
    gpage = guest.get("/play/signup?lang=en")
    r = guest.post("/play/report", data={**data, "csrf": csrf_of(gpage.text), "reason": "name"})
    assert "a guest cannot" in flash_of(r)
    # Only the administrator sees the reports page.
    assert guest.get("/director/reports", follow_redirects=False).status_code == 303
    helper = Other(client)
    director_signs_in(helper, "helper", "the helper's password")
    assert helper.get("/director/reports?lang=en").status_code == 403
    token = csrf_of(helper.get("/director?lang=en").text)
    assert (
        helper.post(f"/director/reports/{troll_id}/hide", data={"csrf": token}).status_code == 403
    )
    admin = Other(client)
    director_signs_in(admin, "boss", ADMIN_PASSWORD)
    reports = admin.get("/director/reports?lang=en")
    assert reports.status_code == 200
    assert f'data-account="{troll_id}"' in reports.text and "Offensive name: 1" in reports.text
    assert 'href="/play/t/m1"' in reports.text
    # The administrator hides the name.
    r = admin.post(f"/director/reports/{troll_id}/hide", data={"csrf": csrf_of(reports.text)})
    assert "is hidden" in flash_of(r) and 'id="no-reports"' in r.text
    placeholder = f"Player #{troll_id}"
    assert placeholder in r.text  # the hidden names' list, to show it again
    # Everywhere public: the player's page, the table, its socket, the lobby.
    page = guest.get(f"/play/p/{troll_id}?lang=en").text
    assert "Troll" not in page and placeholder in page
    page = guest.get("/play/t/m1?lang=en").text
    assert "Troll" not in page and placeholder in page
    with client.websocket_connect("/play/t/m1/ws?lang=en") as ws:
        snap = ws.receive_json()
        assert snap["table"]["seats"][1]["name"] == placeholder
        assert snap["view"] is None or snap["view"]["players"][1] == placeholder
    ko = guest.get(f"/play/p/{troll_id}?lang=ko").text
    assert f"플레이어 #{troll_id}" in ko
    # Troll is told on his own page, and still signed in and playing.
    own = troll.get(f"/play/p/{troll_id}?lang=en").text
    assert 'id="name-hidden"' in own and "Troll" in own
    # The administrator sees the real name, with the marker.
    assert "Troll" in admin.get(f"/play/p/{troll_id}?lang=en").text
    # The game ends: its score page hides the name too.
    _play_out_as(client, ann, "m1")
    lobby = guest.get("/play?lang=en").text
    assert "Troll" not in lobby
    deadline = time.monotonic() + 10
    while True:
        score = guest.get("/play/t/m1/score?lang=en")
        if score.status_code == 200 and "Game result" in score.text:
            break
        assert time.monotonic() < deadline, score.status_code
        time.sleep(0.05)
    assert "Troll" not in score.text and placeholder in score.text
    # Shown again: the name is back; the audit log says each action.
    account = admin.get("/director/account?lang=en")
    r = admin.post(f"/director/reports/{troll_id}/show", data={"csrf": csrf_of(account.text)})
    assert "shown again" in flash_of(r)
    assert "Troll" in guest.get(f"/play/p/{troll_id}?lang=en").text
    log = html.unescape(admin.get("/director/account?lang=en").text)
    assert "hid a player's name" in log and "showed a hidden player's name again" in log


def _play_out_as(client: TestClient, who: Other, game_id: str) -> None:
    """Seat 0 (``who``'s cookie) goes out: the socket opened with their cookies."""
    mine, client.cookies = client.cookies, who.cookies
    try:
        play_out(client, game_id)
    finally:
        who.cookies, client.cookies = client.cookies, mine


def test_reports_are_limited_per_player_and_dismissed(
    client: TestClient, table: tuple[Other, Other, int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    ann, troll, _ann_id, troll_id = table
    store = client.app.state.director.store()  # type: ignore[attr-defined]
    directors.create(store, "boss", ADMIN_PASSWORD)
    monkeypatch.setattr(moderation, "REPORTS_PER_HOUR", 1)
    live = live_of(client)
    live.create_table(
        TableConfig.make("krc-2015", [SeatConfig("human"), SeatConfig("human")], seed=4), "m2"
    )
    ann.post("/play/t/m2/join", data={"seat": "0", "name": "Ann"})
    troll.post("/play/t/m2/join", data={"seat": "1", "name": "Troll"})
    # From the reported player's page: the games they sat in together.
    page = ann.get(f"/play/p/{troll_id}?lang=en")
    assert 'id="report-form"' in page.text
    assert '<option value="m1">' in page.text and '<option value="m2">' in page.text
    data = {"csrf": csrf_of(page.text), "account": str(troll_id), "reason": "stalling"}
    r = ann.post("/play/report", data={**data, "game": "m2", "next": f"/play/p/{troll_id}"})
    assert "Your report is sent" in flash_of(r)
    r = ann.post("/play/report", data={**data, "game": "m1", "next": f"/play/p/{troll_id}"})
    assert "reports in the last hour" in flash_of(r)
    # Troll's own page has no report form; a report of oneself is refused.
    own = troll.get(f"/play/p/{troll_id}?lang=en")
    assert 'id="report"' not in own.text
    r = troll.post(
        "/play/report",
        data={
            "csrf": csrf_of(own.text),
            "account": str(troll_id),
            "game": "m2",
            "reason": "name",
            "next": f"/play/p/{troll_id}",
        },
    )
    assert "yourself" in flash_of(r)
    admin = Other(client)
    director_signs_in(admin, "boss", ADMIN_PASSWORD)
    reports = admin.get("/director/reports?lang=en")
    assert "Abandoning or stalling games: 1" in reports.text
    r = admin.post(f"/director/reports/{troll_id}/dismiss", data={"csrf": csrf_of(reports.text)})
    assert "Reports dismissed: 1" in flash_of(r) and 'id="no-reports"' in r.text
    assert "Troll" in ann.get(f"/play/p/{troll_id}?lang=en").text  # nothing done to him
    log = admin.get("/director/account?lang=en").text
    assert "dismissed the reports of a player" in log


def test_an_open_table_shows_the_hidden_name_without_reconnecting(
    client: TestClient, table: tuple[Other, Other, int, int]
) -> None:
    """A spectator's page open when the administrator hides a name is sent the table
    again, with the placeholder in the seat; shown again, the name comes back."""
    _ann, _troll, _ann_id, troll_id = table
    store = client.app.state.director.store()  # type: ignore[attr-defined]
    directors.create(store, "boss", ADMIN_PASSWORD)
    admin = Other(client)
    director_signs_in(admin, "boss", ADMIN_PASSWORD)
    placeholder = f"Player #{troll_id}"

    def next_table(ws: object) -> dict[str, object]:
        """The table the socket was sent since the last look: asked a snapshot after
        the change, the socket must get the table before it."""
        ws.send_json({"type": "hello"})  # type: ignore[attr-defined]
        while True:
            message = ws.receive_json()  # type: ignore[attr-defined]
            assert message.get("type") != "snapshot", "the open table was not told"
            if message.get("type") == "table":
                table: dict[str, object] = message["table"]
                assert ws.receive_json()["type"] == "snapshot"  # type: ignore[attr-defined]
                return table

    with client.websocket_connect("/play/t/m1/ws?lang=en") as ws:
        snap = ws.receive_json()
        assert snap["table"]["seats"][1]["name"] == "Troll"
        page = admin.get("/director/reports?lang=en")
        r = admin.post(f"/director/reports/{troll_id}/hide", data={"csrf": csrf_of(page.text)})
        assert "is hidden" in flash_of(r)
        seats = next_table(ws)["seats"]
        assert seats[1]["name"] == placeholder and seats[0]["name"] == "Ann"  # type: ignore[index]
        page = admin.get("/director/reports?lang=en")
        r = admin.post(f"/director/reports/{troll_id}/show", data={"csrf": csrf_of(page.text)})
        assert "shown again" in flash_of(r)
        assert next_table(ws)["seats"][1]["name"] == "Troll"  # type: ignore[index]
