"""The reads and writes of challenges and friends: who follows whom, who blocked whom, whom
an account takes challenges from (issue 23, item 2) and who of those following it sees where it
plays (issue 34, item 8).

Like :mod:`..store.account_queries`, each function is one read on one connection or one transaction
through the room's writer (:meth:`.Storage.write`). A follow or a block asked for twice is
one row (the second ask finds it there, or meets the key if another process wrote it first), so
every write here may be repeated. :func:`blocked_among` is what the pools ask before pairing
people, and what the chat asks before showing one person's word to another.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from ..store.account_queries import chosen, named
from ..store.schema import (
    accounts,
    blocks,
    challenge_settings,
    follows,
    seat_accounts,
    tables,
)
from ..store.storage import Storage

ACCEPTS = ("all", "follows", "none")
"""Whom an account takes challenges from; the first is what an account without a row has."""
SHOWN = ("all", "follows", "none")
"""Who of those following an account sees the table where it plays: all of them, those it
follows back, or none."""
SHOWN_UNSET = "follows"
"""What an account that never chose shows: its table to those it follows back only. Following
needs no consent, so a stranger who follows someone learns when they are online and no more;
a follow given back is the consent (lichess shares a player's insights "with friends" unless
they say otherwise, its friends being those the player follows)."""


@dataclass(frozen=True)
class Named:
    """An account as another person finds it: its id and its name as written."""

    account_id: int
    name: str


async def account_named(storage: Storage, name_key: str, legacy_key: str) -> Named | None:
    """The account a typed name finds (keys as :func:`.account_queries.login_row` takes them),
    or None for a name nobody has."""
    async with storage.engine.connect() as connection:
        rows = (
            await connection.execute(
                sa.select(accounts.c.id, accounts.c.name, accounts.c.name_key)
                .where(named(name_key, legacy_key))
            )
        ).all()
    row = chosen(rows, legacy_key)
    return None if row is None else Named(int(row.id), str(row.name))


async def _add_pair(
    storage: Storage, table: sa.Table, first: int, second: int, moment: datetime
) -> bool:
    """Add the row (``first``, ``second``) to ``follows`` or ``blocks``; whether it is new."""
    one, other = table.c[0], table.c[1]

    async def run(connection: AsyncConnection) -> bool:
        found = await connection.scalar(
            sa.select(sa.func.count()).select_from(table).where(one == first, other == second)
        )
        if found:
            return False
        await connection.execute(table.insert().values({one.name: first, other.name: second,
                                                        "at": moment}))
        return True

    try:
        return await storage.write(run)
    except sa.exc.IntegrityError:
        return False  # another process wrote the same row a moment before


async def _remove_pair(storage: Storage, table: sa.Table, first: int, second: int) -> bool:
    """Remove the row (``first``, ``second``) from ``follows`` or ``blocks``; whether it was
    there."""
    one, other = table.c[0], table.c[1]

    async def run(connection: AsyncConnection) -> bool:
        result = await connection.execute(table.delete().where(one == first, other == second))
        return result.rowcount > 0

    return await storage.write(run)


async def follow(storage: Storage, follower: int, followed: int, moment: datetime) -> bool:
    """``follower`` follows ``followed`` from now on; whether they did not already."""
    return await _add_pair(storage, follows, follower, followed, moment)


async def unfollow(storage: Storage, follower: int, followed: int) -> bool:
    """``follower`` no longer follows ``followed``; whether they did."""
    return await _remove_pair(storage, follows, follower, followed)


async def block(storage: Storage, blocker: int, blocked: int, moment: datetime) -> bool:
    """``blocker`` blocks ``blocked``: and neither follows the other any more (the blocked
    one no longer sees when the blocker is online). Whether the block is new."""

    async def run(connection: AsyncConnection) -> None:
        await connection.execute(
            follows.delete().where(
                sa.or_(
                    sa.and_(follows.c.follower_id == blocker, follows.c.followed_id == blocked),
                    sa.and_(follows.c.follower_id == blocked, follows.c.followed_id == blocker),
                )
            )
        )

    await storage.write(run)
    return await _add_pair(storage, blocks, blocker, blocked, moment)


async def unblock(storage: Storage, blocker: int, blocked: int) -> bool:
    """``blocker`` lifts their block on ``blocked``; whether there was one."""
    return await _remove_pair(storage, blocks, blocker, blocked)


async def _listed(storage: Storage, table: sa.Table, account_id: int) -> list[Named]:
    """The accounts in ``account_id``'s rows of ``follows`` or ``blocks`` (second column when
    the first is ``account_id``), by name."""
    one, other = table.c[0], table.c[1]
    async with storage.engine.connect() as connection:
        rows = (
            await connection.execute(
                sa.select(accounts.c.id, accounts.c.name)
                .join(table, other == accounts.c.id)
                .where(one == account_id)
                .order_by(accounts.c.name_key)
            )
        ).all()
    return [Named(int(row.id), str(row.name)) for row in rows]


async def _has_pair(storage: Storage, table: sa.Table, first: int, second: int) -> bool:
    """Whether ``follows`` or ``blocks`` has the row (``first``, ``second``)."""
    one, other = table.c[0], table.c[1]
    async with storage.engine.connect() as connection:
        found = await connection.scalar(
            sa.select(sa.func.count()).select_from(table).where(one == first, other == second)
        )
    return bool(found)


async def followed_by(storage: Storage, account_id: int) -> list[Named]:
    """The accounts ``account_id`` follows, by name."""
    return await _listed(storage, follows, account_id)


async def followers_of(storage: Storage, account_id: int) -> list[int]:
    """The accounts that follow ``account_id``: those told when it comes and goes."""
    async with storage.engine.connect() as connection:
        found = (
            await connection.execute(
                sa.select(follows.c.follower_id).where(follows.c.followed_id == account_id)
            )
        ).scalars().all()
    return [int(value) for value in found]


async def follows_one(storage: Storage, follower: int, followed: int) -> bool:
    """Whether ``follower`` follows ``followed``."""
    return await _has_pair(storage, follows, follower, followed)


async def blocked_by(storage: Storage, account_id: int) -> list[Named]:
    """The accounts ``account_id`` blocked, by name."""
    return await _listed(storage, blocks, account_id)


async def has_blocked(storage: Storage, blocker: int, blocked: int) -> bool:
    """Whether ``blocker`` blocked ``blocked``."""
    return await _has_pair(storage, blocks, blocker, blocked)


async def blocked_among(storage: Storage, account_ids: Collection[int]) -> set[frozenset[int]]:
    """Every pair of ``account_ids`` where one blocked the other (either way, one pair each):
    the pairs the pools must not seat together, and the chat must keep apart."""
    wanted = set(account_ids)
    if len(wanted) < 2:
        return set()
    async with storage.engine.connect() as connection:
        rows = (
            await connection.execute(
                sa.select(blocks.c.blocker_id, blocks.c.blocked_id).where(
                    blocks.c.blocker_id.in_(wanted), blocks.c.blocked_id.in_(wanted)
                )
            )
        ).all()
    return {frozenset((int(row.blocker_id), int(row.blocked_id))) for row in rows}


async def accepts_from(storage: Storage, account_id: int) -> str:
    """Whom ``account_id`` takes challenges from: one of :data:`ACCEPTS`."""
    async with storage.engine.connect() as connection:
        found = await connection.scalar(
            sa.select(challenge_settings.c.accepts).where(
                challenge_settings.c.account_id == account_id
            )
        )
    return ACCEPTS[0] if found is None else str(found)


async def playing_shown(storage: Storage, account_id: int) -> str:
    """Who of those following ``account_id`` sees where it plays: one of :data:`SHOWN`."""
    async with storage.engine.connect() as connection:
        found = await connection.scalar(
            sa.select(challenge_settings.c.playing_shown).where(
                challenge_settings.c.account_id == account_id
            )
        )
    return SHOWN_UNSET if found is None else str(found)


async def _set_setting(storage: Storage, account_id: int, column: str, value: str) -> None:
    """Set one of ``account_id``'s settings, leaving the other as it was (an account with no
    row gets one, the other setting at its default)."""

    async def run(connection: AsyncConnection) -> int:
        result = await connection.execute(
            challenge_settings.update()
            .where(challenge_settings.c.account_id == account_id)
            .values({column: value})
        )
        if result.rowcount:
            return 1
        await connection.execute(challenge_settings.insert().values(
            {"account_id": account_id, "accepts": ACCEPTS[0], "playing_shown": SHOWN_UNSET,
             column: value}
        ))
        return 1

    try:
        await storage.write(run)
    except sa.exc.IntegrityError:  # another process made the row a moment before: update it
        await storage.write(run)


async def set_accepts(storage: Storage, account_id: int, accepts: str) -> None:
    """Set whom ``account_id`` takes challenges from (one of :data:`ACCEPTS`)."""
    await _set_setting(storage, account_id, "accepts", accepts)


async def set_playing_shown(storage: Storage, account_id: int, shown: str) -> None:
    """Set who of those following ``account_id`` sees where it plays (one of :data:`SHOWN`)."""
    await _set_setting(storage, account_id, "playing_shown", shown)


Unlisted = Callable[[Storage, Collection[str]], Awaitable[set[str]]]
"""Which of some tables are listed nowhere (the daily deal's: its public answer,
:func:`scopa.server.daily.tables.daily_tables`, handed in by the list of parts, ``parts.py``)."""


async def playing_at(
    storage: Storage, viewer: int, account_ids: Collection[int], unlisted: Unlisted
) -> dict[int, str]:
    """The table each of ``account_ids`` holds a seat at where a match is being played (the
    newest, for one seated at several), for those whose setting shows it to ``viewer`` (all
    who follow them, or those they follow back, ``viewer`` being one): where ``viewer`` may
    watch them. A daily deal's table is never one: its code is listed nowhere, so that only
    someone its player tells can watch (docs/daily.md): ``unlisted`` says which."""
    wanted = set(account_ids)
    if not wanted:
        return {}
    shown = sa.func.coalesce(challenge_settings.c.playing_shown, SHOWN_UNSET)
    followed_back = (
        sa.select(follows.c.follower_id)
        .where(follows.c.follower_id == seat_accounts.c.account_id,
               follows.c.followed_id == viewer)
        .exists()
    )
    async with storage.engine.connect() as connection:
        rows = (
            await connection.execute(
                sa.select(seat_accounts.c.account_id, tables.c.code)
                .join(tables, tables.c.code == seat_accounts.c.table_code)
                .outerjoin(challenge_settings,
                           challenge_settings.c.account_id == seat_accounts.c.account_id)
                .where(
                    seat_accounts.c.account_id.in_(wanted),
                    tables.c.status == "playing",
                    sa.or_(shown == "all", sa.and_(shown == "follows", followed_back)),
                )
                .order_by(tables.c.created_at)
            )
        ).all()
    # A daily table's attempt is stored before its match is dealt, so a table read here in
    # play is known to the daily by now.
    hidden = await unlisted(storage, {str(row.code) for row in rows}) if rows else set()
    return {int(row.account_id): str(row.code) for row in rows if str(row.code) not in hidden}


async def seated_accounts(storage: Storage, code: str) -> list[int]:
    """The accounts holding seats at table ``code``."""
    async with storage.engine.connect() as connection:
        found = (
            await connection.execute(
                sa.select(seat_accounts.c.account_id).where(seat_accounts.c.table_code == code)
            )
        ).scalars().all()
    return [int(value) for value in found]
