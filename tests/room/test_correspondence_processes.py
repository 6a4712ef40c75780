"""Correspondence play among processes (issue 36, items 2 and 3), on PostgreSQL and Redis: two
processes that look at the clocks at the same moment ring each alarm once and end each late
match once, and a ``kill -9`` of the process that holds a table just after a move loses
neither the move nor the clock it set."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import pytest

from scopa.server.client import TableConnection

from .server_support import (
    TIMEOUT,
    anyio_backend,
    fresh_postgres,
    fresh_redis,
    room_processes,
    running_server,
    until,
)
from .test_correspondence import (
    DAY,
    Clock,
    at_table,
    clock_of,
    games_of,
    move_once,
    offered_and_accepted,
    person_again,
    room_settings,
    token_of,
)
from .test_social import Me, person

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]

MATCHES = 6
TAKEOVER = 30.0
"""Seconds for a survivor to take over a dead process's tables, at most (its leases lapse)."""


async def test_two_processes_ring_each_alarm_once_and_end_each_late_match_once(
    tmp_path: Path,
) -> None:
    clock = Clock()
    async with fresh_postgres() as db, fresh_redis() as redis_url:
        base = room_settings(tmp_path, clock, vacation_days=0)
        first = replace(base, db_url=db, redis_url=redis_url, process_name="corr-a")
        second = replace(first, process_name="corr-b")
        async with running_server(first) as a, running_server(second) as b, \
                person(a.url, "Ada") as ada, person(b.url, "Bea") as bea:
            codes = [await offered_and_accepted(ada, bea, days=3) for _ in range(MATCHES)]
            # Nobody at them: each process lets its tables go.
            for room in (a, b):
                await room.room.sweep(clock.moment)
            assert not set(codes) & (set(a.room.tables) | set(b.room.tables))

            clock.advance(2.5 * DAY)
            await asyncio.gather(games_of(a).sweep(), games_of(b).sweep())
            rung = games_of(a).alarms_due + games_of(b).alarms_due
            assert rung == MATCHES
            for code in codes:
                assert (await clock_of(ada, code))["status"] == "playing"

            clock.advance(DAY)
            await asyncio.gather(games_of(a).sweep(), games_of(b).sweep())
            for code in codes:
                await until(lambda c=code: _over(ada, c), "the match lost on time")
            listed = (await ada.get("/api/correspondence"))["games"]
            assert sorted(game["table"] for game in listed) == sorted(codes)
            assert all(game["status"] == "over" for game in listed)
            # Each match ended once: one record each, with one loser.
            profile = await ada.get("/api/profiles/Ada")
            other = await ada.get("/api/profiles/Bea")
            played = profile["recent"] + other["recent"]
            assert len(played) == 2 * MATCHES, played


async def _over(me: Me, code: str) -> bool:
    return bool((await me.get(f"/api/correspondence/tables/{code}"))["status"] == "over")


async def test_a_kill_9_after_a_move_loses_neither_the_move_nor_its_clock(tmp_path: Path) -> None:
    async with room_processes(["a", "b"]) as room:
        a, b = room.servers["a"], room.servers["b"]
        async with person(a.url, "Ada") as ada, person(b.url, "Bea") as bea:
            code = await offered_and_accepted(ada, bea, days=2)
            start = await clock_of(ada, code)
            people = [ada, bea]
            mover = start["mover"]
            token = await token_of(people[mover], code)
            # Ada and Bea each open the table from the process that made it (b, which took
            # Bea's accept), move, and b is killed at once.
            async with at_table(b.url, code, token) as connection:
                version = await move_once(connection)
            room.servers.pop("b").kill()
            after = await clock_of(ada, code)  # through a, from the database
            assert after["version"] == version == 1 and after["mover"] == 1 - mover
            assert after["deadline"] > start["deadline"]

            # The other moves on a, which takes the table over from the dead b, at version 1
            # (Bea, whose page was b's, logs in again on a).
            async with person_again(a.url, "Bea") as bea_again:
                token = await token_of([ada, bea_again][1 - mover], code)
            connection = await TableConnection.open(a.url, code, token,
                                                    timeout=TAKEOVER + TIMEOUT)
            try:
                state = await connection.wait_for(lambda m: m["type"] == "state",
                                                  TAKEOVER + TIMEOUT)
                assert state["version"] == 1
                assert await move_once(connection) == 2
            finally:
                await connection.close()
            await until(lambda: _at_version(ada, code, 2), "the clock set by the move")
            assert (await clock_of(ada, code))["mover"] == mover


async def _at_version(me: Me, code: str, version: int) -> bool:
    return bool((await me.get(f"/api/correspondence/tables/{code}"))["version"] >= version)

