"""The rating is derived: the stored ratings go, the rating pools come

Revision ID: 0022
Revises: 0015

- ``rating`` (a person's μ, σ and games, written at the awards) is dropped: the rating
  is computed from the counted sheets of the awarded divisions on every reading
  (``meldtour.tournament.rating``), so a correction, a merge or a split can never leave
  a stored copy behind.
- ``rating_pool``: the federation's choice of the pool a division is rated in, instead
  of its template's (``none``: not rated).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0022"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_table("rating")
    op.create_table(
        "rating_pool",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("division_id", sa.Integer(), nullable=False),
        sa.Column("pool", sa.String(length=40), nullable=False),
        sa.Column("set_by", sa.String(length=200), nullable=False),
        sa.Column("set_at", sa.String(length=40), nullable=False),
        sa.ForeignKeyConstraint(
            ["division_id"], ["division.id"], name=op.f("fk_rating_pool_division_id_division")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rating_pool")),
        sa.UniqueConstraint("division_id", name=op.f("uq_rating_pool_division_id")),
    )


def downgrade() -> None:
    op.drop_table("rating_pool")
    op.create_table(
        "rating",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.String(length=40), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["player.id"], name=op.f("fk_rating_player_id_player")
        ),
        sa.PrimaryKeyConstraint("player_id", name=op.f("pk_rating")),
    )
