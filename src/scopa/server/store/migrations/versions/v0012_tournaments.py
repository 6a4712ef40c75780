"""Tournaments in the room: arenas and Swiss nights, their players and their games (issue 24,
item 3).

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("preset", sa.String(32), nullable=False),
        sa.Column("minutes", sa.Integer, nullable=True),
        sa.Column("rounds", sa.Integer, nullable=True),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ends_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_by", sa.Integer, nullable=True),
        sa.Column("daily_key", sa.String(32), nullable=True, unique=True),
        sa.Column("round", sa.Integer, nullable=False, server_default=sa.text("0")),
        sa.Column("pairings", sa.Integer, nullable=False, server_default=sa.text("0")),
        sa.Column("podium", sa.JSON, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_tournaments_status", "tournaments", ["status"])
    op.create_index("ix_tournaments_created_by", "tournaments", ["created_by"])
    op.create_table(
        "tournament_players",
        sa.Column("tournament_id", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("withdrawn", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "tournament_games",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("tournament_id", sa.Integer, nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("first", sa.Integer, nullable=False),
        sa.Column("second", sa.Integer, nullable=True),
        sa.Column("table_code", sa.String(16), nullable=True, unique=True),
        sa.Column("first_token", sa.String(64), nullable=True),
        sa.Column("second_token", sa.String(64), nullable=True),
        sa.Column("match_id", sa.Integer, nullable=True),
        sa.Column("winner", sa.Integer, nullable=True),
        sa.Column("first_score", sa.Integer, nullable=True),
        sa.Column("second_score", sa.Integer, nullable=True),
        sa.Column("paired_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint("tournament_id", "round", "first", name="uq_tournament_games_first"),
    )
    op.create_index("ix_tournament_games_tournament_id", "tournament_games", ["tournament_id"])


def downgrade() -> None:
    op.drop_table("tournament_games")
    op.drop_table("tournament_players")
    op.drop_index("ix_tournaments_created_by", "tournaments")
    op.drop_index("ix_tournaments_status", "tournaments")
    op.drop_table("tournaments")
