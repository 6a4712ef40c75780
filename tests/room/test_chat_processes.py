"""Issue 23, item 3's chat across ``scopa serve`` processes (PostgreSQL and Redis): a
logged-in spectator relayed through a process that does not own its table writes as its
account, which that process read from the cookie and told the owner; and after the owner is
killed (``kill -9``) and its table taken over, a seat coming back gets the chat said before.

Needs the PostgreSQL and Redis servers that ``scripts/test.sh`` starts on loopback.
"""

from __future__ import annotations

import pytest

from scopa.server.client import Lobby, TableConnection

from .chat_support import cookie, refused, register, said, season
from .server_support import (
    TIMEOUT,
    ServerProcess,
    anyio_backend,
    room_processes,
)

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]

TAKEOVER = 10.0
"""Seconds a dead owner's tables may wait for a new one (the issue's bound)."""


async def owns(server: ServerProcess, code: str) -> bool:
    async with Lobby(server.url) as lobby:
        return code in (await lobby.health())["owned"]


async def test_a_relayed_spectator_writes_as_its_account_and_the_chat_outlives_its_owner(
) -> None:
    async with room_processes(("p1", "p2"), "--bot-delay", "0") as room:
        owner, other = room.servers["p1"], room.servers["p2"]
        async with Lobby(owner.url) as lobby, Lobby(owner.url) as anna, Lobby(
            owner.url
        ) as guest_lobby:
            await register(anna, "Anna")
            await season(anna, owner.url)
            created = await lobby.create_table(players=2, name="Ada")
            code = created["table"]["code"]
            joined = await guest_lobby.join(code, "Guest")
            ada = await TableConnection.open(owner.url, code, created["token"])
            guest = await TableConnection.open(owner.url, code, joined["token"])
            await lobby.start(code, created["token"])
            for seat in (ada, guest):
                await seat.wait_for(lambda m: m["type"] == "state", TIMEOUT)
            assert await owns(owner, code) and not await owns(other, code)

            # Anna watches through the process that does not own the table: relayed.
            writer = await TableConnection.open(other.url, code, cookie=cookie(anna))
            stranger = await TableConnection.open(other.url, code)
            watcher = await TableConnection.open(owner.url, code)
            await writer.say(text="forza Ada")
            for connection in (writer, stranger, watcher):
                message = await connection.wait_for(said, TIMEOUT)
                assert (message["text"], message["audience"]) == ("forza Ada", "spectators")
            # A guest relayed the same way sends the phrases only.
            await stranger.say(text="forza Guest", ref="s")
            error = await refused(stranger)
            assert (error["code"], error["ref"]) == ("phrases_only", "s")
            await ada.say("good_luck")
            for connection in (ada, guest, writer, stranger, watcher):
                assert (await connection.wait_for(said, TIMEOUT))["phrase"] == "good_luck"
            async with Lobby(other.url) as direct:
                assert (await direct.health())["relaying"] == 2

            owner.kill()
            # The survivor takes the table over; Ada comes back to it, and is sent what
            # the seats were shown before (not the spectators' word).
            ada = await TableConnection.open(
                other.url, code, created["token"], timeout=TAKEOVER + TIMEOUT)
            chat = await ada.wait_for(lambda m: m["type"] == "chat", TIMEOUT)
            assert [(m["from"], m.get("phrase")) for m in chat["said"]] == [
                (0, "good_luck")]
            assert await owns(other, code)
            # Anna's socket, adopted by its own process now, still writes as her account.
            await writer.say(text="ancora")
            message = await writer.wait_for(
                lambda m: said(m) and m.get("text") == "ancora", TIMEOUT)
            assert message["audience"] == "spectators"
            for connection in (ada, writer, stranger):
                await connection.close()
