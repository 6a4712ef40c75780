"""Who is online, in memory and in a real Redis shared by two processes: whatever the order in
which sockets open and close, on either process, a person is online exactly while one of their
sockets is open, and only the first to open and the last to close say they came or went (so
their followers are told once)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import AbstractAsyncContextManager
from typing import Any

import pytest
import redis.asyncio as redis
from hypothesis import given, settings
from hypothesis import strategies as st

from scopa.server.social.presence import LocalPresence, Presence, RedisPresence

from .server_support import REDIS, fresh_redis

PEOPLE = ["account:1", "account:2", "account:3"]
SOCKETS = 3

steps = st.lists(
    st.tuples(st.integers(0, 1), st.sampled_from(PEOPLE), st.integers(0, SOCKETS - 1)),
    max_size=30,
)


class Processes:
    """Two processes' presences (one alone shares its memory), kept in one event loop."""

    def __init__(self, kind: str) -> None:
        self.runner = asyncio.Runner()
        self._redis: AbstractAsyncContextManager[str] | None = None
        self.client: redis.Redis | None = None
        if kind == "redis":
            if not REDIS:
                pytest.skip("no Redis: scripts/test.sh starts one")
            self._redis = fresh_redis()
            url = self.runner.run(self._redis.__aenter__())
            self.client = redis.Redis.from_url(url, decode_responses=True)

    def fresh(self) -> list[Presence]:
        client = self.client
        if client is None:
            alone = LocalPresence()
            return [alone, alone]

        async def empty() -> None:
            await client.flushdb()

        self.runner.run(empty())
        return [RedisPresence(client, "p0"), RedisPresence(client, "p1")]

    def run(self, work: Any) -> Any:
        return self.runner.run(work)

    def close(self) -> None:
        if self.client is not None:
            self.runner.run(self.client.aclose())
        if self._redis is not None:
            self.runner.run(self._redis.__aexit__(None, None, None))
        self.runner.close()


@pytest.fixture(scope="module", params=["memory", "redis"])
def processes(request: pytest.FixtureRequest) -> Iterator[Processes]:
    opened = Processes(request.param)
    yield opened
    opened.close()


@settings(max_examples=60, deadline=None)
@given(steps)
def test_a_person_is_online_exactly_while_a_socket_of_theirs_is_open(
    processes: Processes, script: list[tuple[int, str, int]]
) -> None:
    presences = processes.fresh()

    async def play() -> None:
        open_sockets: set[tuple[int, str, int]] = set()
        for process, person, number in script:
            socket = (process, person, number)
            held = {s for s in open_sockets if s[1] == person}
            if socket in open_sockets:
                went = await presences[process].went(person, f"{process}-{number}")
                open_sockets.discard(socket)
                assert went == (held == {socket})
            else:
                came = await presences[process].came(person, f"{process}-{number}")
                open_sockets.add(socket)
                assert came == (not held)
            online = {s[1] for s in open_sockets}
            for each in presences:
                assert await each.online(PEOPLE) == online
        for each in presences:
            await each.close()
        assert await presences[0].online(PEOPLE) == set()

    processes.run(play())
