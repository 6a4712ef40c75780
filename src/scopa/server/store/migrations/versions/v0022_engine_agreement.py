"""Engine agreement (issue 34, item D): after a rated match, the master judges each person's
moves, and ``engine_agreement`` keeps per account and match how many positions where the choice
mattered it met, how many it played as the master would, and what its other moves cost. A row
is claimed by one process (``owner``, ``claimed_at``) before it is judged, and complete once
``judged_at`` is set.

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0022"
down_revision: str | None = "0021"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "engine_agreement",
        sa.Column("match_id", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("judged_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("positions", sa.Integer, nullable=True),
        sa.Column("matched", sa.Integer, nullable=True),
        sa.Column("cost", sa.Float, nullable=True),
        sa.Column("rating", sa.Integer, nullable=True),
        sa.Column("evidence", sa.JSON, nullable=True),
        sa.Index("ix_engine_agreement_account", "account_id", "judged_at"),
    )


def downgrade() -> None:
    op.drop_table("engine_agreement")
