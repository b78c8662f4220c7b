"""Tournaments, players, score sheets, games, awards, ratings and the audit log

Revision ID: 0001
Revises: (none)

The first migration creates every table of :mod:`meldtour.store.models`.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "player",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.String(length=40), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player")),
    )
    with op.batch_alter_table("player", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_player_name"), ["name"], unique=False)

    op.create_table(
        "tournament",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("slug", sa.String(length=100), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("date", sa.String(length=40), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("template", sa.String(length=100), nullable=False),
        sa.Column("created_at", sa.String(length=40), nullable=False),
        sa.Column("updated_at", sa.String(length=40), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament")),
        sa.UniqueConstraint("slug", name=op.f("uq_tournament_slug")),
    )
    op.create_table(
        "audit_log",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("at", sa.String(length=40), nullable=False),
        sa.Column("who", sa.String(length=200), nullable=False),
        sa.Column("action", sa.String(length=50), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=True),
        sa.Column("entity", sa.String(length=50), nullable=False),
        sa.Column("key", sa.String(length=200), nullable=False),
        sa.Column("before", sa.JSON(none_as_null=True), nullable=True),
        sa.Column("after", sa.JSON(none_as_null=True), nullable=True),
        sa.Column("why", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"], ["tournament.id"], name=op.f("fk_audit_log_tournament_id_tournament")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_audit_log")),
    )
    with op.batch_alter_table("audit_log", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_audit_log_tournament_id"), ["tournament_id"], unique=False
        )

    op.create_table(
        "division",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=100), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("cap", sa.Integer(), nullable=False),
        sa.Column("eligibility", sa.Text(), nullable=False),
        sa.Column("rules", sa.JSON(none_as_null=True), nullable=False),
        sa.Column("formats", sa.JSON(none_as_null=True), nullable=False),
        sa.Column("ranking", sa.JSON(none_as_null=True), nullable=True),
        sa.Column("keep_apart", sa.JSON(none_as_null=True), nullable=False),
        sa.Column("groups_hard", sa.Boolean(), nullable=False),
        sa.Column("late_entry", sa.Boolean(), nullable=False),
        sa.Column("prizes", sa.Integer(), nullable=False),
        sa.Column("started", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"], ["tournament.id"], name=op.f("fk_division_tournament_id_tournament")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_division")),
        sa.UniqueConstraint("tournament_id", "key", name=op.f("uq_division_tournament_id")),
    )
    with op.batch_alter_table("division", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_division_tournament_id"), ["tournament_id"], unique=False
        )

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
    op.create_table(
        "award",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("division_id", sa.Integer(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("awarded_at", sa.String(length=40), nullable=False),
        sa.ForeignKeyConstraint(
            ["division_id"], ["division.id"], name=op.f("fk_award_division_id_division")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_award")),
        sa.UniqueConstraint("division_id", "place", name=op.f("uq_award_division_id")),
    )
    with op.batch_alter_table("award", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_award_division_id"), ["division_id"], unique=False)

    op.create_table(
        "registration",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("division_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("tags", sa.JSON(none_as_null=True), nullable=False),
        sa.Column("generation", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("late", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["division_id"], ["division.id"], name=op.f("fk_registration_division_id_division")
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["player.id"], name=op.f("fk_registration_player_id_player")
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournament.id"],
            name=op.f("fk_registration_tournament_id_tournament"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_registration")),
        sa.UniqueConstraint("tournament_id", "number", name=op.f("uq_registration_tournament_id")),
    )
    with op.batch_alter_table("registration", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_registration_division_id"), ["division_id"], unique=False
        )
        batch_op.create_index(batch_op.f("ix_registration_player_id"), ["player_id"], unique=False)
        batch_op.create_index(
            batch_op.f("ix_registration_tournament_id"), ["tournament_id"], unique=False
        )

    op.create_table(
        "stage",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("division_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("format", sa.JSON(none_as_null=True), nullable=False),
        sa.Column("entrants", sa.JSON(none_as_null=True), nullable=False),
        sa.Column("plan", sa.JSON(none_as_null=True), nullable=False),
        sa.Column("dropped", sa.JSON(none_as_null=True), nullable=False),
        sa.Column("lots", sa.JSON(none_as_null=True), nullable=False),
        sa.Column("finished", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["division_id"], ["division.id"], name=op.f("fk_stage_division_id_division")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_stage")),
        sa.UniqueConstraint("division_id", "position", name=op.f("uq_stage_division_id")),
    )
    with op.batch_alter_table("stage", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_stage_division_id"), ["division_id"], unique=False)

    op.create_table(
        "round",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("stage_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("closed", sa.Boolean(), nullable=False),
        sa.Column("advanced", sa.JSON(none_as_null=True), nullable=False),
        sa.ForeignKeyConstraint(["stage_id"], ["stage.id"], name=op.f("fk_round_stage_id_stage")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_round")),
        sa.UniqueConstraint("stage_id", "number", name=op.f("uq_round_stage_id")),
    )
    with op.batch_alter_table("round", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_round_stage_id"), ["stage_id"], unique=False)

    op.create_table(
        "score_sheet",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("table_number", sa.Integer(), nullable=False),
        sa.Column("players", sa.JSON(none_as_null=True), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("counted", sa.Boolean(), nullable=False),
        sa.Column("entered_by", sa.String(length=200), nullable=True),
        sa.Column("entered_at", sa.String(length=40), nullable=True),
        sa.Column("submitted_by", sa.String(length=200), nullable=True),
        sa.Column("submitted_at", sa.String(length=40), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["round_id"], ["round.id"], name=op.f("fk_score_sheet_round_id_round")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_score_sheet")),
        sa.UniqueConstraint("round_id", "table_number", name=op.f("uq_score_sheet_round_id")),
    )
    with op.batch_alter_table("score_sheet", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_score_sheet_round_id"), ["round_id"], unique=False)

    op.create_table(
        "correction",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("sheet_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("game", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("field", sa.String(length=20), nullable=False),
        sa.Column("player", sa.Integer(), nullable=True),
        sa.Column("old", sa.Integer(), nullable=True),
        sa.Column("new", sa.Integer(), nullable=True),
        sa.Column("who", sa.String(length=200), nullable=False),
        sa.Column("why", sa.Text(), nullable=False),
        sa.Column("at", sa.String(length=40), nullable=False),
        sa.ForeignKeyConstraint(
            ["sheet_id"], ["score_sheet.id"], name=op.f("fk_correction_sheet_id_score_sheet")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_correction")),
        sa.UniqueConstraint("sheet_id", "position", name=op.f("uq_correction_sheet_id")),
    )
    with op.batch_alter_table("correction", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_correction_sheet_id"), ["sheet_id"], unique=False)

    op.create_table(
        "game",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("sheet_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("points", sa.JSON(none_as_null=True), nullable=False),
        sa.Column("penalties", sa.JSON(none_as_null=True), nullable=False),
        sa.Column("winner", sa.Integer(), nullable=True),
        sa.Column("counted_points", sa.JSON(none_as_null=True), nullable=True),
        sa.Column("counted_penalties", sa.JSON(none_as_null=True), nullable=True),
        sa.Column("counted_winner", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["sheet_id"], ["score_sheet.id"], name=op.f("fk_game_sheet_id_score_sheet")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game")),
        sa.UniqueConstraint("sheet_id", "number", name=op.f("uq_game_sheet_id")),
    )
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_game_sheet_id"), ["sheet_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_game_sheet_id"))

    op.drop_table("game")
    with op.batch_alter_table("correction", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_correction_sheet_id"))

    op.drop_table("correction")
    with op.batch_alter_table("score_sheet", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_score_sheet_round_id"))

    op.drop_table("score_sheet")
    with op.batch_alter_table("round", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_round_stage_id"))

    op.drop_table("round")
    with op.batch_alter_table("stage", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_stage_division_id"))

    op.drop_table("stage")
    with op.batch_alter_table("registration", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_registration_tournament_id"))
        batch_op.drop_index(batch_op.f("ix_registration_player_id"))
        batch_op.drop_index(batch_op.f("ix_registration_division_id"))

    op.drop_table("registration")
    with op.batch_alter_table("award", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_award_division_id"))

    op.drop_table("award")
    op.drop_table("rating")
    with op.batch_alter_table("division", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_division_tournament_id"))

    op.drop_table("division")
    with op.batch_alter_table("audit_log", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_audit_log_tournament_id"))

    op.drop_table("audit_log")
    op.drop_table("tournament")
    with op.batch_alter_table("player", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_player_name"))

    op.drop_table("player")
