"""The director's pages added for issue 7 (without a browser): a tournament from
scratch and a division edited through the use cases, the venue on the public page,
withdraw / drop / late entry, the seating lock, the winner-guess vote (one vote per
browser, results after closing), the engine's refusals in the reader's language, and
the standings' event stream."""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx2 as httpx
import pytest
import uvicorn
from fastapi.testclient import TestClient

from meldtour import application as usecases
from meldtour.tournament import StageFormat, TournamentError
from meldtour.tournament.refusals import status
from meldtour.web.app import create_app
from meldtour.web.config import Settings
from meldtour.web.director.deps import Web
from meldtour.web.i18n import translations
from meldtour.web.limits import WS_PROTOCOL
from meldtour.web.routes import public
from meldtour.web.views import refusal_text

from .test_director import csrf, make_client, sign_up, web


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path) as c:
        sign_up(c)
        yield c


def form(
    client: TestClient, path: str, data: dict[str, str], page: str = "/director", lang: str = "en"
) -> str:
    r = client.post(
        f"{path}?lang={lang}" if "?" not in path else path,
        data={"csrf": csrf(client, page), **data},
    )
    assert r.status_code == 200, r.text[:300]
    return r.text


def flash(text: str) -> str:
    found = re.search(r'<p class="flash (\w+)" role="status">([^<]*)</p>', text)
    return f"{found.group(1)}: {found.group(2)}" if found else ""


def blank(client: TestClient, **extra: str) -> str:
    data = {
        "name": "Spring Cup",
        "date": "2026-04-04",
        "venue": "Jeju Hall 3",
        "division": "Open",
        "cap": "9",
        "rules": "japan",
        "kind0": "seatings",
        "seatings0": "2",
        "games0": "1",
        "kind1": "final",
        "entrants1": "4",
        "games1": "2",
        **extra,
    }
    text = form(client, "/director/new-blank", data)
    assert "Tournament created" in flash(text) or "대회를 만들었습니다" in flash(text)
    return "spring-cup"


def test_a_tournament_from_scratch_and_its_division_edited(client: TestClient) -> None:
    slug = blank(client)
    t = usecases.read(web(client).store(), slug)
    div = t.division("open")
    assert (div.name, div.cap, div.rules.name) == ("Open", 9, "japan")
    assert [f.kind for f in div.formats] == ["seatings", "final"]
    assert div.formats[0].seatings == 2 and div.formats[1].entrants == 4
    public = client.get(f"/t/{slug}?lang=en").text
    assert "Jeju Hall 3" in public and "Venue" in public
    # Edit the division: name, cap, rules preset, stages (one removed, one added).
    text = form(
        client,
        f"/director/t/{slug}/d/open/settings",
        {
            "name": "Open A",
            "cap": "12",
            "rules": "krc-2015",
            "kind0": "seatings",
            "games0": "2",
            "seatings0": "3",
            "seating0": "balanced",
            "kind1": "final",
            "remove1": "1",
            "kindnew": "final",
            "gamesnew": "3",
            "entrantsnew": "4",
        },
        page=f"/director/t/{slug}",
    )
    assert flash(text) == "ok: Settings saved."
    div = usecases.read(web(client).store(), slug).division("open")
    assert (div.name, div.cap, div.rules.name) == ("Open A", 12, "krc-2015")
    assert [(f.kind, f.games) for f in div.formats] == [("seatings", 2), ("final", 3)]
    assert div.formats[0].seating == "balanced" and div.formats[0].seatings == 3
    # A refused edit says why, in the reader's language.
    text = form(
        client,
        f"/director/t/{slug}/d/open/settings?lang=ko",
        {"name": "Open A", "cap": "12", "kind0": "final", "kind1": "seatings"},
        page=f"/director/t/{slug}",
    )
    assert flash(text) == "error: open 부문: 결승 앞에는 다른 단계가 있어야 합니다"
    # Name, date and venue.
    form(
        client,
        f"/director/t/{slug}/edit",
        {"name": "Spring Cup", "date": "2026-04-05", "venue": "Busan Bexco"},
        page=f"/director/t/{slug}",
    )
    assert "Busan Bexco" in client.get(f"/t/{slug}").text
    # Another division.
    form(
        client,
        f"/director/t/{slug}/divisions",
        {
            "name": "Kids",
            "cap": "8",
            "rules": "standard",
            "kind0": "seatings",
            "seatings0": "1",
            "games0": "1",
        },
        page=f"/director/t/{slug}",
    )
    assert [d.key for d in usecases.read(web(client).store(), slug).divisions] == ["open", "kids"]
    # The template form takes a venue too.
    form(client, "/director/new", {"template": "club-night", "name": "Club", "venue": "Café"})
    assert usecases.info(web(client).store(), "club").venue == "Café"


