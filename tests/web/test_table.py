"""The table page's server side (no browser): a draft's check meld by meld in the
reader's language, the seat draw in the view, the chat of fixed phrases (bounded and
rate-limited), a rematch at the same table, and a socket on a game that is gone."""

from __future__ import annotations

import json
import re

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from meldtour.core.state import Deal
from meldtour.core.tiles import full_set, parse_tiles
from meldtour.live import LiveServer, SeatConfig, TableConfig
from meldtour.live.game import CHAT_KEPT
from tests.live.helpers import RACK1, known_deal

HUMAN = SeatConfig("human")


def seat(client: TestClient, game_id: str, n: int, name: str) -> str:
    client.cookies.clear()
    client.post(f"/play/t/{game_id}/join", data={"seat": str(n), "name": name})
    token = client.cookies.get(f"meldtour_seat_{game_id}")
    assert token
    return token


def test_a_draft_is_checked_meld_by_meld_in_the_readers_language(client: TestClient) -> None:
    live: LiveServer = client.app.state.live  # type: ignore[attr-defined]
    live.create_table(TableConfig.make("standard", [HUMAN, HUMAN], deal=known_deal()), "d")
    ann = seat(client, "d", 0, "Ann")
    seat(client, "d", 1, "Bo")
    client.cookies.clear()
    client.cookies.set("meldtour_seat_d", ann)
    with client.websocket_connect("/play/t/d/ws?lang=ko") as ws:
        ws.receive_json()
        ws.send_json(
            {
                "type": "draft",
                "id": "1",
                "version": 0,
                "board": [["r10", "r11", "r12"], ["b1", "b2"]],
            }
        )
        ok = ws.receive_json()
        assert ok["type"] == "draft_ok"
        check = ok["check"]
        assert check["value"] == 33 and check["touches_board"] is False
        assert check["reasons"][0] is None
        assert "타일이 3개보다 적습니다" in check["reasons"][1]
        assert check["melds"][1]["code"] == "meld.too_short"


def test_the_seat_draw_is_in_everyones_view(client: TestClient) -> None:
    live: LiveServer = client.app.state.live  # type: ignore[attr-defined]
    live.create_table(
        TableConfig.make(
            "standard", [HUMAN, SeatConfig("computer", "greedy")], seed=5, bot_delay=30
        ),
        "s",
    )
    seat(client, "s", 0, "Ann")
    client.cookies.clear()
    with client.websocket_connect("/play/t/s/ws") as ws:  # a spectator
        view = ws.receive_json()["view"]
    draws = view["seat_draw"]
    assert draws and {s for s, _ in draws[0]} == {0, 1}
    assert view["order"][0] in {s for s, _ in draws[-1]}


def test_the_chat_says_fixed_phrases_a_few_at_a_time(client: TestClient) -> None:
    live: LiveServer = client.app.state.live  # type: ignore[attr-defined]
    live.create_table(TableConfig.make("standard", [HUMAN, HUMAN], deal=known_deal()), "c")
    ann = seat(client, "c", 0, "Ann")
    seat(client, "c", 1, "Bo")
    client.cookies.clear()
    client.cookies.set("meldtour_seat_c", ann)
    with client.websocket_connect("/play/t/c/ws?lang=ja") as ws:
        ws.receive_json()
        ws.send_json({"type": "chat", "phrase": "hello"})
        said = ws.receive_json()
        assert said["type"] == "chat" and said["seat"] == 0 and said["phrase"] == "hello"
        ws.send_json({"type": "chat", "phrase": "hello"})  # at once again: too fast
        assert ws.receive_json()["reason"].startswith("メッセージは一つずつです")
        ws.send_json({"type": "chat", "phrase": "<b>free text</b>"})
        assert ws.receive_json()["code"] == "live.chat_phrase"
    client.cookies.clear()
    with client.websocket_connect("/play/t/c/ws") as ws:  # a spectator hears, cannot say
        assert ws.receive_json()["chat"][0]["phrase"] == "hello"
        ws.send_json({"type": "chat", "phrase": "thanks"})
        assert ws.receive_json()["code"] == "live.spectator"
    game = live.get("c")
    assert game is not None and game.chat.maxlen == CHAT_KEPT


