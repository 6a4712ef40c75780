"""Puzzle ratings' reads and writes: an account's rating in a game, its first tries, the
one transaction that counts a try, and the guests' tries of the day.

A guest's try is answered with the answer, so an account's first try of the same puzzle, from
the same browser or address on the same day, was bought with it (20 of 20 right, 1000 to 1973:
issue 34, item 15). A guest's try leaves marks, the hashes of its browser's key and its
address (:func:`note_guest_try`); an account's first try that meets one of them that day is
kept as tried, so the puzzle is done for the account, and counts for nothing
(:func:`count_try`).

Like :mod:`.rating_queries`, the rating model is handed in (:data:`Rate`), so that reading the
rating and writing the new one stay one transaction; the model is the puzzles' wing's
(:mod:`scopa.server.puzzles.ratings`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Collection
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, Final

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from ..store.schema import puzzle_guest_tries, puzzle_ratings, puzzle_tries
from ..store.storage import Storage, aware

TRIED_BEFORE: Final = "tried_before"
"""Why a try did not count: the account tried the puzzle before (only the first try counts)."""
TRIED_AS_GUEST: Final = "tried_as_guest"
"""Why a try did not count: its browser or address tried the puzzle as a guest that day, and
was given the answer."""


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
    """An account's first try of a puzzle: what was played, and the rating shown around it
    (the same before and after when it did not count)."""

    preset: str
    puzzle_id: str
    move: str
    solved: bool
    display_before: int
    display_after: int
    at: datetime
    counted: bool = True


@dataclass(frozen=True)
class Counted:
    """What a try came to: whether it counted (``first``), the account's first try of the
    puzzle (this one, or the earlier one), the rating after it (None: the account has none in
    the game yet, its first try in it not having counted) and, for a try that did not count,
    why: :data:`TRIED_BEFORE` or :data:`TRIED_AS_GUEST`."""

    first: bool
    counted: PuzzleTry
    rating: PuzzleRating | None
    reason: str | None = None


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
    first, read on one connection (a first try that did not count is not listed)."""
    async with storage.engine.connect() as connection:
        row = (await connection.execute(sa.select(puzzle_ratings).where(
            puzzle_ratings.c.account_id == account_id, puzzle_ratings.c.preset == preset,
        ))).first()
        tries = (await connection.execute(
            sa.select(puzzle_tries).where(puzzle_tries.c.account_id == account_id,
                                          puzzle_tries.c.preset == preset,
                                          puzzle_tries.c.counted)
            .order_by(puzzle_tries.c.at.desc(), puzzle_tries.c.puzzle_id.desc()).limit(limit)
        )).all()
    return (None if row is None else _rating(row)), [_try(found) for found in tries]


async def tried(storage: Storage, account_id: int, preset: str) -> set[str]:
    """The ids of the puzzles of ``preset`` the account has tried (counted or not)."""
    async with storage.engine.connect() as connection:
        return set((await connection.scalars(
            sa.select(puzzle_tries.c.puzzle_id).where(puzzle_tries.c.account_id == account_id,
                                                      puzzle_tries.c.preset == preset)
        )).all())


async def note_guest_try(
    storage: Storage, day: date, preset: str, puzzle_id: str, marks: Collection[str]
) -> None:
    """A guest tried ``puzzle_id`` of ``preset`` on ``day`` (UTC) from the browser and address
    ``marks`` name (hashes): kept once each, for that day. The rows of days before it go in
    the same transaction, so the table holds a day or two at most."""

    async def run(connection: AsyncConnection) -> None:
        await connection.execute(puzzle_guest_tries.delete().where(puzzle_guest_tries.c.day < day))
        kept = set((await connection.scalars(
            sa.select(puzzle_guest_tries.c.mark).where(
                puzzle_guest_tries.c.day == day, puzzle_guest_tries.c.preset == preset,
                puzzle_guest_tries.c.puzzle_id == puzzle_id,
                puzzle_guest_tries.c.mark.in_(list(marks)),
            )
        )).all())
        new = [mark for mark in dict.fromkeys(marks) if mark not in kept]
        if new:
            await connection.execute(puzzle_guest_tries.insert(), [
                {"day": day, "preset": preset, "puzzle_id": puzzle_id, "mark": mark}
                for mark in new
            ])

    # The same guest's other try, on another process, may keep them first: once is enough.
    with contextlib.suppress(IntegrityError):
        await storage.write(run)


async def count_try(
    storage: Storage, account_id: int, preset: str, puzzle_id: str, move: str, solved: bool,
    moment: datetime, rate: Rate, day: date, marks: Collection[str],
) -> Counted:
    """One transaction: unless the account has tried the puzzle before, the try is kept and
    its rating in ``preset`` moved by ``rate``; if it has, nothing changes and the earlier try
    is given back. A first try whose browser or address (``marks``) tried the puzzle as a guest
    on ``day`` is kept as tried, and leaves the rating as it was. Two tries at once (two
    processes) meet the tables' keys: the one that loses is run again, and then finds the
    other's rating, or its try of the same puzzle."""

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
        if await _tried_as_guest(connection, day, preset, puzzle_id, marks):
            _, shown, _ = rate(before)
            seen = PuzzleTry(preset, puzzle_id, move, solved, shown, shown, moment, False)
            await connection.execute(puzzle_tries.insert().values(
                account_id=account_id, preset=preset, puzzle_id=puzzle_id, move=move,
                solved=solved, display_before=shown, display_after=shown, at=moment,
                counted=False))
            return Counted(False, seen, before, TRIED_AS_GUEST)
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


async def _tried_as_guest(
    connection: AsyncConnection, day: date, preset: str, puzzle_id: str, marks: Collection[str]
) -> bool:
    """Whether a guest tried the puzzle on ``day`` from a browser or address of ``marks``."""
    if not marks:
        return False
    found = await connection.scalar(
        sa.select(sa.func.count()).select_from(puzzle_guest_tries).where(
            puzzle_guest_tries.c.day == day, puzzle_guest_tries.c.preset == preset,
            puzzle_guest_tries.c.puzzle_id == puzzle_id,
            puzzle_guest_tries.c.mark.in_(list(marks)),
        )
    )
    return bool(found)


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
    ))).first()
    return Counted(False, _try(found), None if rating is None else _rating(rating),
                   TRIED_BEFORE)


def _rating(row: Any) -> PuzzleRating:
    return PuzzleRating(row.preset, row.mu, row.sigma, row.tries, row.solved)


def _try(row: Any) -> PuzzleTry:
    return PuzzleTry(row.preset, row.puzzle_id, row.move, row.solved, row.display_before,
                     row.display_after, aware(row.at), bool(row.counted))
