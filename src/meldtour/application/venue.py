"""The venue: the public address that every QR code carries (the installation's
setting, :mod:`meldtour.store.site`).

A laptop at the venue is opened as ``http://127.0.0.1:8000`` by the director, but a
scorer's phone must open the laptop's address on the venue's network
(``http://192.168.0.12:8000``): the QR codes are made from this setting, not from the
address the director's browser happened to use.
"""

from __future__ import annotations

import ipaddress
from datetime import UTC, datetime
from urllib.parse import urlsplit

from meldtour.core.refusal import register
from meldtour.store import site
from meldtour.store.db import Store

from .errors import UseCaseError

KEY = "public_address"

register({
    "usecase.address_scheme": "The public address must start with http:// or https:// "
                              "(found %(value)s)",
    "usecase.address_host": "The public address %(value)s names no computer: write it "
                            "as http://192.168.0.12:8000",
    "usecase.address_extra": "The public address %(value)s must be the site's address "
                             "only, without a path, query or password",
})


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
    if parts.path.strip("/") or parts.query or parts.fragment or parts.username \
            or parts.password:
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


def set_public_address(store: Store, value: str, *, who: str) -> str | None:
    """Set the public address (an empty value clears it); the address as kept."""
    address = normalise_address(value) if value.strip() else None
    site.put(store, KEY, address, at=datetime.now(UTC).isoformat(timespec="seconds"),
             who=who)
    return address


__all__ = ["is_loopback", "normalise_address", "public_address", "set_public_address"]
