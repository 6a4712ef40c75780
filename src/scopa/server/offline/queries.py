"""Offline play's matches in the database (``offline_matches``): stored once per account, read
back for the account's history and for a replay.

Like the other features' queries, each function is one read on one connection or one
transaction through the room's writer (:meth:`..store.storage.Storage.write`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
import sqlalchemy.exc
from sqlalchemy.ext.asyncio import AsyncConnection

from ..store.schema import accounts, offline_matches
from ..store.storage import Storage, aware


@dataclass(frozen=True)
class Upload:
    """One match to store, as the core played it again."""

    account_id: int
    client_id: str
    record_hash: str
    seat: int
    opponents: list[str]
    look: str
    record: dict[str, Any]
    result: str
    finished_at: datetime
    uploaded_at: datetime


@dataclass(frozen=True)
class StoredOffline:
    """One stored offline match, with its player's name as the account has it now."""

    id: int
    account_id: int
    name: str
    seat: int
    opponents: list[str]
    look: str
    rules: dict[str, Any]
    record: dict[str, Any]
    result: str
    finished_at: datetime


@dataclass(frozen=True)
class Taken:
    """Why an upload was not stored: ``same_record`` (this account has this record already,
    whatever its id) or else its id was the id of another of the account's records; ``id``,
    the stored match it ran into."""

    same_record: bool
    id: int


async def _taken(connection: AsyncConnection, upload: Upload) -> Taken | None:
    found = (await connection.execute(
        sa.select(offline_matches.c.id, offline_matches.c.record_hash)
        .where(offline_matches.c.account_id == upload.account_id,
               sa.or_(offline_matches.c.client_id == upload.client_id,
                      offline_matches.c.record_hash == upload.record_hash))
        .order_by(offline_matches.c.id).limit(1)
    )).first()
    return None if found is None else Taken(found.record_hash == upload.record_hash, found.id)


async def store(storage: Storage, upload: Upload) -> int | Taken:
    """Store ``upload`` in one transaction: its new id, or what it ran into when the account
    has the same id or the same record already (then nothing is written). The unique keys
    decide between two copies sent at once to two processes: the second's insert fails, and
    reading again says what it ran into."""

    async def run(connection: AsyncConnection) -> int | Taken:
        taken = await _taken(connection, upload)
        if taken is not None:
            return taken
        inserted = await connection.execute(offline_matches.insert().values(
            account_id=upload.account_id, client_id=upload.client_id,
            record_hash=upload.record_hash, seat=upload.seat, opponents=upload.opponents,
            look=upload.look, rules=upload.record["rules"], record=upload.record,
            result=upload.result, finished_at=upload.finished_at,
            uploaded_at=upload.uploaded_at,
        ))
        key = inserted.inserted_primary_key
        assert key is not None
        return int(key[0])

    async def again(connection: AsyncConnection) -> int | Taken:
        taken = await _taken(connection, upload)
        return taken if taken is not None else await run(connection)

    try:
        return await storage.write(run)
    except sqlalchemy.exc.IntegrityError:
        return await storage.write(again)


def _stored(row: Any) -> StoredOffline:
    return StoredOffline(
        id=row.id, account_id=row.account_id, name=row.name, seat=row.seat,
        opponents=list(row.opponents), look=row.look, rules=row.rules, record=row.record,
        result=row.result, finished_at=aware(row.finished_at),
    )


_SHOWN = (offline_matches, accounts.c.name)


async def recent(storage: Storage, account_id: int, count: int) -> list[StoredOffline]:
    """The account's ``count`` latest offline matches, latest first."""
    async with storage.engine.connect() as connection:
        rows = await connection.execute(
            sa.select(*_SHOWN).join(accounts, accounts.c.id == offline_matches.c.account_id)
            .where(offline_matches.c.account_id == account_id)
            .order_by(offline_matches.c.finished_at.desc(), offline_matches.c.id.desc())
            .limit(count)
        )
        return [_stored(row) for row in rows]


async def one(storage: Storage, match_id: int) -> StoredOffline | None:
    """The offline match ``match_id``, if there is one."""
    async with storage.engine.connect() as connection:
        row = (await connection.execute(
            sa.select(*_SHOWN).join(accounts, accounts.c.id == offline_matches.c.account_id)
            .where(offline_matches.c.id == match_id)
        )).first()
    return None if row is None else _stored(row)
