"""Puzzle ratings and each account's first try of each puzzle (issue 24, item 1).

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "puzzle_ratings",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("preset", sa.String(16), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("tries", sa.Integer, nullable=False),
        sa.Column("solved", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "puzzle_tries",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("preset", sa.String(16), primary_key=True),
        sa.Column("puzzle_id", sa.String(32), primary_key=True),
        sa.Column("move", sa.String(64), nullable=False),
        sa.Column("solved", sa.Boolean, nullable=False),
        sa.Column("display_before", sa.Integer, nullable=False),
        sa.Column("display_after", sa.Integer, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_puzzle_tries_account_at", "puzzle_tries", ["account_id", "at"])


def downgrade() -> None:
    op.drop_index("ix_puzzle_tries_account_at", "puzzle_tries")
    op.drop_table("puzzle_tries")
    op.drop_table("puzzle_ratings")
