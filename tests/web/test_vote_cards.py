"""Issue #27 (7): the prize draw names its winners by the card's printed number (and
the name the voter gave, when given: a voter who gave none can be announced), and a
second phone typing a card that already voted changes nothing unless it confirms
that the card is its own; the card's vote changes from then on only on that phone."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from meldtour import application as usecases
from meldtour.application.votes import shown_code
from meldtour.tournament.stages import final_ranking

from .test_director import csrf, make_client, sign_up, web
from .test_director_pages import flash
from .test_votes import finish, seated_club


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path) as c:
        sign_up(c)
        yield c


def vote(c: TestClient, slug: str, finalist: int, code: str, **extra: str) -> tuple[int, str]:
    r = c.post(
        f"/t/{slug}/vote?lang=en",
        data={
            "csrf": csrf(c, f"/t/{slug}/register"),
            "division": "club",
            "finalist": str(finalist),
            "code": code,
            **extra,
        },
    )
    return r.status_code, r.text


def test_a_second_phone_does_not_silently_take_a_card(client: TestClient) -> None:
    store = web(client).store()
    slug = seated_club(store)
    codes = usecases.make_vote_codes(store, slug, 5, who="d")
    usecases.open_vote(store, slug, None, who="d", codes=True)
    app = client.app
    first = TestClient(app, base_url="https://testserver", client=("10.0.0.7", 1))
    second = TestClient(app, base_url="https://testserver", client=("10.0.0.8", 1))
    card = shown_code(codes[1])  # card #2
    with first, second:
        status, text = vote(first, slug, 3, card, name="민수")
        assert status == 200 and "Your vote for P3" in flash(text)
        # The same phone changes its card's vote as often as it likes.
        status, text = vote(first, slug, 4, card)
        assert "Your vote for P4" in flash(text)
        # Another phone typing the same card: asked, nothing changed.
        status, text = vote(second, slug, 5, card, name="someone")
        assert status == 409
        assert "card #2 has already voted on another phone" in text
        assert 'id="cardused"' in text and 'name="confirm" value="yes"' in text
        poll = usecases.polls(store, slug)["club"]
        assert poll.votes == 1 and poll.tally[4] == 1 and poll.tally[5] == 0
        # Confirmed: the card's vote and prize name change, and the card now belongs
        # to the second phone (the first is asked in its turn).
        status, text = vote(second, slug, 5, card, name="someone", confirm="yes")
        assert status == 200 and "Your vote for P5" in flash(text)
        poll = usecases.polls(store, slug)["club"]
        assert poll.votes == 1 and poll.tally[5] == 1 and poll.tally[4] == 0
        status, text = vote(first, slug, 3, card)
        assert status == 409 and usecases.polls(store, slug)["club"].tally[5] == 1
    # The refusal is a value, in the reader's words.
    with pytest.raises(usecases.UseCaseError) as refused:
        usecases.cast_vote(store, slug, "club", "another-device-key", 3, code=codes[1])
    assert refused.value.code == "usecase.vote_card_used"
    assert refused.value.params == {"card": "#2"}


def test_the_draw_names_cards_and_the_names_given(client: TestClient) -> None:
    store = web(client).store()
    slug = seated_club(store)
    codes = usecases.make_vote_codes(store, slug, 16, who="d")
    usecases.open_vote(store, slug, None, who="d", codes=True)
    t = usecases.read(store, slug)
    finalists = sorted(p for x in t.division("club").stages[0].rounds[0].tables for p in x.players)
    # Two cards for each of the 8 finalists: the first with a name, the second without.
    for i, code in enumerate(codes):
        name = f"관람객 {i + 1}" if i % 2 == 0 else ""
        usecases.cast_vote(
            store, slug, "club", f"device-{i:04d}", finalists[i // 2], name=name, code=code
        )
    usecases.close_vote(store, slug, None, who="d")
    finish(store, slug)
    winner = final_ranking(usecases.read(store, slug), "club")[0].player
    k = finalists.index(winner)
    draw = usecases.draw_vote_prizes(store, slug, "club", 2, who="d").draw
    assert draw is not None and draw.right == 2
    named, unnamed = (f"#{2 * k + 1}", f"관람객 {2 * k + 1}"), (f"#{2 * k + 2}", "")
    assert sorted(draw.winners) == sorted([named, unnamed])
    for lang, card in (("en", "card "), ("ko", "카드 "), ("ja", "カード")):
        page = client.get(f"/t/{slug}/vote?division=club&lang={lang}").text
        assert f"{card}{named[0]}</strong> · {named[1]}" in page
        assert f"{card}{unnamed[0]}</strong></li>" in page
    director = client.get(f"/director/t/{slug}/visitors?lang=ko").text
    assert f"카드 {named[0]}</strong> · {named[1]}" in director
