"""Linked accounts and moderators' marks (issue 34, items C and E).

- ``sightings``: each login and each seat taken at a table, by account, with the keyed hashes
  of the address and the browser's key it came from; kept 30 days, so that a moderator can
  list the accounts that share them (``scopa moderate links``).
- ``room_keys``: the room's own random key for those hashes, made here once: without it a
  hash of an IPv4 address could be reversed by trying all 2**32.
- ``account_marks``: an account marked as an engine user or a booster, off the leaderboards
  and out of rated play; ``moderation_acts`` logs every mark and unmark, who and when; and
  ``rating_refunds`` what each mark gave back to the opponents, which its unmark takes back.

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-04
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision: str = "0020"
down_revision: str | None = "0019"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    keys = op.create_table(
        "room_keys",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("secret", sa.String(128), nullable=False),
    )
    op.bulk_insert(keys, [{"name": "sightings", "secret": secrets.token_hex(32)}])
    op.create_table(
        "sightings",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("kind", sa.String(8), primary_key=True),
        sa.Column("table_code", sa.String(16), primary_key=True),
        sa.Column("address", sa.String(64), primary_key=True),
        sa.Column("browser", sa.String(64), primary_key=True),
        sa.Column("first_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_sightings_address", "sightings", ["address"])
    op.create_index("ix_sightings_browser", "sightings", ["browser"])
    op.create_index("ix_sightings_last_at", "sightings", ["last_at"])
    op.create_table(
        "account_marks",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("act_id", sa.Integer, nullable=False),
    )
    op.create_table(
        "moderation_acts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("act", sa.String(8), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("reason", sa.String(200), nullable=False),
        sa.Column("moderator", sa.String(64), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Index("ix_moderation_acts_account", "account_id", "at"),
    )
    op.create_table(
        "rating_refunds",
        sa.Column("act_id", sa.Integer, sa.ForeignKey("moderation_acts.id"), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("match_id", sa.Integer, primary_key=True),
        sa.Column("pool", sa.String(32), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rating_refunds")
    op.drop_table("moderation_acts")
    op.drop_table("account_marks")
    op.drop_index("ix_sightings_last_at", "sightings")
    op.drop_index("ix_sightings_browser", "sightings")
    op.drop_index("ix_sightings_address", "sightings")
    op.drop_table("sightings")
    op.drop_table("room_keys")
