"""Online play: lobby tables waiting for players, tournament games played online

Revision ID: 0005
Revises: 0004

- ``live_table``: a lobby table waiting for players (its set-up and the seats taken,
  as token hashes), so that a restart or another server process keeps it; dropped
  when its game starts (the game is then in ``live_game``);
- ``online_game``: a tournament table's game played online (tournament, division,
  stage, round, table, game number on the sheet, the seats) and whether its result
  is on the score sheet.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "live_table",
        sa.Column("id", sa.String(length=40), autoincrement=False, nullable=False),
        sa.Column("data", sa.JSON(none_as_null=True), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_live_table")),
    )
    op.create_table(
        "online_game",
        sa.Column("game_id", sa.String(length=40), autoincrement=False, nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("division", sa.String(length=100), nullable=False),
        sa.Column("stage", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("table_number", sa.Integer(), nullable=False),
        sa.Column("game", sa.Integer(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("seats", sa.JSON(none_as_null=True), nullable=False),
        sa.Column("filled", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournament.id"],
            name=op.f("fk_online_game_tournament_id_tournament"),
        ),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_online_game")),
        sa.UniqueConstraint(
            "tournament_id",
            "division",
            "stage",
            "round",
            "table_number",
            "game",
            name=op.f("uq_online_game_tournament_id"),
        ),
    )
    with op.batch_alter_table("online_game", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_online_game_tournament_id"), ["tournament_id"], unique=False
        )
        batch_op.create_index(batch_op.f("ix_online_game_filled"), ["filled"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("online_game", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_online_game_filled"))
        batch_op.drop_index(batch_op.f("ix_online_game_tournament_id"))
    op.drop_table("online_game")
    op.drop_table("live_table")
