"""A person goes round the pools' loop again (found by ``benchmarks/soak.py``): one who resigned
the match a pool just paired them to queues again at once, across the room's processes (their
key still said ``seated:`` for 10 s and the pool answered ``already_waiting``), and a
correspondence match in play, a move a day, keeps nobody from a live pool (the pool answered
``seated``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from scopa.server.client import TableConnection

from .pool_support import Waiter
from .server_support import TIMEOUT, anyio_backend, fresh_redis, running_server
from .test_correspondence import Clock as CorrespondenceClock
from .test_correspondence import offered_and_accepted
from .test_correspondence import room_settings as correspondence_settings
from .test_pools import pool_room, wave
from .test_social import person

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]


async def test_a_person_who_resigned_a_pools_match_queues_again_at_once(tmp_path: Path) -> None:
    async with fresh_redis() as redis_url, \
            pool_room(tmp_path, redis_url=redis_url) as (server, clock):
        ada, bruno = await Waiter.open(server.url), await Waiter.open(server.url)
        await ada.join(name="Ada")
        await ada.wait_for("waiting")
        clock.now += 1
        await bruno.join(name="Bruno")
        await bruno.wait_for("waiting")
        await wave(server)
        paired = await ada.wait_for("paired")
        await bruno.wait_for("paired")
        async with await TableConnection.open(server.url, paired["code"],
                                              paired["token"]) as table:
            await table.wait_for(lambda m: m["type"] == "state", TIMEOUT)
            await table.resign()
            await table.wait_for(lambda m: m["type"] == "over", TIMEOUT)
        again = await Waiter.open(server.url)
        again.guest = ada.guest  # the same person, from the same browser
        await again.join(name="Ada")
        answer = await again.recv()
        assert answer["type"] == "waiting", answer
        await again.close()


async def test_a_correspondence_match_keeps_nobody_from_a_pool(tmp_path: Path) -> None:
    clock = CorrespondenceClock()
    async with running_server(correspondence_settings(tmp_path, clock)) as room, \
            person(room.url, "Ada") as ada, person(room.url, "Bea") as bea:
        await offered_and_accepted(ada, bea, days=3)
        cookie = "; ".join(f"{k}={v}" for k, v in bea.lobby.http.cookies.items())
        waiter = await Waiter.open(room.url, cookie=cookie)
        await waiter.join(name="Bea")
        answer = await waiter.recv()
        assert answer["type"] == "waiting", answer
        await waiter.close()
