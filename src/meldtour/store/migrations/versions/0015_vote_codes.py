"""The winner-guess vote holds against a script

Revision ID: 0015
Revises: 0013

- ``vote_code``: the vote codes of a tournament, printed on cards handed to the
  visitors (or on the players' badges); a vote that needs a code counts once per code.
- ``winner_poll.codes_required``: whether the division's vote takes only coded votes.
- ``winner_poll.draw``: the prize draw among the right guesses (winner, seed, the
  drawn voters), recorded once.
- ``winner_vote.source``: a short hash of the voter's address (never the address),
  so the director sees a burst of votes from one source and can void it.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "vote_code",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(length=16), nullable=False),
        sa.Column("made_at", sa.String(length=40), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"], ["tournament.id"], name=op.f("fk_vote_code_tournament_id_tournament")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_vote_code")),
        sa.UniqueConstraint("tournament_id", "code", name=op.f("uq_vote_code_tournament_id")),
    )
    with op.batch_alter_table("winner_poll", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("codes_required", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch_op.add_column(sa.Column("draw", sa.JSON(none_as_null=True), nullable=True))
    with op.batch_alter_table("winner_vote", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("source", sa.String(length=16), nullable=False, server_default="")
        )


def downgrade() -> None:
    with op.batch_alter_table("winner_vote", schema=None) as batch_op:
        batch_op.drop_column("source")
    with op.batch_alter_table("winner_poll", schema=None) as batch_op:
        batch_op.drop_column("draw")
        batch_op.drop_column("codes_required")
    op.drop_table("vote_code")
