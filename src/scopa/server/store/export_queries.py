"""Everything the room holds about one account, read for its owner to download (issue 23,
item 5): one section per kind of fact, each read on the same connection.

The floors' sections are here (:data:`SECTIONS`: the account, its ratings, matches, chat,
sessions, seats, sanctions, sightings, fair-play marks); each feature declares its own in its
``account_data.py`` (:mod:`.account_data`), and they follow, in the list of parts' order. Most
are :func:`.account_data.rows_of` a table whose column names the account, less the columns
that are secrets (a session's secret hash, a seat's sealed token). A section reads only
rows that are the account's own: its matches list the players as everyone at the table saw
them, and a match still being played gives no seed, deck or record, which nobody may see
before its end. The HTTP side (who may ask, how often, the file) is
:mod:`scopa.server.accounts.yourdata`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from .account_data import AccountData, Section, plain, rows_of
from .schema import (
    account_marks,
    account_matches,
    account_sanctions,
    accounts,
    chat_messages,
    chat_reports,
    matches,
    rating_history,
    ratings,
    seat_accounts,
    sessions,
    sightings,
    tables,
)
from .storage import Storage


def written_by(account_id: int) -> sa.ColumnElement[bool]:
    """The chat messages ``account_id`` wrote: a message names its account (free text always;
    a quick phrase since the chat stores the speaker's account, a logged-in spectator's too),
    and an older quick phrase is its own when said from its seat in a match it played, or from
    a seat it holds in the table's current match (or before any). A guest who held the seat
    before it did is not it."""
    message = chat_messages.c
    return sa.or_(
        message.account_id == account_id,
        sa.exists().where(account_matches.c.account_id == account_id,
                          account_matches.c.match_id == message.match_id,
                          account_matches.c.seat == message.seat),
        sa.exists().where(seat_accounts.c.account_id == account_id,
                          seat_accounts.c.table_code == message.table_code,
                          seat_accounts.c.seat == message.seat,
                          tables.c.code == message.table_code,
                          sa.or_(message.match_id.is_(None),
                                 message.match_id == tables.c.match_id)),
    )


async def profile(connection: AsyncConnection, account_id: int) -> dict[str, Any]:
    """The account itself: its id, name and when it was made (never its password hash)."""
    row = (
        await connection.execute(
            sa.select(accounts.c.id, accounts.c.name, accounts.c.created_at)
            .where(accounts.c.id == account_id)
        )
    ).one()
    return {"id": row.id, "name": row.name, "created_at": plain(row.created_at)}


async def played(connection: AsyncConnection, account_id: int) -> list[dict[str, Any]]:
    """The matches the account played: each finished one with its seat, result and whole
    record (seed, deck and moves: the match is over), then each one being played at a table
    where it holds a seat, with its players and rules only."""
    finished = await connection.execute(
        sa.select(account_matches, matches.c.table_code, matches.c.players, matches.c.rules,
                  matches.c.winner, matches.c.record, matches.c.started_at,
                  matches.c.finished_at)
        .join(matches, matches.c.id == account_matches.c.match_id)
        .where(account_matches.c.account_id == account_id)
        .order_by(account_matches.c.at, account_matches.c.match_id)
    )
    shown = [
        {"match": row.match_id, "table": row.table_code, "seat": row.seat, "pool": row.pool,
         "rated": row.rated, "result": row.result, "winner": row.winner,
         "players": row.players, "rules": row.rules, "started_at": plain(row.started_at),
         "finished_at": plain(row.finished_at), "record": row.record}
        for row in finished
    ]
    playing = await connection.execute(
        sa.select(matches.c.id, matches.c.table_code, seat_accounts.c.seat, matches.c.players,
                  matches.c.rules, matches.c.started_at)
        .join(tables, tables.c.code == seat_accounts.c.table_code)
        .join(matches, matches.c.id == tables.c.match_id)
        .where(seat_accounts.c.account_id == account_id, matches.c.status == "playing")
        .order_by(matches.c.id)
    )
    shown += [
        {"match": row.id, "table": row.table_code, "seat": row.seat, "status": "playing",
         "players": row.players, "rules": row.rules, "started_at": plain(row.started_at)}
        for row in playing
    ]
    return shown


SECTIONS: tuple[Section, ...] = (
    Section("profile", profile),
    Section("ratings", rows_of(ratings, "account_id", order="pool")),
    Section("rating_history", rows_of(rating_history, "account_id", order="at")),
    Section("matches", played),
    Section("chat_messages", rows_of(chat_messages, written_by, order="id")),
    # The reports it made, without the copies of the messages it reported (others' words).
    Section("chat_reports", rows_of(chat_reports, "reporter_account",
                                    leave_out=("message", "context"), order="id")),
    Section("sessions", rows_of(sessions, "account_id", leave_out=("secret_hash",))),
    Section("seats", rows_of(seat_accounts, "account_id", leave_out=("sealed",))),
    Section("sanctions", rows_of(account_sanctions, "account_id")),
    # Where it was seen from: the keyed hashes only, as the room keeps them (docs/accounts.md).
    Section("sightings", rows_of(sightings, "account_id", order="first_at")),
    Section("fair_play_marks", rows_of(account_marks, "account_id")),
)
"""The floors' sections of the download, in its order; the features' follow."""


async def everything(
    storage: Storage, account_id: int, parts: Sequence[AccountData] = ()
) -> dict[str, Any]:
    """Every section of :data:`SECTIONS`, then of each part's ``parts`` (the features'), for
    ``account_id``, read on one connection."""
    sections = [*SECTIONS, *(section for part in parts for section in part.sections)]
    async with storage.engine.connect() as connection:
        return {section.name: await section.read(connection, account_id)
                for section in sections}
