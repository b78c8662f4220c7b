"""After an online game: the score page, the replay (every move, the viewer's own rack;
every rack on request once the game is over) and the analysis; and the redeal right
demanded over the socket. Real games of the live layer on the app's event loop, no
browser."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from meldtour.core.analysis import analyse, steps
from meldtour.core.game import doubles
from meldtour.core.melds import format_board, parse_board
from meldtour.core.record import read_record
from meldtour.core.rules import find_rules
from meldtour.core.tiles import parse_tiles
from meldtour.live import LiveServer, SeatConfig, TableConfig
from meldtour.live.log import StoreLog
from meldtour.solver import finder, solve
from meldtour.web.app import create_app
from meldtour.web.config import Settings
from tests.store.backends import BACKENDS, database, upgraded

GREEDY = SeatConfig("computer", "greedy")
HUMAN = SeatConfig("human")
KRC = find_rules("krc-2015")
#: Under krc-2015 seed 19 deals seat 0 three doubles (seat 1 one) and seat 1 starts.
REDEAL_SEED = 19
KO_REFUSAL = "다시 나누려면 같은 타일 쌍이 3개 필요합니다. 받침대에는 1개 있습니다"


def live_of(client: TestClient) -> LiveServer:
    live: LiveServer = client.app.state.live  # type: ignore[attr-defined]
    return live


def wait_over(client: TestClient, game_id: str, timeout: float = 60) -> None:
    game = live_of(client).get(game_id)
    assert game is not None
    end = time.monotonic() + timeout
    while not game.over:
        assert time.monotonic() < end, "the game did not end"
        time.sleep(0.02)


def ann_move(view: dict[str, Any]) -> dict[str, Any]:
    """Ann draws while the pool lasts; then (krc-2015: no pass while a play exists) she
    puts down the solver's best play, or passes."""
    if view["pool_left"]:
        return {"action": "draw"}
    found = solve(parse_board(view["board"]), parse_tiles(view["rack"]), KRC, view["melded"][0])
    if found.placed:
        return {"action": "play", "board": format_board(found.board)}
    return {"action": "pass"}


def person_against_greedy(client: TestClient) -> str:
    """Ann (seat 0, by her cookie) draws every turn against a greedy player, to the end;
    the game's id."""
    live_of(client).create_table(
        TableConfig.make("krc-2015", [HUMAN, GREEDY], seed=5, bot_delay=0.0), "g"
    )
    client.post("/play/t/g/join", data={"seat": "0", "name": "Ann"})
    token = client.cookies.get("meldtour_seat_g")
    assert token
    with client.websocket_connect("/play/t/g/ws?lang=en") as ws:
        snap = ws.receive_json()
        view, version = snap["view"], snap["version"]
        while view["end"] is None:
            if view["current"] == 0:
                ws.send_json(
                    {"type": "move", "id": f"d{version}", "version": version, **ann_move(view)}
                )
            while True:
                m = ws.receive_json()
                if m["type"] == "frame":
                    version, view = m["version"], m["view"]
                    break
                assert m["type"] in ("ack", "stale"), m  # stale: a frame is on its way
    wait_over(client, "g")
    return "g"


