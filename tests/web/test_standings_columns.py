"""Issue #27 (4): the standings show one column per meaning, by the division's ranking
rule: Busan's KRC (wins, then the points as written) has no score column repeating
the points; a league (100 a win + points) names its score so, in ko/ja/en; the PDF
follows the page. And the projector's page is a projector page (no site menu)."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from meldtour import application as usecases

from ..store.test_store import games_for
from .test_director import make_client, sign_up, web
from .test_votes import seated_club


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path) as c:
        sign_up(c)
        yield c


def score_round_1(client: TestClient, slug: str, division: str) -> None:
    store = web(client).store()
    t = usecases.read(store, slug)
    for x in t.division(division).stages[-1].rounds[0].tables:
        usecases.enter_sheet(
            store,
            slug,
            division,
            1,
            x.number,
            games_for(t, division, 1, x.number, len(x.players), len(x.sheet.games)),
            who="ref",
        )


def pdf_text(tmp_path: Path, data: bytes) -> str:
    path = tmp_path / "s.pdf"
    path.write_bytes(data)
    return subprocess.run(
        ["pdftotext", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout


def test_busan_has_no_second_points_column(tmp_path: Path, client: TestClient) -> None:
    store = web(client).store()
    usecases.create_tournament(store, "busan-2015", who="d", seed=5, slug="busan", locale="ko")
    usecases.register_players(
        store, "busan", [usecases.PlayerEntry(f"선수{i}", "general") for i in range(8)], who="d"
    )
    usecases.check_in_players(store, "busan", [], who="d", everyone_but=True, division="general")
    usecases.seat(store, "busan", "general", 1, who="d")
    score_round_1(client, "busan", "general")
    for view in ("", "&view=projector"):
        page = client.get(f"/t/busan/standings?division=general{view}&lang=ko").text
        head = page[page.index("<thead>", page.index('id="live"')) :].split("</thead>")[0]
        assert "승수" in head and "점수" in head and "득점" not in head
        assert head.count("</th>") == 5  # rank, player, wins, points, decided by
    projector = client.get("/t/busan/standings?division=general&view=projector&lang=ko").text
    assert 'class="projector-screen"' in projector and 'class="bar"' not in projector
    assert 'id="paged"' in projector and 'id="live"' in projector
    text = pdf_text(
        tmp_path, client.get("/director/t/busan/d/general/pdf/standings?lang=ko").content
    )
    assert "점수" in text and "득점" not in text


def test_a_league_names_its_score(tmp_path: Path, client: TestClient) -> None:
    store = web(client).store()
    slug = seated_club(store)
    score_round_1(client, slug, "club")
    words = {
        "en": "League score (100 a win + points)",
        "ko": "리그 득점 (1승 100 + 점수)",
        "ja": "リーグ得点(1勝100+スコア)",  # 得点 = 100 × wins + スコア (seed 004)
    }
    for lang, word in words.items():
        page = client.get(f"/t/{slug}/standings?division=club&lang={lang}").text
        assert word in page
    text = pdf_text(
        tmp_path, client.get(f"/director/t/{slug}/d/club/pdf/standings?lang=en").content
    )
    assert "League score" in text
