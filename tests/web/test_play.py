"""Online play over HTTP and the game socket (no browser): the lobby in three
languages, creating and joining a table, a seat held by its cookie, spectators without
a rack, and the engine's reasons for a refusal in the reader's language."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po
from fastapi.testclient import TestClient

from meldtour.core.melds import parse_board
from meldtour.core.moves import check_play
from meldtour.core.refusal import Refusal
from meldtour.core.rules import find_rules
from meldtour.core.tiles import parse_tiles
from meldtour.live import LiveServer, SeatConfig, TableConfig
from meldtour.web.app import create_app
from meldtour.web.config import Settings
from meldtour.web.i18n import catalog_path, translations
from meldtour.web.routes.play import FALLBACK, explain
from tests.live.helpers import known_deal

HUMAN = SeatConfig("human")


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("ko", ["온라인 게임", "테이블 만들기", "욕심쟁이"]),
        ("ja", ["オンライン対局", "テーブルを作る", "欲張り"]),
        ("en", ["Play online", "Create the table", "Greedy"]),
    ],
)
def test_lobby_in_each_language(client: TestClient, lang: str, words: list[str]) -> None:
    page = client.get(f"/play?lang={lang}")
    assert page.status_code == 200
    for word in words:
        assert word in page.text


def test_create_join_and_play_over_the_socket(client: TestClient) -> None:
    bad = client.post("/play/tables", data={"preset": "wrc"}, follow_redirects=False)
    assert bad.status_code == 400
    made = client.post(
        "/play/tables",
        data={
            "preset": "korea-official",
            "turn_seconds": "45",
            "seat_count": "2",
            "seat0": "human",
            "seat1": "expert",
        },
        follow_redirects=False,
    )
    assert made.status_code == 303
    where = made.headers["location"]
    game = client.app.state.live.get(where.rsplit("/", 1)[1])  # type: ignore[attr-defined]
    assert game.config.rules.turn_seconds == 45 and game.config.seats[1].level == "expert"
    official = (
        client.post(
            "/play/tables",
            data={"preset": "korea-official", "turn_seconds": ""},
            follow_redirects=False,
        )
        .headers["location"]
        .rsplit("/", 1)[1]
    )
    assert client.app.state.live.get(official).config.rules.turn_seconds == 40  # type: ignore[attr-defined]
    assert client.post("/play/tables", data={"turn_seconds": "2"}).status_code == 400
    page = client.get(f"{where}?lang=ja")
    assert "プレーヤーが席に着くのを待っています" in page.text
    assert client.get("/play?lang=en").text.count(where) == 1  # listed with a free seat
    nameless = client.post(f"{where}/join", data={"seat": "0", "name": " "}, follow_redirects=False)
    assert "error=name" in nameless.headers["location"]
    joined = client.post(f"{where}/join", data={"seat": "0", "name": "Ann"}, follow_redirects=False)
    assert joined.status_code == 303
    with client.websocket_connect(f"{where}/ws?lang=en") as ws:
        snap = ws.receive_json()
        assert snap["type"] == "snapshot" and snap["seat"] == 0
        assert len(snap["view"]["rack"]) == 14
        assert snap["table"]["seats"][0]["name"] == "Ann"
    # The same client (the games live on its event loop), without the seat's cookie.
    client.cookies.clear()
    with client.websocket_connect(f"{where}/ws") as ws:
        snap = ws.receive_json()
        assert snap["seat"] is None and snap["view"]["rack"] == []


def test_a_refusal_reads_in_the_players_language(client: TestClient) -> None:
    live: LiveServer = client.app.state.live  # type: ignore[attr-defined]
    live.create_table(TableConfig.make("standard", [HUMAN, HUMAN], deal=known_deal()), "k")
    # One client (the games live on its event loop) holding each seat's cookie in turn.
    client.post("/play/t/k/join", data={"seat": "0", "name": "Ann"})
    ann = client.cookies.get("meldtour_seat_k")
    client.cookies.clear()
    client.post("/play/t/k/join", data={"seat": "1", "name": "Bo"})
    bo = client.cookies.get("meldtour_seat_k")
    assert ann and bo and ann != bo
    client.cookies.clear()
    client.cookies.set("meldtour_seat_k", ann)
    with client.websocket_connect("/play/t/k/ws?lang=ko") as ws:
        snap = ws.receive_json()
        assert snap["view"]["current"] == 0
        ws.send_json(
            {
                "type": "move",
                "id": "1",
                "version": 0,
                "action": "play",
                "board": [["r10", "r11", "b1"]],
            }
        )
        refused = ws.receive_json()
        assert refused["type"] == "refused"
        assert refused["reason"].startswith("1번째 세트: [빨강 10, 빨강 11, 파랑 1] 는 연속")
        ws.send_json(
            {
                "type": "move",
                "id": "2",
                "version": 0,
                "action": "play",
                "board": [["r10", "r11", "r12"], ["b1", "b2"]],
            }
        )
        assert "타일이 3개보다 적습니다" in ws.receive_json()["reason"]
        ws.send_json({"type": "draft", "id": "3", "version": 0, "board": [["b1"]]})
        assert ws.receive_json()["type"] == "draft_ok"
    client.cookies.clear()
    client.cookies.set("meldtour_seat_k", bo)
    with client.websocket_connect("/play/t/k/ws?lang=ja") as ws:
        ws.receive_json()
        ws.send_json({"type": "move", "id": "1", "version": 0, "action": "draw"})
        assert ws.receive_json()["reason"] == "あなたの手番ではありません"


def engine_reasons() -> list[Refusal]:
    rules = find_rules("standard")
    rack = parse_tiles(["r4", "r5", "r6", "k9", "o9", "b9", "J", "r7", "r7"])
    cases = [
        ((), [["r4", "r5"]], False),
        ((), [["r4", "r5", "k6"]], False),
        ((), [["r4", "r6", "r5"]], False),
        ((), [["k9", "o9", "J", "J"]], False),
        ((), [["r4", "r5", "r6"]], False),
        ((), [["k1", "k2", "k3"]], False),
        ((), [["r7", "r7", "r7"]], True),
        ((), [], True),
        ([["r1", "r2", "r3"]], [["r1", "r2"], ["r4", "r5", "r6"]], True),
        ([["r1", "r2", "r3"]], [["r1", "r2", "r3", "r4"]], False),
    ]
    out = []
    for board, new, melded in cases:
        verdict = check_play(parse_board(board), rack, parse_board(new), melded, rules)
        assert verdict.refusal is not None
        out.append(verdict.refusal)
    return [
        *out,
        Refusal("turn.not_yours", {"current": 2, "seat": 0}),
        Refusal("turn.pool_not_empty"),
        Refusal("turn.time_ran_out"),
        Refusal("turn.can_still_play", {"tiles": "r4, r5, r6"}),
        Refusal("redeal.too_few_doubles", {"need": 3, "seat": 1, "have": 2}),
    ]


@pytest.mark.parametrize("locale", ["ko", "ja"])
def test_every_engine_reason_has_its_own_words(locale: str) -> None:
    gettext = translations(locale).gettext
    general = gettext(FALLBACK).split("%")[0]
    for reason in engine_reasons():
        said = explain(reason, gettext)
        assert not said.startswith(general), reason
        assert not re.search(r"[a-z]{4,} [a-z]{4,}", said), (reason, said)  # no English left


@pytest.mark.parametrize("locale", ["ko", "ja"])
def test_named_blanks_survive_translation(locale: str) -> None:
    with catalog_path(locale).open("rb") as f:
        catalog = read_po(f, locale=locale)
    blank = re.compile(r"%\(\w+\)[sd]|\{\w+\}")
    for m in catalog:
        if m.id and isinstance(m.id, str):
            assert sorted(blank.findall(m.id)) == sorted(blank.findall(str(m.string))), m.id


def test_the_lobby_describes_each_level_as_the_players_package_does() -> None:
    from meldtour.players.levels import DESCRIPTIONS
    from meldtour.web.routes.play import LEVEL_TEXTS

    assert LEVEL_TEXTS == DESCRIPTIONS


def test_the_lobby_refuses_a_form_sent_from_another_site(client: TestClient) -> None:
    form = {"preset": "standard", "seat_count": "2", "seat0": "human", "seat1": "greedy"}
    tables = len(client.app.state.live.games)  # type: ignore[attr-defined]
    r = client.post(
        "/play/tables",
        data=form,
        follow_redirects=False,
        headers={"Origin": "https://evil.example"},
    )
    assert r.status_code == 403 and "another site" in r.text
    assert len(client.app.state.live.games) == tables  # type: ignore[attr-defined]
    r = client.post(
        "/play/tables", data=form, follow_redirects=False, headers={"Origin": "http://testserver"}
    )
    assert r.status_code == 303, r.text
    game = r.headers["location"].rstrip("/").split("/")[-1]
    r = client.post(
        f"/play/t/{game}/join",
        data={"seat": "0", "name": "Eve"},
        follow_redirects=False,
        headers={"Origin": "null"},
    )
    assert r.status_code == 403
    r = client.post(
        f"/play/t/{game}/join", data={"seat": "0", "name": "Ann"}, follow_redirects=False
    )  # no Origin: not a browser
    assert r.status_code == 303, r.text


def test_the_seed_stays_on_the_server_until_the_game_is_over(client: TestClient) -> None:
    """A table made in the lobby gets a secret seed (256 bits, the cryptographic
    shuffle), and no page, lobby listing or frame holds it, in decimal or hex."""
    from meldtour.core.shuffle import is_secret

    where = client.post(
        "/play/tables",
        data={"preset": "krc-2015", "seat_count": "2", "seat0": "human", "seat1": "human"},
        follow_redirects=False,
    ).headers["location"]
    game = client.app.state.live.get(where.rsplit("/", 1)[1])  # type: ignore[attr-defined]
    seed = game.config.seed
    assert is_secret(seed)
    forms = [
        str(seed),
        f"{seed:x}",
        str(seed % (1 << 256)),
        f"{seed % (1 << 256):x}",
        str(seed % (1 << 64)),
        str(seed % (1 << 32)),
    ]
    seen = [client.get("/play").text, client.get(where).text]
    client.post(f"{where}/join", data={"seat": "0", "name": "Ann"})
    seen.append(client.get(where).text)
    with client.websocket_connect(f"{where}/ws") as ws:
        seen.append(ws.receive_text())
    ann = dict(client.cookies)
    client.cookies.clear()
    client.post(f"{where}/join", data={"seat": "1", "name": "Bo"})
    assert game.started
    with client.websocket_connect(f"{where}/ws") as ws:
        seen.append(ws.receive_text())
    client.cookies.clear()
    client.cookies.update(ann)
    with client.websocket_connect(f"{where}/ws") as ws:
        seen.append(ws.receive_text())
    seen.append(client.get(where).text)
    seen.append(client.get("/play").text)
    for text in seen:
        for form in forms:
            assert form not in text


def test_an_illegal_end_is_explained_to_its_player_in_their_language(client: TestClient) -> None:
    live = client.app.state.live  # type: ignore[attr-defined]
    game = live.create_table(
        TableConfig.make("japan", [HUMAN, HUMAN], deal=known_deal(), turn_seconds=60)
    )
    where = f"/play/t/{game.id}"
    client.post(f"{where}/join", data={"seat": "0", "name": "Ann"})
    ann = dict(client.cookies)
    client.cookies.clear()
    client.post(f"{where}/join", data={"seat": "1", "name": "Bo"})
    client.cookies.clear()
    client.cookies.update(ann)
    with client.websocket_connect(f"{where}/ws?lang=ko") as ws:
        snap = ws.receive_json()
        ws.send_json(
            {
                "type": "move",
                "id": "m",
                "version": snap["version"],
                "action": "play",
                "board": [["r10", "r11", "r12"], ["b1", "b2"]],
            }
        )
        while True:
            m = ws.receive_json()
            if m["type"] == "frame":
                break
    ended = next(e for e in m["events"] if e["kind"] == "illegal_end")
    reason = ended["private"]["reason"]
    assert reason != ended["private"]["params"] and re.search(r"[가-힣]", reason), reason


def test_the_game_socket_refuses_a_page_of_another_site(client: TestClient) -> None:
    from starlette.websockets import WebSocketDisconnect

    where = client.post(
        "/play/tables",
        data={"preset": "krc-2015", "seat_count": "2", "seat0": "human", "seat1": "human"},
        follow_redirects=False,
    ).headers["location"]
    client.post(f"{where}/join", data={"seat": "0", "name": "Ann"})
    with (
        pytest.raises(WebSocketDisconnect) as closed,
        client.websocket_connect(f"{where}/ws", headers={"origin": "http://evil.example"}) as ws,
    ):
        ws.receive_json()
    assert closed.value.code == 4403
    with client.websocket_connect(f"{where}/ws", headers={"origin": "http://testserver"}) as ws:
        assert ws.receive_json()["seat"] == 0


def test_the_seat_cookie_is_secure_outside_development() -> None:
    app = create_app(
        Settings(env="production", secret_key="k7Qp2vX9wLm4Zr8sTn3bYh6jFd1gCe5aUo0iEq")
    )
    app.state.live = LiveServer()
    with TestClient(app, base_url="https://testserver") as c:
        where = c.post(
            "/play/tables",
            data={"preset": "krc-2015", "seat_count": "2", "seat0": "human", "seat1": "human"},
            follow_redirects=False,
        ).headers["location"]
        joined = c.post(f"{where}/join", data={"seat": "0", "name": "Ann"}, follow_redirects=False)
        cookie = next(v for v in joined.headers.get_list("set-cookie") if "meldtour_seat" in v)
        assert "Secure" in cookie and "HttpOnly" in cookie


def test_the_host_chooses_whether_hints_are_offered(client: TestClient) -> None:
    seats = {"preset": "standard", "seat_count": "2", "seat0": "human", "seat1": "expert"}
    with_hints = client.post(
        "/play/tables", data={**seats, "hints": "true"}, follow_redirects=False
    ).headers["location"]
    without = client.post("/play/tables", data=seats, follow_redirects=False).headers["location"]
    live = client.app.state.live  # type: ignore[attr-defined]
    assert live.get(with_hints.rsplit("/", 1)[1]).config.hints is True
    assert live.get(without.rsplit("/", 1)[1]).config.hints is False
    lobby = client.get("/play?lang=ko").text
    assert 'name="hints" value="true" checked' in lobby
    page = client.get(f"{with_hints}?lang=ja").text
    assert 'id="b-hint"' in page and "hint.js" in page and "ヒント" in page
