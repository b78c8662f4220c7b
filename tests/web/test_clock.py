"""The table clock's server side without a browser: a record sent again changes
nothing, a record that is no possible game or too big is refused naming what is wrong,
a second phone is refused, the penalties confirmed land on the sheet (and no more than
the clock's time-outs), the director sees the round's clocks."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from meldtour import application as usecases
from meldtour.web.director.deps import Scope

from .test_director import csrf, make_client, sign_up, web

SLUG = "clocknight"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with make_client(tmp_path_factory.mktemp("clock")) as c:
        sign_up(c)
        store = web(c).store()
        usecases.create_tournament(store, "club-night", who="d", seed=3, slug=SLUG)
        usecases.register_players(
            store, SLUG, [usecases.PlayerEntry(f"P{n}") for n in range(1, 9)], who="d"
        )
        usecases.check_in_players(store, SLUG, [], who="d", everyone_but=True)
        usecases.seat(store, SLUG, None, 1, who="d")
        yield c


def link(c: TestClient, table: int = 1) -> str:
    return "/score/" + web(c).scorer_token(Scope(SLUG, "club", 0, 1, table))


TAPS = [["start", 0], ["next", 65_000], ["next", 70_000], ["next", 140_000], ["next", 141_000]]


def send(c: TestClient, url: str, **body: object) -> Any:
    full = {
        "game": 1,
        "order": [2, 3, 4, 1],
        "taps": TAPS,
        "device": "phoneA123456",
        "now": 150_000,
    } | body
    return c.post(url + "/clock?lang=en", json=full, headers={"X-CSRF-Token": csrf(c)})


def test_a_record_sent_again_changes_nothing_and_an_older_copy_is_ignored(
    client: TestClient,
) -> None:
    url = link(client)
    assert client.get(url + "/clock?lang=en").status_code == 200
    first = send(client, url, taps=TAPS[:3])
    assert first.status_code == 200 and first.json()["news"]
    full = send(client, url)
    assert full.json() == {"kept": 5, "news": True, "phase": "running", "timeouts": [2, 4]}
    again = send(client, url, taps=TAPS[:2])
    assert again.json()["kept"] == 5 and not again.json()["news"]
    other = send(client, url, taps=[*TAPS[:2], ["forgot", 66_000]], device="phoneB999999")
    assert other.status_code == 409
    assert "another device" in other.json()["error"]


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ({"taps": [["start", 0], ["next", -4]]}, "tap 2"),
        ({"taps": [["start", 0], ["resume", 4]]}, "resume is not possible"),
        ({"taps": [["start", 0], ["fly", 4]]}, "unknown kind"),
        ({"order": [1, 1, 2, 3]}, "each of the 4 seats"),
        ({"order": [1, 2, 3]}, "each of the 4 seats"),
        ({"game": 9}, "no game 9"),
        ({"game": "1"}, "game: a whole number"),
        ({"device": "x"}, "device"),
        ({"taps": [["start", 0]] * 2001}, "taps: a list of at most 2000"),
        ({"now": -1}, "now"),
    ],
)
def test_a_bad_record_is_refused_naming_what_is_wrong(
    client: TestClient, body: dict[str, object], says: str
) -> None:
    r = send(client, link(client, 2), **({"game": 2} | body))
    assert r.status_code == 400, r.text
    assert says in r.text
    from meldtour.store import clocks

    assert clocks.get(web(client).store(), SLUG, "club", 0, 1, 2, 2) is None


def test_the_confirmed_penalties_go_on_the_sheet(client: TestClient) -> None:
    url = link(client, 2)
    headers = {"X-CSRF-Token": csrf(client)}
    send(client, url)
    early = client.post(
        url + "/clock/penalties?lang=en",
        json={"game": 1, "penalties": [0, 50, 0, 50]},
        headers=headers,
    )
    assert early.status_code == 400 and "still running" in early.text
    send(client, url, taps=[*TAPS, ["end", 150_000]])
    too_many = client.post(
        url + "/clock/penalties?lang=en",
        json={"game": 1, "penalties": [50, 50, 0, 50]},
        headers=headers,
    )
    assert too_many.status_code == 400 and "seat 1" in too_many.text
    ok = client.post(
        url + "/clock/penalties?lang=en",
        json={"game": 1, "penalties": [0, 50, 0, 0]},
        headers=headers,
    )
    assert ok.status_code == 200 and ok.json()["penalties"] == [0, 50, 0, 0]
    sheet, _v, _k = usecases.get_sheet(web(client).store(), SLUG, "club", 1, 2)
    assert sheet.games[0].penalties == (0, 50, 0, 0)
    # A penalty typed on the sheet for another reason stays; confirming again (now
    # both time-outs) replaces what the clock put there, it does not add it twice.
    usecases.enter_sheet(
        web(client).store(),
        SLUG,
        "club",
        1,
        2,
        [usecases.GameEntry(1, (None,) * 4, (50, 50, 0, 0))],
        who="scorer",
        submit=False,
    )
    again = client.post(
        url + "/clock/penalties?lang=en",
        json={"game": 1, "penalties": [0, 50, 0, 50]},
        headers=headers,
    )
    assert again.status_code == 200 and again.json()["penalties"] == [50, 50, 0, 50]
    page = client.get(f"/director/t/{SLUG}/d/club/clocks?lang=en")
    assert page.status_code == 200
    # (by table: which other tables have a clock depends on the tests run before)
    rows = {r.split('"')[0]: r for r in page.text.split('<tr data-table="')[1:]}
    assert "game over" in rows["2"] and "on the sheet" in rows["2"]
