"""Issue 23, item 3's spectators and the chat of a table that left memory: a logged-in
spectator past its first matches writes free text (to the spectators alone while the match is
played), a guest or new account watching sends the phrases only, nobody passes for an account
by what it sends, a block hides a spectator's words as a seat's, and a table loaded again from
the database sends the chat said before (``chat``), filtered as ``said`` is."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta
from typing import Any

import pytest
from websockets.asyncio.client import connect

from scopa.server.client import Lobby, TableConnection, socket_url
from scopa.server.store.storage import now

from .chat_support import cookie, refused, register, said, season
from .server_support import TIMEOUT, Seated, Server, anyio_backend, seat_people, until

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]


async def next_said(connection: TableConnection) -> dict[str, Any]:
    return await connection.wait_for(said, TIMEOUT)


async def test_a_logged_in_spectator_writes_to_the_spectators_then_to_everyone(
    server: Server,
) -> None:
    async with Lobby(server.url) as lobby, Lobby(server.url) as anna:
        await register(anna, "Anna")
        await season(anna, server.url)
        code, (ada, guest) = await seat_people(lobby, server.url)
        writer = await TableConnection.open(server.url, code, cookie=cookie(anna))
        watcher = await TableConnection.open(server.url, code)
        await writer.say(text="  forza   Ada ")
        for connection in (writer, watcher):
            message = await next_said(connection)
            assert (message["text"], message["from"], message["audience"]) == (
                "forza Ada", None, "spectators")
            assert message["spectator"] == 1 and message["name"] is None
            assert message.get("yours") is (True if connection is writer else None)
        await ada.connection.say("good_luck")
        # The players' next word is Ada's: the spectator's text never reached them.
        for connection in (ada.connection, guest.connection, writer, watcher):
            assert (await next_said(connection))["phrase"] == "good_luck"

        await guest.connection.resign()
        for connection in (ada.connection, writer):
            await connection.wait_for(lambda m: m["type"] == "over", TIMEOUT)
        await writer.say(text="bella partita")
        for connection in (ada.connection, guest.connection, watcher, writer):
            message = await next_said(connection)
            assert (message["text"], message["audience"]) == ("bella partita", "all")
        for connection in (writer, watcher, ada.connection, guest.connection):
            await connection.close()


async def test_a_guest_or_new_account_watching_sends_the_phrases_only(server: Server) -> None:
    async with Lobby(server.url) as lobby, Lobby(server.url) as nina:
        await register(nina, "Nina")
        await season(nina, server.url, matches=1)
        code, (ada, _guest) = await seat_people(lobby, server.url)
        guest = await TableConnection.open(server.url, code)
        new = await TableConnection.open(server.url, code, cookie=cookie(nina))
        await guest.say(text="psst")
        error = await refused(guest)
        assert error["code"] == "phrases_only" and "log in to write your own words" in error[
            "message"]
        await new.say(text="psst", ref=4)
        error = await refused(new)
        assert (error["code"], error["ref"]) == ("phrases_only", 4)
        assert "first 3 matches (finished: 1)" in error["message"]
        # Nothing was said: the next word either hears is a phrase, which both may send.
        await new.say("nice_sweep")
        for connection in (guest, new):
            message = await next_said(connection)
            assert (message["phrase"], message["spectator"]) == ("nice_sweep", 1)
        for connection in (guest, new, ada.connection):
            await connection.close()


async def test_a_spectator_cannot_pass_for_an_account_by_what_it_sends(server: Server) -> None:
    async with Lobby(server.url) as lobby, Lobby(server.url) as anna:
        account = await register(anna, "Anna")
        await season(anna, server.url)
        code, people = await seat_people(lobby, server.url)
        async with connect(socket_url(server.url, code)) as socket:
            await socket.send(json.dumps({"type": "hello", "token": None, "account": account,
                                          "account_id": account, "cookie": cookie(anna)}))
            await socket.send(json.dumps({"type": "say", "text": "I am Anna", "ref": 1}))
            answers = []
            async with asyncio.timeout(TIMEOUT):
                while not answers or answers[-1]["type"] != "error":
                    answers.append(json.loads(await socket.recv()))
        assert answers[0]["type"] == "welcome" and answers[0]["seat"] is None
        assert (answers[-1]["code"], answers[-1]["ref"]) == ("phrases_only", 1)
        # Nor a socket opened by another site's page, which carries the cookie unasked.
        elsewhere = await connect(socket_url(server.url, code), additional_headers={
            "Cookie": cookie(anna), "Origin": "https://elsewhere.example"})
        async with elsewhere:
            await elsewhere.send(json.dumps({"type": "hello"}))
            await elsewhere.send(json.dumps({"type": "say", "text": "I am Anna", "ref": 2}))
            async with asyncio.timeout(TIMEOUT):
                while (answer := json.loads(await elsewhere.recv()))["type"] != "error":
                    pass
        assert (answer["code"], answer["ref"]) == ("phrases_only", 2)
        for person in people:
            await person.connection.close()


async def test_a_block_hides_a_spectators_words_from_the_blocker(server: Server) -> None:
    async with Lobby(server.url) as ada_lobby, Lobby(server.url) as anna, Lobby(
        server.url
    ) as guest_lobby:
        await register(ada_lobby, "Ada")
        await register(anna, "Anna")
        await season(anna, server.url)
        answer = await ada_lobby.http.post("/api/friends/block", json={"name": "Anna"})
        assert answer.status_code == 200, answer.text
        created = await ada_lobby.create_table(players=2, name="Ada")
        code = created["table"]["code"]
        joined = await guest_lobby.join(code, "Guest")
        ada = Seated(0, created["token"], await TableConnection.open(
            server.url, code, created["token"]))
        guest = Seated(1, joined["token"], await TableConnection.open(
            server.url, code, joined["token"]))
        await ada_lobby.start(code, created["token"])
        await guest.connection.wait_for(lambda m: m["type"] == "state", TIMEOUT)
        await guest.connection.resign()
        await ada.connection.wait_for(lambda m: m["type"] == "over", TIMEOUT)
        writer = await TableConnection.open(server.url, code, cookie=cookie(anna))
        await writer.say(text="ciao")
        assert (await next_said(guest.connection))["text"] == "ciao"
        await guest.connection.say("thanks")
        # Ada's first word heard is the guest's: Anna's, said before it, never came.
        assert (await next_said(ada.connection))["phrase"] == "thanks"
        # Nor does it come back to her with the table's chat when she comes again.
        await ada.connection.close()
        again = await TableConnection.open(server.url, code, ada.token)
        chat = await again.wait_for(lambda m: m["type"] == "chat", TIMEOUT)
        assert [m.get("phrase") for m in chat["said"]] == ["thanks"]
        # Nor in the match's replay (issue 34, item 9); others read it there.
        match = ada.connection.match
        for reader, shown in ((ada_lobby, ["thanks"]), (guest_lobby, ["ciao", "thanks"])):
            replay = (await reader.http.get(f"/api/replays/{match}")).json()
            assert [m.get("phrase", m.get("text")) for m in replay["chat"]] == shown
        for connection in (again, guest.connection, writer):
            await connection.close()


async def test_a_table_loaded_again_sends_the_chat_said_before(stored_server: Server) -> None:
    server = stored_server
    async with Lobby(server.url) as lobby:
        code, (ada, guest) = await seat_people(lobby, server.url)
        spectator = await TableConnection.open(server.url, code)
        await spectator.say("nice_sweep")
        await next_said(spectator)
        await ada.connection.say("good_luck")
        # Heard before the guest speaks: two sockets' words are numbered in the order the
        # server finishes them, which need not be the order they were sent in.
        first = (await next_said(ada.connection))["id"]
        await guest.connection.say(text="hi", ref="guest")  # refused: a guest's seat
        await refused(guest.connection)
        await guest.connection.say("thanks")
        await next_said(ada.connection)
        await guest.connection.resign()  # a match being played keeps its turn's clock running
        await ada.connection.wait_for(lambda m: m["type"] == "over", TIMEOUT)
        for connection in (ada.connection, guest.connection, spectator):
            await connection.close()
        room = server.room
        await until(lambda: _idle(room, code), "the table has nobody listening")
        await room.sweep(now() + timedelta(days=2))
        assert code not in room.tables

        # Ada comes back: the table is loaded again, with what the seats were shown.
        ada.connection = await TableConnection.open(server.url, code, ada.token)
        chat = await ada.connection.wait_for(lambda m: m["type"] == "chat", TIMEOUT)
        assert code in room.tables and chat["table"] == code
        assert [(m["id"], m["from"], m["phrase"]) for m in chat["said"]] == [
            (first, 0, "good_luck"), (first + 1, 1, "thanks")]
        assert all(m["audience"] == "all" and "account" not in m and "version" not in m
                   for m in chat["said"])
        # A spectator is shown the spectators' word as well; a seat may report what it was
        # shown before the table left memory (a guest watching reports nothing: issue 34,
        # item 7).
        spectator = await TableConnection.open(server.url, code)
        chat = await spectator.wait_for(lambda m: m["type"] == "chat", TIMEOUT)
        assert [m["phrase"] for m in chat["said"]] == ["nice_sweep", "good_luck", "thanks"]
        await spectator.report(first + 1)
        assert (await refused(spectator))["code"] == "log_in_to_report"
        await ada.connection.report(first + 1)
        assert (await ada.connection.wait_for(
            lambda m: m["type"] == "reported", TIMEOUT))["id"] == first + 1
        # What is said now comes after it, once.
        await ada.connection.say("well_played")
        assert (await next_said(spectator))["id"] > first + 1
        for connection in (ada.connection, spectator):
            await connection.close()


async def _idle(room: Any, code: str) -> bool:
    table = room.tables.get(code)
    return table is not None and not table.listeners
