"""The open challenges' book, in memory and in a real Redis: whatever the order of challenges
and answers, each challenge is settled once (the first answer or expiry wins, every later one
is refused), and a challenger has one open challenge to a person at a time."""

from __future__ import annotations

import time
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scopa.server.social.book import Book, Challenge, Clock, LocalBook, RedisBook

from .server_support import KeptLoop

PEOPLE = 3
STATES = ["accepted", "declined", "expired"]

steps = st.lists(
    st.one_of(
        st.tuples(st.just("add"), st.integers(0, PEOPLE - 1), st.integers(0, PEOPLE - 1)),
        st.tuples(st.just("settle"), st.integers(0, 7), st.sampled_from(STATES)),
    ),
    max_size=25,
)


def fresh_book(loop: KeptLoop, clock: Clock = time.time) -> Book:
    """An empty book in memory, or in the loop's emptied Redis database."""
    client = loop.emptied()
    return LocalBook(clock) if client is None else RedisBook(client, clock)


@settings(max_examples=60, deadline=None)
@given(steps)
def test_each_challenge_is_settled_once_and_one_is_open_per_pair(
    kept_loop: KeptLoop, script: list[tuple[Any, ...]]
) -> None:
    book = fresh_book(kept_loop)

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

    kept_loop.run(play())


def test_an_answer_after_the_time_is_refused_but_the_expiry_settles_it(
    kept_loop: KeptLoop,
) -> None:
    moment = [time.time()]
    book = fresh_book(kept_loop, lambda: moment[0])

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

    kept_loop.run(play())
