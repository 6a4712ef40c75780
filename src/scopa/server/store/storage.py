"""Where tables, seats, matches and moves are kept: SQLAlchemy 2 (async) on SQLite or PostgreSQL.

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

SQLite runs in WAL mode, so reads (a table loaded after a restart, a finished match's record)
never wait for the writer. Its checkpoints (copying the log into the database, with an fsync)
run on another connection every second instead of inside some unlucky commit, where they
stalled every table's moves for up to a second under load.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final, TypeVar

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from .schema import matches, moves, seats, tables

log = logging.getLogger(__name__)
T = TypeVar("T")
Write = Callable[[AsyncConnection], Awaitable[Any]]

MIGRATIONS: Final = Path(__file__).parent / "migrations"
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
MIGRATION_LOCK: Final = 0x5C0BA
"""The PostgreSQL advisory lock that migrations take: any number, the same in every process."""
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
_ASYNC_DRIVERS: Final = {
    "sqlite": "sqlite+aiosqlite",
    "postgresql": "postgresql+asyncpg",
    "postgres": "postgresql+asyncpg",
}


def async_url(url: str) -> sa.URL:
    """The URL with an asyncio driver: ``postgresql://`` uses asyncpg, ``sqlite://`` aiosqlite.

    >>> async_url("postgresql://scopa@localhost/scopa").drivername
    'postgresql+asyncpg'
    >>> async_url("sqlite:///scopa.db").render_as_string()
    'sqlite+aiosqlite:///scopa.db'
    """
    parsed = sa.make_url(url)
    driver = _ASYNC_DRIVERS.get(parsed.drivername)
    return parsed.set(drivername=driver) if driver else parsed


def aware(moment: datetime) -> datetime:
    """``moment`` with its time zone: SQLite keeps none, and what it gives back was stored
    as UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def now() -> datetime:
    return datetime.now(UTC)


class StaleOwnerError(Exception):
    """A table's write refused: another process took the table over since its writer loaded
    it (the table's epoch moved on), so this one is no longer the table's owner."""


@dataclass
class StoredSeat:
    seat: int
    kind: str
    """``human`` (taken when ``token_hash`` is set, else open) or ``bot``."""
    name: str | None = None
    level: str | None = None
    token_hash: str | None = None
    stand_in: bool = False
    """A bot plays for this person (away when their turn timed out) until they come back."""


@dataclass
class StoredMatch:
    id: int
    rules: dict[str, Any]
    seed: int
    deck: list[str] | None
    status: str
    moves: list[str] = field(default_factory=list)
    resigned: int | None = None
    """The seat that resigned the match, if it ended so: no move row shows it, its record
    does."""


@dataclass
class StoredTable:
    code: str
    rules: dict[str, Any]
    look: str
    status: str
    seats: list[StoredSeat]
    match: StoredMatch | None
    touched: datetime | None = None
    epoch: int = 0
    """The writer epoch the table was loaded at: its writes must name it."""


@dataclass(frozen=True)
class _Move:
    """A move waiting for the writer (kept apart from other writes for the multi-row insert)."""

    code: str
    match_id: int
    number: int
    seat: int
    move: str
    finished: tuple[int, dict[str, Any]] | None
    epoch: int

    def row(self) -> dict[str, Any]:
        return {
            "match_id": self.match_id,
            "number": self.number,
            "seat": self.seat,
            "move": self.move,
        }


def _seat_values(code: str, seat: StoredSeat) -> dict[str, Any]:
    return {
        "table_code": code,
        "seat": seat.seat,
        "kind": seat.kind,
        "name": seat.name,
        "level": seat.level,
        "token_hash": seat.token_hash,
        "stand_in": seat.stand_in,
    }


def _stored_seat(row: Any) -> StoredSeat:
    return StoredSeat(row.seat, row.kind, row.name, row.level, row.token_hash, row.stand_in)


