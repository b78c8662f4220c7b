"""Settings from the environment, refusing unsafe defaults outside development."""

from __future__ import annotations

import math
import os
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import pairwise
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from meldtour.live.table import BOT_DELAY

DEV_SECRET = "development-only-secret-do-not-use"


class ConfigError(RuntimeError):
    """A setting that is missing or unsafe where the app runs."""


#: A secret key must hold at least this many bits by :func:`key_weakness`'s estimate
#: (``secrets.token_urlsafe(32)`` gives about 210, ``secrets.token_hex(16)`` about 120).
MIN_KEY_BITS = 96


def key_weakness(key: str) -> str | None:
    """Why ``key`` is too weak to sign sessions, or None.

    The estimate is the key's length times the Shannon entropy of its characters
    (``"a" * 36`` and 40 spaces hold none), and a key that is mostly a run of the same
    or consecutive characters (``abcdef...``) or that contains the development key is
    refused whatever its length.

    >>> key_weakness("a" * 36)
    'it is 36 characters but holds about 0 bits (96 needed): use a random value'
    >>> key_weakness(DEV_SECRET + "!")
    'it contains the development key'
    >>> key_weakness("k7Qp2vX9wLm4Zr8sTn3bYh6jFd1gCe5aUo0iEq") is None
    True
    """
    if DEV_SECRET.lower() in key.lower():
        return "it contains the development key"
    if len(key) < 32:
        return f"it is {len(key)} characters long: 32 or more are needed"
    counts = Counter(key)
    bits = sum(c * math.log2(len(key) / c) for c in counts.values())
    if bits < MIN_KEY_BITS:
        return (
            f"it is {len(key)} characters but holds about {bits:.0f} bits "
            f"({MIN_KEY_BITS} needed): use a random value"
        )
    steps = sum(1 for a, b in pairwise(key) if abs(ord(b) - ord(a)) <= 1)
    if steps * 2 > len(key) - 1:
        return "it is mostly a run of the same or consecutive characters: use a random value"
    return None


def _seconds(env: Mapping[str, str], name: str, default: float, most: float) -> float:
    """A number of seconds from 0 to ``most`` in ``env[name]`` (``default`` when unset).

    >>> _seconds({"X": "0.05"}, "X", 0.8, 10.0), _seconds({}, "X", 0.8, 10.0)
    (0.05, 0.8)
    """
    text = env.get(name, "").strip()
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0.0 <= value <= most:  # NaN and infinities fail here too
        raise ConfigError(f"{name} {text!r} is not a number of seconds from 0 to {most:g}")
    return value


@dataclass(frozen=True, slots=True)
class Settings:
    env: str = "development"
    secret_key: str = DEV_SECRET
    default_locale: str = "ko"
    #: ``MELDTOUR_DATABASE_URL``; None: the store's default (``var/meldtour.db``).
    database_url: str | None = None
    #: ``MELDTOUR_REDIS_URL`` (e.g. ``redis://127.0.0.1:6379/0``); None: one process.
    redis_url: str | None = None
    #: ``MELDTOUR_REDIS_PREFIX``: the cluster's keys and channels; None: ``meldtour``.
    redis_prefix: str | None = None
    #: ``MELDTOUR_PUBLIC_URL`` (e.g. ``https://rummikub.example.org``): the address the
    #: QR codes carry when none is set on the director's address page; None: the
    #: address of the request (``meldtour.web.address``).
    public_url: str | None = None
    #: ``MELDTOUR_TIME_ZONE`` (e.g. ``Asia/Seoul``): the local time of a tournament made
    #: from scratch (a template's own place wins); None: by ``default_locale``.
    time_zone: str | None = None
    #: ``MELDTOUR_BOT_SECONDS``: how long a computer player at a table opened from the
    #: lobby, quick play, an arena or an online round waits before it moves (0 to 10;
    #: 0.8 by default, so that a person sees each move made).
    bot_seconds: float = BOT_DELAY

    @property
    def is_development(self) -> bool:
        return self.env in ("development", "test")

    @staticmethod
    def from_env(environ: Mapping[str, str] | None = None) -> Settings:
        """The settings of ``MELDTOUR_ENV``, ``MELDTOUR_SECRET_KEY``,
        ``MELDTOUR_DEFAULT_LOCALE``, ``MELDTOUR_DATABASE_URL``, ``MELDTOUR_REDIS_URL``,
        ``MELDTOUR_REDIS_PREFIX``, ``MELDTOUR_PUBLIC_URL``, ``MELDTOUR_TIME_ZONE`` and
        ``MELDTOUR_BOT_SECONDS`` (of ``environ``, by default the process's).

        >>> s = Settings.from_env({"MELDTOUR_REDIS_URL": "redis://127.0.0.1:6379/0"})
        >>> s.redis_url, s.database_url, s.default_locale
        ('redis://127.0.0.1:6379/0', None, 'ko')
        """
        env = os.environ if environ is None else environ
        settings = Settings(
            env=env.get("MELDTOUR_ENV", "development"),
            secret_key=env.get("MELDTOUR_SECRET_KEY", DEV_SECRET),
            default_locale=env.get("MELDTOUR_DEFAULT_LOCALE", "ko"),
            database_url=env.get("MELDTOUR_DATABASE_URL", "").strip() or None,
            redis_url=env.get("MELDTOUR_REDIS_URL") or None,
            redis_prefix=env.get("MELDTOUR_REDIS_PREFIX") or None,
            public_url=env.get("MELDTOUR_PUBLIC_URL", "").strip().rstrip("/") or None,
            time_zone=env.get("MELDTOUR_TIME_ZONE") or None,
            bot_seconds=_seconds(env, "MELDTOUR_BOT_SECONDS", BOT_DELAY, 10.0),
        )
        settings.check()
        return settings

    def check(self) -> None:
        weak = None if self.is_development else key_weakness(self.secret_key)
        if weak is not None:
            raise ConfigError(
                "MELDTOUR_SECRET_KEY must be set to a random value of 32 characters or more "
                f"when MELDTOUR_ENV is {self.env!r} ({weak}; e.g. python3 -c "
                "'import secrets; print(secrets.token_urlsafe(32))')"
            )
        if self.time_zone is not None:
            try:
                ZoneInfo(self.time_zone)
            except (ZoneInfoNotFoundError, ValueError):
                raise ConfigError(
                    f"MELDTOUR_TIME_ZONE {self.time_zone!r} is not a time "
                    "zone (such as Asia/Seoul or Asia/Tokyo)"
                ) from None
        if self.default_locale not in ("ko", "ja", "en"):
            raise ConfigError(
                f"MELDTOUR_DEFAULT_LOCALE {self.default_locale!r} is not ko, ja or en"
            )
        if self.public_url is not None and not self.public_url.startswith(("http://", "https://")):
            raise ConfigError(
                f"MELDTOUR_PUBLIC_URL {self.public_url!r} must start with http:// or https://"
            )
