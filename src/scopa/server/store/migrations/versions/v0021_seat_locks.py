"""An account's seat lock: the public half of a key pair its seat key gives, so the room seals
the seats it gives the account (a pool's pairing, a challenge, a tournament's game) without
the key only its browsers hold, and those seats follow the player too (issue 35, item 11).

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0021"
down_revision: str | None = "0020"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.add_column("accounts", sa.Column("seat_lock", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("seat_lock")
