"""The pools across real processes: three ``scopa serve`` on PostgreSQL and Redis, people
joining from all three, one process killed mid-way. Nobody is seated twice, and everyone still
connected is seated in the end."""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from typing import Any

import pytest
import redis.asyncio as redis
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine
from websockets.exceptions import ConnectionClosed

from scopa.server.pools.matchmaker import Seating
from scopa.server.store.schema import seats, tables
from scopa.server.store.storage import async_url

from .pool_support import Waiter
from .server_support import (
    TIMEOUT,
    anyio_backend,
    room_processes,
    until,
)
from .test_pools_leave import waiting_on

pytestmark = [pytest.mark.anyio, pytest.mark.alone]
__all__ = ["anyio_backend"]


async def paired(waiter: Waiter) -> dict[str, Any] | None:
    """The waiter's pairing, or None if its socket was cut first (its process was killed)."""
    with contextlib.suppress(ConnectionClosed):
        return await waiter.wait_for("paired", timeout=4 * TIMEOUT)
    return None


async def test_three_processes_pair_everyone_once_through_a_kill_9() -> None:
    # 35 joins from one loopback address in a few seconds: past the pools' join limit.
    async with room_processes(("p1", "p2", "p3"), "--bot-delay", "0",
                              "--pool-joins", "1000/minute") as room:
        db, redis_url, servers = room.db, room.redis, list(room.servers.values())
        people: dict[str, tuple[int, Waiter, asyncio.Task[dict[str, Any] | None]]] = {}

        async def join(process: int) -> None:
            name = f"P{len(people) + 1}"
            waiter = await Waiter.open(servers[process].url)
            await waiter.join(name=name)
            await waiter.wait_for("waiting")
            people[name] = (process, waiter, asyncio.create_task(paired(waiter)))

        for k in range(24):
            await join(k % 3)
        # Mid-way: once some are seated, the third process is killed (kill -9).
        async def some_seated() -> bool:
            return sum(task.done() for _, _, task in people.values()) >= 4

        await until(some_seated, "four people seated")
        servers[2].kill()
        for k in range(10):
            await join(k % 2)
        survivors = {name for name, (process, _, _) in people.items() if process != 2}
        client = redis.Redis.from_url(redis_url, decode_responses=True)
        try:
            # The killed process's people leave the pool once their keys expire; then at
            # most one survivor can be left alone, who gets a partner.
            async def settled() -> bool:
                left = [name for name in survivors if not people[name][2].done()]
                waiting = await client.hlen("scopa:pools:pool:scopa-casual")
                return len(left) <= 1 and waiting == len(left)

            await until(settled, "the pool settled after the kill")
            if any(not people[name][2].done() for name in survivors):
                await join(0)
                survivors.add(f"P{len(people)}")
        finally:
            await client.aclose()
        grants = {name: await people[name][2] for name in survivors}
        assert all(grant is not None for grant in grants.values()), grants
        engine = create_async_engine(async_url(db))
        try:
            async with engine.connect() as connection:
                # A table its maker died making was ended (expired) before its people
                # were put back in the pool: it seats nobody.
                rows = (await connection.execute(
                    sa.select(seats.c.table_code, seats.c.seat, seats.c.name)
                    .join(tables, tables.c.code == seats.c.table_code)
                    .where(tables.c.status != "expired"))).all()
        finally:
            await engine.dispose()
        # Each person sits at one table at most, once; each survivor where they were told.
        assert Counter(row.name for row in rows).most_common(1)[0][1] == 1
        where = {row.name: (row.table_code, row.seat) for row in rows}
        for name, grant in grants.items():
            assert grant is not None and where[name] == (grant["code"], grant["seat"])
        for _, waiter, _ in people.values():
            await waiter.close()



async def test_a_maker_killed_between_seating_and_telling_ends_the_table_and_seats_again() -> None:
    # Ada waits on p1, Bruno on p2. The database holds the maker (whichever process took them)
    # after it seated both and before it deals and tells them: a lock the test takes on the
    # matches that the deal writes. The maker is killed there.
    async with room_processes(("p1", "p2")) as room:
        ada, bruno = await Waiter.open(room.servers["p1"].url), await Waiter.open(
            room.servers["p2"].url)
        for waiter, name in ((ada, "Ada"), (bruno, "Bruno")):
            await waiter.join(name=name)
            await waiter.wait_for("waiting")
        client = redis.Redis.from_url(room.redis, decode_responses=True)
        engine = create_async_engine(async_url(room.db))
        try:
            async with engine.connect() as lock:
                await lock.execute(sa.text("LOCK TABLE matches IN EXCLUSIVE MODE"))
                await waiting_on(lock, "matches")
                keys = await client.keys("scopa:pools:person:*")
                states = {str(await client.get(key)) for key in keys}
                assert len(keys) == 2 and len(states) == 1, states
                state = states.pop()
                found = Seating.read(state)
                assert state.startswith("seated:") and found is not None, state
                killed = room.known_as(found.process)
                room.servers[killed].kill()
                await lock.rollback()
            survivor, there = (bruno, "p2") if killed == "p1" else (ada, "p1")

            # The survivor's process finds the maker dead: the table it made is ended, and
            # the survivor waits in the pool again, told nothing meanwhile.
            async def waiting_again() -> bool:
                return await client.hlen("scopa:pools:pool:scopa-casual") == 1

            await until(waiting_again, "the survivor back in the pool")
            async with engine.connect() as connection:
                status = await connection.scalar(
                    sa.select(tables.c.status).where(tables.c.code == found.code))
            assert status == "expired"
            assert "paired" not in [m["type"] for m in await survivor.until_pong()]
            # A newcomer is paired with them, at a new table: the one place they sit.
            carla = await Waiter.open(room.servers[there].url)
            await carla.join(name="Carla")
            first, second = await survivor.wait_for("paired"), await carla.wait_for("paired")
            assert first["code"] == second["code"] != found.code
            async with engine.connect() as connection:
                names = (await connection.scalars(
                    sa.select(seats.c.name).join(tables, tables.c.code == seats.c.table_code)
                    .where(tables.c.status != "expired"))).all()
            assert sorted(names) == sorted(first["players"])
            assert (first["seat"], second["seat"]) in ((0, 1), (1, 0))
            await carla.close()
        finally:
            await client.aclose()
            await engine.dispose()
            await ada.close()
            await bruno.close()
