"""The accounts' reads and writes: accounts, sessions and the seats they hold.

Each function is one query, one read on one connection, or one transaction through the room's
writer (:meth:`.Storage.write`), named for what it reads or writes. The wing
(:mod:`scopa.server.accounts`) keeps the HTTP and the rules of accounts (who may do what,
password hashes, seat keys); this module and its siblings :mod:`.rating_queries` and
:mod:`.review_queries` keep the SQL, so that the schema's columns are spelled out in one place
beside :mod:`.storage`. Where a rule of the wing must run inside a transaction (sealing seats
again under a new password), the caller hands it in as a plain function, so the transaction
stays one.

Every moment given back is time-zone aware (SQLite keeps none: what it stores is UTC).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from .schema import (
    accounts,
    seat_accounts,
    seats,
    sessions,
    tables,
)
from .storage import Storage, aware

# -- accounts and sessions -----------------------------------------------------------------


@dataclass(frozen=True)
class StoredSession:
    """A session found by its secret, with the account it logs in."""

    id: int
    created_at: datetime
    seen_at: datetime
    account_id: int
    name: str


@dataclass(frozen=True)
class Login:
    """What a login checks a password against: the account's id, name and password hash."""

    account_id: int
    name: str
    password_hash: str


@dataclass(frozen=True)
class ListedSession:
    """One of an account's sessions as its owner sees it (never its secret's hash)."""

    id: int
    agent: str | None
    created_at: datetime
    seen_at: datetime


async def session_of(storage: Storage, secret_hash: str) -> StoredSession | None:
    """The session whose secret hashes to ``secret_hash``, and its account; None if there is
    none (never opened, logged out or revoked). Whether it has lapsed is the caller's rule."""
    async with storage.engine.connect() as connection:
        row = (
            await connection.execute(
                sa.select(sessions.c.id, sessions.c.created_at, sessions.c.seen_at,
                          accounts.c.id.label("account"), accounts.c.name)
                .join(accounts, accounts.c.id == sessions.c.account_id)
                .where(sessions.c.secret_hash == secret_hash)
            )
        ).first()
    if row is None:
        return None
    return StoredSession(row.id, aware(row.created_at), aware(row.seen_at), row.account,
                         row.name)


async def session_seen(storage: Storage, session_id: int, moment: datetime) -> None:
    """Session ``session_id`` was used at ``moment`` (written now and then, not per request)."""

    async def run(connection: AsyncConnection) -> None:
        await connection.execute(
            sessions.update().where(sessions.c.id == session_id).values(seen_at=moment)
        )

    await storage.write(run)


async def open_session(
    storage: Storage, account_id: int, secret_hash: str, agent: str | None, moment: datetime,
    *, ending: str | None = None,
) -> None:
    """A new session of ``account_id`` under ``secret_hash``; in the same transaction the
    session whose secret hashes to ``ending`` (the one the login came with) ends, so that the
    browser never holds both."""

    async def run(connection: AsyncConnection) -> None:
        if ending is not None:
            await connection.execute(sessions.delete().where(sessions.c.secret_hash == ending))
        await connection.execute(
            sessions.insert().values(
                secret_hash=secret_hash, account_id=account_id, agent=agent,
                created_at=moment, seen_at=moment,
            )
        )

    await storage.write(run)


async def end_session(storage: Storage, secret_hash: str) -> None:
    """Log out: the session whose secret hashes to ``secret_hash`` ends (if there is one)."""

    async def run(connection: AsyncConnection) -> None:
        await connection.execute(sessions.delete().where(sessions.c.secret_hash == secret_hash))

    await storage.write(run)


async def revoke_session(storage: Storage, account_id: int, session_id: int) -> bool:
    """End session ``session_id`` if it is ``account_id``'s; whether it was (someone else's
    session is left alone, as if it did not exist)."""

    async def run(connection: AsyncConnection) -> int:
        done = await connection.execute(
            sessions.delete().where(
                sessions.c.id == session_id, sessions.c.account_id == account_id
            )
        )
        return int(done.rowcount)

    return bool(await storage.write(run))


async def sessions_of(storage: Storage, account_id: int) -> list[ListedSession]:
    """Every session of ``account_id``, oldest first."""
    async with storage.engine.connect() as connection:
        rows = (
            await connection.execute(
                sa.select(sessions.c.id, sessions.c.agent, sessions.c.created_at,
                          sessions.c.seen_at)
                .where(sessions.c.account_id == account_id)
                .order_by(sessions.c.id)
            )
        ).all()
    return [
        ListedSession(row.id, row.agent, aware(row.created_at), aware(row.seen_at))
        for row in rows
    ]


