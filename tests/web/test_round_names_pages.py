"""Knockout rounds in the programme's words (issue 27 item 6): the bracket, a round's
score sheets and seat list say 32강전 → 16강전 → 8강전 → 결승전 in Korean and
ベスト32 … 決勝 in Japanese; a seating stage keeps "round N"."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from meldtour import application as usecases
from meldtour.store import owners
from meldtour.store.db import Store
from meldtour.tournament import StageFormat
from meldtour.web import pdf

from .test_director import make_client, sign_up, web
from .test_pdf import text_of

SLUG = "busan-kids"


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path) as c:
        sign_up(c)
        yield c


def score(store: Store) -> None:
    """The current round's tables: seat 1 wins every game."""
    rnd = usecases.read(store, SLUG).division("kids").stages[-1].rounds[-1]
    for x in rnd.tables:
        seats = len(x.players)
        line = (10 * (seats - 2) + x.number,) + (-10,) * (seats - 2) + (-x.number,)
        games = [usecases.GameEntry(g, line, None, 1) for g in range(1, len(x.sheet.games) + 1)]
        usecases.enter_sheet(
            store, SLUG, "kids", rnd.number, x.number, games, who="scorer", submit=True
        )


def make(client: TestClient) -> Store:
    store = web(client).store()
    make_in(store, 1)
    return store


def make_in(store: Store, creator: int) -> None:
    """A 32-player knockout played to its final table (seated, not yet played)."""
    spec = usecases.DivisionSpec(
        "kids",
        "초등부",
        32,
        "krc-2015",
        (StageFormat("knockout", games=1, advance=2, final_games=1, name="토너먼트"),),
    )
    usecases.create_blank_tournament(
        store, who="boss", name="부산 대회", divisions=[spec], slug=SLUG, seed=2015
    )
    owners.record_creator(store, SLUG, creator)
    usecases.register_players(
        store, SLUG, [usecases.PlayerEntry(f"어린이{i}", "kids") for i in range(1, 33)], who="boss"
    )
    usecases.check_in_players(store, SLUG, [], everyone_but=True, division="kids", who="boss")
    for _ in range(3):
        usecases.seat(store, SLUG, "kids", None, who="boss")
        score(store)
        usecases.close(store, SLUG, "kids", who="boss")
    usecases.seat(store, SLUG, "kids", None, who="boss")


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("ko", ["32강전", "16강전", "8강전", "결승전"]),
        ("ja", ["ベスト32", "ベスト16", "ベスト8", "決勝"]),
        ("en", ["Round of 32", "Round of 16", "Round of 8", "Final"]),
    ],
)
def test_the_bracket_names_rounds_as_the_programme(
    client: TestClient, lang: str, words: list[str]
) -> None:
    make(client)
    html = client.get(f"/t/{SLUG}/bracket?division=kids&lang={lang}").text
    heads = [html.split(f'data-round="{n}"', 1)[1].split("</h3>", 1)[0] for n in range(1, 5)]
    for head, word in zip(heads, words, strict=True):
        assert word in head, (word, head)
    assert "1라운드" not in html and "第1ラウンド" not in html


def test_the_pdfs_name_knockout_rounds(client: TestClient, tmp_path: Path) -> None:
    store = make(client)
    t = usecases.read(store, SLUG)
    first = text_of(pdf.score_sheets(t, "kids", 0, 1, "ko"))
    assert "32강전" in first and "라운드" not in first
    assert "16강전" in text_of(pdf.seat_list(t, "kids", 0, 2, "ko"))
    final = pdf.score_sheets(t, "kids", 0, 4, "ja")
    assert "決勝" in text_of(final)
    assert "ベスト32" in text_of(pdf.seat_names(t, "kids", 0, 1, "ja"))
    # pdftotext reads the sheet as a person's viewer would.
    path = tmp_path / "final.pdf"
    path.write_bytes(pdf.score_sheets(t, "kids", 0, 4, "ko"))
    out = subprocess.run(
        ["pdftotext", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert "결승전" in out


def test_the_round_page_and_the_public_page_say_the_round(client: TestClient) -> None:
    make(client)
    assert "결승전" in client.get(f"/director/t/{SLUG}/d/kids/round?lang=ko").text
    assert "決勝" in client.get(f"/t/{SLUG}?lang=ja").text


def test_the_final_ranking_says_which_round_each_went_out_in(client: TestClient) -> None:
    store = make(client)
    score(store)
    usecases.close(store, SLUG, "kids", who="boss")
    html = client.get(f"/t/{SLUG}/standings?division=kids&lang=ko").text
    assert "32강전 탈락" in html and "16강전 탈락" in html and "8강전 탈락" in html
    assert "ベスト16で敗退" in client.get(f"/t/{SLUG}/standings?division=kids&lang=ja").text
