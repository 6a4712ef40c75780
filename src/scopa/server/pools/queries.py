"""The pools' reads: a player's rating in a pool, and whether they sit at a match in play.

A person may not queue while seated at an unfinished match (they would be paired while their
table waits for them); the pools ask this once per request to join, never per wave.
"""

from __future__ import annotations

import sqlalchemy as sa

from ..store.schema import ratings, seat_accounts, seats, tables
from ..store.storage import Storage


async def rating_of(storage: Storage, account_id: int, pool: str) -> float | None:
    """``account_id``'s ``mu`` in rating pool ``pool`` (None: never rated there)."""
    async with storage.engine.connect() as connection:
        found = await connection.scalar(
            sa.select(ratings.c.mu).where(ratings.c.account_id == account_id,
                                          ratings.c.pool == pool)
        )
    return None if found is None else float(found)


async def playing_table(storage: Storage, account_id: int | None, codes: list[str]) -> str | None:
    """A live table whose match is in play where ``account_id`` holds a seat a person still
    plays, or one of ``codes`` (the tables the pools seated this person at) that is still in
    play. A correspondence match, a move a day, keeps nobody from a live one."""
    conditions = []
    if account_id is not None:
        conditions.append(tables.c.code.in_(
            sa.select(seat_accounts.c.table_code)
            .join(seats, sa.and_(seats.c.table_code == seat_accounts.c.table_code,
                                 seats.c.seat == seat_accounts.c.seat))
            .where(seat_accounts.c.account_id == account_id, seats.c.kind == "human",
                   seats.c.token_hash.is_not(None))
        ))
    if codes:
        conditions.append(tables.c.code.in_(codes))
    if not conditions:
        return None
    async with storage.engine.connect() as connection:
        found = await connection.scalar(
            sa.select(tables.c.code)
            .where(tables.c.status == "playing", tables.c.pace == "live", sa.or_(*conditions))
            .order_by(tables.c.code)
            .limit(1)
        )
    return None if found is None else str(found)
