"""Deleting an account, in one transaction (issue 23, item 5).

The account's row stays as a tombstone rather than going: matches, ratings, rating histories
and moderators' reports point at its id, and a row kept means none of them points at nothing
or has to be rewritten to a new id. What makes the row a person goes: its name is blanked,
its password hash emptied (no password matches an empty hash), ``deleted_at`` is set. Its
``name_key`` stays, so the name and its look-alikes are nobody's until registration releases
it (:func:`.account_queries.create_account`, after the wing's waiting time).

Its traces elsewhere: every session and every seat it holds go (the sealed tokens with them). A
seat it holds at a table is no longer anyone's (issue 34, item 12): its token is blanked and,
where a match was dealt, its name reads :data:`DELETED_NAME` (a seat at a table still waiting
is free again); the table in memory, on whichever process holds it, hears the same from
:meth:`..table.room.CardRoom.account_deleted` and resigns the match it is playing, and the row
written here is what a table loaded later finds. In the players of every match it played
(finished, or being played at a table where it holds a seat) its seat's name becomes null with
``"deleted": true``, which the web client shows as "deleted player"; the names on the chat
messages it wrote are blanked, and where it was seen from goes. The ratings its matches gave
others stay as they are, and so do its own, shown as a deleted player's.

Each feature's share runs in the same transaction, as the feature declares it in its
``account_data.py``: the tournaments withdraw it from every tournament not finished (so no
director pairs a player who cannot sit down, issue 34, item 1) and blank its name on entries
and finished podiums; the daily deal blanks its name on its attempts; its follows, blocks
(both ways) and challenge setting, its puzzle tries and rating, its uploaded offline matches
and its push subscriptions go.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from .account_data import AccountData
from .export_queries import written_by
from .schema import (
    account_matches,
    accounts,
    chat_messages,
    matches,
    seat_accounts,
    seats,
    sessions,
    sightings,
    tables,
)
from .storage import Storage

GONE: tuple[tuple[sa.Table, str], ...] = (
    (sessions, "account_id"),
    (seat_accounts, "account_id"),
    (sightings, "account_id"),
)
"""The floors' rows deleted with the account: a table and the column that names it. Where it
was seen from (its sightings) goes too: a moderator's list of links needs only the living. Each
feature says what of its own goes (:attr:`.account_data.AccountData.gone`)."""
FLOORS_GONE: Final = AccountData(gone=GONE)
"""The floors' share of the deletion, deleted as a feature's is, after the features'."""


DELETED_NAME: Final = "deleted player"
"""What a seat a deleted account held reads at its table (the replays, profiles and
leaderboards say it in the reader's language from ``"deleted": true``)."""


@dataclass(frozen=True)
class HeldSeat:
    """A seat the account held when it was deleted: its table, its number, the token's hash
    the seat had then (None: a bot had taken the seat over, walked out of), by which the table
    in memory knows the seat is still the deleted account's and not a newcomer's, and the
    table's status then (a match being played is resigned: a table must be in memory for it)."""

    code: str
    seat: int
    token_hash: str | None
    status: str


def unnamed(players: list[dict[str, Any]], seats: set[int]) -> list[dict[str, Any]]:
    """A match's players with the names of ``seats`` taken out and marked deleted.

    >>> unnamed([{"seat": 0, "name": "Anna"}, {"seat": 1, "name": "Bot 2"}], {0})
    [{'seat': 0, 'name': None, 'deleted': True}, {'seat': 1, 'name': 'Bot 2'}]
    """
    return [
        {**player, "name": None, "deleted": True} if player.get("seat") in seats else player
        for player in players
    ]


async def delete_account(
    storage: Storage, account_id: int, moment: datetime, parts: Sequence[AccountData] = ()
) -> list[HeldSeat]:
    """Make ``account_id`` a tombstone at ``moment`` (above), in one transaction with each of
    ``parts``' share (the features', :meth:`.account_data.AccountData.delete`); the seats it
    held at tables, for the tables in memory to let go of."""

    async def run(connection: AsyncConnection) -> list[HeldSeat]:
        held_seats = await _let_seats_go(connection, account_id)
        seats_by_match: dict[int, set[int]] = {}
        finished = await connection.execute(
            sa.select(account_matches.c.match_id, account_matches.c.seat)
            .where(account_matches.c.account_id == account_id)
        )
        for row in finished:
            seats_by_match.setdefault(row.match_id, set()).add(row.seat)
        held = await connection.execute(
            sa.select(matches.c.id, seat_accounts.c.seat)
            .join(tables, tables.c.code == seat_accounts.c.table_code)
            .join(matches, matches.c.id == tables.c.match_id)
            .where(seat_accounts.c.account_id == account_id, matches.c.status == "playing")
        )
        for row in held:
            seats_by_match.setdefault(row.id, set()).add(row.seat)
        for match_id, at in sorted(seats_by_match.items()):
            players = await connection.scalar(
                sa.select(matches.c.players).where(matches.c.id == match_id)
            )
            if players is not None:
                await connection.execute(
                    matches.update().where(matches.c.id == match_id)
                    .values(players=unnamed(players, at))
                )
        await connection.execute(
            chat_messages.update().where(written_by(account_id)).values(name=None)
        )
        for part in (*parts, FLOORS_GONE):
            await part.delete(connection, account_id)
        await connection.execute(
            accounts.update().where(accounts.c.id == account_id)
            .values(name="", password_hash="", deleted_at=moment)
        )
        return held_seats

    return await storage.write(run)


async def _let_seats_go(connection: AsyncConnection, account_id: int) -> list[HeldSeat]:
    """The seats ``account_id`` holds, each blanked where it is stored: a waiting table's is
    free again, any other's keeps its place as :data:`DELETED_NAME` with no token (so a token
    kept in a browser opens nothing, whichever process loads the table next)."""
    found = (await connection.execute(
        sa.select(seats.c.table_code, seats.c.seat, seats.c.kind, seats.c.token_hash,
                  tables.c.status)
        .join(seat_accounts, sa.and_(seat_accounts.c.table_code == seats.c.table_code,
                                     seat_accounts.c.seat == seats.c.seat))
        .join(tables, tables.c.code == seats.c.table_code)
        .where(seat_accounts.c.account_id == account_id)
        .order_by(seats.c.table_code, seats.c.seat)
    )).all()
    for row in found:
        freed = row.status == "waiting" and row.kind == "human"
        await connection.execute(
            seats.update()
            .where(seats.c.table_code == row.table_code, seats.c.seat == row.seat)
            .values(token_hash=None, name=None if freed else DELETED_NAME)
        )
    return [HeldSeat(row.table_code, row.seat, row.token_hash, row.status) for row in found]
