"""Each table's writer epoch, and which people's seats a stand-in bot plays for.

A process that takes a table over (a lease won, a restart) raises the table's ``epoch``, and
every write of the table names the epoch its writer loaded, so the database itself refuses the
writes of an owner whose lease lapsed. ``stand_in`` keeps a bot playing for an away person
through a restart or a takeover.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.add_column(
        "tables", sa.Column("epoch", sa.Integer, nullable=False, server_default=sa.text("0"))
    )
    op.add_column(
        "seats",
        sa.Column("stand_in", sa.Boolean, nullable=False, server_default=sa.false()),
    )


def downgrade() -> None:
    op.drop_column("seats", "stand_in")
    op.drop_column("tables", "epoch")
