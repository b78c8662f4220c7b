"""Settings from the environment, refusing unsafe defaults outside development."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

DEV_SECRET = "development-only-secret-do-not-use"


class ConfigError(RuntimeError):
    """A setting that is missing or unsafe where the app runs."""


@dataclass(frozen=True, slots=True)
class Settings:
    env: str = "development"
    secret_key: str = DEV_SECRET
    default_locale: str = "ko"

    @property
    def is_development(self) -> bool:
        return self.env in ("development", "test")

    @staticmethod
    def from_env(environ: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if environ is None else environ
        settings = Settings(
            env=env.get("MELDTOUR_ENV", "development"),
            secret_key=env.get("MELDTOUR_SECRET_KEY", DEV_SECRET),
            default_locale=env.get("MELDTOUR_DEFAULT_LOCALE", "ko"),
        )
        settings.check()
        return settings

    def check(self) -> None:
        if not self.is_development and (self.secret_key == DEV_SECRET or len(self.secret_key) < 32):
            raise ConfigError(
                "MELDTOUR_SECRET_KEY must be set to a random value of 32 characters or more "
                f"when MELDTOUR_ENV is {self.env!r}")
        if self.default_locale not in ("ko", "ja", "en"):
            raise ConfigError(
                f"MELDTOUR_DEFAULT_LOCALE {self.default_locale!r} is not ko, ja or en")
