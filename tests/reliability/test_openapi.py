"""The HTTP API against its own OpenAPI description (``/openapi.json``), with
schemathesis: every operation, with generated path parameters, queries, forms and JSON
bodies, must never answer 5xx nor raise (the test client re-raises any exception the app
lets through).

Each case is sent twice: once as generated (random slugs, tokens and numbers: mostly
404s), and once with its path parameters replaced by real ones (the demo tournament, its
division, a registered player, a valid scorer link, a live table), so that the handlers'
own checks are reached. Both runs carry a valid CSRF cookie and token; the director's
session cookie is added for half of the cases, so that the signed-in pages are fuzzed too.

``MELDTOUR_SCHEMA_EXAMPLES`` (examples per operation, 10 by default) raises the count for
a campaign run by hand; the number of requests is printed (``pytest -s``).
``MELDTOUR_SCHEMA_PG=1`` runs it on PostgreSQL (a schema of its own, left for a look).
"""

from __future__ import annotations

import os
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error

from meldtour import application as usecases
from meldtour.live import SeatConfig, TableConfig
from meldtour.web.app import create_app
from meldtour.web.config import Settings
from meldtour.web.director import accounts
from meldtour.web.director.deps import CSRF_COOKIE, SESSION_COOKIE, Scope, Web
from meldtour.web.director.routes.tournaments import create_demo

EXAMPLES = int(os.environ.get("MELDTOUR_SCHEMA_EXAMPLES", "10"))
STATUS: Counter[int] = Counter()
WHERE = Path(os.environ.get("MELDTOUR_SCHEMA_DIR", "/tmp")) / f"schema-{os.getpid()}"


def build() -> tuple[Any, dict[str, str], dict[str, str], dict[str, Any]]:
    """The app on a fresh SQLite file with the demo tournament seated, a director, the
    cookies and headers of a signed-in director, and real path parameters."""
    WHERE.mkdir(parents=True, exist_ok=True)
    db = WHERE / f"api-{time.time_ns()}.db"
    settings = Settings(env="test")
    app = create_app(settings)
    web = Web(
        settings, url=_postgresql() if os.environ.get("MELDTOUR_SCHEMA_PG") else f"sqlite:///{db}"
    )
    app.state.director = web
    store = web.store()
    boss = accounts.create(store, "boss", "a long secret 1")
    create_demo(store, "boss")
    t = usecases.read(store, "demo")
    div = t.division("general")
    token = web.scorer_token(Scope("demo", "general", 0, div.stages[0].rounds[-1].number, 1))
    game = app.state.live.create_table(
        TableConfig.make("standard", [SeatConfig("human"), SeatConfig("computer", "greedy")])
    )
    csrf_cookie = "c" * 32
    cookies = {
        CSRF_COOKIE: csrf_cookie,
        SESSION_COOKIE: web.session.sign(
            {"a": boss.id, "exp": int(time.time()) + 3600, "n": "fuzz"}
        ),
    }
    headers = {"X-CSRF-Token": web.csrf_token(csrf_cookie)}
    real = {
        "slug": "demo",
        "key": "general",
        "player": 3,
        "token": token,
        "game_id": game.id,
        "preset": "japan",
        "kind": "standings",
        "what": "players",
        "fmt": "csv",
    }
    return app, cookies, headers, real


def _postgresql() -> str:
    """A fresh schema of the test PostgreSQL (``MELDTOUR_SCHEMA_PG=1``: the campaign on
    PostgreSQL, where a NUL byte in text was a 500)."""
    import uuid

    from sqlalchemy import create_engine, text

    from tests.store.backends import PG_URL

    schema_name = f"mt_api_{uuid.uuid4().hex[:12]}"
    admin = create_engine(PG_URL)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema_name}"'))
    admin.dispose()
    return f"{PG_URL}?options=-csearch_path%3D{schema_name}"


APP, COOKIES, HEADERS, REAL = build()
# The standings' event stream lasts 30 s a connection (the ASGI transport reads it to
# the end): its answers are checked by the authorisation matrix and the page's tests.
schema = schemathesis.openapi.from_asgi("/openapi.json", APP).exclude(
    path="/t/{slug}/standings/events"
)


def send(case: Any, signed_in: bool) -> None:
    cookies = dict(COOKIES) if signed_in else {CSRF_COOKIE: COOKIES[CSRF_COOKIE]}
    response = case.call(headers=HEADERS, cookies=cookies, allow_redirects=False)
    STATUS[response.status_code] += 1
    assert response.status_code < 500, (case.method, case.formatted_path, response.text[:500])
    case.validate_response(response, checks=[not_a_server_error])


@schema.parametrize()
@settings(
    max_examples=EXAMPLES, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
)
def test_no_operation_answers_5xx(case: Any) -> None:
    signed_in = hash((case.method, case.path, repr(case.query), repr(case.body))) % 2 == 0
    send(case, signed_in)
    if case.path_parameters:
        case.path_parameters = {k: REAL.get(k, v) for k, v in case.path_parameters.items()}
        send(case, signed_in)


def test_report_how_many_requests_were_sent() -> None:
    print(
        f"\nschemathesis requests by status: {dict(sorted(STATUS.items()))}, "
        f"total {sum(STATUS.values())}"
    )
    assert sum(STATUS.values()) > 0 and not any(s >= 500 for s in STATUS)


@pytest.fixture(autouse=True, scope="module")
def _cleanup() -> Any:
    yield
    APP.state.director.store().close()
