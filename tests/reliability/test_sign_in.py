"""Sign-in under attack, on the real server (``python -m meldtour.web``).

Found from outside: five wrong passwords sent with spoofed ``X-Forwarded-For``
addresses locked the real director out for 5 minutes from anywhere, and from 127.0.0.1
rotating that header avoided the per-address limit (uvicorn believed forwarded headers
from 127.0.0.1 by default). Now forwarded headers are believed only from the proxies in
``MELDTOUR_TRUSTED_PROXIES``, and failures count per address and per (account,
address), never per account alone: the attacker is stopped, the owner signing in from
elsewhere (127.0.0.2) is not.
"""

from __future__ import annotations

import re
from pathlib import Path

import httpx2 as httpx
import pytest

from meldtour.application import venue
from meldtour.web.director import accounts
from meldtour.web.director.deps import open_web_store
from meldtour.web.security import MAX_FAILURES, Signer

from .servers import Server

PASSWORD = "the right password, long enough"


def sign_in(client: httpx.Client, password: str, forwarded: str | None = None) -> int:
    page = client.get("/director/login")
    token = re.search(r'name="csrf" value="([^"]+)"', page.text)
    assert token, page.text[:200]
    headers = {"X-Forwarded-For": forwarded} if forwarded else {}
    return client.post(
        "/director/login",
        data={"csrf": token.group(1), "name": "boss", "password": password},
        headers=headers,
        follow_redirects=False,
    ).status_code


def client_from(server: Server, address: str) -> httpx.Client:
    return httpx.Client(
        base_url=server.base, timeout=30, transport=httpx.HTTPTransport(local_address=address)
    )


@pytest.fixture()
def db(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'm.db'}"
    store = open_web_store(url)
    accounts.create(store, "boss", PASSWORD)
    # The director has signed in on the laptop once: the director's pages answer other
    # addresses from then on (web/director/gate.py; before, they are the laptop's).
    venue.open_to_network(store, who="boss")
    store.close()
    return url


def test_spoofed_forwarded_addresses_neither_escape_nor_lock_out(tmp_path: Path, db: str) -> None:
    with (
        Server(db, tmp_path) as server,
        client_from(server, "127.0.0.1") as attacker,
        client_from(server, "127.0.0.2") as owner,
    ):
        for i in range(MAX_FAILURES):
            assert sign_in(attacker, "wrong", forwarded=f"203.0.113.{i}") == 401
        # The header changes nothing: the attacker's own address is stopped.
        assert sign_in(attacker, "wrong again", forwarded="198.51.100.7") == 429
        assert sign_in(attacker, PASSWORD, forwarded="198.51.100.8") == 429
        # The owner, elsewhere, signs in at once.
        assert sign_in(owner, PASSWORD) == 303


def test_a_trusted_proxy_forwards_the_clients_address(tmp_path: Path, db: str) -> None:
    with (
        Server(db, tmp_path, env={"MELDTOUR_TRUSTED_PROXIES": "127.0.0.1"}) as server,
        client_from(server, "127.0.0.1") as proxy,
        client_from(server, "127.0.0.2") as stranger,
    ):
        for _ in range(MAX_FAILURES):
            assert sign_in(proxy, "wrong", forwarded="203.0.113.9") == 401
        assert sign_in(proxy, PASSWORD, forwarded="203.0.113.9") == 429
        # Another client behind the same proxy is another address.
        assert sign_in(proxy, PASSWORD, forwarded="203.0.113.10") == 303
        # Not a trusted proxy: its header is not believed.
        for i in range(MAX_FAILURES):
            assert sign_in(stranger, "wrong", forwarded=f"192.0.2.{i}") == 401
        assert sign_in(stranger, PASSWORD, forwarded="192.0.2.200") == 429


def test_links_signed_before_the_upgrade_still_open() -> None:
    """A score sheet printed before signed values moved to itsdangerous keeps working;
    a new token of one purpose is refused for another."""
    import base64
    import hashlib
    import hmac
    import json

    secret, value = "k7Qp2vX9wLm4Zr8sTn3bYh6jFd1gCe5aUo0iEq", ["busan", "general", 0, 1, 7]
    key = hashlib.sha256(f"meldtour:scorer:{secret}".encode()).digest()
    body = (
        base64.urlsafe_b64encode(json.dumps(value, separators=(",", ":")).encode())
        .rstrip(b"=")
        .decode()
    )
    mac = (
        base64.urlsafe_b64encode(hmac.new(key, body.encode(), hashlib.sha256).digest())
        .rstrip(b"=")
        .decode()
    )
    scorer = Signer(secret, "scorer")
    assert scorer.unsign(f"{body}.{mac}") == value
    assert scorer.unsign(f"{body}.{mac[:-1]}A") is None
    token = scorer.sign(value)
    assert scorer.unsign(token) == value
    assert Signer(secret, "session").unsign(token) is None
    assert Signer(secret + "x", "scorer").unsign(token) is None
