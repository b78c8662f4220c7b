"""The FastAPI application: ``create_app()``; ``uvicorn meldtour.web.app:app``."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

from .assemble import assemble
from .config import Settings


def create_app(settings: Settings | None = None) -> FastAPI:
    """The web app, from ``settings`` (by default :meth:`Settings.from_env`); every
    piece is built in :func:`meldtour.web.assemble.assemble`."""
    return assemble(settings or Settings.from_env())


def __getattr__(name: str) -> Any:
    # ``uvicorn meldtour.web.app:app`` builds the app on first use, from the environment.
    if name == "app":
        return create_app()
    raise AttributeError(name)
