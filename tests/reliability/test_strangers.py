"""Issue 26, written as the attacks were: a stranger on a loopback address of its own
(127.0.0.5) against the public forms, the exports and the counters.

- The "source" code of a public form gave the address back (an unkeyed
  ``sha256(slug:address)[:8]``): a search of 2^16 addresses found it.
- A public name ``x;=1+2`` was exported unquoted: a spreadsheet that splits on ``;``
  got a cell starting a formula.
- A right-to-left override (U+202E) and other invisible characters were accepted in
  names and shown on the projector.
- The rate counters' Redis keys ignored ``MELDTOUR_REDIS_PREFIX``.
"""

from __future__ import annotations

import csv
import hashlib
import io
import re
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from meldtour import application as usecases
from meldtour.application.spreadsheet import safe_cell
from meldtour.application.votes import shown_code
from meldtour.web.config import Settings

from ..circuit_play import play_out
from ..web.test_director import csrf, make_client, sign_up, web
from ..web.test_votes import finish, post_vote, seated_club

STRANGER = ("127.0.0.5", 40000)


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path) as c:
        sign_up(c)
        yield c


def stranger(client: TestClient) -> TestClient:
    return TestClient(client.app, base_url="https://testserver", client=STRANGER)


def register(c: TestClient, slug: str, name: str, division: str = "") -> str:
    """The public form, as the stranger sends it; the flash it gets back."""
    r = c.post(
        f"/t/{slug}/register?lang=en",
        data={"csrf": csrf(c, f"/t/{slug}/register"), "name": name, "division": division},
    )
    found = re.search(r'<p class="flash (\w+)" role="status">([^<]*)</p>', r.text)
    return f"{found.group(1)}: {found.group(2)}" if found else ""


# ------------------------------------------------------------ finding 9: the source


def test_the_source_code_does_not_give_the_address_back(tmp_path: Path, client: TestClient) -> None:
    store = web(client).store()
    slug, _ = usecases.create_tournament(store, "club-night", who="d", seed=5, slug="club")
    with stranger(client) as s:
        assert register(s, slug, "김민지").startswith("ok:")
    source = usecases.registration_sources(store, slug)[0].source
    assert re.fullmatch(r"[0-9a-f]{8}", source)
    # The attack: hash every address of 127.0.0.0/16 as the code used to, and look.
    found = [
        f"127.0.{a}.{b}"
        for a in range(256)
        for b in range(256)
        if hashlib.sha256(f"{slug}:127.0.{a}.{b}".encode()).hexdigest()[:8] == source
    ]
    assert found == []
    # Still one source per address and tournament (the director's burst view needs it),
    # and keyed: another site's key gives another code.
    with stranger(client) as s:
        register(s, slug, "이서준")
    assert [len(x.players) for x in usecases.registration_sources(store, slug)] == [2]
    key = secrets.token_urlsafe(32)
    with make_client(tmp_path, Settings(env="test", secret_key=key), name="other.db") as other:
        sign_up(other)
        ostore = web(other).store()
        usecases.create_tournament(ostore, "club-night", who="d", seed=5, slug="club")
        with TestClient(other.app, base_url="https://testserver", client=STRANGER) as s:
            register(s, slug, "김민지")
        assert usecases.registration_sources(ostore, slug)[0].source != source


# ------------------------------------------------------------ finding 10: the exports

FORMULAS = ["x;=1+2", "a,@SUM(1)", "b|+1", "c; -2+3", "d\u3000;=cmd|' /C calc'!A0"]
STARTER = re.compile(r"^[ \u00a0\u3000]*[=+\-@\uff1d\uff0b\uff0d\uff20]")
NUMBER = re.compile(r"^-?\d+(\.\d+)?$")


def cells_a_spreadsheet_sees(text: str) -> list[str]:
    """Every cell of the CSV, however a spreadsheet splits it: by the file's own commas
    (quotes honoured), and each field again by ``;``, ``,``, tab and ``|`` (a locale
    that splits on ``;``, or the import's "other separator")."""
    out = []
    for row in csv.reader(io.StringIO(text.lstrip("\ufeff"))):
        for field in row:
            out.extend(re.split(r"[;,\t|\r\n]", field))
    # and the raw line split on ';' (a German spreadsheet ignores the commas' quotes)
    for line in text.lstrip("\ufeff").splitlines():
        out.extend(line.split(";"))
    return out


def formula_cells(text: str) -> list[str]:
    return [
        c
        for c in cells_a_spreadsheet_sees(text)
        if STARTER.match(c) and not NUMBER.match(c.strip())
    ]


