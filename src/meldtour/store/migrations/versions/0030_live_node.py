"""The live games' heartbeat, one row a server process

Revision ID: 0030
Revises: 0029

- ``live_node``: a server process's last heartbeat and the games it ran then
  (``meldtour.store.games``), rewritten every second in place of every game's own row
  (``live_game.alive_at``, kept for the games logged before).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0030"
down_revision = "0029"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "live_node",
        sa.Column("id", sa.String(length=40), autoincrement=False, nullable=False),
        sa.Column("alive_at", sa.Float(), nullable=False),
        sa.Column("games", sa.JSON(none_as_null=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_live_node")),
    )


def downgrade() -> None:
    op.drop_table("live_node")
