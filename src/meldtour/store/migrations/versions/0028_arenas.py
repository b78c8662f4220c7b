"""Arenas: an online event open to everyone for a set time, its players and its games

Revision ID: 0028
Revises: 0024

- ``arena``: name, preset, turn's seconds, when it opens and closes, who opened it;
- ``arena_player``: who joined (their ticket's hash), name, account, rating;
- ``arena_game``: which player sat at which seat of which live game (results: the log's).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0028"
down_revision = "0024"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "arena",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("name", sa.String(length=120), nullable=False),
        sa.Column("preset", sa.String(length=60), nullable=False),
        sa.Column("turn_seconds", sa.Integer(), nullable=False),
        sa.Column("starts_at", sa.Float(), nullable=False),
        sa.Column("ends_at", sa.Float(), nullable=False),
        sa.Column("opened_by", sa.String(length=120), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_arena")),
    )
    op.create_index(op.f("ix_arena_ends_at"), "arena", ["ends_at"])
    op.create_table(
        "arena_player",
        sa.Column("arena_id", sa.String(length=40), nullable=False),
        sa.Column("id", sa.String(length=80), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=True),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("joined_at", sa.Float(), nullable=False),
        sa.Column("entry", sa.String(length=80), nullable=False),
        sa.ForeignKeyConstraint(
            ["arena_id"], ["arena.id"], name=op.f("fk_arena_player_arena_id_arena")
        ),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["player_account.id"],
            name=op.f("fk_arena_player_account_id_player_account"),
        ),
        sa.PrimaryKeyConstraint("arena_id", "id", name=op.f("pk_arena_player")),
    )
    op.create_index(op.f("ix_arena_player_account_id"), "arena_player", ["account_id"])
    op.create_index(op.f("ix_arena_player_entry"), "arena_player", ["entry"])
    op.create_table(
        "arena_game",
        sa.Column("game_id", sa.String(length=40), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("arena_id", sa.String(length=40), nullable=False),
        sa.Column("player_id", sa.String(length=80), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["arena_id"], ["arena.id"], name=op.f("fk_arena_game_arena_id_arena")
        ),
        sa.PrimaryKeyConstraint("game_id", "seat", name=op.f("pk_arena_game")),
    )
    op.create_index(op.f("ix_arena_game_arena_id"), "arena_game", ["arena_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_arena_game_arena_id"), table_name="arena_game")
    op.drop_table("arena_game")
    op.drop_index(op.f("ix_arena_player_entry"), table_name="arena_player")
    op.drop_index(op.f("ix_arena_player_account_id"), table_name="arena_player")
    op.drop_table("arena_player")
    op.drop_index(op.f("ix_arena_ends_at"), table_name="arena")
    op.drop_table("arena")
