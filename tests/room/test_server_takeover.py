"""A table taken over by another process (its owner's lease lapsed: paused, cut off): the old
owner's tables can change nothing any more, because the database refuses its writes, and the
new owner goes on with everything the table was, its stand-ins included.

Two card rooms on one database stand for the two processes: the second one brings back every
unfinished table at its start, as a process that wins their leases does.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from scopa.rules import Rules
from scopa.server.client import Lobby
from scopa.server.common.errors import LobbyError
from scopa.server.table.room import CardRoom

from .server_support import TIMEOUT, anyio_backend, running_server, seat_people, settings_for

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]


class Heard:
    """A spectator's connection in the test: every message the table pushes to it."""

    seat: int | None = None

    def __init__(self) -> None:
        self.messages: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    def push(self, text: str) -> None:
        self.messages.put_nowait(json.loads(text))

    def close(self, code: int, reason: str) -> None:
        raise AssertionError(f"a spectator was closed: {code} {reason}")

    async def state_from(self, version: int) -> dict[str, Any]:
        """The first state at ``version`` or later."""
        async with asyncio.timeout(TIMEOUT):
            while True:
                message = await self.messages.get()
                if message["type"] == "state" and message["version"] >= version:
                    return message


async def test_the_former_owner_of_a_table_can_no_longer_change_it(tmp_path: Path) -> None:
    settings = settings_for(tmp_path)
    old = CardRoom(settings)
    await old.open()
    new = CardRoom(settings)
    try:
        rules = Rules.preset("scopa")
        full, _, ada = await old.create(rules, "french", {}, "Ada")
        _, bo = await full.join("Bo", None)
        half, _, cy = await old.create(rules, "french", {}, "Cy")
        assert ada is not None and cy is not None
        await new.open()  # takes both tables over
        assert set(new.tables) == {full.code, half.code}
        stale_writes = {
            "start": lambda: full.start(ada),
            "leave": lambda: full.leave(bo),
            "join": lambda: half.join("Di", None),
        }
        for name, write in stale_writes.items():
            with pytest.raises(LobbyError) as refused:
                await write()
            assert refused.value.status == 503, name
            assert refused.value.message == "this table moved to another server just now: try again"
        # Nothing changed in the database: the new owner sees the tables as they were, and can
        # go on with them.
        assert [s.name for s in new.tables[full.code].seats] == ["Ada", "Bo"]
        assert [s.name for s in new.tables[half.code].seats] == ["Cy", None]
        await new.tables[half.code].join("Di", None)
        await new.tables[full.code].start(ada)
        assert new.tables[full.code].status == "playing"
    finally:
        await new.close()
        await old.close()


async def test_a_stand_in_survives_a_takeover(tmp_path: Path) -> None:
    """Ada went away and timed out, then Bob, still connected, let his clock run out too:
    bots play for both. The table's new owner, which has no turn timeout at all, knows it from
    the database and has the bots play their next turns."""
    # At the old owner the stand-ins' later turns wait ten minutes: its table stands still.
    settings = settings_for(tmp_path, turn_timeout=0.05, bot_delay=(600.0, 600.0))
    async with running_server(settings) as server, Lobby(server.url) as lobby:
        code, (ada, bob) = await seat_people(lobby, server.url)
        assert ada.connection.my_turn
        await ada.connection.close()
        played = await bob.connection.wait_for(
            lambda m: m["type"] == "state" and m["version"] == 2, TIMEOUT
        )
        assert played["play"]["seat"] == 1  # Bob's stand-in's move, after Ada's
        new = CardRoom(replace(settings, turn_timeout=None, bot_delay=(0.0, 0.0)))
        await new.open()
        try:
            table = new.tables[code]
            assert table.stand_ins == {0, 1}
            assert [seat["stand_in"] for seat in table.info()["seats"]] == [True, True]
            heard = Heard()
            async with table.lock:
                table.attach(heard, None)
            await heard.state_from(4)
            assert [play.seat for play in table.plays[:4]] == [0, 1, 0, 1]
        finally:
            await new.close()
        await bob.connection.close()
