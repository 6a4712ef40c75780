"""The tables of accounts, sessions, ratings and reviews (issue 11), beside the card room's own.

They share :data:`.schema.metadata`, so the migrations are checked against one schema. They
point at the card room's tables by code and id only (no foreign keys into them), so the room's
own writes and the accounts' never wait on each other's locks.
"""

from __future__ import annotations

import sqlalchemy as sa

from .schema import metadata

accounts = sa.Table(
    "accounts",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("name_key", sa.String(64), nullable=False, unique=True),
    sa.Column("password_hash", sa.String(256), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)
"""A person who registered. ``name_key`` is the name case-folded: names are unique in it."""

sessions = sa.Table(
    "sessions",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("secret_hash", sa.String(64), nullable=False, unique=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False, index=True),
    sa.Column("agent", sa.String(200), nullable=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
)
"""A logged-in browser. Only the SHA-256 of the cookie's secret is kept; ``id`` is the
session's public handle (to list and revoke it)."""

seat_accounts = sa.Table(
    "seat_accounts",
    metadata,
    sa.Column("table_code", sa.String(16), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False, index=True),
    sa.Column("sealed", sa.String(256), nullable=True),
)
"""Which account holds a person's seat at a table (guests' seats have no row), and the seat's
token sealed under the account's seat key (:mod:`.seatkeys`), so the seat follows the player."""

table_modes = sa.Table(
    "table_modes",
    metadata,
    sa.Column("table_code", sa.String(16), primary_key=True),
    sa.Column("rated", sa.Boolean, nullable=False),
)
"""Rated or casual, chosen when the table is made (a table with no row is casual)."""

ratings = sa.Table(
    "ratings",
    metadata,
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("pool", sa.String(32), primary_key=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("matches", sa.Integer, nullable=False),
    sa.Column("wins", sa.Integer, nullable=False),
    sa.Column("losses", sa.Integer, nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
)
"""An account's openskill rating in one pool (game and format). Bots are not here: their
ratings are fixed anchors (:mod:`.ratings`)."""

rating_history = sa.Table(
    "rating_history",
    metadata,
    sa.Column("match_id", sa.Integer, primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("pool", sa.String(32), nullable=False),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("result", sa.String(8), nullable=False),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("display_before", sa.Integer, nullable=False),
    sa.Column("display_after", sa.Integer, nullable=False),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    sa.Index("ix_rating_history_account", "account_id", "at"),
)
"""One row per account and rated match: the rating after it. Its key makes a match rate each
account once, however many times its end is reported."""

reviews = sa.Table(
    "reviews",
    metadata,
    sa.Column("match_id", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("result", sa.JSON, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)
"""The master's review of one seat of a finished match, stored once and never recomputed."""

review_jobs = sa.Table(
    "review_jobs",
    metadata,
    sa.Column("match_id", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("owner", sa.String(64), nullable=False),
    sa.Column("done", sa.Integer, nullable=False),
    sa.Column("total", sa.Integer, nullable=False),
    sa.Column("error", sa.String(200), nullable=True),
    sa.Column("touched_at", sa.DateTime(timezone=True), nullable=False),
)
"""A review being worked out, shared by every process of the room: its key lets one process
claim it, ``owner`` fences the progress it writes, and any process reads the progress here.
The row goes when the review is stored."""

account_matches = sa.Table(
    "account_matches",
    metadata,
    sa.Column("match_id", sa.Integer, primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("pool", sa.String(32), nullable=False),
    sa.Column("rated", sa.Boolean, nullable=False),
    sa.Column("result", sa.String(8), nullable=False),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    sa.Index("ix_account_matches_account", "account_id", "at"),
)
"""Every finished match an account played, rated or casual: ``result`` is win, loss or
``left`` (a loss: the player walked out of it, and a bot finished it)."""
