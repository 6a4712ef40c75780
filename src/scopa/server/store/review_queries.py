"""Replays' and the master's reviews' reads and writes: a match's players and look, and
the review jobs that the room's processes claim, advance and store.

Like :mod:`.account_queries`: one query, one read or one transaction a function.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from .schema import (
    matches,
    review_jobs,
    reviews,
    seats,
    tables,
)
from .storage import Storage, now

# -- replays and reviews -------------------------------------------------------------------


@dataclass(frozen=True)
class ReviewJob:
    """How far a review is, as the process working it out last wrote."""

    total: int
    done: int
    error: str | None


async def players_and_look(storage: Storage, match_id: int) -> tuple[list[dict[str, Any]], str]:
    """Match ``match_id``'s players and its table's deck look, for its replay (the match must
    exist: ``NoResultFound`` otherwise)."""
    async with storage.engine.connect() as connection:
        found = (
            await connection.execute(
                sa.select(matches.c.players, tables.c.look)
                .join(tables, tables.c.code == matches.c.table_code)
                .where(matches.c.id == match_id)
            )
        ).one()
    return found.players, found.look


async def seat_token_hashes(storage: Storage, match_id: int) -> list[str]:
    """The token hashes of the people's seats at the table where match ``match_id`` was played:
    a token that matches one is a seat of the match, who may ask for its review."""
    async with storage.engine.connect() as connection:
        found = await connection.scalars(
            sa.select(seats.c.token_hash)
            .join(matches, matches.c.table_code == seats.c.table_code)
            .where(matches.c.id == match_id, seats.c.token_hash.is_not(None))
        )
        return [str(value) for value in found]


async def stored_review(storage: Storage, match_id: int, seat: int) -> dict[str, Any] | None:
    """The finished review of ``seat``'s moves in match ``match_id``, if one was stored."""
    async with storage.engine.connect() as connection:
        found: dict[str, Any] | None = await connection.scalar(
            sa.select(reviews.c.result).where(
                reviews.c.match_id == match_id, reviews.c.seat == seat
            )
        )
    return found


async def review_job(storage: Storage, match_id: int, seat: int) -> ReviewJob | None:
    """The progress of the review of ``seat`` in match ``match_id``; None if nobody asked."""
    async with storage.engine.connect() as connection:
        row = (await connection.execute(
            sa.select(review_jobs).where(
                review_jobs.c.match_id == match_id, review_jobs.c.seat == seat)
        )).first()
    return None if row is None else ReviewJob(row.total, row.done, row.error)


async def claim_review(
    storage: Storage, match_id: int, seat: int, owner: str, total: int, moment: datetime,
    lapsed_before: datetime,
) -> bool:
    """Whether ``owner`` now holds the review of ``seat`` in match ``match_id``, of ``total``
    moves: a new row, or one that failed or whose owner wrote nothing since ``lapsed_before``.
    The unique key and the owner named in the ``UPDATE``'s ``WHERE`` let only one process win,
    whatever the others do meanwhile."""
    where = sa.and_(review_jobs.c.match_id == match_id, review_jobs.c.seat == seat)

    async def run(connection: AsyncConnection) -> bool:
        row = (await connection.execute(sa.select(review_jobs).where(where))).first()
        if row is None:
            await connection.execute(review_jobs.insert().values(
                match_id=match_id, seat=seat, owner=owner, done=0, total=total,
                error=None, touched_at=moment))
            return True
        taken = await connection.execute(
            review_jobs.update()
            .where(where, review_jobs.c.owner == row.owner,
                   sa.or_(review_jobs.c.error.is_not(None),
                          review_jobs.c.touched_at < lapsed_before))
            .values(owner=owner, done=0, total=total, error=None, touched_at=moment)
        )
        return taken.rowcount == 1

    try:
        return await storage.write(run)
    except sa.exc.IntegrityError:  # another process inserted the row first
        return False


async def review_progressed(
    storage: Storage, match_id: int, seat: int, owner: str, done: int
) -> bool:
    """``owner`` has reviewed ``done`` moves; False if its claim is gone (another process took
    the review over, or it failed)."""
    return await _note_review(storage, match_id, seat, owner, {"done": done})


async def review_failed(
    storage: Storage, match_id: int, seat: int, owner: str, error: str
) -> bool:
    """``owner``'s review failed with ``error``, so the next asking claims it again at once;
    False if its claim was gone already."""
    return await _note_review(storage, match_id, seat, owner, {"error": error})


async def _note_review(
    storage: Storage, match_id: int, seat: int, owner: str, values: dict[str, Any]
) -> bool:
    async def run(connection: AsyncConnection) -> bool:
        noted = await connection.execute(
            review_jobs.update()
            .where(review_jobs.c.match_id == match_id, review_jobs.c.seat == seat,
                   review_jobs.c.owner == owner, review_jobs.c.error.is_(None))
            .values(touched_at=now(), **values)
        )
        return noted.rowcount == 1

    return await storage.write(run)


async def store_review(
    storage: Storage, match_id: int, seat: int, result: dict[str, Any]
) -> None:
    """One transaction: the finished review of ``seat`` in match ``match_id`` is stored
    (unless another process stored it first) and its job's row goes, so that every process
    finds the review the moment its progress is gone."""
    moment = now()

    async def run(connection: AsyncConnection) -> None:
        exists = await connection.scalar(
            sa.select(reviews.c.match_id).where(
                reviews.c.match_id == match_id, reviews.c.seat == seat
            )
        )
        if exists is None:  # another process may have stored the same review first
            await connection.execute(reviews.insert().values(
                match_id=match_id, seat=seat, result=result, created_at=moment))
        await connection.execute(review_jobs.delete().where(
            review_jobs.c.match_id == match_id, review_jobs.c.seat == seat))

    await storage.write(run)
