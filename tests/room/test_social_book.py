"""The open challenges' book, in memory and in a real Redis: whatever the order of challenges
and answers, each challenge is settled once (the first answer or expiry wins, every later one
is refused), and a challenger has one open challenge to a person at a time."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from contextlib import AbstractAsyncContextManager
from typing import Any

import pytest
import redis.asyncio as redis
from hypothesis import given, settings
from hypothesis import strategies as st

from scopa.server.social.book import Book, Challenge, Clock, LocalBook, RedisBook

from .server_support import REDIS, fresh_redis

PEOPLE = 3
STATES = ["accepted", "declined", "expired"]

steps = st.lists(
    st.one_of(
        st.tuples(st.just("add"), st.integers(0, PEOPLE - 1), st.integers(0, PEOPLE - 1)),
        st.tuples(st.just("settle"), st.integers(0, 7), st.sampled_from(STATES)),
    ),
    max_size=25,
)


class Room:
    """A book kept open in one event loop across a test's examples."""

    def __init__(self, kind: str) -> None:
        self.runner = asyncio.Runner()
        self.kind = kind
        self._redis: AbstractAsyncContextManager[str] | None = None
        self.client: redis.Redis | None = None
        if kind == "redis":
            if not REDIS:
                pytest.skip("no Redis: scripts/test.sh starts one")
            self._redis = fresh_redis()
            url = self.runner.run(self._redis.__aenter__())
            self.client = redis.Redis.from_url(url, decode_responses=True)

    def fresh(self, clock: Clock = time.time) -> Book:
        if self.client is None:
            return LocalBook(clock)
        client = self.client

        async def empty() -> None:
            await client.flushdb()

        self.runner.run(empty())
        return RedisBook(client, clock)

    def run(self, work: Any) -> Any:
        return self.runner.run(work)

    def close(self) -> None:
        if self.client is not None:
            self.runner.run(self.client.aclose())
        if self._redis is not None:
            self.runner.run(self._redis.__aexit__(None, None, None))
        self.runner.close()


@pytest.fixture(scope="module", params=["memory", "redis"])
def room(request: pytest.FixtureRequest) -> Iterator[Room]:
    opened = Room(request.param)
    yield opened
    opened.close()


@settings(max_examples=60, deadline=None)
@given(steps)
def test_each_challenge_is_settled_once_and_one_is_open_per_pair(
    room: Room, script: list[tuple[Any, ...]]
) -> None:
    book = room.fresh()

    async def play() -> None:
        made: list[Challenge] = []
        settled: dict[str, str] = {}
        open_pairs: set[tuple[int, int]] = set()
        for step in script:
            if step[0] == "add":
                _, sender, receiver = step
                challenge = Challenge(
                    id=f"c{len(made)}", from_id=sender, from_name=f"P{sender}", to_id=receiver,
                    to_name=f"P{receiver}", preset="scopa", target=None, look="french",
                    rated=False, expires=time.time() + 60,
                )
                added = await book.add(challenge)
                assert added == ((sender, receiver) not in open_pairs)
                if added:
                    made.append(challenge)
                    open_pairs.add((sender, receiver))
            else:
                _, which, state = step
                if which >= len(made):
                    continue
                challenge = made[which]
                result = await book.settle(challenge, state)
                if challenge.id in settled:
                    assert result is None
                else:
                    assert result is not None and result.state == state
                    assert result.id == challenge.id and result.to_name == challenge.to_name
                    settled[challenge.id] = state
                    open_pairs.discard((challenge.from_id, challenge.to_id))
                kept = await book.get(challenge.id)
                assert kept is not None and kept.state == settled[challenge.id]

    room.run(play())


def test_an_answer_after_the_time_is_refused_but_the_expiry_settles_it(room: Room) -> None:
    moment = [time.time()]
    book = room.fresh(lambda: moment[0])

    async def play() -> None:
        late = Challenge(id="late", from_id=1, from_name="Ada", to_id=2, to_name="Bea",
                         preset="escoba", target=21, look="spanish", rated=True,
                         expires=moment[0] + 60)
        assert await book.add(late)
        assert await book.get("late") == late
        moment[0] += 59.9
        assert not await book.add(late)  # still open: one to a person at a time
        moment[0] += 0.2  # past its 60 seconds, on the book's clock
        assert await book.settle(late, "accepted") is None
        assert await book.settle(late, "declined") is None
        expired = await book.settle(late, "expired")
        assert expired is not None and expired.state == "expired"
        assert await book.settle(late, "expired") is None

    room.run(play())
