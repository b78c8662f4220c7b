"""Issue 25 (identity and qualification seats) and issue 26 (findings 3, 4, 6), as
they were reproduced: a namesake cannot take a qualifier's seat — not from the
players page, not from the public form, not with "a new person" chosen; a seat is
claimed by its holder's claim code or the director's choice; a second director (an
account the administrator created, directing none of the administrator's
tournaments) cannot decline or grant the administrator's qualification, cannot move
a registration to anyone, and sees other organisers' people's details as "same /
different / unknown" only."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from meldtour import application as uc
from meldtour.application import circuit
from meldtour.store import owners
from meldtour.web.app import create_app
from meldtour.web.config import Settings
from meldtour.web.director import accounts
from meldtour.web.director.deps import CSRF_COOKIE, SESSION_COOKIE, Web

from ..circuit_play import play_out

CSRF = "c" * 32
OP = circuit.Acting.operator("d")
BUSAN = ["김민지", "이서준", "박지호", "최하은", "정도윤", "강서연", "조민준", "윤지우"]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, Web, Any]]:
    """Busan's 일반부 played and awarded (all 8 places hold sel27, 김민지 #1 is KRF-1001
    born 1990); another 김민지, born 2001, played a club night and holds nothing; the
    selection sel27 by qualification only; director B with a tournament of his own."""
    settings = Settings(env="test", default_locale="ko")
    app = create_app(settings)
    web = Web(settings, url=f"sqlite:///{tmp_path_factory.mktemp('seats') / 'm.db'}")
    app.state.director = web
    store = web.store()
    admin = accounts.create(store, "admin", "a long secret admin")
    b = accounts.create(store, "bee", "a long secret bee")
    uc.create_tournament(
        store, "busan-2015", who="admin", seed=5, slug="busan26", date="2026-03-07"
    )
    owners.record_creator(store, "busan26", admin.id)
    uc.register_players(
        store,
        "busan26",
        [
            uc.PlayerEntry(
                n,
                "general",
                member_number="KRF-1001" if n == "김민지" else None,
                birth_year=1990 if n == "김민지" else None,
            )
            for n in BUSAN
        ],
        who="admin",
    )
    uc.check_in_players(store, "busan26", [], who="d", everyone_but=True, division="general")
    play_out(store, "busan26", "general", seed=5)
    uc.create_tournament(store, "club-night", who="admin", seed=2, slug="club26", date="2026-04-01")
    owners.record_creator(store, "club26", admin.id)
    uc.register_players(
        store,
        "club26",
        [uc.PlayerEntry("김민지", birth_year=2001)]
        + [uc.PlayerEntry(n) for n in ("가", "나", "다")],
        who="admin",
    )
    circuit.grant_qualification(
        store, "busan26", "general", "sel27", label="2027 선발전", seats=8, who=OP
    )
    uc.create_tournament(store, "busan-2015", who="admin", seed=6, slug="sel27", date="2027-01-10")
    owners.record_creator(store, "sel27", admin.id)
    circuit.set_quota(store, "sel27", "general", "sel27", 8, who=OP)
    uc.create_tournament(store, "club-night", who="bee", seed=3, slug="bees", date="2026-05-01")
    owners.record_creator(store, "bees", b.id)
    with TestClient(app, base_url="https://testserver") as client:
        yield client, web, {"admin": admin, "bee": b}
    store.close()


def sign_in(client: TestClient, web: Web, account: Any) -> None:
    client.cookies.clear()
    client.cookies.set(
        SESSION_COOKIE,
        web.session.sign({"a": account.id, "exp": int(time.time()) + 3600, "n": account.name}),
    )
    client.cookies.set(CSRF_COOKIE, CSRF)


def post(client: TestClient, web: Web, path: str, **data: str) -> Any:
    return client.post(path, data=data, headers={"X-CSRF-Token": web.csrf_token(CSRF)})


def kims(web: Web) -> tuple[int, int]:
    """(the holder 김민지 of Busan, the club night's 김민지 born 2001)."""
    store = web.store()
    holder = next(h.person for h in circuit.holders(store, "sel27") if h.name == "김민지")
    other = next(p.person for p in circuit.people(store, "김민지") if p.person != holder)
    return holder, other


def registered(web: Web, slug: str) -> dict[int, int]:
    return {n: r.player_id for n, r in uc.registrations_by_number(web.store(), slug).items()}


def test_the_preview_marks_the_namesake_and_saving_her_takes_no_seat(site: Any) -> None:
    client, web, who = site
    sign_in(client, web, who["admin"])
    holder, other = kims(web)
    r = post(
        client,
        web,
        "/director/t/sel27/players/add?lang=en",
        name="김민지",
        division="general",
        birth_year="2001",
    )
    page = r.text
    assert f'data-person="{holder}"' in page and f'data-person="{other}"' in page
    assert re.search(rf'name="person0" value="{other}" checked', page)  # by the evidence
    form = {
        "count": "1",
        "line0": "1",
        "name0": "김민지",
        "division0": "general",
        "tags0": "",
        "generation0": "",
        "member0": "",
        "birth_year0": "2001",
        "go": "save",
    }
    # saved as the evidence says (#other, born 2001): she holds no seat — refused
    r = post(client, web, "/director/t/sel27/players/import?lang=en", **form, person0=str(other))
    assert r.status_code == 422 and "holds none of its seats" in r.text
    # "a new person" of the holder's name: a name alone never takes the seat
    r = post(client, web, "/director/t/sel27/players/import?lang=en", **form, person0="new")
    assert r.status_code == 422 and "a name alone never takes a seat" in r.text
    # the holder chosen, with another birth year: the evidence contradicts
    r = post(client, web, "/director/t/sel27/players/import?lang=en", **form, person0=str(holder))
    assert r.status_code == 422 and "was born in 1990, not 2001" in r.text
    # another person's id sent by hand: not a candidate of this name
    lee = next(p.person for p in circuit.people(web.store(), "이서준"))
    r = post(client, web, "/director/t/sel27/players/import?lang=en", **form, person0=str(lee))
    assert r.status_code == 422 and "only someone of the same name" in r.text
    assert registered(web, "sel27") == {}
    # the real holder, by her member number: registered as herself, on her seat
    r = post(
        client,
        web,
        "/director/t/sel27/players/add?lang=en",
        name="김민지",
        division="general",
        member="KRF-1001",
    )
    assert re.search(rf'name="person0" value="{holder}" checked', r.text)
    r = post(
        client,
        web,
        "/director/t/sel27/players/import?lang=en",
        **{**form, "birth_year0": "", "member0": "KRF-1001"},
        person0=str(holder),
    )
    assert r.status_code == 200 and "is registered as number 1" in r.text
    assert registered(web, "sel27") == {1: holder}
    seats = circuit.seats(web.store(), "sel27", "general")
    assert seats[0].taken == 1


def test_every_link_lands_in_the_peoples_log(site: Any) -> None:
    _client, web, _who = site
    from meldtour.store.circuit import MergeRow

    holder, _other = kims(web)
    with web.store().reading() as s:
        links = [m for m in s.query(MergeRow).all() if m.kind == "link"]
    assert any(m.target_id == holder and "member number KRF-1001" in m.why for m in links)


def test_on_the_public_form_only_the_claim_code_takes_the_seat(site: Any) -> None:
    client, web, who = site
    store = web.store()
    uc.create_tournament(store, "busan-2015", who="admin", seed=8, slug="sel28")
    owners.record_creator(store, "sel28", who["admin"].id)
    circuit.set_quota(store, "sel28", "general", "sel27", 8, who=OP)
    holder, _other = kims(web)
    client.cookies.clear()
    token = re.search(r'name="csrf" value="([^"]+)"', client.get("/t/sel28/register").text)
    assert token
    form = {"csrf": token.group(1), "division": "general"}
    r = client.post("/t/sel28/register?lang=ja", data={**form, "name": "김 민지"})
    assert "名前だけでは" in r.text  # a name (spaces aside) takes nothing
    r = client.post(
        "/t/sel28/register?lang=en", data={**form, "name": "김민지", "claim": "ABCD-EFGH"}
    )
    assert "is not the claim code of a holder" in r.text
    code = next(h.claim for h in circuit.holders(store, "sel27", who=OP) if h.person == holder)
    other_code = next(
        h.claim for h in circuit.holders(store, "sel27", who=OP) if h.person != holder
    )
    r = client.post(
        "/t/sel28/register?lang=en", data={**form, "name": "김민지", "claim": other_code}
    )
    assert "only someone of the same name" in r.text  # someone else's code
    assert registered(web, "sel28") == {}
    r = client.post(
        "/t/sel28/register?lang=en",
        data={**form, "name": "김민지", "claim": code.lower().replace("-", "")},
    )
    assert "is registered in" in r.text
    assert registered(web, "sel28") == {1: holder}
    r = client.post("/t/sel28/register?lang=en", data={**form, "name": "김민지", "claim": code})
    assert "registered in this tournament already" in r.text


def test_the_directors_of_the_awarding_tournament_see_the_codes(site: Any) -> None:
    client, web, who = site
    sign_in(client, web, who["admin"])
    page = client.get("/director/t/sel27/d/general/qualified?lang=en").text
    codes = [h.claim for h in circuit.holders(web.store(), "sel27", who=OP)]
    assert all(c in page for c in codes if c)
    bee = circuit.Acting("bee", who["bee"].id)
    assert {h.claim for h in circuit.holders(web.store(), "sel27", who=bee)} == {""}


def test_director_b_cannot_decline_the_administrators_holder(site: Any) -> None:
    """Issue 26.3: from his own tournament, with the form's source and number."""
    client, web, who = site
    before = circuit.holders(web.store(), "sel27")
    target = next(h for h in before if h.status == "holds")
    sign_in(client, web, who["bee"])
    r = post(
        client,
        web,
        "/director/t/bees/d/club/decline?lang=en",
        qualification="sel27",
        source="busan26",
        number=str(target.number),
        why="gone",
    )
    assert "is not a tournament you direct" in r.text
    assert circuit.holders(web.store(), "sel27") == before
    # nor grant the administrator's key from his own division
    r = post(
        client,
        web,
        "/director/t/bees/d/club/grant?lang=en",
        qualification="sel27",
        label="mine",
        seats="4",
    )
    assert "granted by tournaments you do not direct" in r.text
    assert {h.tournament for h in circuit.holders(web.store(), "sel27")} == {"busan26"}
    # the administrator may
    sign_in(client, web, who["admin"])
    r = post(
        client,
        web,
        "/director/t/sel27/d/general/decline?lang=en",
        qualification="sel27",
        source="busan26",
        number=str(before[-1].number),
        why="abroad",
    )
    assert "the seat passes to the next place" in r.text
    page = client.get("/director/t/sel27/d/general/qualified?lang=en").text
    assert "declined" in page and "abroad" in page  # the quota page shows the decline


def test_director_b_cannot_attach_his_registration_to_anyone(site: Any) -> None:
    """Issue 26.4: ``/p/{player}/same`` with any person id."""
    client, web, who = site
    store = web.store()
    uc.register_players(
        store, "bees", [uc.PlayerEntry("벌"), uc.PlayerEntry("김민지", birth_year=1970)], who="bee"
    )
    holder, _other = kims(web)
    lee = next(p.person for p in circuit.people(store, "이서준"))
    sign_in(client, web, who["bee"])
    r = post(client, web, "/director/t/bees/p/1/same?lang=en", person=str(lee), why="mine")
    assert "only someone of the same name" in r.text
    r = post(client, web, "/director/t/bees/p/2/same?lang=en", person=str(holder), why="mine")
    assert "was born in another year (not 1970)" in r.text  # not the year itself
    assert {e.tournament for e in circuit.person(store, holder).entries} == {
        "busan26",
        "sel27",
        "sel28",
    }
    assert {e.tournament for e in circuit.person(store, lee).entries} == {"busan26"}


def test_director_b_sees_same_different_unknown_only(site: Any) -> None:
    """Issue 26.6: the preview, the late entry and the same-person page."""
    client, web, who = site
    sign_in(client, web, who["bee"])
    r = post(client, web, "/director/t/bees/players/add?lang=en", name="김민지", birth_year="1990")
    page = r.text
    assert "KRF-1001" not in page and "1990" not in page.replace('value="1990"', "")
    assert "the same" in page and "different" in page and "unknown" in page
    same = client.get("/director/t/bees/p/2/same?lang=en").text
    assert "KRF-1001" not in same and "2001" not in same and "1990" not in same
    r = post(client, web, "/director/t/bees/d/club/late?lang=en", name="김민지")
    assert "KRF-1001" not in r.text and "2001" not in r.text
    # the administrator sees them
    sign_in(client, web, who["admin"])
    page = client.get("/director/t/bees/p/2/same?lang=en").text
    assert "KRF-1001" in page and "2001" in page


def test_a_split_that_moves_a_seat_warns(site: Any) -> None:
    _client, web, _who = site
    store = web.store()
    holder, _other = kims(web)
    out = circuit.split(store, holder, ["busan26"], who=OP, why="two people")
    assert [w.code for w in out.warnings] == ["circuit.split_seat", "circuit.split_seat"]
    circuit.merge(store, holder, out.kept.person, who=OP, why="one after all")


def test_the_japanese_championship_keeps_one_seat_for_tohoku(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Finding 3, seed 004: 24 places, of which 1 is the Tohoku seat — the division is
    open; the file import checks each line against the kept seat."""
    from tests.cli.test_tournament_cli import cli

    monkeypatch.setenv("MELDTOUR_DATABASE_URL", f"sqlite:///{tmp_path / 'j.db'}")
    monkeypatch.setenv("MELDTOUR_USER", "director")
    monkeypatch.delenv("MELDTOUR_TOURNAMENT", raising=False)
    cli(capsys, "db", "upgrade")
    from meldtour.store.db import open_store

    store = open_store(f"sqlite:///{tmp_path / 'j.db'}")
    uc.create_tournament(store, "club-night", who="d", seed=3, slug="tohoku", date="2009-08-01")
    uc.register_players(
        store,
        "tohoku",
        [uc.PlayerEntry(n) for n in ("佐藤花子", "鈴木一郎", "田中美咲", "伊藤翔")],
        who="d",
    )
    uc.check_in_players(store, "tohoku", [], who="d", everyone_but=True, division="club")
    play_out(store, "tohoku", "club", seed=3)
    circuit.grant_qualification(
        store, "tohoku", "club", "tohoku-seat", label="日本選手権 東北枠", seats=1, who=OP
    )
    winner = next(h for h in circuit.holders(store, "tohoku-seat") if h.status == "holds")
    cli(capsys, "tournament", "new", "--template", "japan-championship", "--slug", "jc")
    out = cli(
        capsys,
        "qualify",
        "quota",
        "tohoku-seat",
        "-t",
        "jc",
        "-d",
        "open",
        "--seats",
        "1",
        "--open",
        "--until",
        "2999-08-29",
    )
    assert "reserved until 2999-08-29" in out and "0/1" in out
    names = [f"選手{i:02}" for i in range(1, 25)]
    (tmp_path / "jc.csv").write_text("name\n" + "\n".join(names) + "\n", encoding="utf-8")
    err = cli(
        capsys, "tournament", "-t", "jc", "players", "import", str(tmp_path / "jc.csv"), code=1
    )
    assert "row 25" in err and "open seats" in err  # the 24th player: the kept seat
    assert uc.read(store, "jc").registrations == ()
    (tmp_path / "jc.csv").write_text(
        "name,person\n" + "\n".join(names[:23]) + f"\n{winner.name},#{winner.person}\n",
        encoding="utf-8",
    )
    cli(capsys, "tournament", "-t", "jc", "players", "import", str(tmp_path / "jc.csv"), "--link")
    regs = uc.registrations_by_number(store, "jc")
    assert len(regs) == 24 and regs[24].player_id == winner.person
    seats = circuit.seats(store, "jc", "open")
    assert seats[0].taken == 1 and seats[0].open
    store.close()


def test_the_kept_seat_is_released_after_its_day(tmp_path: Path) -> None:
    from tests.store.backends import upgraded

    with upgraded(f"sqlite:///{tmp_path / 'r.db'}") as store:
        uc.create_tournament(store, "club-night", who="d", seed=3, slug="t", date="2026-01-01")
        uc.register_players(
            store, "t", [uc.PlayerEntry("a"), uc.PlayerEntry("b"), uc.PlayerEntry("c")], who="d"
        )
        uc.check_in_players(store, "t", [], who="d", everyone_but=True, division="club")
        play_out(store, "t", "club", seed=1)
        circuit.grant_qualification(store, "t", "club", "k", label="K", seats=1, who=OP)
        uc.create_tournament(store, "japan-championship", who="d", slug="j", seed=1)
        circuit.set_quota(store, "j", "open", "k", 1, who=OP, open=True, until="2020-01-01")
        uc.register_players(store, "j", [uc.PlayerEntry(f"p{i}") for i in range(24)], who="d")
        assert circuit.seats(store, "j", "open")[0].released


def test_the_people_page_merges_with_the_value_that_stands(site: Any) -> None:
    client, web, who = site
    store = web.store()
    uc.register_players(
        store, "club26", [uc.PlayerEntry("송민호", member_number="KRF-3001")], who="admin"
    )
    uc.register_players(
        store, "bees", [uc.PlayerEntry("송민호", member_number="KRF-3002")], who="bee"
    )
    one, two = (p.person for p in circuit.people(store, "송민호"))
    sign_in(client, web, who["bee"])
    r = post(
        client,
        web,
        "/director/people/merge?lang=en",
        keep=str(one),
        gone=str(two),
        why="same man",
        keep_member="KRF-3001",
    )
    assert r.status_code == 403  # people span the site: the administrator's
    sign_in(client, web, who["admin"])
    r = post(
        client,
        web,
        "/director/people/merge?lang=en",
        keep=str(one),
        gone=str(two),
        why="same man",
        name="송민호",
    )
    assert "the member differs" in r.text
    r = post(
        client,
        web,
        "/director/people/merge?lang=en",
        keep=str(one),
        gone=str(two),
        why="same man",
        name="송민호",
        keep_member="KRF-3002",
    )
    assert "Merged: 1 registrations" in r.text
    assert circuit.person(store, one).member_number == "KRF-3002"


def test_a_pasted_list_claims_a_seat_by_its_code(site: Any) -> None:
    """A list's claim-code column reaches the saved registration through the preview:
    the holder registered by her code, on her seat; a wrong code is refused by name."""
    client, web, who = site
    sign_in(client, web, who["admin"])
    store = web.store()
    holder = next(h for h in circuit.holders(store, "sel27", who=OP) if h.name == "박지호")
    r = post(
        client,
        web,
        "/director/t/sel27/players/preview?lang=en",
        paste=f"name,division,claim\n박지호,general,{holder.claim}\n",
    )
    assert r.status_code == 200
    assert f'name="claim0" value="{holder.claim}"' in r.text
    form = {
        "count": "1",
        "line0": "1",
        "name0": "박지호",
        "division0": "general",
        "go": "save",
    }
    r = post(client, web, "/director/t/sel27/players/import?lang=en", **form, claim0="ZZZZ-ZZZZ")
    assert r.status_code == 422 and "is not the claim code of a holder" in r.text
    before = registered(web, "sel27")
    assert holder.person not in before.values()
    r = post(client, web, "/director/t/sel27/players/import?lang=en", **form, claim0=holder.claim)
    assert r.status_code == 200, r.text
    after = registered(web, "sel27")
    assert holder.person in after.values() and len(after) == len(before) + 1
