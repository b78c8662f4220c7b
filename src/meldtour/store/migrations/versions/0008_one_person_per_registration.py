"""One person per registration within a tournament

Revision ID: 0008
Revises: 0007

Registrations found their person by name alone, so two players of one name in one
tournament (two 김민지 at a club night) shared one ``player`` row, and the awards, which
rate each registration, failed on the rating's primary key. Each registration of a
tournament that shares its person with an earlier registration of the same tournament
gets a person of its own (same name, no rating yet: it is computed at the awards), and
``registration`` gets a unique (tournament_id, player_id) so that it cannot happen again.

Downgrading drops the constraint and keeps the people apart (joining them again would
bring the crash back).
"""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

_player = sa.table(
    "player",
    sa.column("id", sa.Integer),
    sa.column("name", sa.String(length=200)),
    sa.column("created_at", sa.String(length=40)),
)
_registration = sa.table(
    "registration",
    sa.column("id", sa.Integer),
    sa.column("tournament_id", sa.Integer),
    sa.column("player_id", sa.Integer),
    sa.column("number", sa.Integer),
    sa.column("name", sa.String(length=200)),
)


def upgrade() -> None:
    conn = op.get_bind()
    at = datetime.now(UTC).isoformat()
    rows = conn.execute(
        sa.select(
            _registration.c.id,
            _registration.c.tournament_id,
            _registration.c.player_id,
            _registration.c.name,
        ).order_by(_registration.c.tournament_id, _registration.c.number)
    ).all()
    seen: set[tuple[int, int]] = set()
    for reg_id, tid, pid, name in rows:
        if (tid, pid) not in seen:
            seen.add((tid, pid))
            continue
        new_id = conn.execute(
            _player.insert().values(name=name, created_at=at).returning(_player.c.id)
        ).scalar_one()
        conn.execute(
            _registration.update().where(_registration.c.id == reg_id).values(player_id=new_id)
        )
        seen.add((tid, new_id))
    with op.batch_alter_table("registration", schema=None) as batch_op:
        batch_op.create_unique_constraint(
            op.f("uq_registration_tournament_id_player_id"), ["tournament_id", "player_id"]
        )


def downgrade() -> None:
    with op.batch_alter_table("registration", schema=None) as batch_op:
        batch_op.drop_constraint(op.f("uq_registration_tournament_id_player_id"), type_="unique")
