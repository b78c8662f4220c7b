"""Tournament ownership: who directs which tournament

Revision ID: 0006
Revises: 0005

- ``tournament_director``: one row per (tournament, account): the account that
  created the tournament and each co-director added by a director of it. The first
  account (the site's administrator) opens every tournament without a row; a
  tournament made before this revision has no row, so only the administrator opens it.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournament_director",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("added_by", sa.String(length=80), nullable=False),
        sa.Column("created_at", sa.String(length=40), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"], ["account.id"], name=op.f("fk_tournament_director_account_id_account")
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournament.id"],
            name=op.f("fk_tournament_director_tournament_id_tournament"),
        ),
        sa.PrimaryKeyConstraint("tournament_id", "account_id", name=op.f("pk_tournament_director")),
    )
    with op.batch_alter_table("tournament_director", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_tournament_director_account_id"), ["account_id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("tournament_director", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tournament_director_account_id"))
    op.drop_table("tournament_director")
