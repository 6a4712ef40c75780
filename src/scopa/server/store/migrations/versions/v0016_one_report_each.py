"""One report per reporter and message (issue 34, item 7): one guest filed 15 reports of one
message. An account reports a message once, and so does a guest's seat (the reports of a guest
watching, who is refused from now on, stay as they were). The duplicates already stored go
first, the earliest of each kept, since a unique index cannot be made over them.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | None = None
depends_on: str | None = None

GUESTS = sa.text("reporter_account IS NULL")


def upgrade() -> None:
    op.execute(
        "DELETE FROM chat_reports WHERE reporter_account IS NOT NULL AND id > ("
        "SELECT MIN(earlier.id) FROM chat_reports AS earlier"
        " WHERE earlier.message_id = chat_reports.message_id"
        " AND earlier.reporter_account = chat_reports.reporter_account)"
    )
    op.execute(
        "DELETE FROM chat_reports WHERE reporter_account IS NULL AND reporter_seat IS NOT NULL"
        " AND id > (SELECT MIN(earlier.id) FROM chat_reports AS earlier"
        " WHERE earlier.message_id = chat_reports.message_id"
        " AND earlier.reporter_account IS NULL"
        " AND earlier.reporter_seat = chat_reports.reporter_seat)"
    )
    op.create_index("uq_chat_reports_account", "chat_reports",
                    ["message_id", "reporter_account"], unique=True)
    op.create_index("uq_chat_reports_guest_seat", "chat_reports",
                    ["message_id", "reporter_seat"], unique=True,
                    sqlite_where=GUESTS, postgresql_where=GUESTS)


def downgrade() -> None:
    op.drop_index("uq_chat_reports_guest_seat", table_name="chat_reports")
    op.drop_index("uq_chat_reports_account", table_name="chat_reports")
