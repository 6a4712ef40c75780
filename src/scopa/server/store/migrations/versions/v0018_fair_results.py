"""Results that cannot be farmed (issue 34, item B): what a match's end and a deal decide.

* ``account_matches.short``: the match ended before each side had made 2 moves of its own, so
  it was rated for nobody, and counts neither toward a newcomer's first matches nor anywhere.
* ``table_modes.casual``: why a table chosen rated plays its match casual (``pair_cap``: its
  two accounts played their rated matches of the day together already), decided at each deal.
* ``tournament_games.counted``: false for a game whose match was as short; the standings
  leave it out. Every result stored before counts, as it did.

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.add_column(
        "account_matches",
        sa.Column("short", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.add_column("table_modes", sa.Column("casual", sa.String(16), nullable=True))
    op.add_column(
        "tournament_games",
        sa.Column("counted", sa.Boolean, nullable=False, server_default=sa.true()),
    )


def downgrade() -> None:
    with op.batch_alter_table("tournament_games") as batch:
        batch.drop_column("counted")
    with op.batch_alter_table("table_modes") as batch:
        batch.drop_column("casual")
    with op.batch_alter_table("account_matches") as batch:
        batch.drop_column("short")
