"""Online seats: the seat link's hash, never the link

Revision ID: 0007
Revises: 0006

- ``online_game.seats``: each person's seat kept its link's token in plain text
  (``"token"``); it now keeps only the token's SHA-256 in hex (``"key"``, null for a
  computer player), as the live game does. Links given out before keep working (their
  hash is what is checked); the director's page can no longer show them. New tokens are
  derived from the app's secret (``meldtour.live.online.seat_tokens``).

Downgrading cannot bring the tokens back: each person's seat gets a new random token
(links given out before stop working; the director's page shows the new ones).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

_online_game = sa.table(
    "online_game",
    sa.column("game_id", sa.String(length=40)),
    sa.column("seats", sa.JSON(none_as_null=True)),
)


def _rewrite(seat: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
    conn = op.get_bind()
    rows = conn.execute(sa.select(_online_game.c.game_id, _online_game.c.seats)).all()
    for game_id, seats in rows:
        new = [seat(dict(s)) for s in seats or []]
        if new != seats:
            conn.execute(
                _online_game.update().where(_online_game.c.game_id == game_id).values(seats=new)
            )


def _to_key(s: dict[str, Any]) -> dict[str, Any]:
    if "token" not in s:
        return s
    token = s.pop("token")
    s["key"] = hashlib.sha256(token.encode()).hexdigest() if token else None
    return s


def _to_token(s: dict[str, Any]) -> dict[str, Any]:
    if "key" not in s:
        return s
    key = s.pop("key")
    s["token"] = secrets.token_urlsafe(18) if key else None
    return s


def upgrade() -> None:
    _rewrite(_to_key)


def downgrade() -> None:
    _rewrite(_to_token)
