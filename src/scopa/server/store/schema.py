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
    # How its turns are timed: "live" (a turn clock in the memory of the process that holds
    # the table) or "correspondence" (days a move in wall time, the table kept in the database
    # between moves: scopa.server.correspondence).
    sa.Column("pace", sa.String(16), nullable=False, server_default="live"),
    sa.Index("ix_tables_status_pace", "status", "pace"),
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


# The accounts' tables (issue 11), beside the card room's own, in one metadata so that the
# migrations are checked against every table of the database. They point at the card room's
# tables by code and id only (no foreign keys into them), so the room's own writes and the
# accounts' never wait on each other's locks.

accounts = sa.Table(
    "accounts",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("name_key", sa.String(64), nullable=False, unique=True),
    sa.Column("password_hash", sa.String(256), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("seat_lock", sa.String(64), nullable=True),
)
"""A person who registered. ``name_key`` is what the name looks like (the SHA-256 of its TR39
skeleton, :func:`scopa.server.accounts.accounts.name_key`): names are unique in it. A few
accounts made before migration 0008 keep their old key, the name case-folded, where their name
looks like an older account's (docs/accounts.md). A deleted account is a tombstone: its id
stays (matches, ratings and reports point at it), its name and password hash are blanked,
``deleted_at`` says when, and its ``name_key`` keeps the name from others until it is released
(:mod:`.deletion_queries`). ``seat_lock`` is the public key its seat key gives
(:func:`scopa.server.accounts.seatkeys.lock_of`, set at each login), which seals the seats the
room gives it; null for an account that has not logged in since migration 0021."""

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
    sa.Column("casual", sa.String(16), nullable=True),
    sa.Column("purpose", sa.String(16), nullable=True),
)
"""Rated or casual, chosen when the table is made (a table with no row is casual); ``casual``,
why a table chosen rated plays its match casual (a code of :mod:`..common.fairplay`, such as
``pair_cap``), decided when each match is dealt; ``purpose``, what the feature that made it
made it for: ``tournament`` (its director chose who plays, so no daily cap between two accounts
makes it casual, and the master gives no hints) or ``daily`` (the day's deal: no hints)."""

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
    sa.Column("short", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Index("ix_account_matches_account", "account_id", "at"),
)
"""Every finished match an account played, rated or casual: ``result`` is win, loss or
``left`` (a loss: the player walked out of it, and a bot finished it). ``short``: it ended
before each side had made 2 moves of its own, so it was rated for nobody and counts for
nothing (:mod:`..common.fairplay`)."""


# Talk at the table (issue 23, item 3).

chat_messages = sa.Table(
    "chat_messages",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("table_code", sa.String(16), nullable=False),
    sa.Column("match_id", sa.Integer, nullable=True, index=True),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("spectator", sa.Integer, nullable=True),
    sa.Column("account_id", sa.Integer, nullable=True),
    sa.Column("name", sa.String(64), nullable=True),
    sa.Column("phrase", sa.String(16), nullable=True),
    sa.Column("text", sa.String(200), nullable=True),
    sa.Column("audience", sa.String(16), nullable=False),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    # A table loaded again reads its latest messages back (chat_queries.recent_messages).
    sa.Index("ix_chat_messages_table_code_id", "table_code", "id"),
)
"""One message said at a table: a quick ``phrase`` (its id) or free ``text``, from a ``seat``
or a spectator (``seat`` null, ``spectator`` the table's number for them). ``audience`` is
``all``, or ``spectators`` for a spectator's word while the match was played: the players never
saw it, and the match's replay does not show it."""

chat_reports = sa.Table(
    "chat_reports",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("message_id", sa.Integer, nullable=False, index=True),
    sa.Column("table_code", sa.String(16), nullable=False),
    sa.Column("match_id", sa.Integer, nullable=True),
    sa.Column("version", sa.Integer, nullable=True),
    sa.Column("reporter_seat", sa.Integer, nullable=True),
    sa.Column("reporter_account", sa.Integer, nullable=True),
    sa.Column("message", sa.JSON, nullable=False),
    sa.Column("context", sa.JSON, nullable=False),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    # One report per reporter and message (issue 34, item 7): an account's, or a guest's seat's.
    sa.Index("uq_chat_reports_account", "message_id", "reporter_account", unique=True),
    sa.Index("uq_chat_reports_guest_seat", "message_id", "reporter_seat", unique=True,
             sqlite_where=sa.text("reporter_account IS NULL"),
             postgresql_where=sa.text("reporter_account IS NULL")),
)
"""A message reported to the moderators, copied with the table's last messages up to it (its
context) and the match and version it was said at, so the report stands on its own. Each
reporter (an account, or else a guest's seat) reports a message once."""

