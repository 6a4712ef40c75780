"""A pool's ``leave`` against the table being made for the person (issue 34, item 5), in one
process and through Redis as many processes share it.

The race is held open by the database itself: the test locks a table of PostgreSQL that the
seating's next step writes, so the seating waits there (seen in ``pg_locks``) while the person
leaves over their real socket; then the lock goes and the seating goes on. A leave before the
seating is decided leaves the person out of it; a leave after learns they were paired, and
their seat's token follows.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from scopa.server.pools.settings import PoolSettings

from .pool_support import Waiter
from .server_support import (
    TIMEOUT,
    Server,
    anyio_backend,
    fresh_postgres,
    fresh_redis,
    running_server,
    settings_for,
    until,
)
from .test_pools import Clock, wave

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]


@pytest.fixture(params=["memory", "redis"])
async def room(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Server]:
    """A card room on PostgreSQL whose waves run when the test says; its pools in this
    process's memory, or in Redis."""
    async with contextlib.AsyncExitStack() as stack:
        changes: dict[str, Any] = {"db_url": await stack.enter_async_context(fresh_postgres())}
        if request.param == "redis":
            changes["redis_url"] = await stack.enter_async_context(fresh_redis())
        server = await stack.enter_async_context(
            running_server(settings_for(tmp_path, sections=(PoolSettings(wave=3600.0),),
                                        **changes)))
        server.app.state.pools.clock = Clock()
        yield server


@contextlib.asynccontextmanager
async def held_at(server: Server, table: str) -> AsyncIterator[AsyncConnection]:
    """A lock on ``table`` that its writers wait for, until the block ends."""
    async with server.room.storage.engine.connect() as connection:
        await connection.execute(sa.text(f"LOCK TABLE {table} IN EXCLUSIVE MODE"))
        try:
            yield connection
        finally:
            await connection.rollback()


async def waiting_on(connection: AsyncConnection, table: str) -> None:
    """Until someone waits for the lock on ``table``."""

    async def blocked() -> bool:
        return bool(await connection.scalar(sa.text(
            f"SELECT count(*) FROM pg_locks WHERE NOT granted AND relation = '{table}'::regclass")))

    await until(blocked, f"the seating waits for {table}")


async def two_waiting(server: Server) -> tuple[Waiter, Waiter]:
    ada, bruno = await Waiter.open(server.url), await Waiter.open(server.url)
    for waiter, name in ((ada, "Ada"), (bruno, "Bruno")):
        await waiter.join(name=name)
        await waiter.wait_for("waiting")
    return ada, bruno


async def playing(server: Server) -> list[str]:
    async with server.room.storage.engine.connect() as connection:
        return list(await connection.scalars(sa.text(
            "SELECT code FROM tables WHERE status = 'playing'")))


async def test_a_leave_while_the_table_is_made_leaves_the_person_out(room: Server) -> None:
    ada, bruno = await two_waiting(room)
    async with held_at(room, "tables") as lock:
        seating = asyncio.create_task(wave(room))  # took both, and waits to make the table
        await waiting_on(lock, "tables")
        await ada.send({"type": "leave"})
        assert (await ada.wait_for("left")) == {"type": "left"}
    await asyncio.wait_for(seating, TIMEOUT)
    # The table made without her ends unplayed; Bruno is seated nowhere and waits on.
    assert await playing(room) == []
    await wave(room)
    assert "paired" not in [m["type"] for m in await bruno.until_pong()]
    # Her next join is a wait like any, not "seated", and the two are paired then.
    await ada.join(name="Ada")
    assert (await ada.wait_for("waiting"))["pool"] == "scopa"
    await wave(room)
    first, second = await ada.wait_for("paired"), await bruno.wait_for("paired")
    assert first["code"] == second["code"] and await playing(room) == [first["code"]]


async def test_a_leave_once_seated_learns_it_and_gets_the_seat(room: Server) -> None:
    ada, bruno = await two_waiting(room)
    async with held_at(room, "matches") as lock:
        seating = asyncio.create_task(wave(room))  # seated both, and waits to deal
        await waiting_on(lock, "matches")
        await ada.send({"type": "leave"})
        refused = await ada.wait_for("error")
        assert refused["code"] == "paired" and "your table follows" in refused["message"]
    await asyncio.wait_for(seating, TIMEOUT)
    first, second = await ada.wait_for("paired"), await bruno.wait_for("paired")
    assert first["code"] == second["code"] and first["token"]
    assert await ada.closed() == (1000, "paired")
