"""Challenges and friends (issue 23, item 2) over real WebSockets: a follower sees who they
follow come online, play at a table and go; a challenge reaches the other at once and is
accepted (both seated at one dealt table), declined or left to expire; every bad input is
refused with a sentence and changes nothing; a block keeps the blocked one's chat from the
blocker; and ``/ws/me`` closes only with its documented codes."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from scopa.server.client import Lobby, TableConnection
from scopa.server.social.settings import SocialSettings

from .server_support import (
    TIMEOUT,
    Server,
    anyio_backend,
    fresh_postgres,
    fresh_redis,
    running_server,
    settings_for,
    subprocess_server,
)

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]

PASSWORD = "a good password"


class Me:
    """A logged-in person: their HTTP client (with the session cookie) and ``/ws/me``."""

    def __init__(self, lobby: Lobby, name: str) -> None:
        self.lobby = lobby
        self.name = name
        self.socket: ClientConnection | None = None

    async def post(self, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
        answer = await self.lobby.http.post(path, json=body or {})
        return answer.status_code, answer.json() if answer.content else None

    async def get(self, path: str) -> Any:
        answer = await self.lobby.http.get(path)
        assert answer.status_code == 200, answer.text
        return answer.json()

    async def open(self) -> None:
        cookie = "; ".join(f"{k}={v}" for k, v in self.lobby.http.cookies.items())
        url = self.lobby.url.replace("http", "ws", 1) + "/ws/me"
        self.socket = await connect(url, additional_headers={"Cookie": cookie})
        assert (await self.recv())["type"] == "me"

    async def recv(self) -> dict[str, Any]:
        assert self.socket is not None
        async with asyncio.timeout(TIMEOUT):
            message: dict[str, Any] = json.loads(await self.socket.recv())
        return message

    async def wait_for(self, check: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        while True:
            message = await self.recv()
            if check(message):
                return message

    async def close(self) -> None:
        if self.socket is not None:
            await self.socket.close()
            self.socket = None


@asynccontextmanager
async def person(url: str, name: str, online: bool = True) -> AsyncIterator[Me]:
    async with Lobby(url) as lobby:
        answer = await lobby.http.post(
            "/api/account/register", json={"name": name, "password": PASSWORD}
        )
        assert answer.status_code == 201, answer.text
        me = Me(lobby, name)
        if online:
            await me.open()
        try:
            yield me
        finally:
            await me.close()


def friends_where(check: Callable[[list[dict[str, Any]]], bool]) -> Callable[[Any], bool]:
    return lambda m: m["type"] == "friends" and check(m["friends"])


@pytest.fixture
async def room(tmp_path: Path) -> AsyncIterator[Server]:
    # Fresh accounts challenge each other rated here: a newcomer's first matches before rated
    # play are tests/room/test_rating_farming.py's.
    settings = settings_for(tmp_path, register_per_address="100/minute", newcomer_matches=0)
    async with running_server(settings) as running:
        yield running


async def test_a_follower_sees_who_they_follow_come_play_and_go(room: Server) -> None:
    async with person(room.url, "Bea") as bea, person(room.url, "Ada", online=False) as ada:
        assert (await bea.wait_for(friends_where(lambda f: True)))["friends"] == []
        status, listed = await bea.post("/api/friends/follow", {"name": "ADA"})
        assert status == 200
        assert listed["following"] == [{"name": "Ada", "online": False, "table": None}]
        await bea.wait_for(friends_where(lambda f: f == [listed["following"][0]]))
        assert (await ada.post("/api/friends/follow", {"name": "Bea"}))[0] == 200

        await ada.open()
        await bea.wait_for(friends_where(lambda f: f[0]["online"] and f[0]["table"] is None))
        table = await ada.lobby.create_table(name="Ada")
        code = table["table"]["code"]
        await ada.lobby.join(code, "Guest 1")
        await ada.lobby.start(code, table["token"])
        seen = await bea.wait_for(friends_where(lambda f: f[0]["table"] is not None))
        assert seen["friends"] == [{"name": "Ada", "online": True, "table": code}]
        assert (await bea.get("/api/friends"))["following"] == seen["friends"]

        await ada.close()
        gone = await bea.wait_for(friends_where(lambda f: not f[0]["online"]))
        assert gone["friends"] == [{"name": "Ada", "online": False, "table": None}]


async def playing(who: Me) -> str:
    """A table ``who`` plays at against a guest, started: its code."""
    table = await who.lobby.create_table(name=who.name)
    code: str = table["table"]["code"]
    await who.lobby.join(code, "Guest 1")
    await who.lobby.start(code, table["token"])
    return code


async def test_where_one_plays_is_shown_only_as_ones_setting_allows(room: Server) -> None:
    """Following needs no consent: a stranger who follows Ada sees her online and not where
    she plays, until she follows back (the default), shows it to all, or hides it from all."""
    async with person(room.url, "Ada") as ada, person(room.url, "Bea") as bea:
        assert (await ada.get("/api/friends"))["playing_shown"] == "follows"
        assert (await bea.post("/api/friends/follow", {"name": "Ada"}))[0] == 200
        code = await playing(ada)
        listed = await bea.get("/api/friends")
        assert listed["following"] == [{"name": "Ada", "online": True, "table": None}]
        await bea.wait_for(friends_where(lambda f: f == listed["following"]))

        # Ada follows back: Bea's page is told at once.
        assert (await ada.post("/api/friends/follow", {"name": "Bea"}))[0] == 200
        await bea.wait_for(friends_where(lambda f: f[0]["table"] == code))

        # Ada shows it to nobody, even to those she follows.
        status, mine = await ada.post("/api/friends/playing", {"shown": "none"})
        assert (status, mine["playing_shown"]) == (200, "none")
        await bea.wait_for(friends_where(lambda f: f[0] == {"name": "Ada", "online": True,
                                                            "table": None}))
        assert (await bea.get("/api/friends"))["following"][0]["table"] is None

        # To all who follow her: Bea sees it when Ada no longer follows her.
        assert (await ada.post("/api/friends/playing", {"shown": "all"}))[0] == 200
        await bea.wait_for(friends_where(lambda f: f[0]["table"] == code))
        assert (await ada.post("/api/friends/unfollow", {"name": "Bea"}))[0] == 200
        assert (await bea.get("/api/friends"))["following"][0]["table"] == code

        # Back to those she follows: Bea, unfollowed, sees it no more. Whom Ada takes
        # challenges from stayed as it was through it all, and the other way round.
        assert (await ada.post("/api/friends/challenges", {"accepts": "none"}))[0] == 200
        status, mine = await ada.post("/api/friends/playing", {"shown": "follows"})
        assert (mine["playing_shown"], mine["challenges"]) == ("follows", "none")
        await bea.wait_for(friends_where(lambda f: f[0]["table"] is None))

        before = await ada.get("/api/friends")
        for bad in ({"shown": "friends"}, {"shown": 3}, {}):
            status, answer = await ada.post("/api/friends/playing", bad)
            assert status == 422, answer
        assert await ada.get("/api/friends") == before


async def test_a_daily_deal_is_never_shown_to_followers(room: Server) -> None:
    """docs/daily.md: a daily table's code is listed nowhere, its friends' lists included, even
    for one who shows where they play to all who follow them."""
    async with person(room.url, "Ada") as ada, person(room.url, "Bea") as bea:
        assert (await ada.post("/api/friends/playing", {"shown": "all"}))[0] == 200
        assert (await ada.post("/api/friends/follow", {"name": "Bea"}))[0] == 200
        assert (await bea.post("/api/friends/follow", {"name": "Ada"}))[0] == 200
        status, grant = await ada.post("/api/daily/play", {})
        assert status == 201, grant
        assert grant["table"]["status"] == "playing"
        assert (await bea.get("/api/friends"))["following"] == [
            {"name": "Ada", "online": True, "table": None}]

        code = await playing(ada)  # a table of her own beside it is shown
        await bea.wait_for(friends_where(lambda f: bool(f) and f[0]["table"] == code))
        assert grant["table"]["code"] not in json.dumps(await bea.get("/api/friends"))


async def test_a_challenge_accepted_seats_both_at_one_dealt_table(room: Server) -> None:
    async with person(room.url, "Ada") as ada, person(room.url, "Bea") as bea:
        status, sent = await ada.post(
            "/api/challenges",
            {"name": "bea", "preset": "escoba", "target": 21, "look": "spanish", "rated": True},
        )
        assert status == 201, sent
        assert (sent["to"], sent["preset"], sent["rated"]) == ("Bea", "escoba", True)
        offer = await bea.wait_for(lambda m: m["type"] == "challenge")
        assert offer["id"] == sent["id"] and offer["from"] == "Ada" and offer["target"] == 21
        assert 0 < offer["expires_in"] <= 60

        status, grant = await bea.post(f"/api/challenges/{sent['id']}/accept")
        assert status == 200, grant
        code = grant["table"]["code"]
        assert grant["table"]["status"] == "playing" and grant["table"]["look"] == "spanish"
        assert [s["name"] for s in grant["table"]["seats"]] == ["Ada", "Bea"]
        assert grant["table"]["rules"]["target"] == 21
        answer = await ada.wait_for(lambda m: m["type"] == "challenge_answer")
        assert (answer["state"], answer["table"], answer["seat"]) == ("accepted", code, 0)
        gone = await bea.wait_for(lambda m: m["type"] == "challenge_gone")
        assert (gone["state"], gone["table"]) == ("accepted", code)

        for token in (answer["token"], grant["token"]):
            async with await TableConnection.open(room.url, code, token) as seat:
                state = await seat.wait_for(lambda m: m["type"] == "state", TIMEOUT)
                assert state["view"]["hand"]

        status, again = await bea.post(f"/api/challenges/{sent['id']}/accept")
        assert (status, again["detail"]) == (410, "this challenge was accepted already")


async def test_a_challenge_declined_tells_the_challenger(room: Server) -> None:
    async with person(room.url, "Ada") as ada, person(room.url, "Bea") as bea:
        status, sent = await ada.post("/api/challenges", {"name": "Bea"})
        assert status == 201
        await bea.wait_for(lambda m: m["type"] == "challenge")
        status, _ = await bea.post(f"/api/challenges/{sent['id']}/decline")
        assert status == 204
        answer = await ada.wait_for(lambda m: m["type"] == "challenge_answer")
        assert (answer["state"], answer["to"], answer["id"]) == ("declined", "Bea", sent["id"])
        assert "token" not in answer
        # Declined, Ada may challenge again at once.
        status, second = await ada.post("/api/challenges", {"name": "Bea"})
        assert status == 201 and second["id"] != sent["id"]


async def test_a_challenge_nobody_answers_expires_for_both(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, register_per_address="100/minute",
                            sections=(SocialSettings(challenge_seconds=0.2),))
    async with running_server(settings) as server, person(server.url, "Ada") as ada, \
            person(server.url, "Bea") as bea:
        status, sent = await ada.post("/api/challenges", {"name": "Bea"})
        assert status == 201
        answer = await ada.wait_for(lambda m: m["type"] == "challenge_answer")
        assert (answer["state"], answer["id"]) == ("expired", sent["id"])
        gone = await bea.wait_for(lambda m: m["type"] == "challenge_gone")
        assert (gone["state"], gone["id"]) == ("expired", sent["id"])
        status, late = await bea.post(f"/api/challenges/{sent['id']}/accept")
        assert status == 410
        assert late["detail"] == "this challenge expired: a challenge waits 0.2 seconds"


async def test_bad_challenges_and_follows_are_refused_with_a_sentence_and_change_nothing(
    room: Server,
) -> None:
    async with person(room.url, "Ada") as ada, person(room.url, "Bea") as bea, \
            person(room.url, "Cid") as cid, person(room.url, "Dan", online=False):

        async def refused(who: Me, path: str, body: dict[str, Any] | None,
                          status: int, sentence: str) -> None:
            got, answer = await who.post(path, body)
            assert (got, answer["detail"]) == (status, sentence)

        before = await ada.get("/api/friends")
        await refused(ada, "/api/challenges", {"name": "ada"}, 422,
                      "you cannot challenge yourself: challenge another player")
        await refused(ada, "/api/challenges", {"name": "Nobody"}, 404,
                      "no player is called 'Nobody'")
        await refused(ada, "/api/challenges", {"name": "Dan"}, 409,
                      "Dan is not in the room just now: challenge them when they are")
        await refused(ada, "/api/challenges", {"name": "Bea", "preset": "chess"}, 422,
                      (await ada.post("/api/tables", {"preset": "chess"}))[1]["detail"])
        await refused(ada, "/api/friends/follow", {"name": "Ada"}, 422,
                      "you cannot follow yourself: follow another player")
        await refused(ada, "/api/friends/follow", {"name": "Nobody"}, 404,
                      "no player is called 'Nobody'")

        # A block, either way.
        assert (await cid.post("/api/friends/block", {"name": "Ada"}))[0] == 200
        await refused(ada, "/api/challenges", {"name": "Cid"}, 403,
                      "Cid does not let you challenge them")
        await refused(cid, "/api/challenges", {"name": "Ada"}, 403,
                      "you blocked Ada: unblock them first to challenge them")
        await refused(ada, "/api/friends/follow", {"name": "Cid"}, 403,
                      "Cid does not let you follow them")

        # Challenges off, or only from those followed.
        assert (await bea.post("/api/friends/challenges", {"accepts": "none"}))[0] == 200
        await refused(ada, "/api/challenges", {"name": "Bea"}, 403,
                      "Bea takes no challenges just now")
        assert (await bea.post("/api/friends/challenges", {"accepts": "follows"}))[0] == 200
        await refused(ada, "/api/challenges", {"name": "Bea"}, 403,
                      "Bea takes challenges only from players they follow")
        got, _ = await bea.post("/api/friends/challenges", {"accepts": "maybe"})
        assert got == 422
        assert (await bea.get("/api/friends"))["challenges"] == "follows"
        assert (await bea.post("/api/friends/follow", {"name": "Ada"}))[0] == 200

        # Sent twice; answered by someone else, or by its sender.
        status, sent = await ada.post("/api/challenges", {"name": "Bea"})
        assert status == 201
        await refused(ada, "/api/challenges", {"name": "bea"}, 409,
                      "you have challenged Bea already: wait for their answer")
        for who in (cid, ada):
            await refused(who, f"/api/challenges/{sent['id']}/accept", None, 403,
                          "this challenge is not yours to answer")
            await refused(who, f"/api/challenges/{sent['id']}/decline", None, 403,
                          "this challenge is not yours to answer")
        await refused(bea, "/api/challenges/no-such-id/accept", None, 404,
                      "there is no such challenge (or it ended long ago)")

        # A guest, and a page of another site with Ada's cookie.
        async with Lobby(room.url) as guest:
            answer = await guest.http.post("/api/challenges", json={"name": "Bea"})
            assert (answer.status_code, answer.json()["detail"]) == (
                401, "log in first: this needs an account")
        answer = await ada.lobby.http.post(
            "/api/friends/follow", json={"name": "Bea"},
            headers={"Origin": "https://elsewhere.example"})
        assert (answer.status_code, answer.json()["detail"]) == (
            403, "this request came from another site: it was refused")

        # Nothing was said to Bea but the one challenge that went through, nor changed.
        first = await bea.wait_for(lambda m: m["type"] not in ("friends",))
        assert (first["type"], first["id"]) == ("challenge", sent["id"])
        assert await ada.get("/api/friends") == before
        assert (await cid.get("/api/friends"))["blocked"] == ["Ada"]


async def test_the_blocked_ones_words_do_not_reach_the_blocker(room: Server) -> None:
    async with person(room.url, "Ada") as ada, person(room.url, "Bea") as bea:
        status, sent = await ada.post("/api/challenges", {"name": "Bea"})
        assert status == 201
        _, grant = await bea.post(f"/api/challenges/{sent['id']}/accept")
        answer = await ada.wait_for(lambda m: m["type"] == "challenge_answer")
        code = grant["table"]["code"]
        assert (await bea.post("/api/friends/block", {"name": "Ada"}))[0] == 200
        async with await TableConnection.open(room.url, code, answer["token"]) as at_ada, \
                await TableConnection.open(room.url, code, grant["token"]) as at_bea:
            for seat in (at_ada, at_bea):
                await seat.wait_for(lambda m: m["type"] == "state", TIMEOUT)
            await at_ada.say("good_luck")
            heard = await at_ada.wait_for(lambda m: m["type"] == "said", TIMEOUT)
            assert heard["from"] == 0
            await at_bea.say("thanks")
            # Bea's first word heard is her own: Ada's, said before it, never came.
            first = await at_bea.wait_for(lambda m: m["type"] == "said", TIMEOUT)
            assert (first["from"], first["phrase"]) == (1, "thanks")
            assert (await at_ada.wait_for(lambda m: m["type"] == "said", TIMEOUT))["from"] == 1


async def test_ws_me_closes_only_with_its_documented_codes(room: Server) -> None:
    url = room.url.replace("http", "ws", 1) + "/ws/me"
    async with connect(url) as stranger:
        with pytest.raises(ConnectionClosed):
            async with asyncio.timeout(TIMEOUT):
                await stranger.recv()
    assert stranger.close_code == 1008 and "log in first" in (stranger.close_reason or "")

    async with person(room.url, "Ada") as ada:
        cookie = "; ".join(f"{k}={v}" for k, v in ada.lobby.http.cookies.items())
        async with connect(url, additional_headers={"Cookie": cookie,
                                                    "Origin": "https://elsewhere.example"}) as odd:
            with pytest.raises(ConnectionClosed):
                async with asyncio.timeout(TIMEOUT):
                    await odd.recv()
        assert odd.close_code == 1008 and "another site" in (odd.close_reason or "")

        assert ada.socket is not None
        await ada.socket.send("a text frame is read and dropped")
        await ada.socket.send(b"\x00binary")
        with pytest.raises(ConnectionClosed):
            await ada.wait_for(lambda m: False)
        assert ada.socket.close_code == 1008


async def test_presence_and_challenges_cross_two_processes_on_redis() -> None:
    async with fresh_postgres() as db, fresh_redis() as redis:
        with subprocess_server(db, "--redis", redis, "--name", "p0") as p0, \
                subprocess_server(db, "--redis", redis, "--name", "p1") as p1:
            async with person(p0.url, "Bea") as bea, \
                    person(p1.url, "Ada", online=False) as ada:
                await bea.wait_for(friends_where(lambda f: f == []))
                assert (await bea.post("/api/friends/follow", {"name": "Ada"}))[0] == 200
                await bea.wait_for(friends_where(lambda f: f == [
                    {"name": "Ada", "online": False, "table": None}]))

                await ada.open()  # on the other process
                await bea.wait_for(friends_where(lambda f: f[0]["online"]))
                # Followed back, Bea sees where Ada plays (told across the processes).
                assert (await ada.post("/api/friends/follow", {"name": "Bea"}))[0] == 200

                status, sent = await ada.post("/api/challenges", {"name": "Bea"})
                assert status == 201, sent
                offer = await bea.wait_for(lambda m: m["type"] == "challenge")
                assert (offer["id"], offer["from"]) == (sent["id"], "Ada")
                status, twice = await ada.post("/api/challenges", {"name": "Bea"})
                assert (status, twice["detail"]) == (
                    409, "you have challenged Bea already: wait for their answer")
                status, grant = await bea.post(f"/api/challenges/{sent['id']}/accept")
                assert status == 200, grant
                answer = await ada.wait_for(lambda m: m["type"] == "challenge_answer")
                assert (answer["state"], answer["table"]) == ("accepted", grant["table"]["code"])
                async with await TableConnection.open(
                    p1.url, answer["table"], answer["token"]
                ) as seat:
                    state = await seat.wait_for(lambda m: m["type"] == "state", TIMEOUT)
                    assert state["view"]["seat"] == 0 and state["view"]["hand"]
                seen = await bea.wait_for(friends_where(lambda f: f[0]["table"] is not None))
                assert seen["friends"][0]["table"] == answer["table"]

                await ada.close()
                await bea.wait_for(friends_where(lambda f: not f[0]["online"]))
