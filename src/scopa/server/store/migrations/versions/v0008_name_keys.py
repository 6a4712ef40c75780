"""Accounts are unique by what their names look like: each ``name_key`` becomes the TR39
skeleton key of :func:`scopa.server.accounts.accounts.name_key` (it was the name case-folded).

No account is renamed and none stops working. Where two existing names look alike (Latin
``Anna`` and Cyrillic ``\u0410nna``, NFC and NFD ``José``), the older account (the lower id)
takes the new key and the later one keeps its old key; each such clash is logged as a warning,
one line per clash, and so is each existing name that registration would refuse today. Login
and profiles look a typed name up by its old key first, so the later account is found by its
own name as before, while nobody can register a new look-alike of either (docs/accounts.md,
"Names that look alike").

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01
"""

from __future__ import annotations

import logging

import sqlalchemy as sa
from alembic import op

from scopa.server.accounts.accounts import check_name, legacy_name_key, name_key
from scopa.server.table.tables import LobbyError

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | None = None
depends_on: str | None = None

log = logging.getLogger("scopa.migrations")

_accounts = sa.table(
    "accounts",
    sa.column("id", sa.Integer),
    sa.column("name", sa.String),
    sa.column("name_key", sa.String),
)


def upgrade() -> None:
    connection = op.get_bind()
    rows = connection.execute(
        sa.select(_accounts.c.id, _accounts.c.name, _accounts.c.name_key).order_by(_accounts.c.id)
    ).all()
    owners: dict[str, tuple[int, str]] = {}
    for row in rows:
        try:
            check_name(row.name)
        except LobbyError as refusal:
            log.warning("account %d %r: registration would refuse this name today (%s); it "
                        "keeps working", row.id, row.name, refusal.message)
        key = name_key(row.name)
        first = owners.get(key)
        if first is not None:
            log.warning("name clash: account %d %r looks like account %d %r; account %d keeps "
                        "its old key %r and logs in by its own name as before", row.id,
                        row.name, first[0], first[1], row.id, row.name_key)
            continue
        owners[key] = (row.id, row.name)
        if key != row.name_key:
            # New keys are 64 hex digits and old ones never were (they are names case-folded,
            # 48 characters of hex digits at most), so no update here meets a kept old key.
            connection.execute(
                _accounts.update().where(_accounts.c.id == row.id).values(name_key=key)
            )


def downgrade() -> None:
    connection = op.get_bind()
    for row in connection.execute(sa.select(_accounts.c.id, _accounts.c.name)).all():
        connection.execute(
            _accounts.update().where(_accounts.c.id == row.id)
            .values(name_key=legacy_name_key(row.name))
        )
