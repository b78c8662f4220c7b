"""The director's app: venue, seating lock, winner-guess vote

Revision ID: 0004
Revises: 0003

- ``tournament.venue``: the place of the day, shown on the public page;
- ``round.locked_at`` / ``round.locked_by``: the director locked the round's seating
  (set too by the first score sheet saved in the round: play has begun). A locked
  round is never reseated;
- ``winner_poll`` (one per division and stage: its finalists, open or closed) and
  ``winner_vote`` (one row per voter and poll: the voter is a random key kept in a
  signed cookie of the visitor's browser; voting again changes the vote).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournament", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("venue", sa.String(length=200), nullable=False, server_default="")
        )
    with op.batch_alter_table("round", schema=None) as batch_op:
        batch_op.add_column(sa.Column("locked_at", sa.String(length=40), nullable=True))
        batch_op.add_column(sa.Column("locked_by", sa.String(length=200), nullable=True))
    op.create_table(
        "winner_poll",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("division_id", sa.Integer(), nullable=False),
        sa.Column("stage", sa.Integer(), nullable=False),
        sa.Column("finalists", sa.JSON(none_as_null=True), nullable=False),
        sa.Column("closed", sa.Boolean(), nullable=False),
        sa.Column("opened_by", sa.String(length=200), nullable=False),
        sa.Column("opened_at", sa.String(length=40), nullable=False),
        sa.Column("closed_at", sa.String(length=40), nullable=True),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournament.id"],
            name=op.f("fk_winner_poll_tournament_id_tournament"),
        ),
        sa.ForeignKeyConstraint(
            ["division_id"], ["division.id"], name=op.f("fk_winner_poll_division_id_division")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_winner_poll")),
        sa.UniqueConstraint("division_id", "stage", name=op.f("uq_winner_poll_division_id")),
    )
    with op.batch_alter_table("winner_poll", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_winner_poll_tournament_id"), ["tournament_id"], unique=False
        )
    op.create_table(
        "winner_vote",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("poll_id", sa.Integer(), nullable=False),
        sa.Column("voter", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("finalist", sa.Integer(), nullable=False),
        sa.Column("at", sa.String(length=40), nullable=False),
        sa.ForeignKeyConstraint(
            ["poll_id"], ["winner_poll.id"], name=op.f("fk_winner_vote_poll_id_winner_poll")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_winner_vote")),
        sa.UniqueConstraint("poll_id", "voter", name=op.f("uq_winner_vote_poll_id")),
    )


def downgrade() -> None:
    op.drop_table("winner_vote")
    with op.batch_alter_table("winner_poll", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_winner_poll_tournament_id"))
    op.drop_table("winner_poll")
    with op.batch_alter_table("round", schema=None) as batch_op:
        batch_op.drop_column("locked_by")
        batch_op.drop_column("locked_at")
    with op.batch_alter_table("tournament", schema=None) as batch_op:
        batch_op.drop_column("venue")
