"""Talk at the table (issue 23, item 3): quick phrases reach everyone at the table; free text
is for accounts past their first matches and not silenced; bad text and floods are refused
with a sentence, change nothing and keep the socket open; the spectators' talk stays among
them while the match is played; a report is stored with its context; the replay has the
chat; a banned account cannot log in and is told why."""

from __future__ import annotations

from typing import Any

import pytest

from scopa.server.client import Lobby, TableConnection
from scopa.server.store import chat_queries
from scopa.server.store.storage import now

from .server_support import (
    TIMEOUT,
    Seated,
    Server,
    anyio_backend,
    seat_people,
)

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]

PASSWORD = "a good password"



def said(message: dict[str, Any]) -> bool:
    return message["type"] == "said"


async def refused(connection: TableConnection) -> dict[str, Any]:
    return await connection.wait_for(lambda m: m["type"] == "error", TIMEOUT)


async def next_said(connection: TableConnection) -> dict[str, Any]:
    return await connection.wait_for(said, TIMEOUT)


async def table_with_spectator(
    lobby: Lobby, server: Server
) -> tuple[str, list[Seated], TableConnection]:
    code, people = await seat_people(lobby, server.url)
    spectator = await TableConnection.open(server.url, code)
    await spectator.wait_for(lambda m: m["type"] == "state", TIMEOUT)
    return code, people, spectator


async def test_a_phrase_reaches_everyone_at_the_table(server: Server) -> None:
    async with Lobby(server.url) as lobby:
        _, (ada, guest), spectator = await table_with_spectator(lobby, server)
        await ada.connection.say("good_luck")
        for connection in (ada.connection, guest.connection, spectator):
            message = await next_said(connection)
            assert message["phrase"] == "good_luck" and "text" not in message
            assert (message["from"], message["name"]) == (0, "Ada")
            assert message["audience"] == "all" and message["id"] >= 1 and message["at"]
        await spectator.close()


async def test_a_guests_free_text_and_bad_text_are_refused_and_nothing_is_said(
    server: Server,
) -> None:
    async with Lobby(server.url) as lobby:
        _, (ada, guest), _spectator = await table_with_spectator(lobby, server)
        await guest.connection.say(text="hello")
        error = await refused(guest.connection)
        assert error["code"] == "phrases_only" and "log in" in error["message"]
        bad = {
            "x" * 201: "at most 200 characters",
            "one\nline": "control characters",
            "abc\u202edef": "bidirectional overrides",
            "a\u2066b": "bidirectional overrides",
            "   ": "visible character",
            # Issue 34, item 10: nothing that shows, or a tower of accents.
            "\u200b": "invisible characters",
            "\u3164\u3164": "invisible characters",
            "ok\u2060": "invisible characters",
            "\u2014 ...": "letter, digit or symbol",
            "a" + "\u0301" * 199: "at most 3 combining marks",
        }
        for text, sentence in bad.items():
            await ada.connection.say(text=text, ref="bad")
            error = await refused(ada.connection)
            assert (error["code"], error["ref"]) == ("bad_text", "bad")
            assert sentence in error["message"]
        # Nothing of it was said: the next word anyone hears is this phrase.
        await ada.connection.say("thanks")
        for connection in (ada.connection, guest.connection):
            assert (await next_said(connection))["phrase"] == "thanks"
        await ada.connection.send({"type": "say", "phrase": "<b>hi</b>"})
        assert (await refused(ada.connection))["code"] == "bad_message"


async def test_a_chat_flood_is_refused_and_the_socket_stays_open(server: Server) -> None:
    async with Lobby(server.url) as lobby:
        _, (ada, guest) = await seat_people(lobby, server.url)
        for _ in range(5):
            await ada.connection.say("well_played")
        await ada.connection.say("good_game", ref=6)
        error = await ada.connection.wait_for(lambda m: m["type"] == "error", TIMEOUT)
        assert (error["code"], error["ref"]) == ("chat_too_fast", 6)
        # Still open: the refused message changed nothing, so what the guest hears up to the
        # match's end (sent after the refusal) is the five phrases alone.
        await ada.connection.resign()
        heard = []
        while (message := await guest.connection.recv(TIMEOUT))["type"] != "over":
            heard.append(message.get("phrase"))
        assert [phrase for phrase in heard if phrase] == ["well_played"] * 5


