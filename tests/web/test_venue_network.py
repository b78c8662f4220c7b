"""The venue's network, on the real server (``python -m meldtour.web`` in a process of
its own) and without leaving loopback (issue 27, item 1; issue 26, finding 1).

- The server as a director starts it listens on every interface: it answers on
  127.0.0.2 (another address of this computer, standing in for its Wi-Fi address) as
  well as at http://127.0.0.1:8000's address; one started with ``--host 127.0.0.1``
  does not answer on 127.0.0.2.
- The laptop's gate (``web/director/gate.py``): a client on 127.0.0.2 (a phone) gets
  neither the first-start page nor a director page until a director has signed in on
  the laptop (127.0.0.1); then it may sign in, and the first-start page stays the
  laptop's.
- The address page checks that the chosen address answers (the server asks its
  ``/healthz``) and says what to do when it does not.
The tests run in order on one server (the first account is made in the second, or by
the ``boss`` fixture where that test ran in another worker).

- The public address is the administrator's alone: a second director, made by the
  administrator, is refused and changes nothing; each change is an audit line, and
  every director's dashboard shows the address while it differs from the one in use.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx2 as httpx
import pytest

from meldtour.application import venue
from meldtour.store.config import database_url
from meldtour.web.database import open_web_store
from meldtour.web.director import accounts

from ..reliability.servers import Server

PASSWORD = "a long secret 1"
PHONE = "127.0.0.2"


def browser(source: str | None = None) -> httpx.Client:
    """A client connecting from ``source`` (127.0.0.2: a phone at the venue)."""
    transport = httpx.HTTPTransport(local_address=source) if source else None
    return httpx.Client(transport=transport, timeout=10, follow_redirects=True)


def csrf(client: httpx.Client, url: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', client.get(url).text)
    assert found, url
    return found.group(1)


def checked(page: str) -> str:
    """What the address page says of its check: ``ok: …`` or ``error: …``."""
    found = re.search(r'<p class="flash (\w+) reach" id="reach"[^>]*>(.*?)</p>', page, re.S)
    return f"{found.group(1)}: {found.group(2)}" if found else ""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The app as a director starts it: no --host (every interface)."""
    where = tmp_path_factory.mktemp("venue-net")
    with Server(f"sqlite:///{where / 'm.db'}", where, host=None) as s:
        yield s


@pytest.fixture
def boss(site: Server) -> None:
    """The site's first account (its administrator), as the second test makes it on
    the laptop: made here when that test ran in another test worker (each worker
    starts its own server), so that the tests after it do not depend on where it ran."""
    store = open_web_store(database_url(site.url))
    try:
        if accounts.count(store) == 0:
            accounts.create(store, "boss", PASSWORD, only_if_none=True)
    finally:
        store.close()


