"""The card room's tables in the database: what a table, a seat, a match and a move are.

A match is stored as the core keeps it, its rules, seed (and optional first deck) and moves;
every other fact is derived by playing the moves again. The migrations in ``migrations/`` create
exactly these tables; ``tests/test_server_storage.py`` checks that they agree.
"""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

tables = sa.Table(
    "tables",
    metadata,
    sa.Column("code", sa.String(16), primary_key=True),
    sa.Column("rules", sa.JSON, nullable=False),
    sa.Column("look", sa.String(16), nullable=False),
    sa.Column("status", sa.String(16), nullable=False, index=True),
    sa.Column("match_id", sa.Integer, nullable=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("touched_at", sa.DateTime(timezone=True), nullable=True),
    # Raised by each process that takes the table over; its writes name the epoch they are
    # for, so the database refuses those of an owner whose lease lapsed (storage.StaleOwnerError).
    sa.Column("epoch", sa.Integer, nullable=False, server_default=sa.text("0")),
)

seats = sa.Table(
    "seats",
    metadata,
    sa.Column("table_code", sa.String(16), sa.ForeignKey("tables.code"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("name", sa.String(64), nullable=True),
    sa.Column("level", sa.String(32), nullable=True),
    sa.Column("token_hash", sa.String(64), nullable=True),
    # A bot plays for this person, away when their turn timed out, until they come back.
    sa.Column("stand_in", sa.Boolean, nullable=False, server_default=sa.false()),
)

matches = sa.Table(
    "matches",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column(
        "table_code", sa.String(16), sa.ForeignKey("tables.code"), nullable=False, index=True
    ),
    sa.Column("rules", sa.JSON, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("deck", sa.JSON, nullable=True),
    sa.Column("players", sa.JSON, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("winner", sa.Integer, nullable=True),
    sa.Column("record", sa.JSON, nullable=True),
    sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
)

moves = sa.Table(
    "moves",
    metadata,
    sa.Column("match_id", sa.Integer, sa.ForeignKey("matches.id"), primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("move", sa.String(64), nullable=False),
)

# The accounts' tables (issue 11) join this metadata, so that the migrations are checked
# against every table of the database; imported last, once ``metadata`` exists.
from . import account_tables as account_tables  # noqa: E402
