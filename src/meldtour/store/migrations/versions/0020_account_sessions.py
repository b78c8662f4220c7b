"""Accounts can be disabled, and a person's sessions ended

Revision ID: 0020
Revises: 0015

- ``account.disabled``: the administrator disabled the account: it cannot sign in and
  its sessions are refused.
- ``account.session_epoch``: a session cookie carries the epoch it was signed at; a
  changed password, a disabled account or "end my other sessions" moves the epoch on,
  so every copy of an older cookie is refused at once (``meldtour.application.accounts``).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0022"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("account", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("disabled", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch_op.add_column(
            sa.Column("session_epoch", sa.Integer(), nullable=False, server_default="0")
        )


def downgrade() -> None:
    with op.batch_alter_table("account", schema=None) as batch_op:
        batch_op.drop_column("session_epoch")
        batch_op.drop_column("disabled")
