"""Accounts (issue 26, finding 11), written as the attack was: the real server
(``python -m meldtour.web`` on 127.0.0.1), a director's session cookie copied to
another machine (a client on 127.0.0.2).

Before: no page changed a password, disabled an account or ended the other sessions,
so a leaked password stayed valid and a copied cookie lasted 12 hours. Now a changed
password, "sign out my other sessions" and a disabled account refuse every copy from
the next request on, while the browser that acted stays signed in; and who may do
what is the application's (:mod:`meldtour.application.accounts`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx2 as httpx
import pytest

from meldtour.application import UseCaseError
from meldtour.application import accounts as use
from meldtour.web.director import accounts
from meldtour.web.director.accounts import PASSWORDS
from meldtour.web.director.deps import CSRF_COOKIE, SESSION_COOKIE, open_web_store

from .servers import Server

ADMIN, ADMIN_PASSWORD = "boss", "the administrator's password"
PASSWORD = "bee's first password"
ENGLISH = {"Accept-Language": "en"}


@dataclass
class Browser:
    """A client on one loopback address, keeping its cookies by hand (the test
    server's cookies are ``Secure``, which an HTTP client would not send back)."""

    client: httpx.Client
    cookies: dict[str, str] = field(default_factory=dict)
    csrf: str = ""

    def _keep(self, r: httpx.Response) -> httpx.Response:
        for name, value in r.cookies.items():
            self.cookies[name] = value
        for header in r.headers.get_list("set-cookie"):
            name = header.split("=", 1)[0]
            if "Max-Age=0" in header or "expires=Thu, 01 Jan 1970" in header:
                self.cookies.pop(name, None)
        return r

    def _cookie(self) -> dict[str, str]:
        return {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}

    def get(self, path: str) -> httpx.Response:
        r = self._keep(self.client.get(path, headers=self._cookie(), follow_redirects=False))
        found = re.search(r'name="csrf" value="([^"]+)"', r.text)
        if found:
            self.csrf = found.group(1)
        return r

    def post(self, path: str, data: dict[str, str]) -> httpx.Response:
        if not self.csrf:
            self.get("/director/login")
        return self._keep(
            self.client.post(
                path,
                data={"csrf": self.csrf, **data},
                headers=self._cookie(),
                follow_redirects=False,
            )
        )

    def sign_in(self, name: str, password: str) -> httpx.Response:
        self.get("/director/login")
        return self.post("/director/login", {"name": name, "password": password})

    def signed_in(self) -> bool:
        r = self.get("/director")
        if r.status_code == 303:
            assert "/director/login" in r.headers["location"]
            return False
        assert r.status_code == 200, r.status_code
        return True


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    where: Path = tmp_path_factory.mktemp("accounts")
    url = f"sqlite:///{where / 'accounts.db'}"
    store = open_web_store(url)
    accounts.create(store, ADMIN, ADMIN_PASSWORD)  # the first account: the administrator
    for name in ("bee", "wasp", "ant"):
        accounts.create(store, name, PASSWORD)
    store.close()
    with Server(url, where) as running:
        yield running


def browser(server: Server, address: str) -> Iterator[Browser]:
    with httpx.Client(
        base_url=server.base,
        timeout=30,
        headers=ENGLISH,
        transport=httpx.HTTPTransport(local_address=address),
    ) as client:
        yield Browser(client)


@pytest.fixture()
def owner(server: Server) -> Iterator[Browser]:
    yield from browser(server, "127.0.0.1")


@pytest.fixture()
def thief(server: Server) -> Iterator[Browser]:
    yield from browser(server, "127.0.0.2")


@pytest.fixture()
def admin(server: Server) -> Iterator[Browser]:
    yield from browser(server, "127.0.0.3")


def copy_session(owner: Browser, thief: Browser) -> None:
    thief.cookies[SESSION_COOKIE] = owner.cookies[SESSION_COOKIE]
    thief.cookies[CSRF_COOKIE] = owner.cookies[CSRF_COOKIE]
    thief.csrf = owner.csrf


def test_a_changed_password_refuses_a_copied_cookie(owner: Browser, thief: Browser) -> None:
    assert owner.sign_in("bee", PASSWORD).status_code == 303
    copy_session(owner, thief)
    assert thief.signed_in()  # the copy works, from another machine
    owner.get("/director/account")
    r = owner.post(
        "/director/account/password",
        {
            "current": PASSWORD,
            "password": "bee's second password",
            "again": "bee's second password",
        },
    )
    assert r.status_code == 303 and r.headers["location"] == "/director/account"
    assert owner.signed_in()  # this browser stays signed in (signed again)
    assert not thief.signed_in()  # the copy is refused at once
    page = owner.get("/director/account").text
    assert "changed the password of an account" in page
    # the leaked password no longer opens the account; the new one does
    with httpx.Client(base_url=owner.client.base_url, timeout=30, headers=ENGLISH) as c:
        fresh = Browser(c)
        assert fresh.sign_in("bee", PASSWORD).status_code == 401
        assert fresh.sign_in("bee", "bee's second password").status_code == 303


def test_a_wrong_current_password_changes_nothing(owner: Browser, thief: Browser) -> None:
    assert owner.sign_in("ant", PASSWORD).status_code == 303
    copy_session(owner, thief)
    owner.get("/director/account")
    for current, new, again in (
        (PASSWORD + "x", "ant's second password", "ant's second password"),
        (PASSWORD, "short", "short"),
        (PASSWORD, "ant's second password", "something else"),
    ):
        r = owner.post(
            "/director/account/password", {"current": current, "password": new, "again": again}
        )
        assert r.status_code == 303 and r.headers["location"].endswith("#password")
    assert owner.signed_in() and thief.signed_in()  # nothing changed: no session ended
    with httpx.Client(base_url=owner.client.base_url, timeout=30, headers=ENGLISH) as c:
        assert Browser(c).sign_in("ant", PASSWORD).status_code == 303


def test_signing_out_the_other_sessions(owner: Browser, thief: Browser) -> None:
    assert owner.sign_in("wasp", PASSWORD).status_code == 303
    copy_session(owner, thief)
    assert thief.signed_in()
    owner.get("/director/account")
    assert owner.post("/director/account/sessions", {}).status_code == 303
    assert owner.signed_in()
    assert not thief.signed_in()
    # the copy cannot act either (a form posted with it is sent to sign in)
    r = thief.post("/director/account/sessions", {})
    assert r.status_code == 303 and "/director/login" in r.headers["location"]
    assert owner.signed_in()


def test_the_administrator_disables_an_account(
    owner: Browser, thief: Browser, admin: Browser, server: Server
) -> None:
    assert owner.sign_in("wasp", PASSWORD).status_code == 303
    copy_session(owner, thief)
    assert admin.sign_in(ADMIN, ADMIN_PASSWORD).status_code == 303
    store = open_web_store(server.url)
    ids = {
        name: found[0].id
        for name in (ADMIN, "wasp", "bee")
        if (found := use.find(store, name)) is not None
    }
    wasp_id = ids["wasp"]
    assert f'action="/director/accounts/{wasp_id}/disable"' in admin.get("/director/account").text
    # wasp may not disable the administrator, nor anyone
    assert owner.post(f"/director/accounts/{ids[ADMIN]}/disable", {}).status_code == 403
    assert owner.post(f"/director/accounts/{ids['bee']}/disable", {}).status_code == 403
    assert owner.signed_in()
    assert admin.post(f"/director/accounts/{wasp_id}/disable", {}).status_code == 303
    assert not owner.signed_in() and not thief.signed_in()  # every session, at once
    with httpx.Client(base_url=server.base, timeout=30, headers=ENGLISH) as c:
        r = Browser(c).sign_in("wasp", PASSWORD)
        assert r.status_code == 403 and "disabled" in r.text
    assert "disabled an account" in admin.get("/director/account").text
    # enabled again: the old cookies stay refused, a new sign-in works
    assert admin.post(f"/director/accounts/{wasp_id}/enable", {}).status_code == 303
    assert not thief.signed_in()
    assert owner.sign_in("wasp", PASSWORD).status_code == 303 and owner.signed_in()
    store.close()


def test_who_may_do_what_is_the_applications(tmp_path: Path) -> None:
    """The use cases decide, whoever calls them (the web, a command)."""
    store = open_web_store(f"sqlite:///{tmp_path / 'a.db'}")
    boss = accounts.create(store, "boss", ADMIN_PASSWORD)
    bee = accounts.create(store, "bee", PASSWORD)
    wasp = accounts.create(store, "wasp", PASSWORD)
    for who, target, code in (
        (bee, wasp.id, "account.administrator_only"),
        (bee, boss.id, "account.administrator_only"),
        (boss, boss.id, "account.not_yourself"),
        (boss, 999, "account.no_account"),
    ):
        with pytest.raises(UseCaseError) as refused:
            use.set_disabled(store, who, target, True)
        assert refused.value.code == code
    with pytest.raises(UseCaseError) as refused:
        use.change_password(store, bee, "not it", "a new password!", "a new password!", PASSWORDS)
    assert refused.value.code == "account.wrong_password"
    with pytest.raises(UseCaseError) as refused:
        use.account_list(store, bee)
    assert refused.value.code == "account.administrator_only"
    assert use.get(store, bee.id) == bee  # nothing changed
    assert use.signed_in(store, bee.id, 0) == bee
    after = use.change_password(
        store, bee, PASSWORD, "a new password!", "a new password!", PASSWORDS
    )
    assert use.signed_in(store, bee.id, 0) is None  # every session before: refused
    assert use.signed_in(store, bee.id, after.epoch) == after
    use.set_disabled(store, boss, bee.id, True)
    assert use.signed_in(store, bee.id, after.epoch) is None
    with pytest.raises(UseCaseError) as refused:
        use.sign_in(store, "bee", "a new password!", PASSWORDS)
    assert refused.value.code == "account.disabled"
    log = use.account_log(store, boss)
    assert [x["action"] for x in log] == ["change_password", "disable_account"]
    assert [x["action"] for x in use.account_log(store, wasp)] == []
    store.close()
