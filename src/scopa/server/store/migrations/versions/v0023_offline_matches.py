"""Offline play's matches (issue 37, item 4): ``offline_matches`` keeps each match an account
played against the computer in its browser and uploaded, with its record played again by the
core, unique per account by the browser's id for it and by the record's hash. A table of its
own, beside ``matches``: nothing that rates, ranks, mines or judges matches reads it.

Revision ID: 0023
Revises: 0022
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0023"
down_revision: str | None = "0022"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "offline_matches",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("client_id", sa.String(36), nullable=False),
        sa.Column("record_hash", sa.String(64), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("opponents", sa.JSON, nullable=False),
        sa.Column("look", sa.String(16), nullable=False),
        sa.Column("rules", sa.JSON, nullable=False),
        sa.Column("record", sa.JSON, nullable=False),
        sa.Column("result", sa.String(8), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("uploaded_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("account_id", "client_id", name="uq_offline_matches_client_id"),
        sa.UniqueConstraint("account_id", "record_hash", name="uq_offline_matches_record"),
        sa.Index("ix_offline_matches_account", "account_id", "finished_at"),
    )


def downgrade() -> None:
    op.drop_table("offline_matches")
