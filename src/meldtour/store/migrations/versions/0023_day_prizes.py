"""The day's prizes and cards: a card's vote keeps the device that cast it; prize
titles per place; the certificates' signer lines

Revision ID: 0023
Revises: 0020

- ``winner_vote.device``: the browser key of the device that cast a vote with a card
  (a vote code): another phone typing the same card changes its vote only with a
  confirmation that says the card already voted.
- ``division.prize_titles``: the prize or award title of each place or range of
  places (``[{"first": 1, "last": 1, "title": "..."}]``), shown on the awards page
  and the certificates.
- ``tournament.signers``: the certificates' signer lines (empty: the director's and
  the chief referee's).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0023"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("winner_vote") as batch:
        batch.add_column(
            sa.Column("device", sa.String(length=64), nullable=False, server_default="")
        )
    with op.batch_alter_table("division") as batch:
        batch.add_column(sa.Column("prize_titles", sa.JSON(), nullable=True))
    with op.batch_alter_table("tournament") as batch:
        batch.add_column(sa.Column("signers", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tournament") as batch:
        batch.drop_column("signers")
    with op.batch_alter_table("division") as batch:
        batch.drop_column("prize_titles")
    with op.batch_alter_table("winner_vote") as batch:
        batch.drop_column("device")
