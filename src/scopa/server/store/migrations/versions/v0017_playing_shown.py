"""Whom an account shows where it plays (issue 34, item 8): following needs no consent, and a
follower saw the table each person they followed was playing at, a daily deal's too. An account
now says who sees its table: ``all`` who follow it, ``follows`` (those it follows back: the
default, so an account that never chose shows its table to no stranger) or ``none``. The
setting sits beside whom it takes challenges from, in the same row.

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.add_column(
        "challenge_settings",
        sa.Column("playing_shown", sa.String(8), nullable=False, server_default="follows"),
    )


def downgrade() -> None:
    with op.batch_alter_table("challenge_settings") as batch:
        batch.drop_column("playing_shown")
