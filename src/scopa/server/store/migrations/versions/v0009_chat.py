"""Talk at the table: the messages said at tables, the reports on them, and the moderators'
sanctions on accounts (issue 23, item 3).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_code", sa.String(16), nullable=False),
        sa.Column("match_id", sa.Integer, nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("spectator", sa.Integer, nullable=True),
        sa.Column("account_id", sa.Integer, nullable=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("phrase", sa.String(16), nullable=True),
        sa.Column("text", sa.String(200), nullable=True),
        sa.Column("audience", sa.String(16), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_chat_messages_match_id", "chat_messages", ["match_id"])
    op.create_table(
        "chat_reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("message_id", sa.Integer, nullable=False),
        sa.Column("table_code", sa.String(16), nullable=False),
        sa.Column("match_id", sa.Integer, nullable=True),
        sa.Column("version", sa.Integer, nullable=True),
        sa.Column("reporter_seat", sa.Integer, nullable=True),
        sa.Column("reporter_account", sa.Integer, nullable=True),
        sa.Column("message", sa.JSON, nullable=False),
        sa.Column("context", sa.JSON, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_chat_reports_message_id", "chat_reports", ["message_id"])
    op.create_table(
        "account_sanctions",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("kind", sa.String(8), primary_key=True),
        sa.Column("reason", sa.String(200), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("account_sanctions")
    op.drop_index("ix_chat_reports_message_id", "chat_reports")
    op.drop_table("chat_reports")
    op.drop_index("ix_chat_messages_match_id", "chat_messages")
    op.drop_table("chat_messages")
