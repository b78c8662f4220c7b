"""The circuit: people's details, merges, rankings, final places, qualifications

Revision ID: 0010
Revises: 0009

- ``person``: what tells a person apart (member number, birth year, contact, public);
- ``person_merge``: each merge and split (which registrations moved, who, why);
- ``ranking_def`` and ``ranking_event``: an organisation's rankings and the divisions
  they count;
- ``division_result``: each registration's final place, written at the awards;
- ``qualification_grant``, ``qualification_decline``, ``division_quota``: what an award
  qualifies for, who declined, and the seats of a division by qualification only.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "person",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("member_number", sa.String(length=40), nullable=True),
        sa.Column("birth_year", sa.Integer(), nullable=True),
        sa.Column("contact", sa.String(length=200), nullable=True),
        sa.Column("public", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["player.id"], name=op.f("fk_person_player_id_player")
        ),
        sa.PrimaryKeyConstraint("player_id", name=op.f("pk_person")),
        sa.UniqueConstraint("member_number", name=op.f("uq_person_member_number")),
    )
    op.create_table(
        "person_merge",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("source_id", sa.Integer(), nullable=False),
        sa.Column("target_id", sa.Integer(), nullable=False),
        sa.Column("registrations", sa.JSON(none_as_null=True), nullable=False),
        sa.Column("who", sa.String(length=200), nullable=False),
        sa.Column("why", sa.Text(), nullable=False),
        sa.Column("at", sa.String(length=40), nullable=False),
        sa.ForeignKeyConstraint(
            ["source_id"], ["player.id"], name=op.f("fk_person_merge_source_id_player")
        ),
        sa.ForeignKeyConstraint(
            ["target_id"], ["player.id"], name=op.f("fk_person_merge_target_id_player")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_person_merge")),
    )
    op.create_index(op.f("ix_person_merge_source_id"), "person_merge", ["source_id"])
    op.create_index(op.f("ix_person_merge_target_id"), "person_merge", ["target_id"])
    op.create_table(
        "ranking_def",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=100), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("organisation", sa.String(length=200), nullable=False),
        sa.Column("config", sa.JSON(none_as_null=True), nullable=False),
        sa.Column("counts_all", sa.Boolean(), nullable=False),
        sa.Column("default_level", sa.String(length=40), nullable=False),
        sa.Column("created_at", sa.String(length=40), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ranking_def")),
        sa.UniqueConstraint("key", name=op.f("uq_ranking_def_key")),
    )
    op.create_table(
        "ranking_event",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("ranking_id", sa.Integer(), nullable=False),
        sa.Column("division_id", sa.Integer(), nullable=False),
        sa.Column("level", sa.String(length=40), nullable=False),
        sa.ForeignKeyConstraint(
            ["division_id"], ["division.id"], name=op.f("fk_ranking_event_division_id_division")
        ),
        sa.ForeignKeyConstraint(
            ["ranking_id"], ["ranking_def.id"], name=op.f("fk_ranking_event_ranking_id_ranking_def")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ranking_event")),
        sa.UniqueConstraint("ranking_id", "division_id", name=op.f("uq_ranking_event_ranking_id")),
    )
    op.create_index(op.f("ix_ranking_event_division_id"), "ranking_event", ["division_id"])
    op.create_index(op.f("ix_ranking_event_ranking_id"), "ranking_event", ["ranking_id"])
    op.create_table(
        "division_result",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("division_id", sa.Integer(), nullable=False),
        sa.Column("registration_id", sa.Integer(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("field", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["division_id"], ["division.id"], name=op.f("fk_division_result_division_id_division")
        ),
        sa.ForeignKeyConstraint(
            ["registration_id"],
            ["registration.id"],
            name=op.f("fk_division_result_registration_id_registration"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_division_result")),
        sa.UniqueConstraint("registration_id", name=op.f("uq_division_result_registration_id")),
    )
    op.create_index(op.f("ix_division_result_division_id"), "division_result", ["division_id"])
    op.create_table(
        "qualification_grant",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("division_id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=100), nullable=False),
        sa.Column("label", sa.String(length=200), nullable=False),
        sa.Column("seats", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["division_id"],
            ["division.id"],
            name=op.f("fk_qualification_grant_division_id_division"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_qualification_grant")),
        sa.UniqueConstraint("division_id", "key", name=op.f("uq_qualification_grant_division_id")),
    )
    op.create_index(
        op.f("ix_qualification_grant_division_id"), "qualification_grant", ["division_id"]
    )
    op.create_index(op.f("ix_qualification_grant_key"), "qualification_grant", ["key"])
    op.create_table(
        "qualification_decline",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("grant_id", sa.Integer(), nullable=False),
        sa.Column("registration_id", sa.Integer(), nullable=False),
        sa.Column("who", sa.String(length=200), nullable=False),
        sa.Column("why", sa.Text(), nullable=False),
        sa.Column("at", sa.String(length=40), nullable=False),
        sa.ForeignKeyConstraint(
            ["grant_id"],
            ["qualification_grant.id"],
            name=op.f("fk_qualification_decline_grant_id_qualification_grant"),
        ),
        sa.ForeignKeyConstraint(
            ["registration_id"],
            ["registration.id"],
            name=op.f("fk_qualification_decline_registration_id_registration"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_qualification_decline")),
        sa.UniqueConstraint(
            "grant_id", "registration_id", name=op.f("uq_qualification_decline_grant_id")
        ),
    )
    op.create_index(
        op.f("ix_qualification_decline_grant_id"), "qualification_decline", ["grant_id"]
    )
    op.create_table(
        "division_quota",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("division_id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=100), nullable=False),
        sa.Column("seats", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["division_id"], ["division.id"], name=op.f("fk_division_quota_division_id_division")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_division_quota")),
        sa.UniqueConstraint("division_id", "key", name=op.f("uq_division_quota_division_id")),
    )
    op.create_index(op.f("ix_division_quota_division_id"), "division_quota", ["division_id"])


def downgrade() -> None:
    for table in (
        "division_quota",
        "qualification_decline",
        "qualification_grant",
        "division_result",
        "ranking_event",
        "ranking_def",
        "person_merge",
        "person",
    ):
        op.drop_table(table)
