"""Issue 34, item 7: one address opened 150 spectator sockets at one table, each with its own
chat allowance (300 phrases in 1.3 s), and one guest filed 15 reports of one message.

One address keeps a bounded number of table sockets (said hello or not), and the next is told
why and closed with 1013, changing nothing; the chat's and the reports' limits are per person
(a seat's token, an account, a guest watching by their address) and per address, never per
socket, and across the room's processes; a reporter reports a message once (the database
holds it to that), and a guest watching reports nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

import pytest
from websockets.asyncio.client import connect

from scopa.server import Settings
from scopa.server.client import Lobby, TableConnection, socket_url
from scopa.server.store import chat_queries

from .chat_support import cookie, refused, register, said
from .server_support import (
    TIMEOUT,
    Seated,
    Server,
    anyio_backend,
    room_processes,
    seat_people,
    until,
)

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]

CAP = 30
"""Table sockets one address keeps open on a process by default (``Settings``)."""


async def heard(connection: TableConnection, count: int) -> list[dict[str, Any]]:
    """The next ``count`` messages said that ``connection`` hears."""
    return [await connection.wait_for(said, TIMEOUT) for _ in range(count)]


async def test_one_address_keeps_a_bounded_number_of_table_sockets(server: Server) -> None:
    cap = CAP
    async with Lobby(server.url) as lobby, contextlib.AsyncExitStack() as stack:
        code, (ada, guest) = await seat_people(lobby, server.url)
        url = socket_url(server.url, code)
        # Sockets that never say hello count too: they hold a place as long as any.
        for _ in range(5):
            await stack.enter_async_context(connect(url))
        watchers = []
        for _ in range(cap - 2 - 5):
            watcher = await TableConnection.open(server.url, code)
            stack.push_async_callback(watcher.close)
            watchers.append(watcher)
        async with connect(url) as one_more:
            error = json.loads(await asyncio.wait_for(one_more.recv(), TIMEOUT))
            assert error["type"] == "error" and error["code"] == "too_many_sockets"
            assert f"at most {cap} table sockets may be open from one address" in (
                error["message"])
            await asyncio.wait_for(one_more.wait_closed(), TIMEOUT)
            assert one_more.close_code == 1013

        # Nothing changed: the match plays on, seen by the seats and every watcher.
        assert ada.connection.view is not None
        await ada.connection.move(ada.connection.view["legal_moves"][0])
        for connection in (guest.connection, watchers[-1]):
            await connection.wait_for(lambda m: m["type"] == "state" and m["version"] == 1,
                                      TIMEOUT)
        assert all(seat["connected"] for seat in (await lobby.table(code))["seats"])

        # A socket that closes gives its place back.
        await watchers[0].close()
        places = server.app.state.table_doorway.places

        async def free() -> bool:
            return bool(places.taken < cap)

        await until(free, "the closed watcher's place is free")
        again = await TableConnection.open(server.url, code)
        assert again.seat is None
        await again.close()


async def test_a_second_socket_or_another_person_of_the_address_gives_no_new_allowance(
    server: Server,
) -> None:
    async with Lobby(server.url) as lobby:
        code, (ada, guest) = await seat_people(lobby, server.url)
        second = await TableConnection.open(server.url, code, ada.token)
        for _ in range(5):
            await ada.connection.say("well_played")
        assert len(await heard(guest.connection, 5)) == 5
        # Ada's seat on another socket is Ada still: her five in ten seconds are said.
        await second.say("good_game", ref="again")
        error = await refused(second)
        assert (error["code"], error["ref"]) == ("chat_too_fast", "again")
        assert "at most 5 messages in 10 seconds from you" in error["message"]

        # Her guest speaks too, from the same address; a spectator, come since, hears it.
        watcher = await TableConnection.open(server.url, code)
        for _ in range(5):
            await guest.connection.say("thanks")
        thanks = await heard(watcher, 5)
        assert [m["phrase"] for m in thanks] == ["thanks"] * 5
        # The address has said ten in ten seconds: past it, whoever speaks from it next.
        await watcher.say("nice_sweep", ref="watcher")
        error = await refused(watcher)
        assert (error["code"], error["ref"]) == ("chat_too_fast", "watcher")
        assert "at most 10 messages in 10 seconds from your address" in error["message"]
        # Refused, it said nothing: up to the next move, the table heard no more.
        assert ada.connection.view is not None
        await ada.connection.move(ada.connection.view["legal_moves"][0])
        later = []
        while (message := await guest.connection.recv(TIMEOUT))["type"] != "state":
            later.append(message)
        assert message["version"] == 1
        assert [m["id"] for m in later if said(m)] == [m["id"] for m in thanks]
        for connection in (second, watcher):
            await connection.close()


async def test_a_reporter_reports_a_message_once_and_a_guest_watching_not_at_all(
    stored_server: Server,
) -> None:
    server = stored_server
    async with Lobby(server.url) as lobby, Lobby(server.url) as anna:
        code, (ada, guest) = await seat_people(lobby, server.url)
        await register(anna, "Anna")
        logged_in = await TableConnection.open(server.url, code, cookie=cookie(anna))
        watcher = await TableConnection.open(server.url, code)
        await ada.connection.say("thanks")
        message_id = (await guest.connection.wait_for(said, TIMEOUT))["id"]

        await guest.connection.report(message_id, ref="first")
        assert (await guest.connection.wait_for(
            lambda m: m["type"] == "reported", TIMEOUT))["ref"] == "first"
        # Again, and from another socket of the same seat: answered, kept once.
        again = await TableConnection.open(server.url, code, guest.token)
        for connection in (guest.connection, again):
            await connection.report(message_id, ref="again")
            error = await refused(connection)
            assert (error["code"], error["ref"]) == ("already_reported", "again")
            assert f"you reported message {message_id} already" in error["message"]

        await watcher.report(message_id, ref="guest")
        error = await refused(watcher)
        assert (error["code"], error["ref"]) == ("log_in_to_report", "guest")
        assert "a guest watching cannot report a message: log in" in error["message"]

        await logged_in.report(message_id)
        await logged_in.wait_for(lambda m: m["type"] == "reported", TIMEOUT)
        await logged_in.report(message_id)
        assert (await refused(logged_in))["code"] == "already_reported"

        reports = await chat_queries.reports(server.room.storage)
        assert [(r["message"]["id"], r["reporter_seat"], r["reporter_account"] is not None)
                for r in reports] == [(message_id, guest.seat, False), (message_id, None, True)]
        for connection in (again, logged_in, watcher):
            await connection.close()


async def test_reports_are_limited_per_person_and_per_address(server: Server) -> None:
    async with Lobby(server.url) as lobby, Lobby(server.url) as anna:
        code, (ada, guest) = await seat_people(lobby, server.url)
        await register(anna, "Anna")
        logged_in = await TableConnection.open(server.url, code, cookie=cookie(anna))
        for phrase in ("good_luck", "thanks", "well_played", "nice_sweep", "good_game"):
            await ada.connection.say(phrase)
        ids = [message["id"] for message in await heard(logged_in, 5)]
        await heard(guest.connection, 5)
        for person in (guest, ada):
            for message_id in ids:
                await person.connection.report(message_id)
                await person.connection.wait_for(lambda m: m["type"] == "reported", TIMEOUT)
        await guest.connection.report(ids[0], ref="sixth")
        error = await refused(guest.connection)
        assert (error["code"], error["ref"]) == ("too_many_reports", "sixth")
        assert "at most 5 reports a minute from you" in error["message"]
        # Ten from the address in a minute (Ada's five and her guest's): Anna's first is
        # refused too, and nothing is kept of it.
        await logged_in.report(ids[0], ref="anna")
        error = await refused(logged_in)
        assert (error["code"], error["ref"]) == ("too_many_reports", "anna")
        assert "at most 10 reports a minute from your address" in error["message"]
        assert len(await chat_queries.reports(server.room.storage)) == 10
        await logged_in.close()


async def test_the_chat_limits_hold_across_the_rooms_processes() -> None:
    """A seat open on the table's owner and, relayed, on another process: the limits are in
    the room's Redis, so the second process counts what the first let through."""
    async with room_processes(("p1", "p2"), "--bot-delay", "0") as room:
        owner, other = room.servers["p1"], room.servers["p2"]
        async with Lobby(owner.url) as lobby:
            code, people = await seat_people(lobby, owner.url)
            ada, guest = people
            relayed = Seated(ada.seat, ada.token,
                             await TableConnection.open(other.url, code, ada.token))
            for _ in range(5):
                await ada.connection.say("well_played")
            assert len(await heard(guest.connection, 5)) == 5
            await relayed.connection.say("good_game", ref="relayed")
            error = await refused(relayed.connection)
            assert (error["code"], error["ref"]) == ("chat_too_fast", "relayed")
            async with Lobby(other.url) as direct:
                assert (await direct.health())["relaying"] == 1
            await relayed.connection.close()


def test_the_cap_comes_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    """A load test from loopback raises it (benchmarks/server_load.py); below 1, one line."""
    from scopa.cli import main
    from scopa.server.run import settings_from

    assert settings_from(None, None, None, table_sockets_per_address=5000
                         ).table_sockets_per_address == 5000
    assert settings_from(None, None, None).table_sockets_per_address == CAP
    assert Settings().table_sockets_per_address == CAP
    assert main(["serve", "--table-sockets-per-address", "0"]) == 2
    err = capsys.readouterr().err
    assert err == "scopa: error: --table-sockets-per-address must be 1 or more; got 0\n"
