"""Fixtures shared by the web and live tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from meldtour.live import LiveServer
from meldtour.web.app import create_app
from meldtour.web.config import Settings


@pytest.fixture()
def client() -> Iterator[TestClient]:
    """The web app in test settings with a live server of its own (games in memory)."""
    app = create_app(Settings(env="test"))
    app.state.live = LiveServer()
    with TestClient(app) as c:
        yield c
