"""Where tables, seats, matches and moves are kept: SQLAlchemy 2 (async) on SQLite or PostgreSQL.

:class:`Storage` opens the database (migrating it first), and holds the tables' writes and
reads. Every write goes through its one :class:`.Writer` (``writer.py``): grouped into few
commits, and fenced by the table's epoch, so a process whose lease lapsed changes nothing.

SQLite runs in WAL mode, so reads (a table loaded after a restart, a finished match's record)
never wait for the writer. Its checkpoints (copying the log into the database, with an fsync)
run on another connection every second instead of inside some unlucky commit, where they
stalled every table's moves for up to a second under load.
"""

from __future__ import annotations

import asyncio
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
from .writer import QueuedMove, Write, Writer, fence, finish

T = TypeVar("T")

MIGRATIONS: Final = Path(__file__).parent / "migrations"
MIGRATION_LOCK: Final = 0x5C0BA
"""The PostgreSQL advisory lock that migrations take: any number, the same in every process."""
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
    pace: str = "live"
    """How its turns are timed (``tables.pace``): ``live`` or ``correspondence``."""


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
        self.writer = Writer(self.engine)

    async def open(self) -> None:
        """Bring the schema up to date and start the writer. On PostgreSQL, processes that
        start together migrate one at a time (an advisory lock held until the commit), so
        none of them sees a half-made schema or makes it twice."""
        async with self.engine.begin() as connection:
            if self.url.get_backend_name() == "postgresql":
                await connection.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {
                    "key": MIGRATION_LOCK})
            await connection.run_sync(_upgrade)
        self.writer.start()

    async def close(self) -> None:
        await self.writer.stop()
        await self.engine.dispose()

    async def write(self, operation: Callable[[AsyncConnection], Awaitable[T]]) -> T:
        """Run ``operation`` in the writer's next transaction; return once it is committed."""
        return await self.writer.write(operation)

    # -- writes ----------------------------------------------------------------------------

    async def insert_table(
        self, code: str, rules: dict[str, Any], look: str, seat_list: list[StoredSeat],
        pace: str = "live",
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
                    pace=pace,
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
            await fence(connection, code, epoch, touched_at=now())
            await connection.execute(
                seats.update()
                .where(seats.c.table_code == code, seats.c.seat == seat.seat)
                .values(_seat_values(code, seat))
            )

        await self.write(run)

    async def save_stand_ins(self, code: str, stand_ins: set[int], *, epoch: int) -> None:
        """The people's seats a bot plays for now are ``stand_ins`` (and no others)."""

        async def run(connection: AsyncConnection) -> None:
            await fence(connection, code, epoch)
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
            await fence(connection, code, epoch, **values)

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
            await fence(connection, code, epoch, status="playing")
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
        also: Write | None = None,
    ) -> None:
        """Move ``number`` (from 1) of a match; ``finished``, the winner and record, ends it;
        ``also``, a write committed in the move's own transaction (a correspondence clock's).

        The primary key (match, number) refuses a second move with the same number, so two
        writers could never both extend a match; the match's end is also fenced by ``epoch``.
        """

        await self.writer.enqueue(
            QueuedMove(code, match_id, number, seat, move, finished, epoch, also))

    async def finish_match(
        self, code: str, match_id: int, winner: int, record: dict[str, Any], *, epoch: int
    ) -> None:
        """End a match without a move (a seat resigned): its winner and record, as the move
        that ends a match stores them, fenced by ``epoch`` the same way."""

        async def run(connection: AsyncConnection) -> None:
            await finish(connection, code, match_id, epoch, winner, record)

        await self.write(run)

    # -- reads -----------------------------------------------------------------------------

    async def ping(self) -> None:
        """Raises unless the database answers."""
        async with self.engine.connect() as connection:
            await connection.execute(sa.text("SELECT 1"))

    async def active_table_codes(
        self, statuses: tuple[str, ...] = ("waiting", "playing")
    ) -> list[str]:
        """Live tables waiting for players or playing (or only those of ``statuses``): the ones
        to bring back after a restart (call :meth:`expire_waiting` first, so tables nobody
        joined stay gone). A correspondence table is not among them: it stays in the database
        until someone opens it or its clock needs it."""
        async with self.engine.connect() as connection:
            result = await connection.execute(
                sa.select(tables.c.code)
                .where(tables.c.status.in_(statuses), tables.c.pace == "live")
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
                        match, aware(row.touched_at or row.created_at), row.epoch, row.pace,
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
                aware(row.touched_at or row.created_at), row.epoch, row.pace,
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
