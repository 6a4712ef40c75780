"""Storage: migrations build the schema, group commits keep each write's fate its own, and the
same storage (and a whole match) works on PostgreSQL.

The PostgreSQL tests use the server that ``scripts/test.sh`` starts on loopback and names in
``SCOPA_TEST_POSTGRES``; each test gets a database of its own, dropped afterwards.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from scopa.server.client import Lobby
from scopa.server.store.schema import metadata
from scopa.server.store.storage import Storage, StoredSeat, async_url, now
from scopa.server.store.writer import StaleOwnerError

from .server_support import (
    anyio_backend,
    fresh_postgres,
    play_randomly,
    running_server,
    seat_people,
    settings_for,
    sqlite_url,
)

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]

@pytest.fixture
async def postgres_url() -> AsyncIterator[str]:
    async with fresh_postgres() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
async def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    if request.param == "sqlite":
        yield sqlite_url(tmp_path / "room.db")
    else:
        async with fresh_postgres() as url:
            yield url


async def test_the_migrations_build_exactly_the_schema(db_url: str) -> None:
    storage = Storage(db_url)
    await storage.open()
    try:
        async with storage.engine.connect() as connection:
            differences = await connection.run_sync(
                lambda sync: compare_metadata(MigrationContext.configure(sync), metadata)
            )
        assert differences == []
        # Opening again finds the schema up to date and changes nothing.
        await storage.close()
        storage = Storage(db_url)
        await storage.open()
    finally:
        await storage.close()


async def test_a_match_is_stored_and_read_back(db_url: str) -> None:
    storage = Storage(db_url)
    await storage.open()
    try:
        seats = [StoredSeat(0, "human", "Ada", None, "a" * 64), StoredSeat(1, "bot", "B", "random")]
        await storage.insert_table("ABC234", {"name": "scopa"}, "italian", seats)
        with pytest.raises(sa.exc.IntegrityError):
            await storage.insert_table("ABC234", {}, "french", seats)
        seed = 2**63 - 1  # the largest seed the server draws still fits
        match = await storage.insert_match("ABC234", {"name": "scopa"}, seed, None, [], epoch=0)
        assert await storage.active_table_codes() == ["ABC234"]
        assert await storage.load_match_record(match) == ("playing", None)
        await storage.append_move("ABC234", match, 1, 0, "5D", epoch=0)
        await storage.append_move("ABC234", match, 2, 1, "5Hx5D", finished=(1, {"moves": 2}),
                                  epoch=0)
        table = await storage.load_table("ABC234")
        assert table is not None and table.status == "over" and table.look == "italian"
        assert table.seats == seats
        assert table.match is not None and table.match.seed == seed
        assert table.match.moves == ["5D", "5Hx5D"]
        assert await storage.load_match_record(match) == ("over", {"moves": 2, "players": []})
        assert await storage.active_table_codes() == []
        assert await storage.load_table("NOSUCH") is None
    finally:
        await storage.close()


async def test_two_writers_can_never_both_store_a_move_of_one_number(db_url: str) -> None:
    """The database is the fence between processes: an owner that was paused (its lease gone,
    another process writing the table now) cannot store its stale move, whatever it is."""
    new_owner, stale_owner = Storage(db_url), Storage(db_url)
    await new_owner.open()
    await stale_owner.open()
    try:
        seats = [StoredSeat(0, "human", "Ada"), StoredSeat(1, "human", "Bo")]
        await new_owner.insert_table("FENCE2", {"name": "scopa"}, "french", seats)
        match = await new_owner.insert_match("FENCE2", {"name": "scopa"}, 7, None, [], epoch=0)
        await new_owner.append_move("FENCE2", match, 1, 0, "5D", epoch=0)
        await new_owner.append_move("FENCE2", match, 2, 1, "5Hx5D", epoch=0)
        for number, move in ((1, "KD"), (2, "7C")):  # the stale owner's idea of moves 1 and 2
            with pytest.raises(sa.exc.IntegrityError):
                await stale_owner.append_move("FENCE2", match, number, number - 1, move, epoch=0)
        table = await stale_owner.load_table("FENCE2")
        assert table is not None and table.match is not None
        assert table.match.moves == ["5D", "5Hx5D"]
    finally:
        await stale_owner.close()
        await new_owner.close()


async def test_a_stale_owner_can_change_nothing_at_its_table(db_url: str) -> None:
    """Every write of a table is fenced, not only moves: once another process has taken the
    table over (raised its epoch), its former owner's join, leave, start, rematch, stand-in and
    match's end are refused by the database and change nothing; the new owner's go through."""
    new_owner, stale_owner = Storage(db_url), Storage(db_url)
    await new_owner.open()
    await stale_owner.open()
    try:
        seats = [StoredSeat(0, "human", "Ada", None, "a" * 64), StoredSeat(1, "human")]
        await stale_owner.insert_table("FENCE3", {"name": "scopa"}, "french", seats)
        stale = await stale_owner.take_table("FENCE3")
        taken = await new_owner.take_table("FENCE3")  # its lease lapsed: another took over
        assert (stale, taken) == (1, 2)
        assert await new_owner.take_table("NOSUCH") is None
        before = await new_owner.load_table("FENCE3")
        assert before is not None and before.epoch == 2
        bo = StoredSeat(1, "human", "Bo", None, "b" * 64)
        stale_writes: dict[str, Callable[[], Awaitable[object]]] = {
            "join": lambda: stale_owner.save_seat("FENCE3", bo, epoch=1),
            "leave": lambda: stale_owner.save_seat("FENCE3", StoredSeat(0, "human"), epoch=1),
            "start": lambda: stale_owner.insert_match("FENCE3", {}, 7, None, [], epoch=1),
            "rematch": lambda: stale_owner.set_status("FENCE3", "waiting", epoch=1),
            "stand-in": lambda: stale_owner.save_stand_ins("FENCE3", {0}, epoch=1),
        }
        refused = []
        for name, write in stale_writes.items():
            with pytest.raises(StaleOwnerError, match="taken over by another process"):
                await write()
            refused.append(name)
        assert refused == list(stale_writes)
        assert await new_owner.load_table("FENCE3") == before  # no seat, match or status
        # The new owner writes at its epoch: a match, then its end, which the stale one can't.
        await new_owner.save_seat("FENCE3", bo, epoch=2)
        match = await new_owner.insert_match("FENCE3", {}, 7, None, [], epoch=2)
        with pytest.raises(StaleOwnerError):
            await stale_owner.append_move("FENCE3", match, 1, 0, "5D", (0, {}), epoch=1)
        await new_owner.save_stand_ins("FENCE3", {1}, epoch=2)
        after = await stale_owner.load_table("FENCE3")
        assert after is not None and after.status == "playing"
        assert after.match is not None and after.match.moves == []
        assert after.seats == [seats[0], StoredSeat(1, "human", "Bo", None, "b" * 64, True)]
    finally:
        await stale_owner.close()
        await new_owner.close()


async def test_a_table_whose_maker_died_is_abandoned_and_an_older_one_is_not(db_url: str) -> None:
    """The pools end a table whose maker died before telling its people: only one made at or
    after the seating began (an older table that had the code stays as it was), waiting or in
    play, and its maker can write to it no more."""
    maker, survivor = Storage(db_url), Storage(db_url)
    await maker.open()
    await survivor.open()
    try:
        seats = [StoredSeat(0, "human", "Ada", None, "a" * 64), StoredSeat(1, "human")]
        await maker.insert_table("OLDER2", {}, "french", seats)
        seating = now()
        await maker.insert_table("MADE23", {}, "french", seats)
        await maker.save_seat("MADE23", StoredSeat(1, "human", "Bo", None, "b" * 64), epoch=0)
        match = await maker.insert_match("MADE23", {}, 7, None, [], epoch=0)
        assert not await survivor.abandon_table("OLDER2", seating)
        assert not await survivor.abandon_table("NOSUCH", seating)
        assert await survivor.abandon_table("MADE23", seating)
        assert not await survivor.abandon_table("MADE23", seating)  # once is enough
        with pytest.raises(StaleOwnerError):
            await maker.append_move("MADE23", match, 1, 0, "5D", epoch=0)
        with pytest.raises(StaleOwnerError):
            await maker.set_status("MADE23", "playing", epoch=0)
        older, made = await survivor.load_table("OLDER2"), await survivor.load_table("MADE23")
        assert older is not None and (older.status, older.epoch) == ("waiting", 0)
        assert made is not None and (made.status, made.epoch) == ("expired", 1)
    finally:
        await survivor.close()
        await maker.close()


async def test_a_stale_owners_move_is_refused_even_with_a_free_number(db_url: str) -> None:
    """A former owner that wakes up before the new one has played on: its move's number is
    free, but its epoch is gone, so the move is refused; in the same batch, a move of another
    table whose writer is current goes through."""
    writer, taker = Storage(db_url), Storage(db_url)
    await writer.open()
    await taker.open()
    try:
        matches = {}
        for code in ("MINE23", "TAKEN2"):
            await writer.insert_table(code, {}, "french", [StoredSeat(0, "human")])
            matches[code] = await writer.insert_match(code, {}, 1, None, [], epoch=0)
        assert await taker.take_table("TAKEN2") == 1
        results = await asyncio.gather(
            writer.append_move("MINE23", matches["MINE23"], 1, 0, "5D", epoch=0),
            writer.append_move("TAKEN2", matches["TAKEN2"], 1, 0, "5D", epoch=0),
            return_exceptions=True,
        )
        assert results[0] is None and isinstance(results[1], StaleOwnerError)
        mine, taken = await taker.load_table("MINE23"), await taker.load_table("TAKEN2")
        assert mine is not None and mine.match is not None and mine.match.moves == ["5D"]
        assert taken is not None and taken.match is not None and taken.match.moves == []
        await taker.append_move("TAKEN2", matches["TAKEN2"], 1, 0, "7C", epoch=1)
    finally:
        await taker.close()
        await writer.close()


async def test_writes_are_committed_together_and_fail_alone(tmp_path: Path) -> None:
    storage = Storage(sqlite_url(tmp_path / "room.db"))
    await storage.open()
    try:
        await storage.insert_table("ABC234", {}, "french", [StoredSeat(0, "human")])
        match = await storage.insert_match("ABC234", {}, 1, None, [], epoch=0)
        # Move 3 twice: one of the batch is refused by the primary key, the rest go through.
        numbers = [1, 2, 3, 3, 4, 5]
        results = await asyncio.gather(
            *(storage.append_move("ABC234", match, n, 0, f"{n}D", epoch=0) for n in numbers),
            return_exceptions=True,
        )
        failed = [n for n, r in zip(numbers, results, strict=True) if r is not None]
        assert failed == [3] and isinstance(results[3], sa.exc.IntegrityError)
        table = await storage.load_table("ABC234")
        assert table is not None and table.match is not None
        assert table.match.moves == ["1D", "2D", "3D", "4D", "5D"]
    finally:
        await storage.close()


def test_database_urls_get_asyncio_drivers() -> None:
    assert async_url("postgresql://u:p@127.0.0.1/db").drivername == "postgresql+asyncpg"
    assert async_url("postgres://127.0.0.1/db").drivername == "postgresql+asyncpg"
    assert async_url("sqlite:///x.db").drivername == "sqlite+aiosqlite"
    assert async_url("sqlite+aiosqlite:///x.db").drivername == "sqlite+aiosqlite"


async def test_a_whole_match_on_postgresql(tmp_path: Path, postgres_url: str) -> None:
    settings = settings_for(tmp_path, db_url=postgres_url)
    async with running_server(settings) as server, Lobby(server.url) as lobby:
        _, people = await seat_people(lobby, server.url)
        await asyncio.gather(*(play_randomly(p, random.Random(k)) for k, p in enumerate(people)))
        match = people[0].connection.match
        assert match is not None
        record = await lobby.match_record(match)
        assert len(record["moves"]) == people[0].connection.version
