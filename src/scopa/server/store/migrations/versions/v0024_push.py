"""Web Push (issue 36, item 5): ``push_subscriptions`` keeps the browsers that take an
account's notifications, ``push_choices`` the kinds an account turned off, ``push_sent`` the
events already pushed (each once, by its key, however many processes hear it). The room's
VAPID key is made here, once, as a ``room_keys`` row: every process signs with it, and
processes that start together migrate one at a time.

Revision ID: 0024
Revises: 0023
Create Date: 2026-12-07
"""

from __future__ import annotations

import base64

import sqlalchemy as sa
from alembic import op
from cryptography.hazmat.primitives.asymmetric import ec

revision: str = "0024"
down_revision: str | None = "0023"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("endpoint", sa.String(1024), nullable=False, unique=True),
        sa.Column("p256dh", sa.String(100), nullable=False),
        sa.Column("auth", sa.String(32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Index("ix_push_subscriptions_account", "account_id", "seen_at"),
    )
    op.create_table(
        "push_choices",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("kind", sa.String(24), primary_key=True),
        sa.Column("enabled", sa.Boolean, nullable=False),
    )
    op.create_table(
        "push_sent",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("once", sa.String(96), primary_key=True),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=False),
        sa.Index("ix_push_sent_at", "sent_at"),
    )
    # The VAPID private key: the P-256 scalar, 32 bytes, base64url without padding.
    scalar = ec.generate_private_key(ec.SECP256R1()).private_numbers().private_value
    secret = base64.urlsafe_b64encode(scalar.to_bytes(32, "big")).rstrip(b"=").decode()
    keys = sa.table("room_keys", sa.column("name", sa.String), sa.column("secret", sa.String))
    op.bulk_insert(keys, [{"name": "vapid", "secret": secret}])


def downgrade() -> None:
    op.execute("DELETE FROM room_keys WHERE name = 'vapid'")
    op.drop_table("push_sent")
    op.drop_table("push_choices")
    op.drop_table("push_subscriptions")
