"""The audit log says what changed (issue #27): a corrected sheet's cells old → new
(``1게임 이영수 −5 → −6``), a player's old → new name, tags in words; a draft and a
counted save read differently; vote codes are counted in words, not ``codes``."""

from __future__ import annotations

import html as html_lib
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from meldtour import application as usecases

from .test_director import csrf, make_client, sign_up, web

SLUG = "audit"
LINE = (15, -5, -4, -6)


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path) as c:
        sign_up(c)
        store = web(c).store()
        usecases.create_tournament(store, "busan-2015", who="boss", slug=SLUG, locale="ko")
        usecases.register_players(
            store,
            SLUG,
            [
                usecases.PlayerEntry(n, "general", ("family:이영수네",) if i < 2 else ())
                for i, n in enumerate(["이영가", "이영나", "박민다", "최민라", "정민마"])
            ],
            who="boss",
        )
        usecases.check_in_players(store, SLUG, ["이영가", "이영나", "박민다", "최민라"], who="boss")
        usecases.seat(store, SLUG, "general", None, who="boss")
        yield c


def text(html: str) -> str:
    found = re.search(r"<main>(.*)</main>", html, re.S)
    assert found
    return re.sub(r"\s+", " ", html_lib.unescape(re.sub(r"<[^>]+>", " ", found.group(1))))


def test_the_audit_log_says_what_changed(client: TestClient) -> None:
    store = web(client).store()
    table = usecases.read(store, SLUG).division("general").stages[0].rounds[0].tables[0]
    first, second = table.players[0], table.players[1]
    usecases.enter_sheet(
        store,
        SLUG,
        "general",
        1,
        1,
        [usecases.GameEntry(1, (15, -5, None, None))],
        who="scorer:table 1",
        submit=False,
    )
    usecases.enter_sheet(
        store,
        SLUG,
        "general",
        1,
        1,
        [usecases.GameEntry(g, LINE, None, 1) for g in range(1, 5)],
        who="scorer:table 1",
        submit=True,
    )
    usecases.correct_sheet(
        store,
        SLUG,
        "general",
        1,
        1,
        {(1, 1, "points"): 16, (1, 2, "points"): -6},
        who="boss",
        why="옮겨 적기 실수",
    )
    t = usecases.read(store, SLUG)
    one, two = t.name_of(first), t.name_of(second)
    # the second player of the sheet is renamed: the log keeps both names
    player = next(r for r in t.registrations if r.player == second)
    usecases.edit_player(
        store,
        SLUG,
        second,
        usecases.PlayerEdit(name="이영수", tags=player.tags, generation=None, division="general"),
        who="boss",
    )
    client.post(
        f"/director/t/{SLUG}/vote-codes",
        data={"csrf": csrf(client, f"/director/t/{SLUG}/visitors"), "count": "5"},
    )
    page = text(client.get(f"/director/t/{SLUG}/audit?lang=ko").text)
    assert "변경 기록" in page and "감사" not in page
    assert "임시 저장했습니다 (아직 집계 전)" in page
    assert "저장해 집계에 반영했습니다" in page
    # a correction: each changed cell, old → new, with one minus sign
    assert f"1게임 {one}: +15 → +16" in page, page
    assert "1게임 이영수: −5 → −6" in page, page  # the player as now named
    assert f"이름: {two} → 이영수" in page, page
    assert "family:" not in page
    assert len(usecases.vote_codes(store, SLUG)) == 5
    assert "투표 코드를 만들었습니다: 투표 코드 5개." in page and "codes" not in page
    ja = text(client.get(f"/director/t/{SLUG}/audit?lang=ja").text)
    assert "変更履歴" in ja and "第1ゲーム 이영수: −5 → −6" in ja
    assert "下書き保存しました" in ja


def test_the_vote_sources_are_in_the_tournaments_time_as_the_audit_log(
    client: TestClient,
) -> None:
    from zoneinfo import ZoneInfo

    from meldtour.web.director.audit_words import local_time

    from .test_votes import post_vote, seated_club

    store = web(client).store()
    slug = seated_club(store)  # a club night: Japan time
    usecases.open_vote(store, slug, None, who="d")
    assert "Your vote for" in post_vote(client, slug, "3")
    (source,) = usecases.vote_sources(store, slug, "club")
    page = text(client.get(f"/director/t/{slug}/visitors?lang=ko").text)
    tokyo = local_time(source.first_at, ZoneInfo("Asia/Tokyo"), with_date=False, seconds=True)
    assert tokyo in page and "일본 시간" in page
    assert source.first_at[11:19] not in page  # not the server's UTC
    audit = text(client.get(f"/director/t/{slug}/audit?lang=ko").text)
    assert "일본 시간" in audit
