"""Online players: accounts apart from the directors', their seats, the quick-play queue

Revision ID: 0024
Revises: 0023

- ``player_account``: a player's display name (``name_key`` folded, unique), an argon2
  hash, disabled, the session epoch;
- ``player_seat``: which account sat at which seat of which live game (ratings are
  computed from these and the game log, never stored);
- ``quick_entry``: the quick-play queue (``meldtour.store.players_online``).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0024"
down_revision = "0023"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "player_account",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("name_key", sa.String(length=200), nullable=False),
        sa.Column("password_hash", sa.String(length=255), nullable=False),
        sa.Column("created_at", sa.String(length=40), nullable=False),
        sa.Column("disabled", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("session_epoch", sa.Integer(), server_default="0", nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player_account")),
        sa.UniqueConstraint("name_key", name=op.f("uq_player_account_name_key")),
    )
    op.create_table(
        "player_seat",
        sa.Column("game_id", sa.String(length=40), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("how", sa.String(length=20), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["player_account.id"],
            name=op.f("fk_player_seat_account_id_player_account"),
        ),
        sa.PrimaryKeyConstraint("game_id", "seat", name=op.f("pk_player_seat")),
    )
    op.create_index(op.f("ix_player_seat_account_id"), "player_seat", ["account_id"])
    op.create_table(
        "quick_entry",
        sa.Column("id", sa.String(length=80), nullable=False),
        sa.Column("family", sa.String(length=120), nullable=False),
        sa.Column("preset", sa.String(length=60), nullable=False),
        sa.Column("turn_seconds", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=True),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("wait", sa.Float(), nullable=False),
        sa.Column("joined_at", sa.Float(), nullable=False),
        sa.Column("seen_at", sa.Float(), nullable=False),
        sa.Column("game_id", sa.String(length=40), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("token", sa.String(length=80), nullable=True),
        sa.Column("table", sa.JSON(none_as_null=True), nullable=True),
        sa.Column("offered_at", sa.Float(), nullable=True),
        sa.Column("accepted_at", sa.Float(), nullable=True),
        sa.Column("opened_at", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["player_account.id"],
            name=op.f("fk_quick_entry_account_id_player_account"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_quick_entry")),
    )
    op.create_index(op.f("ix_quick_entry_family"), "quick_entry", ["family"])
    op.create_index(op.f("ix_quick_entry_account_id"), "quick_entry", ["account_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_quick_entry_account_id"), table_name="quick_entry")
    op.drop_index(op.f("ix_quick_entry_family"), table_name="quick_entry")
    op.drop_table("quick_entry")
    op.drop_index(op.f("ix_player_seat_account_id"), table_name="player_seat")
    op.drop_table("player_seat")
    op.drop_table("player_account")
