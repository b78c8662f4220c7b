"""The public rating pages without a browser: the pools (Korean adults and children
apart), the as-of date, the provisional players apart, the exports with the same
parameters, a private person's line kept with the name withheld, and bad parameters
refused in the reader's language."""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from meldtour import application as uc
from meldtour.application import circuit

from ..circuit_play import play_out
from .test_director import csrf, make_client, sign_up, web

ADULTS = ["김민지", "이서준", "박지호", "최하은", "정도윤", "강서연", "조민준", "윤지우"]
KIDS = ["김하늘", "이도윤", "박서아", "최지안", "정하린", "강시우", "조유나", "윤서진"]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with make_client(tmp_path_factory.mktemp("rating")) as c:
        sign_up(c)
        store = web(c).store()
        uc.create_tournament(store, "busan-2015", who="d", seed=5, slug="busan", date="2026-05-02")
        for div, names in (("general", ADULTS), ("lower", KIDS)):
            uc.register_players(store, "busan", [uc.PlayerEntry(n, div) for n in names], who="d")
            uc.check_in_players(store, "busan", [], who="d", everyone_but=True, division=div)
            play_out(store, "busan", div, seed=5)
        yield c


def test_the_pools_are_listed_apart(client: TestClient) -> None:
    page = client.get("/rating?lang=ko").text
    assert "한국 (성인)" in page and "/rating?pool=korea-children" in page
    assert all(n in page for n in ADULTS) and not any(n in page for n in KIDS)
    kids = client.get("/rating?pool=korea-children&lang=ja").text
    assert all(n in kids for n in KIDS) and not any(n in kids for n in ADULTS)
    assert "レーティングが測るもの" in kids and "暫定レーティング" in kids
    en = client.get("/rating?lang=en").text
    assert "What the rating measures" in en and "Provisional" in en


def test_the_as_of_date_and_the_exports(client: TestClient) -> None:
    before = client.get("/rating?as_of=2026-05-01&lang=en").text
    assert "Nobody is rated in this pool yet" in before
    csv = client.get("/rating.csv?pool=korea-children&as_of=2026-06-01")
    assert (
        csv.status_code == 200
        and "rating-korea-children-2026-06-01.csv" in csv.headers["content-disposition"]
    )
    lines = csv.text.strip().splitlines()
    assert lines[0].lstrip("\ufeff").startswith("pool,as of,rank,person,name,rating")
    assert len(lines) == len(KIDS) + 1 and all(
        ",korea-children,2026-06-01," in "," + x for x in lines[1:]
    )
    from openpyxl import load_workbook

    book = load_workbook(io.BytesIO(client.get("/rating.xlsx?pool=korea").content))
    assert book.active is not None and book.active.max_row == len(ADULTS) + 1


def test_a_private_person_keeps_the_line_with_the_name_withheld(client: TestClient) -> None:
    store = web(client).store()
    who = circuit.people(store, "윤지우")[0].person
    circuit.set_person(store, who, who=circuit.Acting.operator("d"), public=False)
    page = client.get("/rating?lang=ko").text
    assert "윤지우" not in page and "(이름 비공개)" in page
    assert f"/people/{who}" not in page
    assert page.count("<tr>") - 1 >= len(ADULTS)  # no line dropped
    csv = client.get("/rating.csv?lang=en").text
    assert "윤지우" not in csv and "(name withheld)" in csv
    circuit.set_person(store, who, who=circuit.Acting.operator("d"), public=True)


def test_bad_parameters_are_refused_in_the_readers_language(client: TestClient) -> None:
    page = {"accept": "text/html"}
    r = client.get("/rating?pool=nope&lang=ko", headers=page)
    assert r.status_code == 404 and "레이팅 풀이 없습니다" in r.text
    r = client.get("/rating?as_of=2026-13-40&lang=ja", headers=page)
    assert r.status_code == 400 and "YYYY-MM-DD" in r.text
    assert client.get("/rating?pool=" + "x" * 5000).status_code == 404
    assert client.get("/rating.csv?pool=a%00b").status_code in (400, 404)  # NUL: refused


def test_the_administrator_chooses_a_divisions_pool_on_the_rankings_page(
    client: TestClient,
) -> None:
    """The federation's choice of a pool, on the page: the Busan 일반부 moved to a pool
    of its own and back; the rating page follows; a bad key is refused by name."""
    page = client.get("/director/rankings?lang=ko").text
    assert 'data-pool="busan/general"' in page and 'data-pool="busan/lower"' in page
    assert "레이팅 풀" in page and "한국 (성인)" in page
    token = csrf(client, "/director/rankings")
    form = {"csrf": token, "slug": "busan", "division": "general"}
    r = client.post(
        "/director/rating-pools?lang=en", data={**form, "pool": "own", "own": "busan-x"}
    )
    assert r.status_code == 200 and "counts in the rating pool busan-x now" in r.text
    assert circuit.division_pool(web(client).store(), "busan", "general") == "busan-x"
    assert all(n in client.get("/rating?pool=busan-x").text for n in ADULTS)
    assert "no rating pool 'korea'" in client.get("/rating?pool=korea&lang=en").text
    r = client.post("/director/rating-pools?lang=en", data={**form, "pool": "own", "own": "X Y"})
    assert "key is letters, digits and -" in r.text
    r = client.post("/director/rating-pools?lang=en", data={**form, "pool": "default"})
    assert circuit.division_pool(web(client).store(), "busan", "general") == "korea"


def test_a_club_night_counts_where_its_rules_are_played(client: TestClient) -> None:
    """A Korean club night (the club-night template under the Korean rules) is rated in
    the Korean pool; under the Japanese rules, in the Japanese one."""
    store = web(client).store()
    for slug, rules in (("club-kr", "krc-2015"), ("club-jp", "japan")):
        uc.create_tournament(store, "club-night", who="d", seed=3, slug=slug, date="2026-07-01")
        uc.edit_division(store, slug, "club", uc.DivisionEdit(rules=rules), who="d")
        assert circuit.division_pool(store, slug, "club") == {"krc-2015": "korea"}.get(
            rules, "japan"
        )
