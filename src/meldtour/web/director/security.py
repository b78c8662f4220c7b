"""Secrets of the director's app: password hashes, signed values, login throttling.

- passwords: argon2id (argon2-cffi's defaults), never stored or logged in clear;
- signed values (the session cookie, a scorer's table link, CSRF tokens): an HMAC-SHA256
  over the value with a key derived from the settings' secret, one key per purpose,
  so a scorer token can never be replayed as a session;
- login: at most :data:`MAX_FAILURES` failed attempts per account name and per client
  address in :data:`WINDOW` seconds, then refused until the window has passed.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

_hasher = PasswordHasher()

MAX_FAILURES = 5
WINDOW = 300.0
MIN_PASSWORD = 10


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def verify_password(stored: str, password: str) -> bool:
    try:
        return _hasher.verify(stored, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


# A hash to verify against when the account does not exist, so that a wrong name takes
# as long as a wrong password.
_DUMMY = _hasher.hash(secrets.token_urlsafe(16))


def waste_time(password: str) -> None:
    verify_password(_DUMMY, password)


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Signer:
    """Signs JSON values for one purpose with a key derived from the app's secret."""

    def __init__(self, secret: str, purpose: str) -> None:
        self._key = hashlib.sha256(f"meldtour:{purpose}:{secret}".encode()).digest()

    def mac(self, text: str) -> str:
        return _b64(hmac.new(self._key, text.encode(), hashlib.sha256).digest())

    def sign(self, value: Any) -> str:
        body = _b64(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode())
        return f"{body}.{self.mac(body)}"

    def unsign(self, token: str | None) -> Any:
        """The value, or ``None`` when the token is missing, malformed or forged."""
        if not token or token.count(".") != 1:
            return None
        body, mac = token.split(".")
        if not hmac.compare_digest(mac, self.mac(body)):
            return None
        try:
            return json.loads(_unb64(body))
        except ValueError:
            return None


class LoginThrottle:
    """Failed logins per key (account name, client address) in a sliding window."""

    def __init__(self, max_failures: int = MAX_FAILURES, window: float = WINDOW,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.max_failures = max_failures
        self.window = window
        self.clock = clock
        self._failures: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def _recent(self, key: str) -> deque[float]:
        q = self._failures.setdefault(key, deque())
        limit = self.clock() - self.window
        while q and q[0] < limit:
            q.popleft()
        return q

    def blocked(self, *keys: str) -> bool:
        with self._lock:
            return any(len(self._recent(k)) >= self.max_failures for k in keys)

    def failed(self, *keys: str) -> None:
        with self._lock:
            for k in keys:
                self._recent(k).append(self.clock())

    def succeeded(self, *keys: str) -> None:
        with self._lock:
            for k in keys:
                self._failures.pop(k, None)