def test_a_rematch_seats_the_players_again_at_a_new_game(client: TestClient) -> None:
    live: LiveServer = client.app.state.live  # type: ignore[attr-defined]
    # Ann holds only an initial meld: she goes out at once.
    racks = (parse_tiles(["r10", "r11", "r12"]), parse_tiles(RACK1))
    rest = list(full_set())
    for t in racks[0] + racks[1]:
        rest.remove(t)
    live.create_table(
        TableConfig.make(
            "standard", [HUMAN, SeatConfig("computer", "expert")], deal=Deal(racks, tuple(rest), 0)
        ),
        "r",
    )
    ann = seat(client, "r", 0, "Ann")
    client.cookies.set("meldtour_seat_r", ann)
    assert client.post("/play/t/r/rematch").status_code == 409  # not over yet
    with client.websocket_connect("/play/t/r/ws?lang=en") as ws:
        ws.receive_json()
        ws.send_json(
            {
                "type": "move",
                "id": "1",
                "version": 0,
                "action": "play",
                "board": [["r10", "r11", "r12"]],
            }
        )
        while ws.receive_json()["type"] != "ack":
            pass
    old = live.get("r")
    assert old is not None and old.over
    page = client.get("/play/t/r?lang=ko")
    boot = json.loads(re.search(r'<script id="boot"[^>]*>(.*?)</script>', page.text, re.S)[1])
    texts = json.loads(re.search(r'<script id="texts"[^>]*>(.*?)</script>', page.text, re.S)[1])
    assert boot["can_rematch"] and texts["rematch"] == "이 테이블에서 한 판 더"
    first = client.post("/play/t/r/rematch", follow_redirects=False)
    assert first.status_code == 303
    new_id = first.headers["location"].rsplit("/", 1)[1]
    new = live.get(new_id)
    assert new is not None and new.started  # Ann is back; the computer needs no seat
    assert new.names[0] == "Ann" and new.seat_of(client.cookies.get(f"meldtour_seat_{new_id}")) == 0
    assert new.config.seats == old.config.seats and new.config.deal == old.config.deal
    assert old.table_json()["rematch"] == new_id
    again = client.post("/play/t/r/rematch", follow_redirects=False)
    assert again.headers["location"] == first.headers["location"]
    client.cookies.clear()
    assert client.post("/play/t/r/rematch").status_code == 409  # a spectator


def test_a_socket_on_a_game_that_is_gone_is_told_so(client: TestClient) -> None:
    with (
        pytest.raises(WebSocketDisconnect) as gone,
        client.websocket_connect("/play/t/nothing/ws") as ws,
    ):
        ws.receive_json()
    assert gone.value.code == 4404


def test_a_page_opened_after_a_move_sees_it_without_anyones_hidden_tiles(
    client: TestClient,
) -> None:
    live: LiveServer = client.app.state.live  # type: ignore[attr-defined]
    live.create_table(TableConfig.make("standard", [HUMAN, HUMAN], deal=known_deal()), "h")
    ann = seat(client, "h", 0, "Ann")
    seat(client, "h", 1, "Bo")
    client.cookies.clear()
    client.cookies.set("meldtour_seat_h", ann)
    with client.websocket_connect("/play/t/h/ws") as ws:
        ws.receive_json()
        ws.send_json({"type": "move", "id": "1", "version": 0, "action": "draw"})
        while ws.receive_json()["type"] != "ack":
            pass
    with client.websocket_connect("/play/t/h/ws") as ws:  # Ann again: her tile named
        recent = ws.receive_json()["recent"]
    draw = next(e for e in recent[-1]["events"] if e["kind"] == "draw")
    assert recent[-1]["before"] == [] and len(draw["private"]["tiles"]) == 1
    client.cookies.clear()
    with client.websocket_connect("/play/t/h/ws") as ws:  # a spectator: not named
        recent = ws.receive_json()["recent"]
    draw = next(e for e in recent[-1]["events"] if e["kind"] == "draw")
    assert "private" not in draw