def test_the_form_no_longer_reaches_into_the_use_cases_private_parts() -> None:
    routes = Path(__file__).parents[2] / "src/meldtour/web/director/routes"
    for source in routes.glob("*.py"):
        assert "usecases._" not in source.read_text(), source.name


def club(client: TestClient, players: int = 9) -> str:
    store = web(client).store()
    slug, _ = usecases.create_tournament(store, "club-night", who="d", seed=5, slug="club")
    usecases.register_players(
        store, slug, [usecases.PlayerEntry(f"P{i}") for i in range(1, players + 1)], who="d"
    )
    return slug


def test_withdraw_drop_and_late_entry_pages(client: TestClient) -> None:
    slug = club(client)
    store = web(client).store()
    usecases.edit_division(store, slug, "club", usecases.DivisionEdit(cap=8), who="d")
    desk = f"/director/t/{slug}/d/club/checkin"
    page = client.get(desk + "?lang=en").text
    assert page.count(">Withdraw<") == 9 and "Drop the player" not in page
    text = form(client, f"{desk}/../withdraw/2".replace("/checkin/..", ""), {}, page=desk)
    assert flash(text) == "ok: P2 withdrew."
    t = usecases.read(store, slug)
    assert t.registration(2).status == "withdrawn" and t.registration(9).status == "registered"
    usecases.check_in_players(store, slug, [], who="d", everyone_but=True)
    usecases.seat(store, slug, None, 1, who="d")
    page = client.get(desk + "?lang=en").text
    assert ">Withdraw<" not in page and page.count("Drop the player") == 8
    text = form(client, f"/director/t/{slug}/d/club/drop/3", {"why": "went home"}, page=desk)
    assert flash(text) == "ok: P3 is dropped: not seated from the next round on."
    assert usecases.read(store, slug).registration(3).status == "dropped"
    # A second drop is refused, in Japanese.
    text = form(client, f"/director/t/{slug}/d/club/drop/3?lang=ja", {}, page=desk)
    assert flash(text) == "error: P3さんは対局中ではありません (途中棄権)"
    text = form(client, f"/director/t/{slug}/d/club/late", {"name": "Late Lee"}, page=desk)
    assert flash(text) == "ok: Late Lee entered late as number 10."
    assert usecases.read(store, slug).registration(10).late
    # A division without late entry says so, and refuses it in Korean.
    slug2, _ = usecases.create_tournament(store, "japan-championship", who="d", slug="jp")
    usecases.register_players(
        store, slug2, [usecases.PlayerEntry(f"J{i}") for i in range(4)], who="d"
    )
    usecases.close_check_in(store, slug2, None, who="d")
    assert "takes no late entries" in client.get(f"/director/t/{slug2}/d/open/checkin?lang=en").text
    text = form(
        client,
        f"/director/t/{slug2}/d/open/late?lang=ko",
        {"name": "X"},
        page=f"/director/t/{slug2}/d/open/checkin",
    )
    assert flash(text).startswith("error: ") and "늦은 참가를 받지 않습니다" in flash(text)