@pytest.fixture(scope="module")
def laptop_only(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    where = tmp_path_factory.mktemp("venue-lo")
    with Server(f"sqlite:///{where / 'm.db'}", where, host="127.0.0.1") as s:
        yield s


def test_every_interface_answers_on_another_address_and_127_0_0_1_does_not(
    site: Server, laptop_only: Server
) -> None:
    assert httpx.get(f"http://127.0.0.1:{site.port}/healthz").json()["ok"] is True
    with browser(PHONE) as phone:
        assert phone.get(f"http://{PHONE}:{site.port}/healthz").status_code == 200
        assert phone.get(f"http://{PHONE}:{site.port}/t/nothing").status_code == 404
        assert httpx.get(f"http://127.0.0.1:{laptop_only.port}/healthz").status_code == 200
        with pytest.raises(httpx.ConnectError):
            phone.get(f"http://{PHONE}:{laptop_only.port}/healthz")


def test_the_director_pages_are_the_laptops_until_a_director_signs_in_there(
    site: Server, laptop_only: Server
) -> None:
    here = f"http://127.0.0.1:{site.port}"
    there = f"http://{PHONE}:{site.port}"
    with browser(PHONE) as phone, browser() as laptop:
        # Before anyone signed in on the laptop: the phone gets no director page at all.
        for path in ("/director/setup", "/director/login", "/director", "/director/address"):
            r = phone.get(there + path + "?lang=ko", follow_redirects=False)
            assert r.status_code == 403, (path, r.status_code)
        r = phone.get(there + "/director/setup?lang=ko")
        assert "meldtour를 실행하는 컴퓨터에서만 만듭니다" in r.text
        assert f"http://127.0.0.1:{site.port}/director/setup" in r.text
        r = phone.post(
            there + "/director/setup",
            data={"csrf": "x", "name": "mallory", "password": "x" * 12, "again": "x" * 12},
        )
        assert r.status_code == 403
        assert (
            "meldtour を動かしているコンピューターで一度ログインするまで"
            in phone.get(there + "/director?lang=ja").text
        )
        # The public pages answer the phone as ever.
        assert phone.get(there + "/tournaments").status_code == 200

        # The director makes the first account on the laptop (and is signed in).
        r = laptop.post(
            here + "/director/setup",
            data={
                "csrf": csrf(laptop, here + "/director/setup"),
                "name": "boss",
                "password": PASSWORD,
                "again": PASSWORD,
            },
        )
        assert r.url.path == "/director", r.text[:300]

        # From then on the phone may sign in; each page still needs a director.
        r = phone.get(there + "/director", follow_redirects=False)
        assert r.status_code == 303 and "/director/login" in r.headers["location"]
        assert phone.get(there + "/director/setup").status_code == 403  # the laptop's
        r = phone.post(
            there + "/director/login",
            data={
                "csrf": csrf(phone, there + "/director/login"),
                "name": "boss",
                "password": PASSWORD,
            },
        )
        assert r.status_code == 200 and r.url.path == "/director"
        assert phone.get(there + "/director/address").status_code == 200
    store = open_web_store(database_url(site.url))
    assert venue.network_opened(store)
    lines = venue.address_changes(store)
    assert lines == []  # nothing set yet


def test_the_address_page_checks_that_the_address_answers(
    site: Server, laptop_only: Server, boss: None
) -> None:
    here = f"http://127.0.0.1:{site.port}"

    def choose(laptop: httpx.Client, address: str, lang: str) -> str:
        laptop.post(
            here + "/director/address",
            data={"csrf": csrf(laptop, here + "/director/address"), "address": address},
        )
        return laptop.get(here + f"/director/address?lang={lang}").text

    with browser() as laptop:
        laptop.post(
            here + "/director/login",
            data={
                "csrf": csrf(laptop, here + "/director/login"),
                "name": "boss",
                "password": PASSWORD,
            },
        )
        # This server's address on "the venue's network": it answers.
        page = choose(laptop, f"{PHONE}:{site.port}", "en")
        said = checked(page)
        assert (
            said.startswith("ok:")
            and f"This computer reached meldtour at http://{PHONE}:{site.port}" in said
        ), said
        assert f'id="public">http://{PHONE}:{site.port}<' in page
        # A server that listens on 127.0.0.1 only: nothing answers there, and the page
        # says how to start it.
        page = choose(laptop, f"http://{PHONE}:{laptop_only.port}", "ko")
        said = checked(page)
        assert (
            said.startswith("error:")
            and "아무것도 응답하지 않습니다" in said
            and "make run" in said
        ), said
        laptop.post(
            here + "/director/address/check",
            data={"csrf": csrf(laptop, here + "/director/address")},
        )
        assert "何も応答しません" in checked(laptop.get(here + "/director/address?lang=ja").text)
        # Back to the address that answers.
        page = choose(laptop, f"http://{PHONE}:{site.port}", "en")
        assert checked(page).startswith("ok:")
        assert f"boss: http://{PHONE}:{laptop_only.port} → http://{PHONE}:{site.port}" in page


def test_only_the_administrator_sets_the_public_address(site: Server, boss: None) -> None:
    """Issue 26, finding 1, as the attack was: director B, an account the administrator
    made, who directs none of the administrator's tournaments."""
    here = f"http://127.0.0.1:{site.port}"
    store = open_web_store(database_url(site.url))
    with browser() as admin, browser() as b:
        admin.post(
            here + "/director/login",
            data={
                "csrf": csrf(admin, here + "/director/login"),
                "name": "boss",
                "password": PASSWORD,
            },
        )
        admin.post(
            here + "/director/address",
            data={
                "csrf": csrf(admin, here + "/director/address"),
                "address": f"http://{PHONE}:{site.port}",
            },
        )
        r = admin.post(
            here + "/director/accounts",
            data={
                "csrf": csrf(admin, here + "/director"),
                "name": "director-b",
                "password": "b's own secret",
            },
        )
        assert "director-b" in r.text, re.findall(r"<p class=\"flash[^<]*", r.text)
        b.post(
            here + "/director/login",
            data={
                "csrf": csrf(b, here + "/director/login"),
                "name": "director-b",
                "password": "b's own secret",
            },
        )
        before = venue.address_changes(store)
        page = b.get(here + "/director/address?lang=en").text
        assert 'id="adminonly"' in page and 'name="address"' not in page
        r = b.post(
            here + "/director/address?lang=en",
            data={"csrf": csrf(b, here + "/director/address"), "address": "http://evil.example"},
            follow_redirects=False,
        )
        assert r.status_code == 403, r.status_code
        assert "Only the site's administrator" in r.text
        assert venue.public_address(store) == f"http://{PHONE}:{site.port}"
        assert venue.address_changes(store) == before
        # Every director's dashboard says where the QR codes point, and who set it.
        dash = b.get(here + "/director?lang=ko").text
        assert 'id="publicaddress"' in dash and f"http://{PHONE}:{site.port}" in dash
        assert "boss" in dash
        # Not while the dashboard is opened at that very address.
        with browser(PHONE) as phone:
            phone.post(
                f"http://{PHONE}:{site.port}/director/login",
                data={
                    "csrf": csrf(phone, f"http://{PHONE}:{site.port}/director/login"),
                    "name": "director-b",
                    "password": "b's own secret",
                },
            )
            assert (
                'id="publicaddress"' not in phone.get(f"http://{PHONE}:{site.port}/director").text
            )
    # The administrator's changes are audit lines, said in each language.
    newest = venue.address_changes(store)[0]
    assert newest["who"] == "boss" and newest["after"] == f"http://{PHONE}:{site.port}"


def test_the_audit_sentence_of_an_address_change_in_three_languages() -> None:
    from meldtour.web.director.audit_words import ACTIONS
    from meldtour.web.i18n import translations

    for code in ("public_address", "network_opened"):
        for lang in ("ko", "ja"):
            said = translations(lang).gettext(ACTIONS[code])
            assert said != ACTIONS[code] and "%(who)s" in said and "%(what)s" in said
