"""Property (issue 23, item 3): the chat a socket is sent when it says hello (``chat``) is what
it would have been sent live (``said``), whoever spoke (a seat or a spectator, logged in or
not), before or during the match, whatever blocks the accounts hold: the history's filter and
the live one never disagree, in memory or read again from the database."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scopa import Rules
from scopa.server import create_app
from scopa.server.accounts.accounts import name_key
from scopa.server.common.protocol import SayRequest
from scopa.server.social import queries as social_queries
from scopa.server.store import account_queries
from scopa.server.store.storage import now
from scopa.server.table.chat import TableChat

from .server_support import KeptLoop, settings_for

ACCOUNTS = 3


@dataclass(eq=False)
class Ear:
    """A connection at the table that keeps what it is sent of the chat."""

    seat: int | None
    account_id: int | None
    token: str | None = None
    said: list[int] = field(default_factory=list)
    history: list[int] | None = None

    def push(self, text: str) -> None:
        message: dict[str, Any] = json.loads(text)
        if message["type"] == "said":
            self.said.append(message["id"])
        elif message["type"] == "chat":
            self.history = [said["id"] for said in message["said"]]

    def close(self, code: int, reason: str) -> None:
        pass


class Room:
    """A card room (its app, storage and tables) kept open across the examples."""

    def __init__(self, folder: Path) -> None:
        self.loop = KeptLoop("memory")
        self.app = create_app(settings_for(folder))
        self.lifespan = self.app.router.lifespan_context(self.app)
        self.loop.run(self.lifespan.__aenter__())
        self.room = self.app.state.room
        self.accounts = [self.loop.run(self._account(f"Ear {k}")) for k in range(ACCOUNTS)]

    async def _account(self, name: str) -> int:
        made = await account_queries.create_account(
            self.room.storage, name, name_key(name), "not a hash", now())
        assert made is not None
        return made

    def close(self) -> None:
        self.loop.run(self.lifespan.__aexit__(None, None, None))
        self.loop.close()


@pytest.fixture(scope="module")
def kept() -> Iterator[Room]:
    with TemporaryDirectory() as folder:
        room = Room(Path(folder))
        yield room
        room.close()


pairs = st.tuples(st.integers(0, ACCOUNTS - 1), st.integers(0, ACCOUNTS - 1)).filter(
    lambda pair: pair[0] != pair[1])
accounts = st.one_of(st.none(), st.integers(0, ACCOUNTS - 1))
# (who speaks: a seat's index or a spectator's after the two seats, during the match or not)
says = st.lists(st.tuples(st.integers(0, 4), st.booleans()), max_size=5)


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(blocks=st.sets(pairs), seats=st.tuples(accounts, accounts),
       spectators=st.lists(accounts, min_size=1, max_size=3), spoken=says)
def test_the_chat_sent_at_hello_is_what_was_sent_live(
    kept: Room, blocks: set[tuple[int, int]], seats: tuple[int | None, int | None],
    spectators: list[int | None], spoken: list[tuple[int, bool]],
) -> None:
    kept.loop.run(_check(kept, blocks, seats, spectators, spoken))


async def _check(
    kept: Room, blocks: set[tuple[int, int]], seats: tuple[int | None, int | None],
    spectators: list[int | None], spoken: list[tuple[int, bool]],
) -> None:
    room, ids = kept.room, kept.accounts
    storage = room.storage
    for blocker in ids:
        for blocked in ids:
            if blocker != blocked:
                await social_queries.unblock(storage, blocker, blocked)
    for blocker, blocked in blocks:
        await social_queries.block(storage, ids[blocker], ids[blocked], now())
    table, _, first = await room.create(Rules.preset("scopa"), "italian", {}, "Ada")
    _, second = await table.join("Bea", None)
    for seat, account in enumerate(seats):
        if account is not None:
            await account_queries.hold_seat(storage, table.code, seat, ids[account], None)
    ears = [Ear(None, None, token) for token in (first, second)] + [
        Ear(None, None if account is None else ids[account]) for account in spectators]
    for ear in ears:
        assert await table.seat_listener(ear, ear.token, None)
    assert all(ear.history is None for ear in ears)  # nothing said yet: no chat is sent
    for during in (False, True):
        if during:
            await table.start(first)
        for speaker, when in spoken:
            if when == during:
                await table.chat.say(table, ears[speaker % len(ears)], SayRequest("thanks"))

    for fresh in (False, True):
        if fresh:  # the table's memory of its chat is read again from the database
            table.chat = TableChat(storage)
        for ear in ears:
            again = Ear(None, ear.account_id, ear.token)
            assert await table.seat_listener(again, again.token, None)
            assert (again.history or []) == ear.said, (ear, again)
            table.detach(again)
    for ear in ears:
        table.detach(ear)
