"""The matches each account played, rated or casual: the profile's history and its record.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "account_matches",
        sa.Column("match_id", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("pool", sa.String(32), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("result", sa.String(8), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_account_matches_account", "account_matches", ["account_id", "at"])


def downgrade() -> None:
    op.drop_index("ix_account_matches_account", "account_matches")
    op.drop_table("account_matches")
