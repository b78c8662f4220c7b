"""Moderation: players' reports of one another, and a display name hidden

Revision ID: 0029
Revises: 0028

- ``player_report``: a player account's report of another player of a game they both
  sat in, for a fixed reason (a code), once per reporter, reported player and game;
  open until the site's administrator acts on it (``meldtour.store.moderation``);
- ``player_account.name_hidden``: the name hidden by the administrator.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0029"
down_revision = "0028"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "player_account",
        sa.Column("name_hidden", sa.Boolean(), server_default=sa.false(), nullable=False),
    )
    op.create_table(
        "player_report",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("reporter_id", sa.Integer(), nullable=False),
        sa.Column("reported_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=40), nullable=False),
        sa.Column("reason", sa.String(length=20), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("outcome", sa.String(length=20), nullable=True),
        sa.Column("closed_by", sa.String(length=120), nullable=True),
        sa.Column("closed_at", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(
            ["reporter_id"],
            ["player_account.id"],
            name=op.f("fk_player_report_reporter_id_player_account"),
        ),
        sa.ForeignKeyConstraint(
            ["reported_id"],
            ["player_account.id"],
            name=op.f("fk_player_report_reported_id_player_account"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player_report")),
        sa.UniqueConstraint(
            "reporter_id", "reported_id", "game_id", name=op.f("uq_player_report_reporter_id")
        ),
    )
    op.create_index(op.f("ix_player_report_reporter_id"), "player_report", ["reporter_id"])
    op.create_index(op.f("ix_player_report_reported_id"), "player_report", ["reported_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_player_report_reported_id"), table_name="player_report")
    op.drop_index(op.f("ix_player_report_reporter_id"), table_name="player_report")
    op.drop_table("player_report")
    with op.batch_alter_table("player_account") as batch:  # SQLite: the table is copied
        batch.drop_column("name_hidden")
