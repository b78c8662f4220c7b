"""The circuit's director forms without a browser: a ranking's definition (every field's
refusal in Korean, Japanese and English, nothing saved; then saved and shown on the
public ranking); the single add and the desk's late entry asking who a player is when
people of the name played before; the players list marking a registration from the
public form that may be someone who played before."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from meldtour import application as uc
from meldtour.application import circuit

from .test_director import csrf, make_client, sign_up, web


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with make_client(tmp_path_factory.mktemp("forms")) as c:
        sign_up(c)
        store = web(c).store()
        uc.create_tournament(
            store, "club-night", who="boss", seed=1, slug="spring", date="2026-03-01"
        )
        uc.register_players(
            store,
            "spring",
            [
                uc.PlayerEntry("김민지", birth_year=1990),
                uc.PlayerEntry("김민지"),
                uc.PlayerEntry("이서준"),
            ],
            who="boss",
        )
        yield c


def _spring(client: TestClient) -> dict[int, int]:
    return {
        n: r.player_id for n, r in uc.registrations_by_number(web(client).store(), "spring").items()
    }


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        (
            "ko",
            [
                "숫자가 아닙니다",
                "두 번 적혀 있습니다",
                "아직 아무것도 저장되지 않았습니다",
                "반감기는 음수일 수 없습니다",
            ],
        ),
        ("ja", ["数値ではありません", "二度書かれています", "まだ何も保存されていません"]),
        ("en", ["is not a number", "is given twice", "Nothing is saved yet"]),
    ],
)
def test_a_bad_ranking_form_names_each_field_and_saves_nothing(
    client: TestClient, lang: str, words: list[str]
) -> None:
    page = client.get(f"/director/rankings/new?lang={lang}")
    assert page.status_code == 200 and 'name="table"' in page.text
    r = client.post(
        f"/director/rankings?lang={lang}",
        data={
            "csrf": csrf(client, "/director/rankings"),
            "key": "krf",
            "name": "KRF",
            "method": "percentile",
            "base": "lots",
            "levels": "2",
            "level0": "national",
            "weight0": "1",
            "level1": "national",
            "weight1": "2",
            "half_life": "-3",
            "best": "4",
            "default_level": "national",
        },
    )
    assert r.status_code == 422
    for w in words:
        assert w in r.text, (lang, w)
    assert set(re.findall(r'class="err" data-field="(\w+)"', r.text)) == {
        "base",
        "weights",
        "half_life",
    }
    assert 'value="lots"' in r.text  # what was typed is kept
    assert circuit.rankings(web(client).store(), stored=True) == []


def test_a_ranking_form_saved_is_the_public_ranking(client: TestClient) -> None:
    token = csrf(client, "/director/rankings")
    r = client.post(
        "/director/rankings?lang=en",
        data={
            "csrf": token,
            "key": "club",
            "name": "Club ladder",
            "organisation": "Seoul club",
            "method": "table",
            "table": "10, 6, 4, 2.5",
            "levels": "1",
            "level0": "monthly",
            "weight0": "1",
            "half_life": "0",
            "best": "6",
            "season_start": "2026-01-01",
            "season_end": "2026-12-31",
            "default_level": "monthly",
            "count:spring/club": "",
        },
    )
    assert r.status_code == 200 and r.url.path == "/director/rankings/club"
    assert "The ranking is saved" in r.text and 'value="10, 6, 4, 2.5"' in r.text
    public = client.get("/ranking?lang=en").text  # the only ranking: the one shown
    assert "Club ladder" in public and "Points by place (10, 6, 4, 2.5)" in public
    assert "Points do not decay" in public and "monthly 1" in public
    assert "The best 6 results count" in public and "2026-01-01" in public
    assert "Club ladder" in client.get("/director/rankings?lang=en").text
    r = client.post("/director/rankings/nope", data={"csrf": token, "method": "table"})
    assert r.status_code == 404


def test_the_single_add_and_the_late_entry_ask_who_it_is(client: TestClient) -> None:
    store = web(client).store()
    spring = _spring(client)
    uc.create_tournament(store, "club-night", who="boss", seed=2, slug="autumn")
    token = csrf(client, "/director/t/autumn/players")
    # the single add: people of the name played before, so the preview asks
    r = client.post(
        "/director/t/autumn/players/add?lang=en",
        data={"csrf": token, "name": "김민지", "birth_year": "1990"},
    )
    assert r.status_code == 200 and "Check the list" in r.text
    checked = re.search(r'name="person0" value="(\w+)" checked', r.text)
    assert checked and checked.group(1) == str(spring[1])  # the birth year's
    assert uc.read(store, "autumn").registrations == ()
    # a pasted list: a birth year in error is the line's error, said once
    r = client.post(
        "/director/t/autumn/players/preview?lang=en",
        data={"csrf": token, "paste": "name,birth year,member\n김민지,19x0,KRF-1\n"},
    )
    assert r.text.count('data-field="birth_year"') == 1 and "not a year" in r.text
    assert 'name="member0" value="KRF-1"' in r.text
    # the desk's late entry (the division started, late entry allowed)
    uc.register_players(
        store, "autumn", [uc.PlayerEntry(n) for n in ("한유진", "오세훈", "서지민")], who="boss"
    )
    uc.check_in_players(store, "autumn", [], who="boss", everyone_but=True)
    uc.close_check_in(store, "autumn", None, who="boss")
    r = client.post(
        "/director/t/autumn/d/club/late?lang=ko",
        data={"csrf": token, "name": "김민지", "family": ""},
    )
    assert r.status_code == 200 and "새로운 사람" in r.text
    assert re.search(r'name="person" value="new" checked', r.text)  # no evidence
    assert f'value="{spring[2]}"' in r.text
    r = client.post(
        "/director/t/autumn/d/club/late?lang=ko",
        data={"csrf": token, "name": "김민지", "family": "", "person": str(spring[2])},
    )
    assert r.status_code == 200 and "/checkin" in r.url.path
    regs = uc.registrations_by_number(store, "autumn")
    assert regs[4].player_id == spring[2] and regs[4].late
    # a choice the evidence contradicts: asked again, with the reason, nothing entered
    r = client.post(
        "/director/t/autumn/d/club/late?lang=en",
        data={"csrf": token, "name": "김민지", "birth_year": "1991", "person": str(spring[1])},
    )
    assert r.status_code == 422 and "was born in 1990, not 1991" in r.text
    assert len(uc.read(store, "autumn").registrations) == 4


def test_the_players_list_marks_a_possible_same_person(client: TestClient) -> None:
    store = web(client).store()
    uc.create_tournament(store, "club-night", who="boss", seed=3, slug="winter")
    r = client.post(
        "/t/winter/register?lang=ko",
        data={"csrf": csrf(client, "/t/winter/register"), "name": "이서준"},
    )
    assert r.status_code == 200
    lee = uc.registrations_by_number(store, "winter")[1]
    assert lee.player_id not in _spring(client).values()  # the public form: a new person
    page = client.get("/director/t/winter/players?lang=ko").text
    assert "전에 출전한 사람과 같은 사람일 수 있음" in page
    assert 'href="/director/t/winter/p/1/same"' in page
    # the public pages never show who else has the name
    assert "spring" not in client.get("/t/winter/p/1?lang=ko").text
