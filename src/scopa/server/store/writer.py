"""The database's one writer: every write of the room, grouped into few commits.

Every write goes through one writer task on one connection at a time. It takes whatever writes
are waiting, runs them in one transaction and commits once (a group commit), then answers each
caller: a move's caller is answered only after the commit, so a move is stored before anyone is
told about it, and SQLite's single-writer lock is never fought over. The moves of a batch go in
as one multi-row insert, since each statement costs a trip to the driver's thread. On
PostgreSQL, once a commit carried more than one write, the next starts no sooner than
:data:`COMMIT_INTERVAL` (20 ms) after it, so that a busy room's moves go in many to a statement;
a room whose commits carry one write each (a quiet room, a lone table's back-to-back bot moves)
waits for nothing.

The database is also the fence between processes: a table's writer names the table's epoch it
loaded (:meth:`Storage.take_table` raises it at each takeover) in every write, checked in the
``UPDATE``'s ``WHERE``, so the writes of an owner whose lease lapsed are refused
(:class:`StaleOwnerError`) and change nothing. Moves are fenced by it too (one check per
batch), and by their key, (match, number).

The moves of a batch (all but a match's last) skip SQLAlchemy and its transaction: one
statement, sent on the driver's own connection in autocommit, inserts those whose table is
still at their epoch and returns which went in (on PostgreSQL it locks the tables' rows as it
reads them, ``FOR SHARE``, so a takeover waits for it; SQLite runs one statement at a time).
Through SQLAlchemy, with its ``BEGIN``, fence query, insert and ``COMMIT``, a move alone cost
0.86 ms of the web process's CPU on PostgreSQL and 1.26 ms on SQLite; this way 0.09 and
0.08 ms (0.02 ms a move in batches of eight on either).

The fence is here too: a table's writer names the table's epoch it loaded in every write, and
a write of an owner whose lease lapsed is refused (:class:`StaleOwnerError`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final, TypeVar

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from .schema import matches, moves, seats, tables

log = logging.getLogger(__name__)
T = TypeVar("T")
Write = Callable[[AsyncConnection], Awaitable[Any]]
Entry = tuple["Write | QueuedMove", asyncio.Future[Any]]
"""A queued write and the future its caller waits on."""

MAX_BATCH: Final = 512
"""Writes committed together at most; more wait for the next commit."""
COMMIT_INTERVAL: Final = 0.020
"""Seconds from one commit's start to the next's on PostgreSQL, at least: the writes that come
meanwhile wait and go in together. Each statement is a round trip that costs the web process
about 0.15 ms of CPU however few moves it carries (and PostgreSQL a backend's wakeup); at 500
moves a second a process sent them 1.6 at a time. Only a commit that carried more than one
write makes the next wait (as PostgreSQL's own ``commit_delay`` waits only with
``commit_siblings`` busy): under load the pause keeps the batches big, and a quiet room, or a
lone table whose moves come one after another, waits for nothing. SQLite, a room of one
process that commits in its own thread, commits at once: its moves keep their 20 ms p99."""
CHECKPOINT_SECONDS: Final = 1.0
_INSERT_MOVES_POSTGRES: Final = """
INSERT INTO moves (match_id, number, seat, move)
SELECT i.match_id, i.number, i.seat, i.move
FROM unnest($1::text[], $2::int[], $3::int[], $4::int[], $5::text[], $6::int[])
    AS i(code, match_id, number, seat, move, epoch)
JOIN tables t ON t.code = i.code AND t.epoch = i.epoch
FOR SHARE OF t
RETURNING match_id, number
"""
"""The fenced insert of a batch of moves on PostgreSQL: a move whose table's epoch moved on is
left out (and refused), one whose number is taken fails the whole statement."""
_INSERT_MOVES_SQLITE: Final = """
WITH i(code, match_id, number, seat, move, epoch) AS (VALUES {rows})
INSERT INTO moves (match_id, number, seat, move)
SELECT i.match_id, i.number, i.seat, i.move
FROM i JOIN tables t ON t.code = i.code AND t.epoch = i.epoch
RETURNING match_id, number
"""
"""The same on SQLite, with one ``(?, ?, ?, ?, ?, ?)`` in ``{rows}`` per move."""


class StaleOwnerError(Exception):
    """A table's write refused: another process took the table over since its writer loaded
    it (the table's epoch moved on), so this one is no longer the table's owner."""


@dataclass(frozen=True)
class QueuedMove:
    """A move waiting for the writer (kept apart from other writes for the multi-row insert):
    what :meth:`.Storage.append_move` queues."""

    code: str
    match_id: int
    number: int
    seat: int
    move: str
    finished: tuple[int, dict[str, Any]] | None
    epoch: int
    also: Write | None = None
    """A write of the move's own transaction: what must be stored with the move or not at
    all (a correspondence table's clock, set again by each move)."""

    def row(self) -> dict[str, Any]:
        return {
            "match_id": self.match_id,
            "number": self.number,
            "seat": self.seat,
            "move": self.move,
        }


async def fence(
    connection: AsyncConnection, code: str, epoch: int, **values: Any
) -> None:
    """Update table ``code`` with ``values`` if it is still at ``epoch``, else refuse the whole
    transaction: the check is the ``UPDATE``'s own ``WHERE``, so no other writer can slip in
    between (PostgreSQL's row lock makes a concurrent takeover wait, then re-checks)."""
    result = await connection.execute(
        tables.update()
        .where(tables.c.code == code, tables.c.epoch == epoch)
        .values(values or {"epoch": tables.c.epoch})
    )
    if result.rowcount != 1:
        raise StaleOwnerError(
            f"table {code} was taken over by another process: this writer (epoch {epoch}) "
            "may no longer change it"
        )



class Writer:
    """The writer task (and on SQLite the checkpoints' task) of one database's engine, started
    with :meth:`start` and stopped with :meth:`stop`."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        backend = engine.url.get_backend_name()
        self._queue: asyncio.Queue[Entry] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._writer: AsyncConnection | None = None
        """The writer's own connection, kept open: a checkout from the pool per commit (with
        its ping and reset) cost more than the commit itself."""
        self._postgres = backend == "postgresql"
        self._sqlite = backend == "sqlite"
        self._quick_moves = self._postgres or self._sqlite
        self._mover: AsyncConnection | None = None
        """The connection the moves go in on, in autocommit."""
        self._mover_driver: Any = None
        """Its driver's own connection (asyncpg's or aiosqlite's)."""

    def start(self) -> None:
        self._tasks.append(asyncio.create_task(self._write_batches(), name="scopa-writer"))
        if self._sqlite:
            self._tasks.append(asyncio.create_task(self._checkpoints(), name="scopa-checkpoints"))

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks.clear()
        if self._writer is not None:
            await self._writer.close()
            self._writer = None
        await self._drop_mover()

    async def write(self, operation: Callable[[AsyncConnection], Awaitable[T]]) -> T:
        """Run ``operation`` in the writer's next transaction; return once it is committed."""
        result: T = await self.enqueue(operation)
        return result

    async def enqueue(self, item: Write | QueuedMove) -> Any:
        """Queue ``item`` for the next commit; its result once committed."""
        done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((item, done))
        return await done

    async def _write_batches(self) -> None:
        """The writer. A table waits for its write before making another, so the writes of one
        batch are from different tables and their order within it does not matter."""
        loop = asyncio.get_running_loop()
        interval = COMMIT_INTERVAL if self._postgres else 0.0
        last = -interval
        busy = False
        while True:
            waiting = [await self._queue.get()]
            pause = last + interval - loop.time()
            if busy and pause > 0:
                await asyncio.sleep(pause)
            last = loop.time()
            while len(waiting) < MAX_BATCH and not self._queue.empty():
                waiting.append(self._queue.get_nowait())
            busy = len(waiting) > 1
            quick = [entry for entry in waiting if self._is_quick(entry[0])]
            if quick:
                await self._store_moves(quick)
            batch = [entry for entry in waiting if not self._is_quick(entry[0])]
            if not batch:
                continue
            try:
                results = await self._commit([item for item, _ in batch])
            except asyncio.CancelledError:
                for _, done in batch:
                    done.cancel()
                raise
            except Exception:
                # One bad write must not fail the others: try each alone, so only it fails.
                await self._write_alone(batch)
            else:
                for (_, done), result in zip(batch, results, strict=True):
                    if not done.done():
                        done.set_result(result)

    def _is_quick(self, item: Write | QueuedMove) -> bool:
        return (self._quick_moves and isinstance(item, QueuedMove) and item.finished is None
                and item.also is None)

    async def _store_moves(self, entries: list[Entry]) -> None:
        """Insert moves (none ending a match) in one statement, and answer each: stored, or
        refused as its table's former writer's. When the statement fails (a number taken, the
        connection lost), each move is tried alone in a transaction."""
        moved = [item for item, _ in entries if isinstance(item, QueuedMove)]
        try:
            if self._mover_driver is None:
                self._mover = await self.engine.connect()
                await self._mover.execution_options(isolation_level="AUTOCOMMIT")
                self._mover_driver = (await self._mover.get_raw_connection()).driver_connection
            if self._postgres:
                rows = await self._mover_driver.fetch(
                    _INSERT_MOVES_POSTGRES,
                    [move.code for move in moved],
                    [move.match_id for move in moved],
                    [move.number for move in moved],
                    [move.seat for move in moved],
                    [move.move for move in moved],
                    [move.epoch for move in moved],
                )
            else:
                sql = _INSERT_MOVES_SQLITE.format(rows=",".join(["(?,?,?,?,?,?)"] * len(moved)))
                values = [
                    value
                    for move in moved
                    for value in (
                        move.code, move.match_id, move.number, move.seat, move.move, move.epoch
                    )
                ]
                rows = await self._mover_driver.execute_fetchall(sql, values)
        except asyncio.CancelledError:
            for _, done in entries:
                done.cancel()
            raise
        except Exception as error:
            if not isinstance(error, self._refused()):  # not the database's answer: reconnect
                log.warning("storing %d moves failed (%s); each is tried alone", len(moved), error)
                await self._drop_mover()
            await self._write_alone(entries)
            return
        stored = {(row[0], row[1]) for row in rows}
        for move, (_, done) in zip(moved, entries, strict=True):
            if done.done():
                continue
            if (move.match_id, move.number) in stored:
                done.set_result(None)
            else:
                done.set_exception(
                    StaleOwnerError(
                        f"table {move.code} was taken over by another process: moves from its "
                        f"former writer (epoch {move.epoch}) are refused"
                    )
                )

    def _refused(self) -> type[Exception]:
        """The driver's error for a statement the database refused (a move number stored
        before), on a connection that is still good."""
        if not self._postgres:
            return sqlite3.Error
        import asyncpg  # type: ignore[import-untyped]  # only on PostgreSQL

        error: type[Exception] = asyncpg.PostgresError
        return error

    async def _drop_mover(self) -> None:
        mover, self._mover, self._mover_driver = self._mover, None, None
        if mover is not None:
            with contextlib.suppress(Exception):
                await mover.invalidate()
            with contextlib.suppress(Exception):
                await mover.close()

    async def _commit(self, items: list[Write | QueuedMove]) -> list[Any]:
        """Run ``items`` in one transaction: their results, in order, once committed."""
        results: list[Any] = []
        connection = self._writer
        if connection is None or connection.closed or connection.invalidated:
            connection = self._writer = await self.engine.connect()
        async with connection.begin():
            moved = [item for item in items if isinstance(item, QueuedMove)]
            if moved:
                await _fence_moves(connection, moved)
                await connection.execute(moves.insert(), [move.row() for move in moved])
            for item in items:
                if isinstance(item, QueuedMove):
                    if item.finished is not None:
                        await finish(connection, item.code, item.match_id, item.epoch,
                                      *item.finished)
                    if item.also is not None:
                        await item.also(connection)
                    results.append(None)
                else:
                    results.append(await item(connection))
        return results

    async def _write_alone(self, batch: list[Entry]) -> None:
        for item, done in batch:
            try:
                (result,) = await self._commit([item])
            except Exception as error:
                if not done.done():
                    done.set_exception(error)
            else:
                if not done.done():
                    done.set_result(result)

    async def _checkpoints(self) -> None:
        """Copy SQLite's log into the database now and then, off the writer's connection."""
        while True:
            await asyncio.sleep(CHECKPOINT_SECONDS)
            try:
                async with self.engine.connect() as connection:
                    await connection.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
            except sa.exc.SQLAlchemyError:
                log.exception("SQLite checkpoint failed; the next one will try again")


async def _fence_moves(connection: AsyncConnection, moved: list[QueuedMove]) -> None:
    """Refuse the whole batch if any of its moves comes from a table's former writer (its
    epoch gone): then each write is tried alone, and only that one fails. One query for the
    batch; on PostgreSQL it locks the tables' rows (``FOR SHARE``), so a takeover waits for
    this commit. SQLite has one writer at a time: a takeover committed after this read makes
    the insert fail, and the move is tried again alone, against the new epoch."""
    wanted = {move.code: move.epoch for move in moved}
    rows = await connection.execute(
        sa.select(tables.c.code, tables.c.epoch)
        .where(tables.c.code.in_(sorted(wanted)))
        .with_for_update(read=True)
    )
    stale = set(wanted) - {row.code for row in rows if row.epoch == wanted[row.code]}
    if stale:
        raise StaleOwnerError(
            f"tables {sorted(stale)} were taken over by another process: moves from their "
            "former writer are refused"
        )


async def finish(
    connection: AsyncConnection, code: str, match_id: int, epoch: int, winner: int,
    record: dict[str, Any],
) -> None:
    """Match ``match_id`` of table ``code`` ended (its last move, or a resignation): its winner
    and record, and the table is over (and nobody needs a stand-in any more)."""
    await fence(connection, code, epoch, status="over")
    await connection.execute(
        matches.update()
        .where(matches.c.id == match_id)
        .values(status="over", winner=winner, record=record, finished_at=datetime.now(UTC))
    )
    await connection.execute(
        seats.update().where(seats.c.table_code == code).values(stand_in=False)
    )
