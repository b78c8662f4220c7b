"""Signed-out sessions are refused

Revision ID: 0009
Revises: 0008

- ``revoked_session``: the nonce of each director's session signed out before its
  expiry, kept until then (``meldtour.store.sessions``): a copied session cookie no
  longer works after its owner signs out.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "revoked_session",
        sa.Column("nonce", sa.String(length=64), nullable=False),
        sa.Column("expires_at", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("nonce", name=op.f("pk_revoked_session")),
    )
    with op.batch_alter_table("revoked_session", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_revoked_session_expires_at"), ["expires_at"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("revoked_session", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_revoked_session_expires_at"))
    op.drop_table("revoked_session")