def test_the_seating_lock_on_the_round_page(client: TestClient) -> None:
    slug = club(client)
    store = web(client).store()
    usecases.check_in_players(store, slug, [], who="d", everyone_but=True)
    usecases.seat(store, slug, None, 1, who="d")
    page = f"/director/t/{slug}/d/club/round"
    html = client.get(page + "?lang=en").text
    assert 'class="lockstate unlocked"' in html and "Draw a new seating" in html
    usecases.drop_player(store, slug, "1", who="d")
    text = form(client, f"/director/t/{slug}/d/club/reseat", {}, page=page)
    assert flash(text) == "ok: The round is seated again."
    seated = {
        p
        for x in usecases.read(store, slug).division("club").stages[0].rounds[0].tables
        for p in x.players
    }
    assert 1 not in seated and len(seated) == 8
    text = form(client, f"/director/t/{slug}/d/club/lock", {}, page=page)
    assert flash(text) == "ok: The seating is locked."
    assert 'class="lockstate locked"' in text and "Draw a new seating" not in text
    text = form(client, f"/director/t/{slug}/d/club/reseat?lang=ko", {}, page=page)
    assert flash(text) == "error: Club night: 1라운드의 자리 배정은 잠겨 있습니다"


def test_the_winner_guess_vote(tmp_path: Path, client: TestClient) -> None:
    slug = club(client, 8)
    store = web(client).store()
    vote = f"/t/{slug}/vote?division=club"
    assert "There is no vote in this division yet" in client.get(vote + "&lang=en").text
    # Before the first stage there is nothing to vote on.
    text = form(
        client, f"/director/t/{slug}/d/club/vote/open?lang=en", {}, page=f"/director/t/{slug}"
    )
    assert flash(text) == "error: Club night: the vote opens once the first stage has started"
    usecases.check_in_players(store, slug, [], who="d", everyone_but=True)
    usecases.seat(store, slug, None, 1, who="d")
    text = form(client, f"/director/t/{slug}/d/club/vote/open", {}, page=f"/director/t/{slug}")
    assert flash(text) == "ok: The vote is open."
    # Two visitors (two browsers): each a vote; voting again changes it, not adds one.
    with make_client(tmp_path) as a, make_client(tmp_path) as b, make_client(tmp_path) as forger:
        page = a.get(vote + "&lang=en").text
        assert "P1" in page and "Results" not in page
        for visitor, choice in ((a, "3"), (b, "3"), (a, "5")):
            r = visitor.post(
                f"/t/{slug}/vote?lang=en",
                data={"csrf": csrf(visitor, vote), "division": "club", "finalist": choice},
            )
            assert "Your vote for" in flash(r.text)
        assert "Your vote: P5" in a.get(vote).text
        poll = usecases.polls(store, slug)["club"]
        assert poll.votes == 2 and poll.tally[3] == 1 and poll.tally[5] == 1
        # A forged voter cookie counts as no cookie: a new voter, never someone else's.
        forger.cookies.set("mt_voter", "forged.value")
        forger.post(
            f"/t/{slug}/vote",
            data={"csrf": csrf(forger, vote), "division": "club", "finalist": "4"},
        )
        poll = usecases.polls(store, slug)["club"]
        assert poll.votes == 3 and poll.tally[5] == 1 and poll.tally[4] == 1
        # The director sees the tally; the public sees it after closing.
        assert "3 votes" in client.get(f"/director/t/{slug}?lang=en").text
        form(client, f"/director/t/{slug}/d/club/vote/close", {}, page=f"/director/t/{slug}")
        closed = a.get(vote + "&lang=en").text
        assert "Results" in closed and 'id="voteform"' not in closed
        r = a.post(
            f"/t/{slug}/vote?lang=ko",
            data={"csrf": csrf(a, f"/t/{slug}/register"), "division": "club", "finalist": "3"},
        )
        assert flash(r.text) == "error: 투표가 마감되었습니다"
    assert "Winner-guess vote: the results" in client.get(f"/t/{slug}?lang=en").text


