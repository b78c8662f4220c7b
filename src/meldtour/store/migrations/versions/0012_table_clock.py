"""The table clocks of games played with real tiles

Revision ID: 0012
Revises: 0010

- ``table_clock``: one row per game of a table's sheet: the turn order and the taps
  the table's phone sent (``meldtour.store.clocks``), what the server made of them
  (phase, time-outs), when and from which device it was last heard, and the penalty
  points the scorer confirmed onto the sheet.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_clock",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("division", sa.String(length=100), nullable=False),
        sa.Column("stage", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("table_number", sa.Integer(), nullable=False),
        sa.Column("game", sa.Integer(), nullable=False),
        sa.Column("players", sa.JSON(none_as_null=True), nullable=False),
        sa.Column("device", sa.String(length=40), nullable=False),
        sa.Column("turn_order", sa.JSON(none_as_null=True), nullable=False),
        sa.Column("taps", sa.JSON(none_as_null=True), nullable=False),
        sa.Column("phase", sa.String(length=20), nullable=False),
        sa.Column("timeouts", sa.JSON(none_as_null=True), nullable=False),
        sa.Column("clock_now", sa.Integer(), nullable=False),
        sa.Column("received_at", sa.String(length=40), nullable=False),
        sa.Column("confirmed", sa.JSON(none_as_null=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournament.id"],
            name=op.f("fk_table_clock_tournament_id_tournament"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_table_clock")),
        sa.UniqueConstraint(
            "tournament_id",
            "division",
            "stage",
            "round",
            "table_number",
            "game",
            name=op.f("uq_table_clock_tournament_id"),
        ),
    )
    with op.batch_alter_table("table_clock", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_table_clock_tournament_id"), ["tournament_id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("table_clock", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_table_clock_tournament_id"))
    op.drop_table("table_clock")