account_sanctions = sa.Table(
    "account_sanctions",
    metadata,
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("kind", sa.String(8), primary_key=True),
    sa.Column("reason", sa.String(200), nullable=False),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
)
"""A moderator's sanction on an account (``scopa moderate``): ``silence`` (the quick phrases
only) or ``ban`` (no login); the account is shown ``reason``."""


# Challenges and friends (issue 23, item 2).

follows = sa.Table(
    "follows",
    metadata,
    sa.Column("follower_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("followed_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
)
"""One account following another: the follower sees whether the followed is online, and at
which table. Its key makes a follow once, however many times it is asked for."""

blocks = sa.Table(
    "blocks",
    metadata,
    sa.Column("blocker_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("blocked_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    sa.Index("ix_blocks_blocked", "blocked_id"),
)
"""One account blocking another: no challenges either way, the blocked one's chat hidden from
the blocker, and the pools never pair the two. Read both ways, hence the second index."""

challenge_settings = sa.Table(
    "challenge_settings",
    metadata,
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("accepts", sa.String(8), nullable=False),
    sa.Column("playing_shown", sa.String(8), nullable=False, server_default="follows"),
)
"""An account's social settings: whom it takes challenges from (``accepts``: ``all``,
``follows``, those it follows, or ``none``) and who of those following it sees the table where
it plays (``playing_shown``, the same three). An account with no row takes challenges from all
and shows its table to those it follows back (issue 34, item 8)."""

# Puzzle ratings and tries (issue 24, item 1).

puzzle_ratings = sa.Table(
    "puzzle_ratings",
    metadata,
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("preset", sa.String(16), primary_key=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("tries", sa.Integer, nullable=False),
    sa.Column("solved", sa.Integer, nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
)
"""An account's puzzle rating in one game (scopa or escoba): openskill's ``(mu, sigma)``, a
rating kind of its own beside the match pools, and its counted tries and how many were right."""

puzzle_tries = sa.Table(
    "puzzle_tries",
    metadata,
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("preset", sa.String(16), primary_key=True),
    sa.Column("puzzle_id", sa.String(32), primary_key=True),
    sa.Column("move", sa.String(64), nullable=False),
    sa.Column("solved", sa.Boolean, nullable=False),
    sa.Column("display_before", sa.Integer, nullable=False),
    sa.Column("display_after", sa.Integer, nullable=False),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("counted", sa.Boolean, nullable=False, server_default=sa.true()),
    sa.Index("ix_puzzle_tries_account_at", "account_id", "at"),
)
"""An account's first try of a puzzle, the one that counts: the move, solved or not, and the
rating shown before and after. Its key keeps one try a puzzle, so a second try cannot count
even when two arrive at once on two processes. ``counted`` is false for a first try that did
not count, its browser or address having tried the puzzle as a guest that day (issue 34, item
15): the rating shown is the same before and after, and the puzzle is tried for good."""

puzzle_guest_tries = sa.Table(
    "puzzle_guest_tries",
    metadata,
    sa.Column("day", sa.Date, primary_key=True),
    sa.Column("preset", sa.String(16), primary_key=True),
    sa.Column("puzzle_id", sa.String(32), primary_key=True),
    sa.Column("mark", sa.String(64), primary_key=True),
)
"""A guest's try of a puzzle on a day (UTC), once for the browser's key and once for the
address it came from, each a SHA-256 (``mark``): an account's try from either that day does not
count. Rows of days gone are deleted as new ones are written, so none outlives its day by
much; no account is named."""



# Tournaments in the room (issue 24, item 3): arenas and Swiss nights.

tournaments = sa.Table(
    "tournaments",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("preset", sa.String(32), nullable=False),
    sa.Column("minutes", sa.Integer, nullable=True),
    sa.Column("rounds", sa.Integer, nullable=True),
    sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("ends_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("status", sa.String(16), nullable=False, index=True),
    sa.Column("created_by", sa.Integer, nullable=True, index=True),
    sa.Column("daily_key", sa.String(32), nullable=True, unique=True),
    sa.Column("round", sa.Integer, nullable=False, server_default=sa.text("0")),
    sa.Column("pairings", sa.Integer, nullable=False, server_default=sa.text("0")),
    sa.Column("podium", sa.JSON, nullable=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
)
"""An arena (``minutes`` long from ``starts_at`` to ``ends_at``) or a Swiss (``rounds``
rounds), ``open`` to join, then ``running``, then ``finished`` with its final standings kept
in ``podium``. ``pairings`` counts the pairings stored: each pairing's transaction raises it
from the number its director read, so two directors (one paused, one that took over) can
never both store one. ``daily_key`` names a tournament the server's settings list, made once
whichever process makes it first."""

tournament_players = sa.Table(
    "tournament_players",
    metadata,
    sa.Column("tournament_id", sa.Integer, primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("withdrawn", sa.Boolean, nullable=False, server_default=sa.false()),
)
"""Who joined a tournament: once each, by the key. A player ``withdrawn`` is paired no
more (their games so far still count) until they join again."""

tournament_games = sa.Table(
    "tournament_games",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("tournament_id", sa.Integer, nullable=False, index=True),
    sa.Column("round", sa.Integer, nullable=False),
    sa.Column("first", sa.Integer, nullable=False),
    sa.Column("second", sa.Integer, nullable=True),
    sa.Column("table_code", sa.String(16), nullable=True, unique=True),
    sa.Column("first_token", sa.String(64), nullable=True),
    sa.Column("second_token", sa.String(64), nullable=True),
    sa.Column("match_id", sa.Integer, nullable=True),
    sa.Column("winner", sa.Integer, nullable=True),
    sa.Column("first_score", sa.Integer, nullable=True),
    sa.Column("second_score", sa.Integer, nullable=True),
    sa.Column("paired_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("counted", sa.Boolean, nullable=False, server_default=sa.true()),
    sa.UniqueConstraint("tournament_id", "round", "first", name="uq_tournament_games_first"),
)
"""One game of a tournament: ``first`` (seat 0) against ``second`` (seat 1), or ``first``'s
bye when ``second`` is null. Stored with its round's pairing, before its table is made; the
table's code and both seat tokens are set once it is, and the winner (an account id) and the
match points once its match ends. A seat token is given to its own account only. A game whose
match ended before each side had made 2 moves of its own is over but not ``counted``: the
standings leave it out."""


# The daily deal (issue 24, item 2).

daily_secrets = sa.Table(
    "daily_secrets",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("secret", sa.String(64), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)
"""The one secret (row 1) the days' seeds are derived from (:mod:`scopa.server.daily.seeds`):
made by the first process that needs it and read by every other, so the seed of a day is the
same on every process and after every restart."""

daily_deals = sa.Table(
    "daily_deals",
    metadata,
    sa.Column("day", sa.Date, primary_key=True),
    sa.Column("master_match", sa.Integer, nullable=True),
    sa.Column("claimed_by", sa.String(64), nullable=True),
    sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=True),
)
"""A day whose deal was dealt, and the master's own play of it: ``master_match`` is the finished
match (master against master) once played, ``claimed_by`` the process playing it meanwhile."""

daily_attempts = sa.Table(
    "daily_attempts",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("day", sa.Date, nullable=False),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("table_code", sa.String(16), nullable=False, unique=True),
    sa.Column("match_id", sa.Integer, nullable=True, unique=True),
    sa.Column("won", sa.Boolean, nullable=True),
    sa.Column("margin", sa.Integer, nullable=True),
    sa.Column("scores", sa.JSON, nullable=True),
    sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    sa.UniqueConstraint("day", "account_id", name="uq_daily_attempts_day_account"),
    sa.Index("ix_daily_attempts_account", "account_id", "day"),
)
"""One attempt at a day's deal: an account's (one a day, by the unique key, even when two
arrive at once on two processes) or a guest's (``account_id`` null: unranked, any number).
``won``, ``margin`` (the player's match points less the master's) and ``scores`` are set when
the match ends."""


# Linked accounts and moderators' marks (issue 34, items C and E).

room_keys = sa.Table(
    "room_keys",
    metadata,
    sa.Column("name", sa.String(32), primary_key=True),
    sa.Column("secret", sa.String(128), nullable=False),
)
"""The room's own random keys, made by their migration: ``sightings`` keys the hashes of
:data:`sightings`, so that a hash of an IPv4 address cannot be reversed by trying them all."""

sightings = sa.Table(
    "sightings",
    metadata,
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("kind", sa.String(8), primary_key=True),
    sa.Column("table_code", sa.String(16), primary_key=True),
    sa.Column("address", sa.String(64), primary_key=True),
    sa.Column("browser", sa.String(64), primary_key=True),
    sa.Column("first_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("last_at", sa.DateTime(timezone=True), nullable=False),
    sa.Index("ix_sightings_address", "address"),
    sa.Index("ix_sightings_browser", "browser"),
    sa.Index("ix_sightings_last_at", "last_at"),
)
"""Where an account was seen from: ``kind`` ``login`` (``table_code`` blank) or ``table`` (its
seat at ``table_code``), the keyed hashes of the address and of the browser's key (blank when it
had none), first and last seen. Rows not seen for 30 days are deleted as new ones are written;
an account's go with its deletion."""

account_marks = sa.Table(
    "account_marks",
    metadata,
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("act_id", sa.Integer, nullable=False),
)
"""An account a moderator marked (``kind`` ``engine`` or ``booster``, by the act ``act_id`` of
:data:`moderation_acts`): off the leaderboards and the podiums, and its matches casual."""

moderation_acts = sa.Table(
    "moderation_acts",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
    sa.Column("act", sa.String(8), nullable=False),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("reason", sa.String(200), nullable=False),
    sa.Column("moderator", sa.String(64), nullable=False),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    sa.Index("ix_moderation_acts_account", "account_id", "at"),
)
"""Every mark and unmark (``act``), of which kind, why, by whom and when: never deleted."""

rating_refunds = sa.Table(
    "rating_refunds",
    metadata,
    sa.Column("act_id", sa.Integer, sa.ForeignKey("moderation_acts.id"), primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("match_id", sa.Integer, primary_key=True),
    sa.Column("pool", sa.String(32), nullable=False),
    sa.Column("mu", sa.Float, nullable=False),
)
"""What a mark (``act_id``) gave back to an opponent: the ``mu`` it lost in match ``match_id``
to the marked account, added to its rating in ``pool``; the unmark takes it back."""

engine_agreement = sa.Table(
    "engine_agreement",
    metadata,
    sa.Column("match_id", sa.Integer, primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("owner", sa.String(64), nullable=False),
    sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("judged_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("positions", sa.Integer, nullable=True),
    sa.Column("matched", sa.Integer, nullable=True),
    sa.Column("cost", sa.Float, nullable=True),
    sa.Column("rating", sa.Integer, nullable=True),
    sa.Column("evidence", sa.JSON, nullable=True),
    sa.Index("ix_engine_agreement_account", "account_id", "judged_at"),
)
"""The master's judgement of one account's play in one rated match (issue 34, item D): of the
``positions`` where the choice mattered, how many it ``matched`` (played the master's choice),
the ``cost`` of the rest summed, its shown ``rating`` before the match, and the positions as
``evidence`` (move numbers, matched or not). Claimed by the process ``owner`` at ``claimed_at``;
judged once ``judged_at`` is set."""


# Offline play's matches, uploaded (issue 37, item 4).

offline_matches = sa.Table(
    "offline_matches",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
    sa.Column("client_id", sa.String(36), nullable=False),
    sa.Column("record_hash", sa.String(64), nullable=False),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("opponents", sa.JSON, nullable=False),
    sa.Column("look", sa.String(16), nullable=False),
    sa.Column("rules", sa.JSON, nullable=False),
    sa.Column("record", sa.JSON, nullable=False),
    sa.Column("result", sa.String(8), nullable=False),
    sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("uploaded_at", sa.DateTime(timezone=True), nullable=False),
    sa.UniqueConstraint("account_id", "client_id", name="uq_offline_matches_client_id"),
    sa.UniqueConstraint("account_id", "record_hash", name="uq_offline_matches_record"),
    sa.Index("ix_offline_matches_account", "account_id", "finished_at"),
)
"""A match an account played offline against the computer, in its browser, and uploaded
(:mod:`scopa.server.offline.uploads`): its ``seat``, the bots' levels in the other seats in
seat order (``opponents``), the deck's look, and its record as the core gives it back after
playing it again (``record_hash`` is that record's SHA-256). ``finished_at`` is when the
browser says it ended (never after the upload). Never rated: a table of its own, which no
rating, leaderboard, puzzle, fair-play count or daily deal reads, so none can count it by
mistake; the profile lists it among the account's matches. Each account uploads a match once,
by the browser's id for it (``client_id``) and by its record, both unique per account. The
rows go with the account's deletion: no one else played in them."""


# Web Push (issue 36, item 5): the browsers that take an account's notifications.

push_subscriptions = sa.Table(
    "push_subscriptions",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
    sa.Column("endpoint", sa.String(1024), nullable=False, unique=True),
    sa.Column("p256dh", sa.String(100), nullable=False),
    sa.Column("auth", sa.String(32), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
    sa.Index("ix_push_subscriptions_account", "account_id", "seen_at"),
)
"""A browser's push subscription (its ``PushSubscription`` as JSON), owned by the account
that was logged in when it was given: the push service's ``endpoint`` (unique: one browser's
subscription belongs to one account, the last to give it) and its keys, base64url as the
browser gives them. ``seen_at`` is when the browser last gave it: the most recently seen are
the ones pushed to (:mod:`scopa.server.push`)."""

push_choices = sa.Table(
    "push_choices",
    metadata,
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("kind", sa.String(24), primary_key=True),
    sa.Column("enabled", sa.Boolean, nullable=False),
)
"""An account's choice for one kind of notification (``your_turn``, ``challenge``, ...); a
kind with no row is on."""

push_sent = sa.Table(
    "push_sent",
    metadata,
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("once", sa.String(96), primary_key=True),
    sa.Column("sent_at", sa.DateTime(timezone=True), nullable=False),
    sa.Index("ix_push_sent_at", "sent_at"),
)
"""The events an account was pushed about (a challenge's id, a tournament's start), each
written once, before the push: two processes that hear one event push it once, by the key.
Kept two days."""


# Correspondence play (issue 36): a move a day, the table kept in the database between moves.

correspondence_matches = sa.Table(
    "correspondence_matches",
    metadata,
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
"""A correspondence match's clock, one row per correspondence table (its match is the
table's, in ``matches`` and ``moves`` as any other): ``days`` a move, the seat to move
(``mover``) since ``turn_at`` at ``version`` (the moves played), and when its time runs out
(``deadline``, the days from ``turn_at`` plus the vacation days spent on this turn,
``vacation``) and when its alarm rings (``alarm_at``, at 80% of the time; None once rung).
``patient``: the seats whose people choose to wait for a late opponent rather than win on
time; ``overdue``: the mover's time ran out and the other waits. ``status``: ``playing`` or
``over``."""

correspondence_offers = sa.Table(
    "correspondence_offers",
    metadata,
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
"""An offer of a correspondence match: to a player by name (``kind`` ``name``), to whoever
opens its link (``link``), or a seek in the correspondence pool (``seek``), which the first
matching seek of another account takes. ``state``: ``open``, then ``accepted`` (with its
``table_code``), ``declined``, ``cancelled`` or ``expired``."""

correspondence_vacations = sa.Table(
    "correspondence_vacations",
    metadata,
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("year", sa.Integer, primary_key=True),
    sa.Column("used", sa.Integer, nullable=False),
)
"""The vacation days an account spent in a year (UTC): each is spent by itself when one of
its correspondence clocks would otherwise run out, and adds 24 hours to all of them."""
