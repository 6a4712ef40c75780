"""A match's end is told to the room's subscribers (ratings, social, tournaments, the daily
deal) after its last state is sent, outside the table's lock, and its ``over`` once they are
done (issue 32, item 5): a slow subscriber holds up nothing at that table, a failing one is
logged and the table plays on, and a table's finished matches are told in the order they
ended."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from scopa.server.client import Lobby
from scopa.server.table.finished import FinishedMatch

from .server_support import TIMEOUT, anyio_backend, running_server, seat_people, settings_for

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]


async def test_a_blocked_subscriber_leaves_the_table_free_and_hears_matches_in_order(
    tmp_path: Path,
) -> None:
    told: list[int] = []
    entered = asyncio.Event()
    release = asyncio.Event()

    async def slow(match: FinishedMatch) -> None:
        told.append(match.match_id)
        entered.set()
        await release.wait()

    async with running_server(settings_for(tmp_path)) as server, Lobby(server.url) as lobby:
        server.room.match_ends.subscribe(slow)
        code, people = await seat_people(lobby, server.url)
        ada, bruno = people
        table = server.room.tables[code]
        await ada.connection.resign()
        async with asyncio.timeout(TIMEOUT):
            await entered.wait()
        # The subscriber is blocked, yet the table is free and its last state was sent.
        assert not table.lock.locked()
        for person in people:
            await person.connection.wait_for(
                lambda m: m["type"] == "state" and m["view"]["winner"] is not None, TIMEOUT)
        first = ada.connection.match
        assert first is not None
        # A rematch is dealt and played meanwhile.
        await lobby.rematch(code, ada.token)
        for person in people:
            await person.connection.wait_for(
                lambda m: m["type"] == "state" and m["match"] != first, TIMEOUT)
        second = ada.connection.match
        assert second is not None and second != first
        await bruno.connection.resign()
        await ada.connection.wait_for(
            lambda m: m["type"] == "state" and m["view"]["winner"] is not None, TIMEOUT)
        # The second match waits for the first one's announcement to end.
        assert told == [first]
        release.set()
        over = await ada.connection.wait_for(lambda m: m["type"] == "over", TIMEOUT)
        assert over["match"] == second  # the first one's is stale: the rematch was dealt
        async with asyncio.timeout(TIMEOUT):
            while len(told) < 2:
                entered.clear()
                await entered.wait()
        assert told == [first, second]
        server.room.match_ends.unsubscribe(slow)


async def test_a_failing_subscriber_is_logged_and_the_table_plays_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture,
) -> None:
    later: list[int] = []
    heard = asyncio.Event()

    async def broken(match: FinishedMatch) -> None:
        raise RuntimeError("a subscriber's bug")

    async def after(match: FinishedMatch) -> None:
        later.append(match.match_id)
        heard.set()

    async with running_server(settings_for(tmp_path)) as server, Lobby(server.url) as lobby:
        server.room.match_ends.subscribe(broken)
        server.room.match_ends.subscribe(after)
        code, people = await seat_people(lobby, server.url)
        ada, bruno = people
        await bruno.connection.resign()
        await ada.connection.wait_for(lambda m: m["type"] == "over", TIMEOUT)
        async with asyncio.timeout(TIMEOUT):
            await heard.wait()
        assert later == [ada.connection.match]
        assert "a subscriber failed" in caplog.text
        await lobby.rematch(code, ada.token)
        state = await ada.connection.wait_for(
            lambda m: m["type"] == "state" and m["match"] != later[0], TIMEOUT)
        assert state["view"]["winner"] is None