def test_engine_refusals_are_translated() -> None:
    ko, ja = translations("ko").gettext, translations("ja").gettext
    assert (
        refusal_text(TournamentError("division.started_registration_closed", div="General"), ko)
        == "General: 이미 시작해서 참가 신청이 마감되었습니다"
    )
    assert (
        refusal_text(TournamentError("division.round_waits", div="General", n=2, tables="1, 3"), ja)
        == "General: 第2ラウンドはまだ1, 3番卓の記録用紙を待っています"
    )
    assert (
        refusal_text(
            TournamentError(
                "registration.check_in_registered_only", name="Kim", status=status("waitlisted")
            ),
            ko,
        )
        == "Kim 님은 대기 상태입니다: 등록된 참가자만 체크인할 수 있습니다"
    )
    assert refusal_text(ValueError("something new"), ko) == "something new"


def test_refusals_reach_the_pages_in_korean(client: TestClient) -> None:
    slug = club(client, 4)
    text = form(client, f"/director/t/{slug}/d/club/close?lang=ko", {}, page=f"/director/t/{slug}")
    assert flash(text).startswith("error: ") and "Club night" in flash(text)
    assert re.search(r"[가-힣]", flash(text)), flash(text)


# ---------------------------------------------------------------------------
# The standings' event stream, on a real server


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _sse_events(lines: Iterator[str]) -> Iterator[tuple[str, str, str]]:
    """(event, data, id) of each event of a Server-Sent Events stream."""
    kind, data, event_id = "message", [], ""
    for line in lines:
        if line == "":
            if data or kind != "message":
                yield kind, "\n".join(data), event_id
            kind, data = "message", []
        elif line.startswith("event: "):
            kind = line[7:]
        elif line.startswith("data: "):
            data.append(line[6:])
        elif line.startswith("id: "):
            event_id = line[4:]


def test_the_standings_stream_tells_of_a_saved_sheet_within_2_s(tmp_path: Path) -> None:
    settings = Settings(env="test")
    app = create_app(settings)
    app.state.director = Web(settings, url=f"sqlite:///{tmp_path / 'sse.db'}")
    store = app.state.director.store()
    slug, _ = usecases.create_tournament(store, "club-night", who="d", seed=1, slug="sse")
    usecases.register_players(
        store, slug, [usecases.PlayerEntry(f"P{i}") for i in range(8)], who="d"
    )
    usecases.check_in_players(store, slug, [], who="d", everyone_but=True)
    usecases.seat(store, slug, None, 1, who="d")
    port = free_port()
    srv = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", ws=WS_PROTOCOL)
    )
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    while not srv.started:
        time.sleep(0.02)
    try:
        assert httpx.get(f"http://127.0.0.1:{port}/t/nope/standings/events").status_code == 404

        def save(table: int, points: tuple[int, int, int, int]) -> float:
            """Table ``table``'s sheet saved (seat 1 wins both games); when it began."""
            _, version, _ = usecases.get_sheet(store, slug, None, 1, table)
            began = time.monotonic()
            usecases.enter_sheet(
                store,
                slug,
                None,
                1,
                table,
                [usecases.GameEntry(1, points, winner=1), usecases.GameEntry(2, points, winner=1)],
                who="scorer",
                version=version,
            )
            return began

        with httpx.stream(
            "GET", f"http://127.0.0.1:{port}/t/{slug}/standings/events", timeout=10
        ) as r:
            assert r.headers["content-type"].startswith("text/event-stream")
            fields = _sse_events(r.iter_lines())
            assert next(fields)[0] == "hello"
            saved = save(1, (30, -10, -10, -10))
            kind, _data, _id = next(fields)
            assert (kind, time.monotonic() - saved < 2.0) == ("change", True)
        # The page's stream (with its division) carries the standings themselves: none
        # on connecting when the page's table is current, then the new table within 2 s
        # of a save, with its ETag as the event's id; a reconnecting browser holding
        # that table is sent nothing until it changes.
        page = httpx.get(f"http://127.0.0.1:{port}/t/{slug}/standings").text
        events_url = re.search(r'data-events="([^"]+)"', page)
        assert events_url is not None
        url = f"http://127.0.0.1:{port}" + events_url.group(1).replace("&amp;", "&")
        assert "division=" in url and "has=" in url
        with httpx.stream("GET", url, timeout=10) as r:
            fields = _sse_events(r.iter_lines())
            assert next(fields)[0] == "hello"
            saved = save(2, (40, -10, -10, -20))
            kind, data, event_id = next(fields)
            assert (kind, time.monotonic() - saved < 2.0) == ("standings", True)
        live = httpx.get(url.replace("/events?", "/live?").split("&has=")[0])
        assert data == live.text and event_id == live.headers["etag"]
        assert "<table" in data
        with httpx.stream("GET", url.split("&has=")[0], timeout=10) as r:
            fields = _sse_events(r.iter_lines())
            assert next(fields)[0] == "hello"
            assert next(fields) == ("standings", data, event_id)  # no ETag: sent at once
        public.STREAM_SECONDS = 1.0
        with httpx.stream("GET", url, timeout=10, headers={"Last-Event-ID": event_id}) as r:
            assert [k for k, _d, _i in _sse_events(r.iter_lines())] == ["hello"]
        assert httpx.get(re.sub("division=[^&]+", "division=nope", url)).status_code == 404
        # A stream ends by itself (the browser reconnects), so a stopping server
        # never waits long for it.
        started = time.monotonic()
        with httpx.stream(
            "GET", f"http://127.0.0.1:{port}/t/{slug}/standings/events", timeout=10
        ) as r:
            assert any(line.startswith("event: hello") for line in r.iter_lines())
        assert time.monotonic() - started < 5
    finally:
        public.STREAM_SECONDS = 30.0
        srv.should_exit = True
        thread.join(timeout=10)
    assert StageFormat  # (imported for the from-scratch test's readers)


