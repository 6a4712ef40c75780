"""Puzzle ratings' reads and writes: an account's rating in a game, its first tries, and the
one transaction that counts a try.

Like :mod:`.rating_queries`, the rating model is handed in (:data:`Rate`), so that reading the
rating and writing the new one stay one transaction; the model is the puzzles' wing's
(:mod:`scopa.server.puzzles.ratings`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from .schema import puzzle_ratings, puzzle_tries
from .storage import Storage, aware


@dataclass(frozen=True)
class PuzzleRating:
    """An account's puzzle rating in one game, and its counted tries."""

    preset: str
    mu: float
    sigma: float
    tries: int
    solved: int


@dataclass(frozen=True)
class PuzzleTry:
    """An account's first try of a puzzle: what was played, and the rating shown around it."""

    preset: str
    puzzle_id: str
    move: str
    solved: bool
    display_before: int
    display_after: int
    at: datetime


@dataclass(frozen=True)
class Counted:
    """What a try came to: the try that counts (this one, or the earlier one when ``first`` is
    False) and the rating after it."""

    first: bool
    counted: PuzzleTry
    rating: PuzzleRating


Rate = Callable[[PuzzleRating | None], tuple[PuzzleRating, int, int]]
"""The rating after this try, from the rating before it (None: the account's first try in the
game), with the rating shown before and after."""


async def rating_of(storage: Storage, account_id: int, preset: str) -> PuzzleRating | None:
    async with storage.engine.connect() as connection:
        row = (await connection.execute(sa.select(puzzle_ratings).where(
            puzzle_ratings.c.account_id == account_id, puzzle_ratings.c.preset == preset,
        ))).first()
    return None if row is None else _rating(row)


async def ratings_of(storage: Storage, account_id: int) -> list[PuzzleRating]:
    """The account's puzzle ratings, one per game it has tried puzzles of, by game."""
    async with storage.engine.connect() as connection:
        rows = (await connection.execute(
            sa.select(puzzle_ratings).where(puzzle_ratings.c.account_id == account_id)
            .order_by(puzzle_ratings.c.preset)
        )).all()
    return [_rating(row) for row in rows]


async def history(
    storage: Storage, account_id: int, preset: str, limit: int
) -> tuple[PuzzleRating | None, list[PuzzleTry]]:
    """The account's rating in ``preset`` and its ``limit`` latest counted tries, newest
    first, read on one connection."""
    async with storage.engine.connect() as connection:
        row = (await connection.execute(sa.select(puzzle_ratings).where(
            puzzle_ratings.c.account_id == account_id, puzzle_ratings.c.preset == preset,
        ))).first()
        tries = (await connection.execute(
            sa.select(puzzle_tries).where(puzzle_tries.c.account_id == account_id,
                                          puzzle_tries.c.preset == preset)
            .order_by(puzzle_tries.c.at.desc(), puzzle_tries.c.puzzle_id.desc()).limit(limit)
        )).all()
    return (None if row is None else _rating(row)), [_try(found) for found in tries]


async def tried(storage: Storage, account_id: int, preset: str) -> set[str]:
    """The ids of the puzzles of ``preset`` the account has tried."""
    async with storage.engine.connect() as connection:
        return set((await connection.scalars(
            sa.select(puzzle_tries.c.puzzle_id).where(puzzle_tries.c.account_id == account_id,
                                                      puzzle_tries.c.preset == preset)
        )).all())


async def count_try(
    storage: Storage, account_id: int, preset: str, puzzle_id: str, move: str, solved: bool,
    moment: datetime, rate: Rate,
) -> Counted:
    """One transaction: unless the account has tried the puzzle before, the try is kept and
    its rating in ``preset`` moved by ``rate``; if it has, nothing changes and the earlier try
    is given back. Two tries at once (two processes) meet the tables' keys: the one that loses is
    run again, and then finds the other's rating, or its try of the same puzzle."""

    async def run(connection: AsyncConnection) -> Counted:
        earlier = await _earlier(connection, account_id, preset, puzzle_id)
        if earlier is not None:
            return earlier
        row = (await connection.execute(
            sa.select(puzzle_ratings).where(puzzle_ratings.c.account_id == account_id,
                                            puzzle_ratings.c.preset == preset)
            .with_for_update()
        )).first()
        before = None if row is None else _rating(row)
        after, shown_before, shown_after = rate(before)
        values = {"mu": after.mu, "sigma": after.sigma, "tries": after.tries,
                  "solved": after.solved, "updated_at": moment}
        if before is None:
            await connection.execute(puzzle_ratings.insert().values(
                account_id=account_id, preset=preset, **values))
        else:
            await connection.execute(puzzle_ratings.update().where(
                puzzle_ratings.c.account_id == account_id, puzzle_ratings.c.preset == preset,
            ).values(**values))
        counted = PuzzleTry(preset, puzzle_id, move, solved, shown_before, shown_after, moment)
        await connection.execute(puzzle_tries.insert().values(
            account_id=account_id, preset=preset, puzzle_id=puzzle_id, move=move,
            solved=solved, display_before=shown_before, display_after=shown_after, at=moment))
        return Counted(True, counted, after)

    async def again(connection: AsyncConnection) -> Counted:
        earlier = await _earlier(connection, account_id, preset, puzzle_id)
        if earlier is None:  # the other write was a first try of another puzzle: count this
            return await run(connection)
        return earlier

    try:
        return await storage.write(run)
    except IntegrityError:
        return await storage.write(again)


async def _earlier(
    connection: AsyncConnection, account_id: int, preset: str, puzzle_id: str
) -> Counted | None:
    found = (await connection.execute(sa.select(puzzle_tries).where(
        puzzle_tries.c.account_id == account_id, puzzle_tries.c.preset == preset,
        puzzle_tries.c.puzzle_id == puzzle_id,
    ))).first()
    if found is None:
        return None
    rating = (await connection.execute(sa.select(puzzle_ratings).where(
        puzzle_ratings.c.account_id == account_id, puzzle_ratings.c.preset == preset,
    ))).one()
    return Counted(False, _try(found), _rating(rating))


def _rating(row: Any) -> PuzzleRating:
    return PuzzleRating(row.preset, row.mu, row.sigma, row.tries, row.solved)


def _try(row: Any) -> PuzzleTry:
    return PuzzleTry(row.preset, row.puzzle_id, row.move, row.solved, row.display_before,
                     row.display_after, aware(row.at))
