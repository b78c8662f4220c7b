"""The winner-guess vote holds against a script (issue #15): without codes one
network address starts at most 20 votes in 10 minutes; with vote codes only a card's
code votes, once per card; the director sees the votes by source and voids a burst;
the prize draw among the right guesses is recorded and shown (issue #16). And a flood
of the public registration form is withdrawn by the director in one step."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from meldtour import application as usecases
from meldtour.application.votes import CODE_ALPHABET, normal_code, shown_code
from meldtour.store.db import Store
from meldtour.tournament.stages import final_ranking

from ..store.test_store import games_for
from .test_director import csrf, make_client, sign_up, web
from .test_director_pages import flash, form


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path) as c:
        sign_up(c)
        yield c


def seated_club(store: Store, players: int = 8) -> str:
    slug, _ = usecases.create_tournament(store, "club-night", who="d", seed=5, slug="club")
    usecases.register_players(
        store, slug, [usecases.PlayerEntry(f"P{i}") for i in range(1, players + 1)], who="d"
    )
    usecases.check_in_players(store, slug, [], who="d", everyone_but=True)
    usecases.seat(store, slug, None, 1, who="d")
    return slug


def finish(store: Store, slug: str) -> None:
    """Play the club night's stage to its end (every round's sheets, closed)."""
    for rnd in range(1, 5):
        if rnd > 1:
            usecases.seat(store, slug, None, rnd, who="d")
        t = usecases.read(store, slug)
        for x in t.division("club").stages[0].rounds[rnd - 1].tables:
            usecases.enter_sheet(
                store,
                slug,
                None,
                rnd,
                x.number,
                games_for(t, "club", rnd, x.number, len(x.players), 2),
                who="ref",
            )
    usecases.close(store, slug, None, who="d")


def post_vote(c: TestClient, slug: str, finalist: str, **extra: str) -> str:
    page = f"/t/{slug}/register"  # a light page that gives the form's token
    r = c.post(
        f"/t/{slug}/vote?lang=en",
        data={"csrf": csrf(c, page), "division": "club", "finalist": finalist, **extra},
    )
    return flash(r.text)


def test_a_script_without_cookies_is_flagged_not_refused(
    tmp_path: Path, client: TestClient
) -> None:
    """Issue 26: at a venue every spectator shares the Wi-Fi's address, so a vote
    without cards refuses no new voter for it (the 21st honest voter was refused while a
    script still cast 20): the script's burst is marked for the director, who voids
    it; a vote with a prize draw takes cards."""
    store = web(client).store()
    slug = seated_club(store)
    usecases.open_vote(store, slug, None, who="d")
    with make_client(tmp_path) as script:
        answers = []
        for _ in range(60):
            script.cookies.clear()  # the script of issue #15: never sends the cookie
            answers.append(post_vote(script, slug, "3"))
    assert usecases.polls(store, slug)["club"].votes == 60
    assert sum("Your vote for" in a for a in answers) == 60
    # Another address votes as well.
    with TestClient(client.app, base_url="https://testserver", client=("10.2.2.2", 1)) as o:
        assert "Your vote for" in post_vote(o, slug, "4")
    # The director sees the burst: one source with 60 votes, marked, and voids it.
    page = client.get(f"/director/t/{slug}/visitors?lang=en").text
    assert 'class="burst"' in page and ">many votes<" in page
    busy = usecases.vote_sources(store, slug, "club")[0]
    assert busy.votes == 60
    assert usecases.void_source(store, slug, "club", busy.source, who="d") == 60
    assert usecases.polls(store, slug)["club"].votes == 1


def test_vote_codes_one_vote_per_card(tmp_path: Path, client: TestClient) -> None:
    store = web(client).store()
    slug = seated_club(store)
    # A vote with codes needs codes first.
    text = form(
        client,
        f"/director/t/{slug}/d/club/vote/open",
        {"codes": "1"},
        page=f"/director/t/{slug}/visitors",
    )
    assert flash(text) == (
        "error: make the vote codes first: this vote takes only votes with a code"
    )
    text = form(
        client,
        f"/director/t/{slug}/vote-codes",
        {"count": "30"},
        page=f"/director/t/{slug}/visitors",
    )
    assert flash(text) == "ok: The tournament has 30 vote codes: print the cards."
    codes = usecases.vote_codes(store, slug)
    assert len(set(codes)) == 30 and all(normal_code(c) == c for c in codes)
    assert all(set(c) <= set(CODE_ALPHABET) and len(c) == 10 for c in codes)
    text = form(
        client,
        f"/director/t/{slug}/d/club/vote/open",
        {"codes": "1"},
        page=f"/director/t/{slug}/visitors",
    )
    assert flash(text) == "ok: The vote is open."
    assert usecases.polls(store, slug)["club"].codes_required
    with make_client(tmp_path) as script, make_client(tmp_path) as phone:
        # No code, a made-up code: nothing counts.
        for _ in range(5):
            script.cookies.clear()
            assert post_vote(script, slug, "3") == (
                "error: this vote needs the vote code from your card"
            )
        assert post_vote(script, slug, "3", code="ACDE-FGHJ") == (
            "error: ACDE-FGHJ is not a vote code of this tournament: check the card"
        )
        # A card's code, typed as printed, in lower case, with spaces: one vote, which
        # the card's holder may change.
        card = codes[0]
        page = phone.get(f"/t/{slug}/vote?division=club&code={card}&lang=en").text
        assert f'value="{shown_code(card)}"' in page
        assert "Your vote for P3" in post_vote(phone, slug, "3", code=shown_code(card))
        assert "Your vote for P5" in post_vote(phone, slug, "5", code=" ".join(card.lower()))
        script.cookies.clear()
        assert "Your vote for P2" in post_vote(script, slug, "2", code=codes[1])
        poll = usecases.polls(store, slug)["club"]
        assert poll.votes == 2 and poll.tally[5] == 1 and poll.tally[2] == 1
        # Guessing codes: 30 wrong ones, then even a right one waits.
        for i in range(29):
            post_vote(script, slug, "3", code="ACDEFG" + CODE_ALPHABET[i % 25] * 2)
        assert post_vote(script, slug, "3", code=codes[2]) == (
            "error: Too many wrong vote codes from this device: wait a few minutes."
        )
    assert usecases.polls(store, slug)["club"].votes == 2
    # The cards print: each code on a card, with its QR code.
    r = client.get(f"/director/t/{slug}/vote-codes.pdf?lang=ko")
    assert r.status_code == 200 and r.content.startswith(b"%PDF")
    pdf = tmp_path / "cards.pdf"
    pdf.write_bytes(r.content)
    text = subprocess.run(
        ["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert shown_code(codes[0]) in text and shown_code(codes[29]) in text
    assert "우승자 맞히기 투표" in text


def test_void_a_source_and_the_prize_draw(tmp_path: Path, client: TestClient) -> None:
    store = web(client).store()
    slug = seated_club(store)
    usecases.open_vote(store, slug, None, who="d")
    # Three visitors from one address (a family), one from another; named for the draw.
    app = client.app
    visitors = [
        TestClient(app, base_url="https://testserver", client=(addr, 1))
        for addr in ("10.0.0.7", "10.0.0.7", "10.0.0.7", "10.0.0.9")
    ]
    t = usecases.read(store, slug)
    finalists = sorted(p for x in t.division("club").stages[0].rounds[0].tables for p in x.players)
    for i, v in enumerate(visitors):
        with v:
            assert "Your vote for" in post_vote(
                v, slug, str(finalists[i % 2]), name=f"관람객 {i + 1}"
            )
    sources = usecases.vote_sources(store, slug, "club")
    assert [s.votes for s in sources] == [3, 1]
    busy = sources[0].source
    assert re.fullmatch(r"[0-9a-f]{8}", busy) and "10.0.0" not in busy
    page = client.get(f"/director/t/{slug}/visitors?lang=ko").text
    assert busy in page and "이 표들을 무효로" in page
    text = form(
        client,
        f"/director/t/{slug}/d/club/vote/void",
        {"source": busy},
        page=f"/director/t/{slug}/visitors",
    )
    assert flash(text) == f"ok: 3 votes from source {busy} are void."
    assert usecases.polls(store, slug)["club"].votes == 1
    assert [a for a in usecases.audit_log(store, slug) if a["action"] == "void_votes"]
    # Everyone votes again (the family from its phones), then the vote closes.
    for i, v in enumerate(visitors[:3]):
        with v:
            post_vote(v, slug, str(finalists[0]), name=f"관람객 {i + 1}")
    # Before the winner is known, no draw.
    usecases.close_vote(store, slug, None, who="d")
    text = form(
        client,
        f"/director/t/{slug}/d/club/vote/draw",
        {"prizes": "2"},
        page=f"/director/t/{slug}/visitors",
    )
    assert flash(text) == "error: Club night: the prizes are drawn once the winner is known"
    finish(store, slug)
    winner = final_ranking(usecases.read(store, slug), "club")[0].player
    text = form(
        client,
        f"/director/t/{slug}/d/club/vote/draw",
        {"prizes": "2"},
        page=f"/director/t/{slug}/visitors",
    )
    assert flash(text).startswith("ok: The prizes are drawn")
    draw = usecases.polls(store, slug)["club"].draw
    assert draw is not None and draw.winner == winner
    right = sum(1 for i in range(4) if (finalists[0] if i < 3 else finalists[1]) == winner)
    assert draw.right == right and len(draw.drawn) == min(2, right)
    assert all(name.startswith("관람객") for name in draw.drawn)
    # Recorded once, audited, and shown on the public page (to the winners: "you won").
    text = form(
        client,
        f"/director/t/{slug}/d/club/vote/draw",
        {"prizes": "2"},
        page=f"/director/t/{slug}/visitors",
    )
    assert flash(text) == "error: the prizes of this vote are drawn already"
    assert [a for a in usecases.audit_log(store, slug) if a["action"] == "draw_prizes"]
    public = client.get(f"/t/{slug}/vote?division=club&lang=en").text
    assert "Prize draw" in public and draw.seed in public
    for name in draw.drawn:
        assert name in public
    # The QR poster opens the vote page.
    poster = client.get(f"/t/{slug}/vote/poster?division=club&lang=ja").text
    assert "<svg" in poster and "優勝するのは誰?" in poster
    assert f"/t/{slug}/vote?division=club" in poster


def test_a_registration_flood_is_withdrawn_in_one_step(tmp_path: Path, client: TestClient) -> None:
    store = web(client).store()
    slug, _ = usecases.create_tournament(store, "club-night", who="d", seed=5, slug="club")
    usecases.edit_division(store, slug, "club", usecases.DivisionEdit(cap=20), who="d")
    honest = TestClient(client.app, base_url="https://testserver", client=("10.1.1.1", 1))
    flood = TestClient(client.app, base_url="https://testserver", client=("10.6.6.6", 1))
    with honest, flood:
        for name in ("김민지", "이영희"):
            honest.post(
                f"/t/{slug}/register",
                data={"csrf": csrf(honest, f"/t/{slug}/register"), "name": name},
            )
        token = csrf(flood, f"/t/{slug}/register")
        for i in range(30):
            flood.post(f"/t/{slug}/register", data={"csrf": token, "name": f"bot {i}"})
    t = usecases.read(store, slug)
    assert len(t.in_division("club", "registered")) == 20
    assert len(t.in_division("club", "waitlisted")) == 12
    # One of the flood came to the desk (a real person): he stays.
    bot0 = next(r.player for r in t.registrations if r.name == "bot 0")
    usecases.check_in_players(store, slug, [str(bot0)], who="d")
    sources = usecases.registration_sources(store, slug)
    assert [(len(s.players), s.removable) for s in sources] == [(30, 29), (2, 2)]
    page = client.get(f"/director/t/{slug}/visitors?lang=ja").text
    assert "送信元" in page and sources[0].source in page
    text = form(
        client,
        f"/director/t/{slug}/sources/withdraw",
        {"source": sources[0].source},
        page=f"/director/t/{slug}/visitors",
    )
    assert flash(text) == f"ok: 29 registrations from source {sources[0].source} are withdrawn."
    t = usecases.read(store, slug)
    names = {r.name for r in t.in_division("club", "registered")}
    assert names == {"김민지", "이영희"}
    assert {r.name for r in t.in_division("club", "checked_in")} == {"bot 0"}
    assert not t.in_division("club", "waitlisted")
    text = form(
        client,
        f"/director/t/{slug}/sources/withdraw",
        {"source": sources[0].source},
        page=f"/director/t/{slug}/visitors",
    )
    assert flash(text) == (
        f"error: no registration from source {sources[0].source} is still registered or waitlisted"
    )