def test_more_refusals_are_translated() -> None:
    ja = translations("ja").gettext
    assert (
        refusal_text(TournamentError("division.no_round", div="General", n=4), ja)
        == "General: 第4ラウンドはありません"
    )
    assert (
        refusal_text(TournamentError("stage.no_table", n=2, table=9), ja)
        == "第2ラウンドに9番卓はありません"
    )


def test_registrations_from_one_device_are_limited_and_their_source_audited() -> None:
    """1,500 anonymous registrations in 50 s filled a division and its waitlist: one
    client now registers at most 60 in 10 minutes, refused in the reader's language, and
    the audit log names a short hash of where each came from (never the address)."""
    import tempfile

    from fastapi.testclient import TestClient

    from meldtour import application
    from meldtour.web.app import create_app
    from meldtour.web.config import Settings
    from meldtour.web.director.deps import Web
    from meldtour.web.routes.public import REGISTRATIONS_PER_CLIENT

    with tempfile.TemporaryDirectory() as where:
        settings = Settings(env="test")
        app = create_app(settings)
        web = Web(settings, url=f"sqlite:///{where}/m.db")
        app.state.director = web
        slug, _ = application.create_tournament(
            web.store(), "club-night", who="boss", seed=1, slug="club"
        )
        with TestClient(app) as client:
            token = csrf(client, f"/t/{slug}/register")
            answers = [
                client.post(
                    f"/t/{slug}/register?lang=ko",
                    data={"csrf": token, "name": f"Flood {i}"},
                    follow_redirects=False,
                )
                for i in range(REGISTRATIONS_PER_CLIENT.amount + 1)
            ]
            last = client.get(answers[-1].headers["location"])
            assert "짧은 시간에" in last.text
        sources = [
            a["who"]
            for a in application.audit_log(web.store(), slug)
            if a["who"].startswith("web:registration")
        ]
        assert len(sources) == REGISTRATIONS_PER_CLIENT.amount and len(set(sources)) == 1
        assert "@" in sources[0] and "testclient" not in sources[0]
        assert len(application.read(web.store(), slug).registrations) == len(sources)
