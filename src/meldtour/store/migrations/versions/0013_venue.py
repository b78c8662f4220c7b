"""The installation's settings (the public address phones at the venue open)

Revision ID: 0013
Revises: 0012

- ``site_setting``: a key and a text value each, with who set it and when
  (``meldtour.store.site``); ``public_address`` is the address printed in every QR code.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "site_setting",
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.Column("updated_at", sa.String(length=40), nullable=False),
        sa.Column("updated_by", sa.String(length=80), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_site_setting")),
    )


def downgrade() -> None:
    op.drop_table("site_setting")