async def create_account(
    storage: Storage, name: str, name_key: str, password_hash: str, moment: datetime,
    *, release_before: datetime | None = None,
) -> int | None:
    """A new account; its id, or None when ``name_key`` is taken (found taken in the
    transaction, or taken by another process's insert that committed first). A deleted
    account that keeps the key but was deleted before ``release_before`` gives it up in the
    same transaction (its key becomes :func:`released_key`)."""

    async def run(connection: AsyncConnection) -> int | None:
        taken = (
            await connection.execute(
                sa.select(accounts.c.id, accounts.c.deleted_at)
                .where(accounts.c.name_key == name_key)
            )
        ).first()
        if taken is not None:
            lapsed = (release_before is not None and taken.deleted_at is not None
                      and aware(taken.deleted_at) < release_before)
            if not lapsed:
                return None
            await connection.execute(
                accounts.update().where(accounts.c.id == taken.id)
                .values(name_key=released_key(taken.id))
            )
        inserted = await connection.execute(
            accounts.insert().values(
                name=name, name_key=name_key, password_hash=password_hash, created_at=moment
            )
        )
        key_of_row = inserted.inserted_primary_key
        assert key_of_row is not None
        return int(key_of_row[0])

    try:
        return await storage.write(run)
    except sa.exc.IntegrityError:
        return None


def named(name_key: str, legacy_key: str) -> sa.ColumnElement[bool]:
    """Whether an account row has a typed name's key, or its key of before migration 0008,
    and is not deleted (a deleted account's name finds nobody, though it keeps its key for a
    while: :func:`name_holder`)."""
    return sa.and_(accounts.c.name_key.in_((name_key, legacy_key)),
                   accounts.c.deleted_at.is_(None))


def released_key(account_id: int) -> str:
    """The key a deleted account holds once its name is free again: upper case, so never a
    key of before migration 0008 (those are case-folded), and never 64 hex digits.

    >>> released_key(12)
    'DELETED 12'
    """
    return f"DELETED {account_id}"


def chosen(rows: Sequence[Any], legacy_key: str) -> Any:
    """Of the (at most two) accounts a typed name finds, the one that kept ``legacy_key``: an
    account that looks like an older one and kept its key of before migration 0008 is found by
    its own name first, as it was before; else the one with the name's key."""
    for row in rows:
        if row.name_key == legacy_key:
            return row
    return rows[0] if rows else None


@dataclass(frozen=True)
class NameHolder:
    """The account that holds a name key: a live one (``deleted_at`` None), or a deleted one
    that keeps the name from others until its time is up."""

    account_id: int
    deleted_at: datetime | None


async def name_holder(storage: Storage, name_key: str) -> NameHolder | None:
    """The account that has the key ``name_key`` (a look-alike of the name is taken), deleted
    or not; None when the name is free."""
    async with storage.engine.connect() as connection:
        found = (
            await connection.execute(
                sa.select(accounts.c.id, accounts.c.deleted_at)
                .where(accounts.c.name_key == name_key)
            )
        ).first()
    if found is None:
        return None
    return NameHolder(found.id, None if found.deleted_at is None else aware(found.deleted_at))


async def login_row(storage: Storage, name_key: str, legacy_key: str) -> Login | None:
    """The account a login names: keys as :func:`~..accounts.accounts.name_key` and
    :func:`~..accounts.accounts.legacy_name_key` make them of the typed name (the latter
    first: see :func:`_chosen`), or None for a name nobody has."""
    async with storage.engine.connect() as connection:
        rows = (
            await connection.execute(
                sa.select(accounts.c.id, accounts.c.name, accounts.c.name_key,
                          accounts.c.password_hash).where(named(name_key, legacy_key))
            )
        ).all()
    row = chosen(rows, legacy_key)
    return None if row is None else Login(row.id, row.name, row.password_hash)


async def name_owner(storage: Storage, name_key: str, legacy_key: str) -> str | None:
    """The name of the account these keys find (as :func:`login_row` finds it), or None."""
    async with storage.engine.connect() as connection:
        rows = (
            await connection.execute(
                sa.select(accounts.c.name, accounts.c.name_key)
                .where(named(name_key, legacy_key))
            )
        ).all()
    row = chosen(rows, legacy_key)
    return None if row is None else str(row.name)


async def password_hash(storage: Storage, account_id: int) -> str | None:
    """The password hash of ``account_id``, or None if there is no such account."""
    async with storage.engine.connect() as connection:
        found: str | None = await connection.scalar(
            sa.select(accounts.c.password_hash).where(accounts.c.id == account_id)
        )
    return found


