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
``"deleted": true``, which the web client shows as "deleted player"; it withdraws from every
tournament not finished (so no director pairs a player who cannot sit down, issue 34, item 1);
the names on the chat messages it wrote, its tournament entries, its daily deal attempts and
its lines on finished tournaments' podiums are blanked; its follows, blocks (both ways),
challenge setting, puzzle tries and uploaded offline matches go. The ratings its matches gave
others stay as they are, and so do its own, shown as a deleted player's.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from .export_queries import written_by
from .schema import (
    account_matches,
    accounts,
    blocks,
    challenge_settings,
    chat_messages,
    daily_attempts,
    follows,
    matches,
    offline_matches,
    push_choices,
    push_sent,
    push_subscriptions,
    puzzle_ratings,
    puzzle_tries,
    seat_accounts,
    seats,
    sessions,
    sightings,
    tables,
    tournament_players,
    tournaments,
)
from .storage import Storage

GONE: tuple[tuple[sa.Table, str], ...] = (
    (sessions, "account_id"),
    (seat_accounts, "account_id"),
    (follows, "follower_id"),
    (follows, "followed_id"),
    (blocks, "blocker_id"),
    (blocks, "blocked_id"),
    (challenge_settings, "account_id"),
    (puzzle_tries, "account_id"),
    (puzzle_ratings, "account_id"),
    (sightings, "account_id"),
    (offline_matches, "account_id"),
    (push_subscriptions, "account_id"),
    (push_choices, "account_id"),
    (push_sent, "account_id"),
)
"""Rows deleted with the account: a table and the column that names it (one line a table).
Its puzzle rating goes with its tries: puzzles are rated apart, so no one else's depends on it.
Where it was seen from (its sightings) goes too: a moderator's list of links needs only the
living. So do the matches it played offline and uploaded: only bots played them with it, no
one else's history shows them, and they rated nobody. Its browsers' push subscriptions, its
choice of notifications and the events it was pushed go as well: nothing is pushed to it again."""

UNNAMED: tuple[tuple[sa.Table, str, str], ...] = (
    (tournament_players, "account_id", "name"),
    (daily_attempts, "account_id", "name"),
)
"""Copies of the account's name kept beside its id (a table, the id's column, the name's),
blanked with the account."""


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


def off_podium(podium: list[dict[str, Any]], account_id: int) -> list[dict[str, Any]]:
    """A finished tournament's podium with ``account_id``'s line nameless and marked deleted.

    >>> off_podium([{"rank": 1, "player": 3, "name": "Anna"}, {"rank": 2, "player": 4}], 3)
    [{'rank': 1, 'player': 3, 'name': '', 'deleted': True}, {'rank': 2, 'player': 4}]
    """
    return [
        {**line, "name": "", "deleted": True} if line.get("player") == account_id else line
        for line in podium
    ]


async def delete_account(
    storage: Storage, account_id: int, moment: datetime
) -> list[HeldSeat]:
    """Make ``account_id`` a tombstone at ``moment`` (above), in one transaction; the seats it
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
        # A finished tournament keeps its podium as it was shown: the account's line in it
        # loses its name too.
        entered = await connection.execute(
            sa.select(tournaments.c.id, tournaments.c.podium)
            .join(tournament_players, tournament_players.c.tournament_id == tournaments.c.id)
            .where(tournament_players.c.account_id == account_id)
        )
        for row in entered.all():
            if row.podium:
                await connection.execute(
                    tournaments.update().where(tournaments.c.id == row.id)
                    .values(podium=off_podium(row.podium, account_id))
                )
        # Withdrawn from the tournaments still to come or under way: a director would pair
        # the nameless entrant, and its table could not be made.
        await connection.execute(
            tournament_players.update().where(
                tournament_players.c.account_id == account_id,
                tournament_players.c.tournament_id.in_(
                    sa.select(tournaments.c.id).where(tournaments.c.status != "finished")
                ),
            ).values(withdrawn=True)
        )
        for table, column, name in UNNAMED:
            await connection.execute(
                table.update().where(table.c[column] == account_id).values({name: ""})
            )
        for table, column in GONE:
            await connection.execute(table.delete().where(table.c[column] == account_id))
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
