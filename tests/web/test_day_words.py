"""The words of the day (issue #27): one word for the director (운영자 / 運営者), one for a
place (순위), the next step when nobody is registered yet, the division's state during
check-in, the question before closing check-in when everyone came, and Japanese
卓 / ラウンドを終了 on screen and in print alike."""

from __future__ import annotations

import html as html_lib
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from meldtour import application as usecases
from meldtour.web.i18n import catalog_paths, translations

from .test_director import csrf, make_client, sign_up, web


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path) as c:
        sign_up(c)
        r = c.post(
            "/director/new?lang=ko",
            data={"csrf": csrf(c, "/director"), "template": "tohoku", "name": "도호쿠"},
        )
        assert r.status_code == 200
        yield c


def text(html: str) -> str:
    found = re.search(r"<main>(.*)</main>", html, re.S)
    assert found
    return re.sub(r"\s+", " ", html_lib.unescape(re.sub(r"<[^>]+>", " ", found.group(1))))


def slug_of(client: TestClient) -> str:
    (row,) = usecases.all_tournaments(web(client).store())
    return str(row[0])


def test_the_next_step_and_the_state_follow_the_desk(client: TestClient) -> None:
    slug = slug_of(client)
    page = client.get(f"/director/t/{slug}?lang=ko").text
    assert 'data-step="register"' in page
    assert "다음 할 일: 선수 등록" in text(page) and "데스크에서 선수 체크인" not in text(page)
    assert f'class="button primary" href="/director/t/{slug}/players"' in page
    store = web(client).store()
    usecases.register_players(
        store, slug, [usecases.PlayerEntry(n, "tohoku") for n in "가나다라"], who="boss"
    )
    assert 'data-step="check_in"' in client.get(f"/director/t/{slug}?lang=ko").text
    usecases.check_in_players(store, slug, ["가"], who="boss")
    page = text(client.get(f"/director/t/{slug}?lang=ko").text)
    assert "체크인 진행 중" in page and "참가 신청 중" not in page
    assert "체크인 진행 중" in text(client.get(f"/t/{slug}?lang=ko").text)
    usecases.check_in_players(store, slug, ["나", "다", "라"], who="boss")
    page = html_lib.unescape(client.get(f"/director/t/{slug}?lang=ja").text)
    assert "登録した4人全員が出席し" in page and "0人" not in page


def test_one_word_each() -> None:
    for path in catalog_paths("ko"):
        assert "디렉터" not in path.read_text(), path.name
        assert "감사 기록" not in path.read_text(), path.name
    for path in catalog_paths("ja"):
        assert "ディレクター" not in path.read_text(), path.name
        assert not re.search("ラウンド.?締め", path.read_text()), path.name
    ko, ja = translations("ko").gettext, translations("ja").gettext
    assert ko("Place") == ko("Rank") == "순위"
    assert ko("Korea Rummikub Championship, Busan 2015").startswith("한국 루미큐브 챔피언십")
    assert ko("Korea Rummikub Championship, Busan 2015 (three divisions)").startswith(
        "한국 루미큐브 챔피언십"
    )
    # a tournament table is 卓 on screen and in print
    assert ja("Table %(n)d") % {"n": 1} == ja("Table %(n)s") % {"n": 1} == "1番卓"
    assert "卓" in ja("%(stage)s · %(round)s · table %(table)d")
    assert ja("Close the round") == "ラウンドを終了"
    # 得点 is the league score (100 × wins + points), スコア the points (seed 004)
    assert ja("Score") == ja("score") == "得点" and ja("Points") == ja("points") == "スコア"


def test_the_public_page_finds_a_table_by_search(client: TestClient) -> None:
    slug = slug_of(client)
    store = web(client).store()
    usecases.register_players(
        store,
        slug,
        [usecases.PlayerEntry(f"선수{i:02d}", "tohoku") for i in range(1, 41)]
        + [usecases.PlayerEntry("佐藤 一郎", "tohoku")],
        who="boss",
    )
    page = client.get(f"/t/{slug}?lang=ko").text
    assert page.count(f'href="/t/{slug}/p/') == 0  # 41 players: a search, not 41 links
    assert "선수 41명: 이름이나 번호를 입력해" in text(page)
    found = client.get(f"/t/{slug}", params={"q": "#7", "lang": "ko"}).text
    assert found.count(f'href="/t/{slug}/p/') == 1 and "선수07" in found
    found = client.get(f"/t/{slug}", params={"q": "佐藤", "lang": "ja"}).text
    assert found.count(f'href="/t/{slug}/p/') == 1 and f'href="/t/{slug}/p/41"' in found
    none = text(client.get(f"/t/{slug}", params={"q": "박", "lang": "ko"}).text)
    assert "박에 해당하는 선수가 없습니다" in none


def test_bulk_check_in_on_the_web(client: TestClient) -> None:
    slug = slug_of(client)
    store = web(client).store()
    usecases.register_players(
        store, slug, [usecases.PlayerEntry(f"선수{i}", "tohoku") for i in range(1, 9)], who="boss"
    )
    desk = f"/director/t/{slug}/d/tohoku/checkin"
    token = csrf(client, desk)
    assert "여러 선수를 한 번에 출석 처리" in client.get(desk + "?lang=ko").text
    r = client.post(f"{desk}-many?lang=ko", data={"csrf": token, "players": "1, 2\n#3\n선수4"})
    assert "선수 4명을 출석 처리했습니다." in text(r.text)
    present = {r.player for r in usecases.read(store, slug).in_division("tohoku", "checked_in")}
    assert present == {1, 2, 3, 4}
    # everyone but #8 (who phoned to say they are late)
    r = client.post(f"{desk}-many?lang=ko", data={"csrf": token, "players": "8", "all_but": "1"})
    assert "선수 3명을 출석 처리했습니다." in text(r.text)
    t = usecases.read(store, slug)
    assert (
        t.registration(8).status == "registered" and len(t.in_division("tohoku", "checked_in")) == 7
    )
    # nothing named: a refusal, nothing changes; an unknown number: refused
    r = client.post(f"{desk}-many?lang=ko", data={"csrf": token, "players": ""})
    assert "출석 처리할 선수를 적어 주세요." in text(r.text)
    r = client.post(f"{desk}-many?lang=ko", data={"csrf": token, "players": "99"})
    assert "flash error" in r.text
    assert usecases.read(store, slug).registration(8).status == "registered"
