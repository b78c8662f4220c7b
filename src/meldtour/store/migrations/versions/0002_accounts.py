"""Director accounts

Revision ID: 0002
Revises: 0001

Accounts move into the store, so that migrations and backups cover them. A database
on which an earlier web app made its own ``web_account`` table keeps its accounts.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "account",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("password_hash", sa.String(length=255), nullable=False),
        sa.Column("role", sa.String(length=20), nullable=False),
        sa.Column("created_at", sa.String(length=40), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_account")),
        sa.UniqueConstraint("name", name=op.f("uq_account_name")),
    )
    bind = op.get_bind()
    if sa.inspect(bind).has_table("web_account"):
        bind.execute(
            sa.text(
                "INSERT INTO account (id, name, password_hash, role, created_at) "
                "SELECT id, name, password_hash, role, created_at FROM web_account"
            )
        )
        op.drop_table("web_account")


def downgrade() -> None:
    op.drop_table("account")
