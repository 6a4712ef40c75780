"""Correspondence play (issue 36, items 1 to 3): ``tables.pace`` says how a table's turns are
timed (``live``, the turn clock of a table in memory; ``correspondence``, days a move, the
table kept in the database between moves). ``correspondence_matches`` keeps each
correspondence table's clock in wall time, ``correspondence_offers`` the offers and seeks
waiting for an answer, ``correspondence_vacations`` each account's vacation days spent by year.

Revision ID: 0025
Revises: 0024
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0025"
down_revision: str | None = "0024"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("pace", sa.String(16), nullable=False,
                                   server_default="live"))
    op.create_index("ix_tables_status_pace", "tables", ["status", "pace"])
    op.create_table(
        "correspondence_matches",
        sa.Column("table_code", sa.String(16), sa.ForeignKey("tables.code"), primary_key=True),
        sa.Column("days", sa.Integer, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("mover", sa.Integer, nullable=True),
        sa.Column("turn_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("deadline", sa.DateTime(timezone=True), nullable=True),
        sa.Column("alarm_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("vacation", sa.Integer, nullable=False, server_default=sa.text("0")),
        sa.Column("patient", sa.JSON, nullable=False),
        sa.Column("overdue", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Index("ix_correspondence_deadline", "status", "deadline"),
        sa.Index("ix_correspondence_alarm", "alarm_at"),
    )
    op.create_table(
        "correspondence_offers",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("from_account", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("to_account", sa.Integer, sa.ForeignKey("accounts.id"), nullable=True),
        sa.Column("preset", sa.String(16), nullable=False),
        sa.Column("target", sa.Integer, nullable=True),
        sa.Column("look", sa.String(16), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("days", sa.Integer, nullable=False),
        sa.Column("state", sa.String(12), nullable=False),
        sa.Column("table_code", sa.String(16), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Index("ix_correspondence_offers_from", "from_account", "state"),
        sa.Index("ix_correspondence_offers_to", "to_account", "state"),
        sa.Index("ix_correspondence_offers_kind", "kind", "state", "preset", "days"),
    )
    op.create_table(
        "correspondence_vacations",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("year", sa.Integer, primary_key=True),
        sa.Column("used", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("correspondence_vacations")
    op.drop_table("correspondence_offers")
    op.drop_table("correspondence_matches")
    op.drop_index("ix_tables_status_pace", "tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("pace")