# -- the seats accounts hold ---------------------------------------------------------------


@dataclass(frozen=True)
class SealedSeat:
    """A seat an account holds, its token sealed under the account's seat key."""

    table_code: str
    seat: int
    sealed: str


@dataclass(frozen=True)
class HeldSealedSeat(SealedSeat):
    """A sealed seat at a table still open, with the table's status and the hash of the token
    that takes the seat now (None once nobody holds it)."""

    status: str
    token_hash: str | None


Reseal = Callable[[SealedSeat], str | None]
"""A seat's token sealed again under a new key, or None when it no longer opens."""


async def hold_seat(
    storage: Storage, code: str, seat: int, account_id: int | None, sealed: str | None
) -> None:
    """Seat ``seat`` at table ``code`` is now ``account_id``'s, its token ``sealed`` (None when
    the browser has no seat key); with no account (a guest took it), whatever account held it
    before no longer does. One transaction: the seat is never held by two accounts."""

    async def run(connection: AsyncConnection) -> None:
        await connection.execute(
            seat_accounts.delete().where(
                seat_accounts.c.table_code == code, seat_accounts.c.seat == seat
            )
        )
        if account_id is not None:
            await connection.execute(
                seat_accounts.insert().values(
                    table_code=code, seat=seat, account_id=account_id, sealed=sealed
                )
            )

    await storage.write(run)


async def seat_lock(storage: Storage, account_id: int) -> str | None:
    """The seat lock stored with ``account_id`` (:mod:`..accounts.seatkeys`), or None: an
    account that has not logged in since locks were kept, or none at all."""
    async with storage.engine.connect() as connection:
        found: str | None = await connection.scalar(
            sa.select(accounts.c.seat_lock).where(accounts.c.id == account_id)
        )
    return found


async def set_seat_lock(storage: Storage, account_id: int, lock: str) -> None:
    """Keep ``lock`` as ``account_id``'s seat lock (written only when it changes)."""

    async def run(connection: AsyncConnection) -> None:
        await connection.execute(
            accounts.update()
            .where(accounts.c.id == account_id,
                   sa.or_(accounts.c.seat_lock.is_(None), accounts.c.seat_lock != lock))
            .values(seat_lock=lock)
        )

    await storage.write(run)


async def held_seats(storage: Storage, account_id: int) -> list[HeldSealedSeat]:
    """The sealed seats of ``account_id`` at tables waiting, playing or over (a table over
    may start a rematch), by table code."""
    async with storage.engine.connect() as connection:
        rows = (
            await connection.execute(
                sa.select(seat_accounts, tables.c.status, seats.c.token_hash)
                .join(tables, tables.c.code == seat_accounts.c.table_code)
                .join(seats, sa.and_(seats.c.table_code == seat_accounts.c.table_code,
                                     seats.c.seat == seat_accounts.c.seat))
                .where(seat_accounts.c.account_id == account_id,
                       seat_accounts.c.sealed.is_not(None),
                       tables.c.status.in_(("waiting", "playing", "over")))
                .order_by(seat_accounts.c.table_code)
            )
        ).all()
    return [HeldSealedSeat(row.table_code, row.seat, row.sealed, row.status, row.token_hash)
            for row in rows]


async def change_password(
    storage: Storage, account_id: int, new_hash: str, reseal: Reseal, *, keep_session: int,
    lock: str,
) -> None:
    """One transaction: ``account_id``'s password hash becomes ``new_hash`` and its seat lock
    ``lock`` (the new key's), each seat it holds sealed is sealed again by ``reseal`` (or its
    seal dropped), and every session of the account but ``keep_session`` ends. Being one
    transaction, no seat is ever left sealed under a key that no password gives any more."""

    async def run(connection: AsyncConnection) -> None:
        await connection.execute(
            accounts.update().where(accounts.c.id == account_id)
            .values(password_hash=new_hash, seat_lock=lock)
        )
        held = await connection.execute(
            sa.select(seat_accounts).where(
                seat_accounts.c.account_id == account_id, seat_accounts.c.sealed.is_not(None)
            )
        )
        for row in held.all():
            resealed = reseal(SealedSeat(row.table_code, row.seat, row.sealed))
            await connection.execute(
                seat_accounts.update()
                .where(seat_accounts.c.table_code == row.table_code,
                       seat_accounts.c.seat == row.seat)
                .values(sealed=resealed)
            )
        await connection.execute(
            sessions.delete().where(
                sessions.c.account_id == account_id, sessions.c.id != keep_session
            )
        )

    await storage.write(run)