async def test_spectators_talk_among_themselves_until_the_match_is_over(
    stored_server: Server,
) -> None:
    server = stored_server
    async with Lobby(server.url) as lobby:
        code, (ada, guest), spectator = await table_with_spectator(lobby, server)
        other = await TableConnection.open(server.url, code)
        await spectator.say("nice_sweep")
        for watcher in (spectator, other):
            message = await next_said(watcher)
            assert (message["from"], message["spectator"], message["audience"]) == (
                None, 1, "spectators")
        await spectator.say(text="psst")
        assert (await refused(spectator))["code"] == "phrases_only"
        await ada.connection.say("good_luck")
        # The players' next word is Ada's: the spectators' never reached them.
        for person in (ada, guest):
            assert (await next_said(person.connection))["phrase"] == "good_luck"
        assert (await next_said(other))["phrase"] == "good_luck"

        await guest.connection.resign()
        await ada.connection.wait_for(lambda m: m["type"] == "over", TIMEOUT)
        await spectator.wait_for(lambda m: m["type"] == "over", TIMEOUT)
        await spectator.say("good_game")
        for connection in (ada.connection, guest.connection, other):
            message = await next_said(connection)
            assert (message["phrase"], message["audience"]) == ("good_game", "all")

        replay = (await lobby.http.get(f"/api/replays/{ada.connection.match}")).json()
        assert [(m["from"], m.get("phrase")) for m in replay["chat"]] == [
            (0, "good_luck"), (None, "good_game")]
        await spectator.close()
        await other.close()


async def test_a_report_keeps_the_message_and_its_context(stored_server: Server) -> None:
    server = stored_server
    async with Lobby(server.url) as lobby:
        _, (ada, guest) = await seat_people(lobby, server.url)
        for phrase in ("good_luck", "thanks", "well_played"):
            await ada.connection.say(phrase)
        ids = [(await next_said(guest.connection))["id"] for _ in range(3)]
        await guest.connection.report(ids[1], ref="r")
        answer = await guest.connection.wait_for(lambda m: m["type"] == "reported", TIMEOUT)
        assert (answer["id"], answer["ref"]) == (ids[1], "r")
        await guest.connection.report(10**6)
        assert (await refused(guest.connection))["code"] == "no_message"

        (report,) = await chat_queries.reports(server.room.storage)
        assert report["message"]["id"] == ids[1] and report["message"]["phrase"] == "thanks"
        assert [m["id"] for m in report["context"]] == ids[:2]
        assert report["match"] == ada.connection.match and report["reporter_seat"] == 1
        assert report["version"] == 0


async def _log_in(lobby: Lobby, name: str, register: bool = False) -> int:
    path = "/api/account/register" if register else "/api/account/login"
    answer = await lobby.http.post(path, json={"name": name, "password": PASSWORD})
    assert answer.status_code in (200, 201), answer.text
    account_id: int = answer.json()["id"]
    return account_id


async def _against_the_computer(lobby: Lobby, server: Server) -> TableConnection:
    grant = await lobby.play_computer(name="Anna", level="random")
    connection = await TableConnection.open(server.url, grant["table"]["code"], grant["token"])
    await connection.wait_for(lambda m: m["type"] == "state", TIMEOUT)
    return connection


async def test_an_account_writes_after_its_first_matches_unless_silenced_and_a_ban_bars_it(
    server: Server,
) -> None:
    async with Lobby(server.url) as anna:
        account = await _log_in(anna, "Anna", register=True)
        for finished in range(3):
            connection = await _against_the_computer(anna, server)
            await connection.say(text="ciao")
            error = await refused(connection)
            assert error["code"] == "phrases_only" and f"finished: {finished}" in error["message"]
            await connection.resign()
            await connection.wait_for(lambda m: m["type"] == "over", TIMEOUT)
            await connection.close()
        connection = await _against_the_computer(anna, server)
        await connection.say(text="  <b>ciao</b>   a tutti ")
        message = await next_said(connection)
        assert (message["text"], message["name"]) == ("<b>ciao</b> a tutti", "Anna")

        storage = server.room.storage
        await chat_queries.sanction(storage, account, "silence", "insults", now())
        await connection.say(text="ciao")
        error = await refused(connection)
        assert error["code"] == "phrases_only" and "insults" in error["message"]
        await connection.say("thanks")
        assert (await next_said(connection))["phrase"] == "thanks"

        await chat_queries.sanction(storage, account, "ban", "cheating", now())
        assert (await anna.http.get("/api/account")).json() is None  # logged out everywhere
        # The seat it still holds keeps the quick phrases only, and says why.
        await connection.say(text="ciao")
        error = await refused(connection)
        assert error["code"] == "phrases_only" and "(cheating)" in error["message"]
        await connection.close()
        answer = await anna.http.post(
            "/api/account/login", json={"name": "Anna", "password": PASSWORD})
        assert answer.status_code == 403 and "cheating" in answer.json()["detail"]

