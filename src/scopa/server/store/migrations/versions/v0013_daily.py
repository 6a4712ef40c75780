"""The daily deal: the secret the days' seeds come from, each day's master play, and the
players' attempts (issue 24, item 2).

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "daily_secrets",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("secret", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "daily_deals",
        sa.Column("day", sa.Date, primary_key=True),
        sa.Column("master_match", sa.Integer, nullable=True),
        sa.Column("claimed_by", sa.String(64), nullable=True),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_table(
        "daily_attempts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("day", sa.Date, nullable=False),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("table_code", sa.String(16), nullable=False, unique=True),
        sa.Column("match_id", sa.Integer, nullable=True, unique=True),
        sa.Column("won", sa.Boolean, nullable=True),
        sa.Column("margin", sa.Integer, nullable=True),
        sa.Column("scores", sa.JSON, nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint("day", "account_id", name="uq_daily_attempts_day_account"),
    )
    op.create_index("ix_daily_attempts_account", "daily_attempts", ["account_id", "day"])


def downgrade() -> None:
    op.drop_index("ix_daily_attempts_account", table_name="daily_attempts")
    op.drop_table("daily_attempts")
    op.drop_table("daily_deals")
    op.drop_table("daily_secrets")
