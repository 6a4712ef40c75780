"""An index on the table chat by table: a table loaded again reads its recent messages back
(the chat of a table that left memory), and without it that read scanned the room's chat.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-02
"""

from __future__ import annotations

from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_index("ix_chat_messages_table_code_id", "chat_messages", ["table_code", "id"])


def downgrade() -> None:
    op.drop_index("ix_chat_messages_table_code_id", table_name="chat_messages")
