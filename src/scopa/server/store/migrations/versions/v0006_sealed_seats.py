"""An account's seat token, sealed under a key only its browsers hold: seats follow a player.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.add_column("seat_accounts", sa.Column("sealed", sa.String(256), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seat_accounts") as batch:
        batch.drop_column("sealed")
