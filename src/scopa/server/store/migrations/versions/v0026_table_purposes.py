"""A table's mode says what the table is for (``table_modes.purpose``): ``tournament`` (its
director chose who plays, so no daily cap between two accounts turns its rated games casual)
or ``daily`` (the day's deal); none for any other. The ratings and the master's hints read it
there, written by the feature that makes the table, instead of reading the tournaments' and
the daily deal's own tables; the tables made before are marked so here.

Revision ID: 0026
Revises: 0025
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0026"
down_revision: str | None = "0025"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("table_modes") as batch:
        batch.add_column(sa.Column("purpose", sa.String(16), nullable=True))
    op.execute("UPDATE table_modes SET purpose = 'tournament' WHERE table_code IN "
               "(SELECT table_code FROM tournament_games WHERE table_code IS NOT NULL)")
    op.execute("UPDATE table_modes SET purpose = 'daily' WHERE table_code IN "
               "(SELECT table_code FROM daily_attempts)")
    op.execute("INSERT INTO table_modes (table_code, rated, purpose) "
               "SELECT DISTINCT table_code, FALSE, 'daily' FROM daily_attempts "
               "WHERE table_code NOT IN (SELECT table_code FROM table_modes)")


def downgrade() -> None:
    with op.batch_alter_table("table_modes") as batch:
        batch.drop_column("purpose")
