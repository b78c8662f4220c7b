"""Claim codes and reserved seats

Revision ID: 0016
Revises: 0015

- ``qualification_grant.claim_secret``: the secret a grant's claim codes are made
  from (a holder claims a seat on the public form with their code, never by a name);
  grants made before get one here.
- ``division_quota.open`` and ``until``: a quota that reserves its seats inside an
  open division until a day (then they are released), instead of making the whole
  division by qualification only.
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("qualification_grant", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("claim_secret", sa.String(length=64), nullable=False, server_default="")
        )
    with op.batch_alter_table("division_quota", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("open", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch_op.add_column(sa.Column("until", sa.String(length=10), nullable=True))
    bind = op.get_bind()
    grant = sa.table(
        "qualification_grant", sa.column("id", sa.Integer), sa.column("claim_secret", sa.String)
    )
    for (gid,) in bind.execute(sa.select(grant.c.id)).all():
        bind.execute(
            grant.update().where(grant.c.id == gid).values(claim_secret=secrets.token_hex(16))
        )


def downgrade() -> None:
    with op.batch_alter_table("division_quota", schema=None) as batch_op:
        batch_op.drop_column("until")
        batch_op.drop_column("open")
    with op.batch_alter_table("qualification_grant", schema=None) as batch_op:
        batch_op.drop_column("claim_secret")
