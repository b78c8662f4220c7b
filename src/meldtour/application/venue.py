"""The venue: the public address that every QR code carries (the installation's
setting, :mod:`meldtour.store.site`).

A laptop at the venue is opened as ``http://127.0.0.1:8000`` by the director, but a
scorer's phone must open the laptop's address on the venue's network
(``http://192.168.0.12:8000``): the QR codes are made from this setting, not from the
address the director's browser happened to use.

The address is the site's administrator's alone to set (every QR code of every
tournament carries it: whoever sets it receives the scorers' table links), and each
change is an audit line of the site's (``public_address``: the address before and
after), shown on the address page; every director's dashboard shows the address while
it differs from the one the director's browser uses.

Until a director has signed in on the computer that runs the app, the director's pages
answer only that computer (:mod:`meldtour.web.director.gate`); the first such sign-in
is recorded here (:func:`open_to_network`, an audit line ``network_opened``).
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from datetime import UTC, datetime
from urllib.parse import urlsplit

from meldtour.core.refusal import register
from meldtour.store import audit, owners, site
from meldtour.store.db import Store

from .accounts import Account
from .errors import UseCaseError

KEY = "public_address"
OPENED = "network_opened"

register(
    {
        "usecase.address_scheme": "The public address must start with http:// or https:// "
        "(found %(value)s)",
        "usecase.address_host": "The public address %(value)s names no computer: write it "
        "as http://192.168.0.12:8000",
        "usecase.address_extra": "The public address %(value)s must be the site's address "
        "only, without a path, query or password",
        "usecase.address_admin_only": "Only the site's administrator (the first account) sets "
        "the public address: every tournament's QR codes carry it",
    }
)


def normalise_address(value: str) -> str:
    """``value`` as a public address (scheme, host and port; no trailing slash), or a
    refusal naming what is wrong.

    >>> normalise_address(" 192.168.0.12:8000/ ")
    'http://192.168.0.12:8000'
    >>> normalise_address("https://Rummikub.Example.org")
    'https://rummikub.example.org'
    """
    text = value.strip()
    if "://" not in text:
        text = "http://" + text
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        raise UseCaseError("usecase.address_host", value=value.strip()) from None
    if parts.scheme.lower() not in ("http", "https"):
        raise UseCaseError("usecase.address_scheme", value=value.strip())
    host = (parts.hostname or "").lower()
    if not host or any(c.isspace() for c in host):
        raise UseCaseError("usecase.address_host", value=value.strip())
    if parts.path.strip("/") or parts.query or parts.fragment or parts.username or parts.password:
        raise UseCaseError("usecase.address_extra", value=value.strip())
    shown = f"[{host}]" if ":" in host else host
    return f"{parts.scheme.lower()}://{shown}" + (f":{port}" if port else "")


def is_loopback(address: str) -> bool:
    """Whether ``address`` (a URL or a host) only reaches this computer (a loopback
    address, or ``0.0.0.0``, which a browser on this computer reaches and a phone not).

    >>> [is_loopback(a) for a in ("http://127.0.0.1:8000", "http://localhost",
    ...                           "http://[::1]:8000/", "http://0.0.0.0:8000",
    ...                           "http://192.168.0.12:8000")]
    [True, True, True, True, False]
    """
    host = urlsplit(address if "://" in address else "http://" + address).hostname or ""
    host = host.lower().rstrip(".")
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return False
    return ip.is_loopback or ip.is_unspecified


def public_address(store: Store) -> str | None:
    """The public address set on the address page, or None."""
    return site.get(store, KEY)


@dataclass(frozen=True, slots=True)
class AddressSet:
    """The public address as set: the address, when (ISO, UTC) and by whom."""

    address: str
    at: str
    who: str


def public_address_set(store: Store) -> AddressSet | None:
    """The public address with when and by whom it was set, or None."""
    found = site.entry(store, KEY)
    return None if found is None else AddressSet(*found)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class AdministratorOnly(UseCaseError):
    """A site setting that only the site's administrator changes."""


def set_public_address(store: Store, value: str, *, actor: Account) -> str | None:
    """Set the public address (an empty value clears it), as ``actor``: the site's
    administrator only (else :class:`AdministratorOnly`, nothing changed). The
    change and the audit line (the address before and after) are one transaction.
    The address as kept."""
    if owners.administrator_id(store) != actor.id:
        raise AdministratorOnly("usecase.address_admin_only")
    address = normalise_address(value) if value.strip() else None
    at = _now()
    with store.transaction() as s:
        before = site.read(s, KEY)
        if before == address:
            return address
        site.write(s, KEY, address, at=at, who=actor.name)
        audit.record(
            s,
            at=at,
            who=actor.name,
            action="public_address",
            tournament_id=None,
            entity="site",
            key=KEY,
            before=before,
            after=address,
            why="",
        )
    return address


def address_changes(store: Store, limit: int = 10) -> list[dict[str, object]]:
    """The public address's changes, newest first (audit lines: who, at, before, after)."""
    with store.reading() as s:
        return list(audit.site_lines(s, "public_address", limit))


def network_opened(store: Store) -> bool:
    """Whether a director has signed in on the computer that runs the app (from then
    on the director's pages answer the venue's network)."""
    return site.get(store, OPENED) is not None


def open_to_network(store: Store, *, who: str) -> bool:
    """Record that ``who`` signed in on the computer that runs the app (an audit line of
    the site's, once); False if it was recorded already."""
    at = _now()
    with store.transaction() as s:
        if site.read(s, OPENED) is not None:
            return False
        site.write(s, OPENED, at, at=at, who=who)
        audit.record(
            s,
            at=at,
            who=who,
            action="network_opened",
            tournament_id=None,
            entity="site",
            key=OPENED,
            before=None,
            after=at,
            why="",
        )
    return True


__all__ = [
    "AddressSet",
    "AdministratorOnly",
    "address_changes",
    "is_loopback",
    "network_opened",
    "normalise_address",
    "open_to_network",
    "public_address",
    "public_address_set",
    "set_public_address",
]