def test_score_replay_and_analysis_of_a_finished_game(client: TestClient) -> None:
    game_id = person_against_greedy(client)
    game = live_of(client).get(game_id)
    assert game is not None and game.state is not None
    final = game.state
    moves = len(final.history)
    assert final.end == "out" and final.winner == 1 and final.scores is not None

    # The table page offers the pages after the game; the score page shows the result.
    score = client.get(f"/play/t/{game_id}/score?lang=en")
    assert score.status_code == 200
    # The computer player by its level in the reader's words, never the record's key.
    assert "Greedy 2 went out" in score.text and "greedy 2" not in score.text
    rows = re.findall(
        r'<tr data-seat="(\d)"[^>]*>.*?<td class="num">(-?\d+)</td>', score.text, re.S
    )
    assert {int(s): int(v) for s, v in rows} == dict(enumerate(final.scores))
    assert "(you)" in score.text  # Ann's cookie names her seat
    assert f"{moves} moves" in score.text
    ko = client.get(f"/play/t/{game_id}/score?lang=ko").text
    assert "게임 결과" in ko and "욕심쟁이 2 님이 타일을 모두 내려놓았습니다" in ko

    # The replay: the deal, then every move; Ann sees her own rack only ...
    deal = client.get(f"/play/t/{game_id}/replay?lang=en").text
    assert "The deal" in deal and 'rel="next"' in deal and 'rel="prev"' not in deal
    assert re.findall(r'class="rack-row" data-seat="(\d)"', deal) == ["0"]
    first_rack = re.search(r'class="rack-row" data-seat="0">.*?</div>', deal, re.S)
    assert first_rack is not None
    dealt = re.findall(r'data-tile="(\w+)"', first_rack.group(0))
    assert len(dealt) == 14
    # ... step by step: after move n the board and her rack are as they were.
    record = read_record(
        {
            "rules": "krc-2015",
            "players": list(final.players),
            "seed": 5,
            "moves": [
                {
                    "seat": m.seat,
                    "action": m.action,
                    **(
                        {"board": [x.to_json() for x in m.board]}
                        if getattr(m, "board", None) is not None
                        else {}
                    ),
                }
                for m in final.history
            ],
        }
    )
    replayed = list(steps(record, finder))
    assert sorted(parse_tiles(dealt)) == sorted(replayed[0].before.racks[0])
    for n in (1, moves // 2, moves):
        page = client.get(f"/play/t/{game_id}/replay?step={n}&lang=en").text
        assert f"Move {n} of {moves}" in page
        state = replayed[n - 1].after
        board = re.search(r'id="board".*?</div>\s*</div>|id="board"[^>]*>\s*</div>', page, re.S)
        assert board is not None
        shown = re.findall(r'data-tile="(\w+)"', board.group(0))
        assert sorted(parse_tiles(shown)) == sorted(t for m in state.board for t in m.tiles)
        assert re.findall(r'class="rack-row" data-seat="(\d)"', page) == ["0"]
    last = client.get(f"/play/t/{game_id}/replay?step={moves + 5}&lang=en").text
    assert f"Move {moves} of {moves}" in last and 'rel="next"' not in last
    assert "Greedy 2 went out" in last
    # Ann's own draws are named in the replay; the other's are not.
    drew = next(i for i, s in enumerate(replayed) if s.move.seat == 0 and s.move.action == "draw")
    said = client.get(f"/play/t/{game_id}/replay?step={drew + 1}&lang=en").text
    assert re.search(r"Ann drew a tile \((black|red|orange|blue) \d+|the joker\)", said)
    # Every rack once asked for (the game is over); a spectator sees none by default.
    everyone = client.get(f"/play/t/{game_id}/replay?step=3&racks=all&lang=en").text
    assert re.findall(r'class="rack-row" data-seat="(\d)"', everyone) == ["0", "1"]
    assert "step=4&amp;racks=all" in everyone
    client.cookies.clear()
    spectator = client.get(f"/play/t/{game_id}/replay?step=3&lang=en").text
    assert 'class="rack-row"' not in spectator and "(you)" not in spectator

    # The analysis: every move beside the solver's best; the missed plays marked.
    page = client.get(f"/play/t/{game_id}/analysis?lang=en")
    assert page.status_code == 200
    expected = analyse(record, solve, finder)
    assert len(re.findall(r'<tr data-turn="\d+"', page.text)) == moves
    missed = [t.turn for t in expected.turns if t.missed]
    assert missed, "Ann only drew: the solver finds turns where she could have played"
    assert re.findall(r'<tr data-turn="(\d+)" class="missed', page.text) == [str(t) for t in missed]
    assert f"replay?step={missed[0]}&amp;racks=all" in page.text
    assert client.get(f"/play/t/{game_id}/analysis?lang=ja").text.count("見逃し: ") == len(missed)


def test_pages_wait_for_the_end_and_outlive_the_process(client: TestClient) -> None:
    live = live_of(client)
    live.create_table(TableConfig.make("standard", [HUMAN, GREEDY], seed=3), "w")
    assert client.get("/play/t/nope/score").status_code == 404
    # Not started: no log yet. Started but not over: back to the table.
    assert client.get("/play/t/w/replay").status_code == 404
    client.post("/play/t/w/join", data={"seat": "0", "name": "Bo"})
    early = client.get("/play/t/w/analysis", follow_redirects=False)
    assert early.status_code == 303 and early.headers["location"] == "/play/t/w"
    # A finished game the process no longer holds: the table page sends to the score.
    live.create_table(TableConfig.make("krc-2015", [GREEDY, GREEDY], seed=2, bot_delay=0.0), "done")
    with client.websocket_connect("/play/t/done/ws"):
        wait_over(client, "done")
    del live.games["done"]
    moved = client.get("/play/t/done?lang=en", follow_redirects=False)
    assert moved.status_code == 303 and moved.headers["location"] == "/play/t/done/score"
    assert "went out" in client.get("/play/t/done/score?lang=en").text


def test_the_redeal_right_over_the_socket(client: TestClient) -> None:
    live = live_of(client)
    live.create_table(TableConfig.make("krc-2015", [HUMAN, HUMAN], seed=REDEAL_SEED), "r")
    client.post("/play/t/r/join", data={"seat": "0", "name": "Ann"})
    ann = client.cookies.get("meldtour_seat_r")
    client.cookies.clear()
    client.post("/play/t/r/join", data={"seat": "1", "name": "Bo"})
    bo = client.cookies.get("meldtour_seat_r")
    assert ann and bo
    page = client.get("/play/t/r?lang=en").text
    assert '"redeal": "before_game"' in page and '"redeal_doubles": 3' in page
    # Bo holds one double: refused, in his language.
    with client.websocket_connect("/play/t/r/ws?lang=ko") as ws:
        snap = ws.receive_json()
        assert doubles(parse_tiles(snap["view"]["rack"])) == 1
        ws.send_json({"type": "move", "id": "x", "version": 0, "action": "redeal"})
        refused = ws.receive_json()
        assert refused["type"] == "refused"
        assert refused["reason"] == KO_REFUSAL
    client.cookies.clear()
    client.cookies.set("meldtour_seat_r", ann)
    with client.websocket_connect("/play/t/r/ws?lang=en") as ws:
        snap = ws.receive_json()
        before = snap["view"]["rack"]
        assert doubles(parse_tiles(before)) == 3 and snap["view"]["current"] == 1
        ws.send_json({"type": "move", "id": "y", "version": 0, "action": "redeal"})
        frame = ws.receive_json()
        assert frame["type"] == "frame" and frame["version"] == 1
        kinds = [e["kind"] for e in frame["events"]]
        assert kinds[0] == "redeal" and "deal" in kinds
        after = frame["view"]["rack"]
        assert len(after) == 14 and after != before
        assert frame["view"]["turn_no"] == 0 and frame["view"]["current"] == 1
        assert ws.receive_json()["type"] == "ack"
    game = live.get("r")
    assert game is not None and game.state is not None and game.state.deal_no == 1


@pytest.mark.parametrize("kind", BACKENDS)
def test_after_a_restart_the_pages_read_the_database(kind: str, tmp_path: Path) -> None:
    """The game played on one app, the pages asked of another on the same database (a
    restart): the table page sends to the score, and Ann is still known by her cookie."""
    with database(kind, tmp_path) as url, upgraded(url) as store:
        first = create_app(Settings(env="test"))
        first.state.live = LiveServer(StoreLog(store))
        with TestClient(first) as c:
            person_against_greedy(c)
            token = c.cookies.get("meldtour_seat_g")
            scores = live_of(c).get("g").state.scores  # type: ignore[union-attr]
        second = create_app(Settings(env="test"))
        second.state.live = LiveServer(StoreLog(store))
        with TestClient(second) as c:
            assert token
            c.cookies.set("meldtour_seat_g", token)
            moved = c.get("/play/t/g?lang=en", follow_redirects=False)
            assert moved.headers["location"] == "/play/t/g/score"
            score = c.get("/play/t/g/score?lang=en").text
            assert "(you)" in score and "Greedy 2 went out" in score
            rows = re.findall(
                r'<tr data-seat="(\d)"[^>]*>.*?<td class="num">(-?\d+)</td>', score, re.S
            )
            assert {int(s): int(v) for s, v in rows} == dict(enumerate(scores or ()))
            replay = c.get("/play/t/g/replay?step=1&lang=en").text
            assert re.findall(r'class="rack-row" data-seat="(\d)"', replay) == ["0"]
            assert c.get("/play/t/g/analysis").status_code == 200
