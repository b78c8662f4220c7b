"""One check-in desk for the whole tournament (issue 27 item 5): at Busan there is one
entrance, so a search on the 일반부 desk finds #36 of 초등 고학년부, shows their division,
and checks them in to their own division; without a search the desk lists its own."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from meldtour import application as usecases
from meldtour.store import owners
from meldtour.store.db import Store
from meldtour.tournament import StageFormat

from .test_director import make_client, sign_up, web
from .test_director_pages import flash, form


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path) as c:
        sign_up(c)
        yield c


def busan(client: TestClient) -> str:
    return busan_in(web(client).store(), 1)


def busan_in(store: Store, creator: int) -> str:
    """일반부 #1–32 and 초등 고학년부 #33–48, registered, nobody checked in."""
    general = usecases.DivisionSpec(
        "general",
        "일반부",
        64,
        "krc-2015",
        (StageFormat("seatings", games=1, seatings=2, name="예선"),),
    )
    upper = usecases.DivisionSpec(
        "upper",
        "초등 고학년부 (4~6학년)",
        32,
        "krc-2015",
        (StageFormat("knockout", games=1, advance=2, name="토너먼트"),),
    )
    slug, _t = usecases.create_blank_tournament(
        store, who="boss", name="부산 대회", divisions=[general, upper], slug="busan"
    )
    owners.record_creator(store, slug, creator)
    usecases.register_players(
        store,
        slug,
        [usecases.PlayerEntry(f"김일반{i}", "general") for i in range(1, 33)]
        + [usecases.PlayerEntry(f"김초등{i}", "upper") for i in range(1, 17)],
        who="boss",
    )
    return slug


def rows(html: str) -> list[str]:
    return html.split('<ul class="desk">', 1)[1].split("</ul>", 1)[0].split("<li")[1:]


def test_the_desk_finds_and_checks_in_players_of_every_division(client: TestClient) -> None:
    slug = busan(client)
    store = web(client).store()
    assert usecases.read(store, slug).registration(36).division == "upper"
    desk = f"/director/t/{slug}/d/general/checkin"
    html = client.get(desk + "?q=36&lang=ko").text
    found = rows(html)
    assert len(found) == 1 and 'data-division="upper"' in found[0]
    assert "김초등4" in found[0] and "초등 고학년부 (4~6학년)" in found[0]
    assert "출석" in found[0] and "일치하는 선수가 없습니다" not in html
    text = form(client, f"{desk}/36?lang=ko", {"q": "36"}, page=desk + "?q=36")
    assert flash(text) == "ok: 김초등4 님 출석 확인."
    assert 'name="q" value=""' in text  # the search box is empty for the next number
    t = usecases.read(store, slug)
    assert t.registration(36).status == "checked_in" and t.registration(36).division == "upper"
    # A name part finds both divisions' players, each marked with their division.
    both = rows(client.get(desk, params={"q": "김", "lang": "ja"}).text)
    assert len(both) == 48
    assert {('data-division="general"' in r) for r in both} == {True, False}
    # Without a search, the desk lists its own division only.
    own = rows(client.get(desk + "?lang=ko").text)
    assert len(own) == 32 and all('data-division="general"' in r for r in own)
    assert "모든 부문의 선수" in client.get(desk + "?lang=ko").text
