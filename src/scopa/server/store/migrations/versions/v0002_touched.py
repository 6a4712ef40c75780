"""When a table last changed: waiting tables nobody joins expire from it.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("touched_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    op.drop_column("tables", "touched_at")
