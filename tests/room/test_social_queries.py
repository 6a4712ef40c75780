"""The stored side of challenges and friends: a follow or a block asked twice is one, a block
ends the blocker's follow, and :func:`blocked_among` finds exactly the blocked pairs, either way,
among any accounts (the pools ask it before pairing people)."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scopa.server.social.queries import (
    accepts_from,
    block,
    blocked_among,
    blocked_by,
    follow,
    followed_by,
    followers_of,
    set_accepts,
    unblock,
    unfollow,
)
from scopa.server.store.account_queries import create_account
from scopa.server.store.schema import blocks
from scopa.server.store.storage import Storage, now

from .server_support import sqlite_url

PEOPLE = 6


class Opened:
    """A storage with PEOPLE accounts, kept open in one event loop across a test's examples."""

    def __init__(self, folder: Path) -> None:
        self.runner = asyncio.Runner()
        self.storage = Storage(sqlite_url(folder / "room.db"))
        self.runner.run(self.storage.open())
        self.ids = [
            self.runner.run(create_account(self.storage, f"P{k}", f"key{k}", "x", now()))
            for k in range(PEOPLE)
        ]

    def close(self) -> None:
        self.runner.run(self.storage.close())
        self.runner.close()


@pytest.fixture(scope="module")
def opened(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Opened]:
    room = Opened(tmp_path_factory.mktemp("social"))
    yield room
    room.close()


pairs = st.sets(
    st.tuples(st.integers(0, PEOPLE - 1), st.integers(0, PEOPLE - 1)).filter(
        lambda pair: pair[0] != pair[1]
    ),
    max_size=10,
)


@settings(max_examples=40, deadline=None)
@given(edges=pairs, asked=st.sets(st.integers(0, PEOPLE - 1)))
def test_blocked_among_finds_every_blocked_pair_either_way(
    opened: Opened, edges: set[tuple[int, int]], asked: set[int]
) -> None:
    async def check() -> set[frozenset[int]]:
        await opened.storage.write(lambda connection: connection.execute(blocks.delete()))
        for blocker, blocked in edges:
            assert await block(opened.storage, opened.ids[blocker], opened.ids[blocked], now())
        return await blocked_among(opened.storage, [opened.ids[k] for k in asked])

    expected = {
        frozenset((opened.ids[a], opened.ids[b]))
        for a, b in itertools.permutations(asked, 2)
        if (a, b) in edges
    }
    assert opened.runner.run(check()) == expected


def test_follows_and_blocks_are_each_one_row_and_a_block_ends_a_follow(opened: Opened) -> None:
    ada, bea, cid = opened.ids[:3]
    storage = opened.storage

    async def check() -> None:
        await storage.write(lambda connection: connection.execute(blocks.delete()))
        assert await follow(storage, ada, bea, now())
        assert not await follow(storage, ada, bea, now())
        assert await follow(storage, ada, cid, now())
        assert [one.name for one in await followed_by(storage, ada)] == ["P1", "P2"]
        assert await followers_of(storage, bea) == [ada]
        assert await block(storage, ada, bea, now())
        assert not await block(storage, ada, bea, now())
        assert [one.name for one in await followed_by(storage, ada)] == ["P2"]
        assert [one.name for one in await blocked_by(storage, ada)] == ["P1"]
        assert await blocked_among(storage, [bea, ada]) == {frozenset((ada, bea))}
        assert await unblock(storage, ada, bea)
        assert not await unblock(storage, ada, bea)
        assert await blocked_among(storage, [bea, ada]) == set()
        assert await unfollow(storage, ada, cid)
        assert not await unfollow(storage, ada, cid)
        assert await followed_by(storage, ada) == []

    opened.runner.run(check())


def test_challenges_are_taken_from_all_until_the_account_says_otherwise(opened: Opened) -> None:
    storage = opened.storage
    who = opened.ids[3]

    async def check() -> list[str]:
        seen = [await accepts_from(storage, who)]
        for accepts in ("follows", "none", "all"):
            await set_accepts(storage, who, accepts)
            seen.append(await accepts_from(storage, who))
        return seen

    assert opened.runner.run(check()) == ["all", "follows", "none", "all"]

