"""The live games' log

Revision ID: 0003
Revises: 0002

Every live game (``meldtour.live``) writes its start, each accepted move (before it is
broadcast), its latest draft and its result here, so that a restarted server resumes
it; backups cover it like every other table.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "live_game",
        sa.Column("id", sa.String(length=40), autoincrement=False, nullable=False),
        sa.Column("header", sa.JSON(none_as_null=True), nullable=False),
        sa.Column("started_at", sa.Float(), nullable=False),
        sa.Column("moves", sa.Integer(), nullable=False),
        sa.Column("draft", sa.JSON(none_as_null=True), nullable=True),
        sa.Column("alive_at", sa.Float(), nullable=True),
        sa.Column("resumes", sa.JSON(none_as_null=True), nullable=True),
        sa.Column("over", sa.Boolean(), nullable=False),
        sa.Column("result", sa.JSON(none_as_null=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_live_game")),
    )
    with op.batch_alter_table("live_game", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_live_game_over"), ["over"], unique=False)
    op.create_table(
        "live_move",
        sa.Column("game_id", sa.String(length=40), nullable=False),
        sa.Column("index", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("move", sa.JSON(none_as_null=True), nullable=False),
        sa.Column("at", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"], ["live_game.id"], name=op.f("fk_live_move_game_id_live_game")
        ),
        sa.PrimaryKeyConstraint("game_id", "index", name=op.f("pk_live_move")),
    )


def downgrade() -> None:
    op.drop_table("live_move")
    with op.batch_alter_table("live_game", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_live_game_over"))
    op.drop_table("live_game")
