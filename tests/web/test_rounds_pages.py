"""The rounds' pages without a browser: the ranking rules saved from the division's
panel and refused (in Korean) once they would change a decided order, the steps back
refused by code in the reader's language, and the bracket of a tournament with no
knockout."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from meldtour import application as usecases
from meldtour.store import owners
from meldtour.tournament import StageFormat

from .test_director import make_client, sign_up, web
from .test_director_pages import flash, form


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path) as c:
        sign_up(c)
        yield c


def make(client: TestClient) -> str:
    store = web(client).store()
    spec = usecases.DivisionSpec(
        "open",
        "오픈",
        16,
        "krc-2015",
        (
            StageFormat("seatings", games=1, seatings=1, name="예선"),
            StageFormat("final", entrants=4, name="결승"),
        ),
    )
    slug, _t = usecases.create_blank_tournament(
        store, who="boss", name="클럽", slug="club", divisions=[spec]
    )
    owners.record_creator(store, slug, 1)  # the account signed up first
    usecases.register_players(
        store, slug, [usecases.PlayerEntry(f"P{i}", "open") for i in range(1, 9)], who="boss"
    )
    usecases.check_in_players(store, slug, [], everyone_but=True, division="open", who="boss")
    return slug


def test_ranking_rules_from_the_panel(client: TestClient) -> None:
    slug = make(client)
    page = f"/director/t/{slug}"
    html = client.get(page + "?lang=ko").text
    assert "순위 규칙과 테이블" in html and 'name="chain3"' in html
    text = form(
        client,
        f"{page}/d/open/ranking?lang=ko",
        {
            "mode": "points",
            "chain0": "head_to_head",
            "chain1": "lot",
            "three_table": "scale",
            "table_size1": "3",
        },
        page=page,
    )
    assert flash(text) == "ok: 순위 규칙을 저장했습니다. 이제부터 순위는 이 규칙으로 계산됩니다."
    div = usecases.read(web(client).store(), slug).division("open")
    assert div.standing_rules.chain == ("head_to_head", "lot")
    assert div.formats[1].table_size == 3
    text = form(
        client,
        f"{page}/d/open/ranking?lang=ko",
        {"mode": "nonsense", "three_table": "as_is"},
        page=page,
    )
    assert flash(text).startswith("error: 오픈: ")
    usecases.seat(web(client).store(), slug, "open", None, who="boss")
    text = form(
        client,
        f"{page}/d/open/ranking?lang=ja",
        {"mode": "points", "chain0": "lot", "three_table": "as_is", "table_size0": "3"},
        page=page,
    )
    assert flash(text) == "error: 오픈: 예선はすでに始まっているため、卓の人数は変えられません。"


def test_steps_back_refused_in_the_readers_language(client: TestClient) -> None:
    slug = make(client)
    usecases.seat(web(client).store(), slug, "open", None, who="boss")
    back = f"/director/t/{slug}/d/open/round"
    text = form(client, f"/director/t/{slug}/d/open/reopen?lang=ko", {}, page=back)
    assert flash(text) == "error: 오픈: 1라운드는 이미 열려 있습니다."
    text = form(
        client, f"/director/t/{slug}/d/open/undo-advance?lang=ja", {}, page=f"/director/t/{slug}"
    )
    assert flash(text) == (
        "error: 오픈: 예선は最初のステージなので、取り消す勝ち上がりはありません。"
    )
    assert "토너먼트 단계가 없어" in client.get(f"/t/{slug}/bracket?lang=ko").text


def test_a_stage_started_without_a_round_offers_its_undo(client: TestClient) -> None:
    slug = make(client)
    store = web(client).store()
    usecases.seat(store, slug, "open", None, who="boss")
    for x in usecases.read(store, slug).division("open").stages[0].rounds[0].tables:
        usecases.enter_sheet(
            store,
            slug,
            "open",
            1,
            x.number,
            [usecases.GameEntry(1, (30 + x.number, -10, -10, -10 - x.number), None, 1)],
            who="boss",
        )
    usecases.advance(store, slug, "open", who="boss")
    html = client.get(f"/director/t/{slug}/d/open/round?lang=ko").text
    assert "결승 단계가 시작되었고" in html and "진출 되돌리기" in html
    assert 'action="/director/t/club/d/open/undo-advance"' in html