async def _fence(
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


def _upgrade(connection: sa.Connection) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    command.upgrade(config, "head")


class Storage:
    """The card room's database, opened with :meth:`open` and closed with :meth:`close`."""

    def __init__(self, url: str) -> None:
        self.url = async_url(url)
        self.engine: AsyncEngine = create_async_engine(self.url, pool_pre_ping=True)
        if self.url.get_backend_name() == "sqlite":
            sa.event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
        self._queue: asyncio.Queue[tuple[Write | _Move, asyncio.Future[Any]]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._writer: AsyncConnection | None = None
        """The writer's own connection, kept open: a checkout from the pool per commit (with
        its ping and reset) cost more than the commit itself."""
        self._postgres = self.url.get_backend_name() == "postgresql"
        self._quick_moves = self._postgres or self.url.get_backend_name() == "sqlite"
        self._mover: AsyncConnection | None = None
        """The connection the moves go in on, in autocommit."""
        self._mover_driver: Any = None
        """Its driver's own connection (asyncpg's or aiosqlite's)."""

    async def open(self) -> None:
        """Bring the schema up to date and start the writer. On PostgreSQL, processes that
        start together migrate one at a time (an advisory lock held until the commit), so
        none of them sees a half-made schema or makes it twice."""
        async with self.engine.begin() as connection:
            if self.url.get_backend_name() == "postgresql":
                await connection.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {
                    "key": MIGRATION_LOCK})
            await connection.run_sync(_upgrade)
        self._tasks.append(asyncio.create_task(self._write_batches(), name="scopa-writer"))
        if self.url.get_backend_name() == "sqlite":
            self._tasks.append(asyncio.create_task(self._checkpoints(), name="scopa-checkpoints"))

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks.clear()
        if self._writer is not None:
            await self._writer.close()
            self._writer = None
        await self._drop_mover()
        await self.engine.dispose()

    # -- the writer ------------------------------------------------------------------------

    async def write(self, operation: Callable[[AsyncConnection], Awaitable[T]]) -> T:
        """Run ``operation`` in the writer's next transaction; return once it is committed."""
        result: T = await self._enqueue(operation)
        return result

    async def _enqueue(self, item: Write | _Move) -> Any:
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

    def _is_quick(self, item: Write | _Move) -> bool:
        return self._quick_moves and isinstance(item, _Move) and item.finished is None

    async def _store_moves(self, entries: list[tuple[Write | _Move, asyncio.Future[Any]]]) -> None:
        """Insert moves (none ending a match) in one statement, and answer each: stored, or
        refused as its table's former writer's. When the statement fails (a number taken, the
        connection lost), each move is tried alone in a transaction."""
        moved = [item for item, _ in entries if isinstance(item, _Move)]
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

    async def _commit(self, items: list[Write | _Move]) -> list[Any]:
        """Run ``items`` in one transaction: their results, in order, once committed."""
        results: list[Any] = []
        connection = self._writer
        if connection is None or connection.closed or connection.invalidated:
            connection = self._writer = await self.engine.connect()
        async with connection.begin():
            moved = [item for item in items if isinstance(item, _Move)]
            if moved:
                await _fence_moves(connection, moved)
                await connection.execute(moves.insert(), [move.row() for move in moved])
            for item in items:
                if isinstance(item, _Move):
                    if item.finished is not None:
                        await _finish(connection, item.code, item.match_id, item.epoch,
                                      *item.finished)
                    results.append(None)
                else:
                    results.append(await item(connection))
        return results

    async def _write_alone(self, batch: list[tuple[Write | _Move, asyncio.Future[Any]]]) -> None:
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

    # -- writes ----------------------------------------------------------------------------

    async def insert_table(
        self, code: str, rules: dict[str, Any], look: str, seat_list: list[StoredSeat]
    ) -> None:
        """A new table; raises ``sqlalchemy.exc.IntegrityError`` if the code is taken."""

        async def run(connection: AsyncConnection) -> None:
            created = now()
            await connection.execute(
                tables.insert().values(
                    code=code,
                    rules=rules,
                    look=look,
                    status="waiting",
                    created_at=created,
                    touched_at=created,
                )
            )
            await connection.execute(seats.insert(), [_seat_values(code, s) for s in seat_list])

        await self.write(run)

    async def take_table(self, code: str) -> int | None:
        """Become table ``code``'s writer (after winning its lease): raise its epoch, so writes
        by any earlier writer are refused from now on. The new epoch, or ``None`` if there is
        no such table."""

        async def run(connection: AsyncConnection) -> int | None:
            await connection.execute(
                tables.update().where(tables.c.code == code).values(epoch=tables.c.epoch + 1)
            )
            epoch = await connection.scalar(
                sa.select(tables.c.epoch).where(tables.c.code == code)
            )
            return None if epoch is None else int(epoch)

        return await self.write(run)

    async def abandon_table(self, code: str, made_since: datetime) -> bool:
        """End table ``code`` unplayed ('expired'): the process making it for the pools died
        before it told its people their seats, and they are put back in their pool. Only a
        table made at or after ``made_since`` (by its maker's clock, which also wrote its
        ``created_at``) is ended, never an older one that had the code; and only one waiting
        or in play. Its epoch goes up, so whoever holds it (its maker, should it wake, or a
        process that took its tables over) writes to it no more. Whether it ended one."""

        async def run(connection: AsyncConnection) -> bool:
            result = await connection.execute(
                tables.update()
                .where(
                    tables.c.code == code,
                    tables.c.created_at >= made_since,
                    tables.c.status.in_(("waiting", "playing")),
                )
                .values(status="expired", epoch=tables.c.epoch + 1, touched_at=now())
            )
            return bool(result.rowcount)

        return await self.write(run)

    async def save_seat(self, code: str, seat: StoredSeat, *, epoch: int) -> None:
        """Seat ``seat.seat`` is now ``seat`` (taken, left, given to a bot)."""

        async def run(connection: AsyncConnection) -> None:
            await _fence(connection, code, epoch, touched_at=now())
            await connection.execute(
                seats.update()
                .where(seats.c.table_code == code, seats.c.seat == seat.seat)
                .values(_seat_values(code, seat))
            )

        await self.write(run)

    async def save_stand_ins(self, code: str, stand_ins: set[int], *, epoch: int) -> None:
        """The people's seats a bot plays for now are ``stand_ins`` (and no others)."""

        async def run(connection: AsyncConnection) -> None:
            await _fence(connection, code, epoch)
            await connection.execute(
                seats.update()
                .where(seats.c.table_code == code)
                .values(stand_in=seats.c.seat.in_(sorted(stand_ins)))
            )

        await self.write(run)

    async def set_status(
        self, code: str, status: str, touched: datetime | None = None, *, epoch: int
    ) -> None:
        """A table's new status; ``touched`` also says when it last changed (for expiry)."""
        values: dict[str, Any] = {"status": status}
        if touched is not None:
            values["touched_at"] = touched

        async def run(connection: AsyncConnection) -> None:
            await _fence(connection, code, epoch, **values)

        await self.write(run)

    async def expire_waiting(self, before: datetime) -> int:
        """Waiting tables untouched since ``before`` expire; returns how many did."""

        async def run(connection: AsyncConnection) -> int:
            touched = sa.func.coalesce(tables.c.touched_at, tables.c.created_at)
            result = await connection.execute(
                tables.update()
                .where(tables.c.status == "waiting", touched < before)
                .values(status="expired")
            )
            return int(result.rowcount)

        return await self.write(run)

    async def insert_match(
        self,
        code: str,
        rules: dict[str, Any],
        seed: int,
        deck: list[str] | None,
        players: list[dict[str, Any]],
        *,
        epoch: int,
    ) -> int:
        """A new match at table ``code``, which is now playing it (no stand-ins yet); returns
        the match id."""

        async def run(connection: AsyncConnection) -> int:
            await _fence(connection, code, epoch, status="playing")
            await connection.execute(
                seats.update().where(seats.c.table_code == code).values(stand_in=False)
            )
            result = await connection.execute(
                matches.insert().values(
                    table_code=code,
                    rules=rules,
                    seed=seed,
                    deck=deck,
                    players=players,
                    status="playing",
                    started_at=now(),
                )
            )
            key = result.inserted_primary_key
            assert key is not None
            match_id = int(key[0])
            await connection.execute(
                tables.update().where(tables.c.code == code).values(match_id=match_id)
            )
            return match_id

        return await self.write(run)

    async def append_move(
        self,
        code: str,
        match_id: int,
        number: int,
        seat: int,
        move: str,
        finished: tuple[int, dict[str, Any]] | None = None,
        *,
        epoch: int,
    ) -> None:
        """Move ``number`` (from 1) of a match; ``finished``, the winner and record, ends it.

        The primary key (match, number) refuses a second move with the same number, so two
        writers could never both extend a match; the match's end is also fenced by ``epoch``.
        """

        await self._enqueue(_Move(code, match_id, number, seat, move, finished, epoch))

    async def finish_match(
        self, code: str, match_id: int, winner: int, record: dict[str, Any], *, epoch: int
    ) -> None:
        """End a match without a move (a seat resigned): its winner and record, as the move
        that ends a match stores them, fenced by ``epoch`` the same way."""

        async def run(connection: AsyncConnection) -> None:
            await _finish(connection, code, match_id, epoch, winner, record)

        await self.write(run)

    # -- reads -----------------------------------------------------------------------------

    async def ping(self) -> None:
        """Raises unless the database answers."""
        async with self.engine.connect() as connection:
            await connection.execute(sa.text("SELECT 1"))

    async def active_table_codes(
        self, statuses: tuple[str, ...] = ("waiting", "playing")
    ) -> list[str]:
        """Tables waiting for players or playing (or only those of ``statuses``): the ones to
        bring back after a restart (call :meth:`expire_waiting` first, so tables nobody joined
        stay gone)."""
        async with self.engine.connect() as connection:
            result = await connection.execute(
                sa.select(tables.c.code)
                .where(tables.c.status.in_(statuses))
                .order_by(tables.c.created_at)
            )
            return [row.code for row in result]

    async def waiting_tables(self) -> list[StoredTable]:
        """Every waiting table, oldest first (the lobby's list when processes share the room):
        the tables and all their seats in two queries, whatever their number."""
        async with self.engine.connect() as connection:
            rows = (
                await connection.execute(
                    sa.select(tables)
                    .where(tables.c.status == "waiting")
                    .order_by(tables.c.created_at)
                )
            ).all()
            seat_rows = await connection.execute(
                sa.select(seats)
                .where(seats.c.table_code.in_(sa.select(tables.c.code).where(
                    tables.c.status == "waiting")))
                .order_by(seats.c.table_code, seats.c.seat)
            )
            by_table: dict[str, list[StoredSeat]] = {}
            for r in seat_rows:
                by_table.setdefault(r.table_code, []).append(_stored_seat(r))
            found = []
            for row in rows:
                match = None
                if row.match_id is not None:  # waiting for a rematch: its last match's moves
                    match = await self._load_match(connection, row.match_id)
                found.append(
                    StoredTable(
                        row.code, row.rules, row.look, row.status, by_table.get(row.code, []),
                        match, aware(row.touched_at or row.created_at), row.epoch,
                    )
                )
            return found

    async def load_table(self, code: str) -> StoredTable | None:
        async with self.engine.connect() as connection:
            row = (
                await connection.execute(sa.select(tables).where(tables.c.code == code))
            ).first()
            if row is None:
                return None
            seat_rows = await connection.execute(
                sa.select(seats).where(seats.c.table_code == code).order_by(seats.c.seat)
            )
            seat_list = [_stored_seat(r) for r in seat_rows]
            match = None
            if row.match_id is not None:
                match = await self._load_match(connection, row.match_id)
            return StoredTable(
                row.code, row.rules, row.look, row.status, seat_list, match,
                aware(row.touched_at or row.created_at), row.epoch,
            )

    async def _load_match(self, connection: AsyncConnection, match_id: int) -> StoredMatch:
        row = (await connection.execute(sa.select(matches).where(matches.c.id == match_id))).one()
        move_rows = await connection.execute(
            sa.select(moves.c.move).where(moves.c.match_id == match_id).order_by(moves.c.number)
        )
        resigned = None if row.record is None else row.record.get("resigned")
        return StoredMatch(
            row.id, row.rules, row.seed, row.deck, row.status, [r.move for r in move_rows],
            resigned,
        )

    async def load_match_record(self, match_id: int) -> tuple[str, dict[str, Any] | None] | None:
        """``(status, record)`` of a match (the record only once it is over), or ``None``."""
        async with self.engine.connect() as connection:
            row = (
                await connection.execute(
                    sa.select(matches.c.status, matches.c.record, matches.c.players).where(
                        matches.c.id == match_id
                    )
                )
            ).first()
        if row is None:
            return None
        if row.status != "over" or row.record is None:
            return row.status, None
        return row.status, {**row.record, "players": row.players}


async def _fence_moves(connection: AsyncConnection, moved: list[_Move]) -> None:
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


async def _finish(
    connection: AsyncConnection, code: str, match_id: int, epoch: int, winner: int,
    record: dict[str, Any],
) -> None:
    """Match ``match_id`` of table ``code`` ended (its last move, or a resignation): its winner
    and record, and the table is over (and nobody needs a stand-in any more)."""
    await _fence(connection, code, epoch, status="over")
    await connection.execute(
        matches.update()
        .where(matches.c.id == match_id)
        .values(status="over", winner=winner, record=record, finished_at=now())
    )
    await connection.execute(
        seats.update().where(seats.c.table_code == code).values(stand_in=False)
    )


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """WAL lets readers run beside the writer; NORMAL sync keeps every commit through a crash of
    the process (``kill -9``), and only an OS crash could lose the last commits."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA wal_autocheckpoint=0")  # see _checkpoints
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def run_on(db: str, work: Callable[[Storage], Awaitable[T]]) -> T:
    """Open the database at ``db`` as ``scopa serve`` does (migrating it first), run ``work``
    on it and close it: what a command such as ``scopa moderate`` does beside the room's
    processes."""

    async def run() -> T:
        storage = Storage(db)
        await storage.open()
        try:
            return await work(storage)
        finally:
            await storage.close()

    return asyncio.run(run())