def test_no_export_holds_a_cell_that_starts_a_formula(client: TestClient) -> None:
    store = web(client).store()
    slug, _ = usecases.create_tournament(
        store, "busan-2015", who="d", seed=5, slug="busan", date="2026-03-07"
    )
    with stranger(client) as s:
        for name in FORMULAS:
            assert register(s, slug, name, "general").startswith("ok:"), name
    usecases.register_players(
        store, slug, [usecases.PlayerEntry(f"P{i}", "general") for i in range(3)], who="d"
    )
    usecases.check_in_players(store, slug, [], who="d", everyone_but=True, division="general")
    play_out(store, slug, "general", seed=5)
    exports = [
        f"/director/t/{slug}/export/{what}.csv" for what in ("players", "standings", "ranking")
    ] + ["/ranking.csv", "/rating.csv"]
    for path in exports:
        r = client.get(path)
        assert r.status_code == 200, path
        text = r.text
        assert "x;'=1+2" in text, path  # the name is there, its formula neutralised
        assert formula_cells(text) == [], path
    # The XLSX holds the same text (a cell starting with = would be a formula there).
    from openpyxl import load_workbook

    book = load_workbook(io.BytesIO(client.get(f"/director/t/{slug}/export/players.xlsx").content))
    sheet = book.active
    assert sheet is not None
    names = [str(c.value) for c in sheet["B"]]
    assert "x;'=1+2" in names and not any(n.startswith("=") for n in names)


def test_the_one_helper_neutralises_every_starter_after_a_separator() -> None:
    for text in [*FORMULAS, "=1", "+1", "-1", "@A1", "\t=1", "x\n=1", "ok;\u3000=1"]:
        assert formula_cells(str(safe_cell(text))) == [], text
    assert safe_cell("Jean-Luc Picard") == "Jean-Luc Picard"
    assert safe_cell(-3) == -3 and safe_cell(None) is None


# ------------------------------------------------------------ finding 12: invisible names

INVISIBLE = [
    "\u202e",
    "\u202d",
    "\u2066",
    "\u2067",
    "\u2068",
    "\u2069",
    "\u200e",
    "\u200f",
    "\u061c",
    "\u200b",
    "\u200d",
    "\ufeff",
    "\u00ad",
    "\u3164",
    "\u115f",
    "\u2800",
    "\U000e0041",
]


def test_bidi_controls_and_invisible_characters_are_refused_in_names(client: TestClient) -> None:
    store = web(client).store()
    slug, _ = usecases.create_tournament(store, "club-night", who="d", seed=5, slug="club")
    with stranger(client) as s:
        # The attack: "Kim\u202eiM" shows as "KimMi" reversed on the projector.
        said = register(s, slug, "김민지\u202e1#")
        assert said == (
            "error: Registration refused: a name cannot hold the invisible "
            "character U+202E (it can make one name look like another): type "
            "it again without it"
        )
        for ch in INVISIBLE:
            assert "U+" in register(s, slug, f"Kim{ch}Lee"), repr(ch)
        # Japanese variant kanji (a variation selector) and Arabic stay names.
        assert register(s, slug, "葛\U000e0100城").startswith("ok:")
        assert register(s, slug, "مريم").startswith("ok:")
    names = [r.name for r in usecases.read(store, slug).registrations]
    assert names == ["葛\U000e0100城", "مريم"]
    # The other ways a name is taken: the director's list, one player, a tournament's
    # and a division's name, the command line's use cases.
    rows = usecases.read_roster("name\nKim\u200bLee\nPark\n")
    assert [[p.refusal.code for p in r.problems] for r in rows] == [
        ["registration.invisible_character"],
        [],
    ]
    for call in (
        lambda: usecases.register_players(store, slug, [usecases.PlayerEntry("A\u202eB")], who="d"),
        lambda: usecases.edit_tournament(store, slug, who="d", name="Cup\u202e", date="", venue=""),
        lambda: usecases.edit_division(
            store, slug, "club", usecases.DivisionEdit(name="Open\u2067"), who="d"
        ),
    ):
        with pytest.raises(usecases.UseCaseError) as caught:
            call()
        assert caught.value.code == "registration.invisible_character"
        assert caught.value.params["char"].startswith("U+")
    r = client.post(
        f"/director/t/{slug}/players/add?lang=ko",
        data={"csrf": csrf(client, f"/director/t/{slug}/players"), "name": "이\u200f영희"},
    )
    assert "보이지 않는 문자" in r.text and "U+200F" in r.text
    assert len(usecases.read(store, slug).registrations) == 2


def test_an_invisible_name_is_refused_at_the_online_table(client: TestClient) -> None:
    made = client.post(
        "/play/tables",
        data={"preset": "krc-2015", "seat_count": "2", "seat0": "human", "seat1": "human"},
        follow_redirects=False,
    )
    assert made.status_code == 303
    table = made.headers["location"]
    with stranger(client) as s:
        r = s.post(
            f"{table}/join",
            data={"seat": "0", "name": "Kim\u202eiM"},
            headers={"origin": "https://testserver"},
            follow_redirects=False,
        )
        assert r.headers["location"] == f"{table}?error=invisible"
        page = s.get(f"{table}?error=invisible&lang=en").text
        assert "A name cannot hold invisible characters" in page
        r = s.post(
            f"{table}/join",
            data={"seat": "0", "name": "Kim"},
            headers={"origin": "https://testserver"},
            follow_redirects=False,
        )
        assert r.status_code == 303 and "error" not in r.headers["location"]


