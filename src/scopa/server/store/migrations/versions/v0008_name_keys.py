"""Accounts are unique by what their names look like: each ``name_key`` becomes the TR39
skeleton key of the name (it was the name case-folded).

No account is renamed and none stops working. Where two existing names look alike (Latin
``Anna`` and Cyrillic ``\u0410nna``, NFC and NFD ``José``), the older account (the lower id)
takes the new key and the later one keeps its old key; each such clash is logged as a warning,
one line per clash, and so is each existing name that registration would refuse today. Login
and profiles look a typed name up by its old key first, so the later account is found by its
own name as before, while nobody can register a new look-alike of either (docs/accounts.md,
"Names that look alike").

The name rule and the keys are this migration's own copies, as they stood on the day it was
written (``scopa.server.accounts.accounts`` at 0b43bb6): a later change to the live rule must
not change what upgrading an old database does.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01
"""

from __future__ import annotations

import hashlib
import logging
import unicodedata

import icu  # type: ignore[import-untyped]
import sqlalchemy as sa
from alembic import op

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


_MAX_NAME = 24
_SPOOF = icu.SpoofChecker()
_INVISIBLE = frozenset("\u2800\u3000")


def _clean_name(name: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", name).split())


def _invisible(char: str) -> bool:
    return (
        unicodedata.category(char).startswith("C")
        or char in _INVISIBLE
        or bool(icu.Char.hasBinaryProperty(char, icu.UProperty.DEFAULT_IGNORABLE_CODE_POINT))
    )


def _refusal(name: str) -> str | None:
    """Why registration refused ``name`` on this migration's day, or None."""
    name = _clean_name(name)
    if not name:
        return "a user name needs at least one character"
    if any(_invisible(char) for char in name):
        return "a user name may not hold control or invisible characters"
    if len(name) > _MAX_NAME:
        return f"a user name may have at most {_MAX_NAME} characters; this one has {len(name)}"
    if not any(unicodedata.category(char)[0] in "LN" for char in name):
        return "a user name needs at least one letter or digit"
    if unicodedata.category(name[0]).startswith("M"):
        return "a user name may not begin with a combining mark"
    return None


def _name_key(name: str) -> str:
    folded = _clean_name(name).casefold()
    skeleton = str(_SPOOF.getSkeleton(0, folded)).casefold()
    return hashlib.sha256(skeleton.encode("utf-8", "surrogatepass")).hexdigest()


def _legacy_name_key(typed: str) -> str:
    return " ".join(typed.split()).casefold()


def upgrade() -> None:
    connection = op.get_bind()
    rows = connection.execute(
        sa.select(_accounts.c.id, _accounts.c.name, _accounts.c.name_key).order_by(_accounts.c.id)
    ).all()
    owners: dict[str, tuple[int, str]] = {}
    for row in rows:
        refusal = _refusal(row.name)
        if refusal is not None:
            log.warning("account %d %r: registration would refuse this name today (%s); it "
                        "keeps working", row.id, row.name, refusal)
        key = _name_key(row.name)
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
            .values(name_key=_legacy_name_key(row.name))
        )
