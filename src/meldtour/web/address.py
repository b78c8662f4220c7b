"""The address phones open: every QR code (score sheets, the vote poster, players'
links) is made from :func:`public_base`, never from the address the director's own
browser used (``127.0.0.1`` on the laptop itself reaches nothing from a phone).

The address is, first, the one set on the director's address page (kept in the store
for the installation), else ``MELDTOUR_PUBLIC_URL``, else the request's own.
:func:`network_addresses` lists the laptop's addresses on its networks (standard
library only: the interfaces' IPv4 addresses by ``ioctl`` on Linux and the IPv6 ones
from ``/proc/net/if_inet6``, else the host name's addresses), so the director can pick
the one the venue's Wi-Fi reaches. :func:`reach` checks that an address answers as
meldtour from this computer (``/healthz``, with a short time limit): a server that
listens on 127.0.0.1 only, or a laptop now on another network, is told at once, with
what to do, rather than by every phone at the venue.
"""

from __future__ import annotations

import contextlib
import http.client
import ipaddress
import json
import socket
import ssl
import struct
import sys
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from fastapi import Request

from meldtour.application.venue import is_loopback, public_address, public_address_set
from meldtour.store.db import Store

__all__ = [
    "REACH_SECONDS",
    "NetworkAddress",
    "Reach",
    "address_notice",
    "is_loopback",
    "network_addresses",
    "public_base",
    "public_url",
    "reach",
    "vote_url",
]


def public_base(request: Request) -> str:
    """The public address (no trailing slash) the QR codes carry."""
    web = getattr(request.app.state, "director", None)
    if web is not None:
        with contextlib.suppress(Exception):
            stored = public_address(web.store())
            if stored:
                return stored
    configured: str | None = getattr(request.app.state.settings, "public_url", None)
    if configured:
        return configured.rstrip("/")
    return str(request.base_url).rstrip("/")


def address_notice(request: Request, store: Store) -> dict[str, str] | None:
    """The public address as every director's dashboard shows it while it differs from
    the address the director's browser uses: the address, who set it and when (UTC)."""
    found = public_address_set(store)
    if found is None or found.address == str(request.base_url).rstrip("/"):
        return None
    return {"address": found.address, "who": found.who, "at": found.at[:16].replace("T", " ")}


def public_url(request: Request, path: str) -> str:
    """``path`` (``/score/...``) on the public address."""
    return public_base(request) + "/" + path.lstrip("/")


@dataclass(frozen=True, slots=True)
class NetworkAddress:
    interface: str
    ip: str

    @property
    def version(self) -> int:
        return ipaddress.ip_address(self.ip).version

    def url(self, scheme: str, port: int | None) -> str:
        host = f"[{self.ip}]" if self.version == 6 else self.ip
        default = {"http": 80, "https": 443}.get(scheme)
        return f"{scheme}://{host}" + (f":{port}" if port and port != default else "")


def _usable(ip: str) -> bool:
    try:
        a = ipaddress.ip_address(ip.split("%")[0])
    except ValueError:
        return False
    return not (a.is_loopback or a.is_link_local or a.is_unspecified or a.is_multicast)


def _ipv4_of(name: str) -> str | None:
    import fcntl

    SIOCGIFADDR = 0x8915
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            raw = fcntl.ioctl(s.fileno(), SIOCGIFADDR, struct.pack("256s", name[:15].encode()))
        except OSError:
            return None
    return socket.inet_ntoa(raw[20:24])


def network_addresses() -> list[NetworkAddress]:
    """The computer's addresses other than loopback and link-local, IPv4 first."""
    found: list[NetworkAddress] = []
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError):
            for _, name in socket.if_nameindex():
                ip = _ipv4_of(name)
                if ip and _usable(ip):
                    found.append(NetworkAddress(name, ip))
        with contextlib.suppress(OSError):
            for line in Path("/proc/net/if_inet6").read_text().splitlines():
                fields = line.split()
                if len(fields) >= 6:
                    ip = str(ipaddress.IPv6Address(bytes.fromhex(fields[0])))
                    if _usable(ip):
                        found.append(NetworkAddress(fields[5], ip))
    if not found:
        with contextlib.suppress(OSError):
            for info in socket.getaddrinfo(socket.gethostname(), None):
                ip = str(info[4][0])
                if _usable(ip) and all(a.ip != ip for a in found):
                    found.append(NetworkAddress("", ip))
    return sorted(found, key=lambda a: (a.version, a.interface, a.ip))


#: How long :func:`reach` waits for an address to connect, and then to answer.
REACH_SECONDS = 2.0


@dataclass(frozen=True, slots=True)
class Reach:
    """What asking an address for meldtour's ``/healthz`` found: ``code`` is
    ``answers``, ``refused`` (nothing listens there: the server listens on 127.0.0.1
    only, or on another port), ``timeout`` (no answer in time: another network, or a
    firewall), ``unreachable`` (no route to it from here), ``no_name`` (the name is not
    found), ``certificate`` (HTTPS with a certificate this computer does not trust) or
    ``not_meldtour`` (something else answers)."""

    code: str
    address: str

    @property
    def ok(self) -> bool:
        return self.code == "answers"

    @property
    def port(self) -> int:
        parts = urlsplit(self.address)
        return parts.port or (443 if parts.scheme == "https" else 80)


def reach(address: str, timeout: float = REACH_SECONDS) -> Reach:
    """Ask ``address`` (a normalised public address) for ``/healthz`` as a phone would,
    from this computer, waiting at most ``timeout`` seconds to connect and as long for
    the answer; no redirect is followed. It blocks: call it from a worker thread (a
    ``def`` route), never on the event loop."""
    parts = urlsplit(address)
    host = parts.hostname or ""
    port = parts.port or (443 if parts.scheme == "https" else 80)
    conn: http.client.HTTPConnection
    if parts.scheme == "https":
        conn = http.client.HTTPSConnection(
            host, port, timeout=timeout, context=ssl.create_default_context()
        )
    else:
        conn = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        conn.request(
            "GET",
            "/healthz",
            headers={"Accept": "application/json", "User-Agent": "meldtour-address-check"},
        )
        answer = conn.getresponse()
        body = answer.read(4096)
        try:
            found = json.loads(body) if answer.status == 200 else None
        except ValueError:
            found = None
        ok = isinstance(found, dict) and found.get("ok") is True
        return Reach("answers" if ok else "not_meldtour", address)
    except ssl.SSLError:
        return Reach("certificate", address)
    except ConnectionRefusedError:
        return Reach("refused", address)
    except socket.gaierror:
        return Reach("no_name", address)
    except TimeoutError:
        return Reach("timeout", address)
    except (http.client.HTTPException, ConnectionError):
        return Reach("not_meldtour", address)
    except OSError:
        return Reach("unreachable", address)
    finally:
        conn.close()


def vote_url(request: Request, slug: str, key: str | None = None, code: str | None = None) -> str:
    """The vote page's address as a phone at the venue opens it (a QR code's): of a
    division, or of whichever vote is open, with a vote code filled in."""
    base = public_base(request)
    query = "&".join(
        q for q in (f"division={key}" if key else "", f"code={code}" if code else "") if q
    )
    return f"{base}/t/{slug}/vote" + (f"?{query}" if query else "")