# ------------------------------------------------------------ finding 12: Redis keys


def test_the_rate_counters_keys_are_under_the_redis_prefix(tmp_path: Path) -> None:
    redis = pytest.importorskip("redis")
    r = redis.Redis.from_url("redis://127.0.0.1:6379/0")
    try:
        r.ping()
    except redis.ConnectionError:
        pytest.skip("no Redis on 127.0.0.1:6379")
    prefix = f"h4-test-{tmp_path.name[-12:]}"
    settings = Settings(env="test", redis_url="redis://127.0.0.1:6379/0", redis_prefix=prefix)
    before = set(r.scan_iter("LIMITS*"))
    with make_client(tmp_path, settings) as c:
        sign_up(c)
        store = web(c).store()
        slug, _ = usecases.create_tournament(store, "club-night", who="d", seed=5, slug="club")
        with TestClient(c.app, base_url="https://testserver", client=STRANGER) as s:
            assert register(s, slug, "김민지").startswith("ok:")
            # a wrong password: the sign-in throttle counts too
            s.post(
                "/director/login",
                data={"csrf": csrf(s), "name": "boss", "password": "wrong password"},
            )
    try:
        mine = {k.decode() for k in r.scan_iter(f"{prefix}:*")}
        assert any("meldtour-register" in k for k in mine), mine
        assert any("meldtour-login" in k for k in mine), mine
        assert all(k.startswith(f"{prefix}:limits") for k in mine)
        assert set(r.scan_iter("LIMITS*")) - before == set()
    finally:
        for k in r.scan_iter(f"{prefix}:*"):
            r.delete(k)


# ------------------------------------------------------------ finding 5: the vote's prize


def test_the_prize_cannot_be_had_by_guessing_a_code(tmp_path: Path, client: TestClient) -> None:
    store = web(client).store()
    slug = seated_club(store)
    codes = usecases.make_vote_codes(store, slug, 8, who="d")
    assert all(len(c) == 10 for c in codes)  # 25^10 codes, about 2^46
    usecases.open_vote(store, slug, None, who="d", codes=True)
    t = usecases.read(store, slug)
    finalists = sorted(p for x in t.division("club").stages[0].rounds[0].tables for p in x.players)
    holders = []
    for card, finalist in zip(codes, finalists, strict=True):  # one card for each
        holder = make_client(tmp_path)
        holder.__enter__()
        assert "Your vote for" in post_vote(holder, slug, str(finalist), code=card)
        holders.append(holder)
    usecases.close_vote(store, slug, None, who="d")
    finish(store, slug)
    draw = usecases.draw_vote_prizes(store, slug, None, 3, who="d").draw
    assert draw is not None and draw.right == 1
    number = finalists.index(draw.winner)
    winning = codes[number]
    # The public page names the card by its number, no character of its code.
    public = client.get(f"/t/{slug}/vote?division=club&lang=en").text
    assert f"#{number + 1}" in public
    assert winning[-4:] not in public and winning[:4] not in public
    # The stranger tries codes on the page, the winning one among them: the page says
    # neither that one won nor what any code chose.
    with stranger(client) as s:
        for guess in ["ACDEFGHJKM", winning[:5] + "ACDEF", winning, shown_code(winning)]:
            page = s.get(f"/t/{slug}/vote?division=club&code={guess}&lang=en").text
            assert "You won a prize" not in page and "Your vote:" not in page
        # Posting says the same for every code once the vote is closed (no oracle);
        # while it is open, 30 wrong codes stop an address (tests/web/test_votes.py).
        for guess in ["ACDEFGHJKM", winning]:
            assert post_vote(s, slug, str(finalists[0]), code=guess) == (
                "error: the vote is closed"
            )
    # The holder's own phone still hears it won.
    mine = holders[number].get(f"/t/{slug}/vote?division=club&code={winning}&lang=en").text
    assert "You won a prize" in mine and "Your vote:" in mine
    for h in holders:
        h.__exit__(None, None, None)


# ------------------------------------------------------------ finding 12: a busy address


def test_a_vote_without_cards_flags_a_busy_address_and_refuses_no_one(
    tmp_path: Path, client: TestClient
) -> None:
    store = web(client).store()
    slug = seated_club(store)
    page = client.get(f"/director/t/{slug}/visitors?lang=en").text
    assert "A vote with a prize draw should take vote cards" in page
    usecases.open_vote(store, slug, None, who="d")
    # A venue's 60 spectators behind one Wi-Fi address (each a phone of its own).
    answers = []
    for _ in range(60):
        with TestClient(client.app, base_url="https://testserver", client=STRANGER) as s:
            answers.append(post_vote(s, slug, "3"))
    assert sum("Your vote for" in a for a in answers) == 60
    assert usecases.polls(store, slug)["club"].votes == 60
    # The director sees the address marked.
    page = client.get(f"/director/t/{slug}/visitors?lang=en").text
    assert 'class="burst"' in page and ">many votes<" in page
