"""A guest's try of a puzzle no longer buys an account's first try of it (issue 34, item 15): a
guest's try is answered with the answer, and the account's first try then counted (20/20, 1000
to 1973). The browser and the address of each guest's try are kept, hashed, for the day it was
made, and an account's try from either on that day is kept as tried but not counted:
``puzzle_tries.counted`` says which tries moved the rating.

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0019"
down_revision: str | None = "0018"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.add_column(
        "puzzle_tries",
        sa.Column("counted", sa.Boolean, nullable=False, server_default=sa.true()),
    )
    op.create_table(
        "puzzle_guest_tries",
        sa.Column("day", sa.Date, primary_key=True),
        sa.Column("preset", sa.String(16), primary_key=True),
        sa.Column("puzzle_id", sa.String(32), primary_key=True),
        sa.Column("mark", sa.String(64), primary_key=True),
    )


def downgrade() -> None:
    op.drop_table("puzzle_guest_tries")
    with op.batch_alter_table("puzzle_tries") as batch:
        batch.drop_column("counted")
