"""Secrets of the director's app: password hashes, signed values, login throttling.

- passwords: argon2id (argon2-cffi's defaults), never stored or logged in clear;
- signed values (the session cookie, a scorer's table link, CSRF tokens): itsdangerous
  with the settings' secret, one salt per purpose, so a scorer token can never be
  replayed as a session;
- sign-in: at most :data:`MAX_FAILURES` failed attempts per client address and per
  (account, address) in :data:`WINDOW` seconds, then refused until the window has
  passed; counted in Redis when the cluster is on.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from itsdangerous import BadSignature, URLSafeSerializer
from limits import RateLimitItemPerSecond
from limits.strategies import MovingWindowRateLimiter

from .counters import counter_storage

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


class Signer:
    """Signs JSON values for one purpose (itsdangerous, HMAC-SHA256, a key derived from
    the app's secret and the purpose as its salt): a value signed for one purpose — a
    scorer's link — is refused for another — a session.

    Tokens signed before (the earlier hand-made format: base64 JSON, a dot, an
    HMAC-SHA256 over it with a per-purpose key) are still accepted, so that score
    sheets printed before an upgrade keep working; new tokens are itsdangerous'.
    """

    def __init__(self, secret: str, purpose: str) -> None:
        self._serializer = URLSafeSerializer(
            secret, salt=f"meldtour:{purpose}", signer_kwargs={"digest_method": hashlib.sha256}
        )
        self._legacy_key = hashlib.sha256(f"meldtour:{purpose}:{secret}".encode()).digest()

    def mac(self, text: str) -> str:
        """The signature of ``text`` alone (a CSRF token is the cookie's)."""
        return self._serializer.make_signer().get_signature(text).decode()

    def sign(self, value: Any) -> str:
        return str(self._serializer.dumps(value))

    def unsign(self, token: str | None) -> Any:
        """The value, or ``None`` when the token is missing, malformed or forged."""
        if not token or len(token) > 4096:
            return None
        try:
            return self._serializer.loads(token)
        except BadSignature:
            return self._legacy(token)

    def _legacy(self, token: str) -> Any:
        if token.count(".") != 1:
            return None
        body, mac = token.split(".")
        expected = _b64(hmac.new(self._legacy_key, body.encode(), hashlib.sha256).digest())
        if not hmac.compare_digest(mac, expected):
            return None
        try:
            return json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
        except ValueError:
            return None


class LoginThrottle:
    """Failed sign-ins counted per key in a moving window (the ``limits`` library): in
    this process's memory, or in Redis when several processes serve one address
    (``MELDTOUR_REDIS_URL``), so that each does not keep its own count.

    The keys are the client's address and the (account, address) pair — never the
    account alone, so that failures from elsewhere slow the attacker and never lock the
    account's owner out (the address is the peer's, or a trusted proxy's forwarded one:
    ``python -m meldtour.web``, ``MELDTOUR_TRUSTED_PROXIES``).
    """

    def __init__(
        self,
        max_failures: int = MAX_FAILURES,
        window: float = WINDOW,
        storage: str = "memory://",
        prefix: str | None = None,
    ) -> None:
        self.max_failures = max_failures
        self.window = window
        self._item = RateLimitItemPerSecond(max_failures, max(1, int(window)))
        redis = None if storage.startswith("memory://") else storage
        self._limiter = MovingWindowRateLimiter(counter_storage(redis, prefix))

    def blocked(self, *keys: str) -> bool:
        return any(not self._limiter.test(self._item, "meldtour-login", k) for k in keys)

    def failed(self, *keys: str) -> None:
        for k in keys:
            self._limiter.hit(self._item, "meldtour-login", k)

    def succeeded(self, *keys: str) -> None:
        for k in keys:
            self._limiter.clear(self._item, "meldtour-login", k)


class Argon2:
    """The application's :class:`~meldtour.application.accounts.Passwords`: argon2id."""

    def hash(self, password: str) -> str:
        return hash_password(password)

    def verify(self, stored: str, password: str) -> bool:
        return verify_password(stored, password)

    def waste_time(self, password: str) -> None:
        waste_time(password)


PASSWORDS = Argon2()
