"""Web Push (issue 36, items 5 and 6) with real parts: a push service on loopback
(:mod:`.push_receiver`) checks each push's VAPID signature against the room's key and
decrypts it with the browser's keys; the tests read what arrived.

A challenge to a person whose browser is closed reaches them once, in one notification of
its kind and topic; an endpoint answered 410 is dropped; bad subscriptions are refused with
their sentences and nothing is kept; an endpoint on the loopback or a private range is refused
unless the operator allows its host; the account keeps so many subscriptions and the 5 most
recently seen are pushed to; pushes a minute are capped; two processes push one challenge
once; a tournament's players are pushed its start once.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from sqlalchemy.ext.asyncio import AsyncConnection

from scopa.server.push import queries as push_queries
from scopa.server.push.keys import read_key_file
from scopa.server.push.sender import topic
from scopa.server.push.settings import PushSettings
from scopa.server.push.subscriptions import Subscription
from scopa.server.social.settings import SocialSettings
from scopa.server.store.schema import accounts, push_subscriptions
from scopa.server.store.storage import Storage, now

from .push_receiver import Browser, Receiver, b64url, unb64url
from .server_support import (
    Server,
    anyio_backend,
    fresh_postgres,
    fresh_redis,
    running_server,
    settings_for,
    sqlite_url,
    subprocess_server,
)
from .test_social import person

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]


@pytest.fixture
async def receiver(tmp_path: Path) -> AsyncIterator[Receiver]:
    async with Receiver(tmp_path).running() as running:
        yield running


def room_settings(tmp_path: Path, receiver: Receiver | None, **push: Any) -> Any:
    sections: tuple[object, ...] = (SocialSettings(challenge_seconds=30.0),)
    if receiver is not None:
        sections += (PushSettings(allow_hosts=frozenset({"127.0.0.1"}), ca_file=receiver.cert,
                                  **push),)
    return settings_for(tmp_path, register_per_address="100/minute", newcomer_matches=0,
                        sections=sections)


@pytest.fixture
async def room(tmp_path: Path, receiver: Receiver) -> AsyncIterator[Server]:
    async with running_server(room_settings(tmp_path, receiver)) as running:
        receiver.room_key = await room_key(running)
        yield running


async def room_key(server: Server) -> str:
    """The room's VAPID public key, as a browser reads it (once the room is open)."""
    async with httpx.AsyncClient(base_url=server.url) as client:
        key: str = (await client.get("/api/push/key")).json()["key"]
    return key


async def account_id(server: Server, name: str) -> int:
    async with server.room.storage.engine.connect() as connection:
        found = await connection.scalar(sa.select(accounts.c.id).where(accounts.c.name == name))
    assert found is not None
    return int(found)


async def stored(server: Server) -> list[str]:
    """Every subscription's endpoint the database keeps."""
    async with server.room.storage.engine.connect() as connection:
        rows = await connection.execute(
            sa.select(push_subscriptions.c.endpoint).order_by(push_subscriptions.c.id))
        return [row.endpoint for row in rows]


async def drained(server: Server) -> None:
    """Every push this process queued has been posted."""
    await asyncio.wait_for(server.app.state.pusher.queue.join(), 30)


async def test_a_challenge_reaches_a_person_whose_browser_is_closed_once(
    room: Server, receiver: Receiver
) -> None:
    async with person(room.url, "Bea", online=False) as bea, \
            person(room.url, "Ada") as ada, person(room.url, "Cid", online=False):
        key = (await bea.get("/api/push/key"))["key"]
        assert key == receiver.room_key and len(unb64url(key)) == 65
        status, kept = await bea.post("/api/push/subscriptions",
                                      receiver.browser("bea").subscription())
        assert status == 201, kept
        assert kept == {"subscriptions": 1, "kinds": {
            "your_turn": True, "time_alarm": True, "challenge": True, "pool_match": True,
            "tournament_start": True}}

        status, sent = await ada.post("/api/challenges", {"name": "Bea", "preset": "escoba"})
        assert status == 201, sent
        [push] = await receiver.wait_for(1)
        await drained(room)
        assert len(receiver.arrived) == 1 and not receiver.refused
        assert push.payload["kind"] == "challenge"
        assert push.payload["params"] == {"name": "Ada", "preset": "escoba", "rated": 0}
        assert push.payload["url"] == "/"
        assert push.payload["tag"] == f"challenge:{sent['id']}"
        assert push.headers["Topic"] == topic("challenge", sent["id"])
        assert push.headers["Urgency"] == "high"
        assert 0 < int(push.headers["TTL"]) <= 30  # worth delivering while it waits
        # The page the notification opens is offered the challenge as its /ws/me opens.
        await bea.open()
        offer = await bea.wait_for(lambda m: m["type"] == "challenge")
        assert (offer["id"], offer["from"], offer["preset"]) == (sent["id"], "Ada", "escoba")
        await bea.close()

        # Cid takes no pushes: a person not in the room is still not challenged.
        status, refused = await ada.post("/api/challenges", {"name": "Cid"})
        assert (status, refused["code"]) == (409, "not_in_room")
        # Nor is Bea once she turns challenge pushes off.
        answer = await bea.lobby.http.put("/api/push/kinds", json={"challenge": False})
        assert answer.json()["challenge"] is False
        assert (await bea.post(f"/api/challenges/{sent['id']}/decline"))[0] == 204
        status, refused = await ada.post("/api/challenges", {"name": "Bea"})
        assert (status, refused["code"]) == (409, "not_in_room")
        answer = await bea.lobby.http.put("/api/push/kinds", json={"mail": True})
        assert (answer.status_code, answer.json()["code"]) == (422, "unknown_push_kind")
    assert len(receiver.arrived) == 1


async def test_an_endpoint_answered_410_is_dropped(room: Server, receiver: Receiver) -> None:
    async with person(room.url, "Bea", online=False) as bea:
        gone, kept = receiver.browser("gone"), receiver.browser("kept")
        receiver.answers["gone"] = 410
        for browser in (gone, kept):
            assert (await bea.post("/api/push/subscriptions", browser.subscription()))[0] == 201
        account = await account_id(room, "Bea")
        pusher = room.app.state.pusher
        assert await pusher.notify(account, "your_turn", "T1", {"name": "Ada"}, "/#/t/T1") == 2
        await receiver.wait_for(1)
        await drained(room)
        assert await stored(room) == [kept.endpoint]
        assert [a.name for a in receiver.arrived] == ["kept"]
        assert receiver.arrived[0].headers["TTL"] == str(12 * 3600)
        # A push about the same event (its ``once``) goes once, however often it is asked.
        assert await pusher.notify(account, "your_turn", "T1", {}, "/", once="move-7") == 1
        assert await pusher.notify(account, "your_turn", "T1", {}, "/", once="move-7") == 0


async def test_bad_subscriptions_are_refused_with_their_sentence_and_nothing_is_kept(
    room: Server, receiver: Receiver
) -> None:
    async with person(room.url, "Bea", online=False) as bea:
        good = receiver.browser("bea").subscription()

        def but(**changes: Any) -> dict[str, Any]:
            keys = {**good["keys"], **changes.pop("keys", {})}
            return {**good, **changes, "keys": keys}

        off_curve = b64url(b"\x04" + bytes(range(64)))
        cases = [
            (but(endpoint="http://127.0.0.1/push/bea"), "push_not_https",
             "a push endpoint must be an https:// address: the room posts nothing in clear"),
            (but(endpoint="ftp://example.org/x"), "push_not_https", None),
            (but(endpoint="https://user:pw@127.0.0.1/push/bea"), "push_bad_endpoint",
             "the push endpoint is not an address a push service gives: it has no host, or "
             "has a user name in it"),
            (but(endpoint="https://[::1/x"), "push_bad_endpoint", None),
            (but(endpoint="https://" + "a" * 1100), "invalid_request",
             "endpoint: string should have at most 1024 characters"),
            (but(keys={"p256dh": off_curve}), "push_bad_p256dh",
             "the subscription's p256dh key is not a P-256 public key (an uncompressed point "
             "on the curve, 65 bytes in base64url)"),
            (but(keys={"p256dh": good["keys"]["p256dh"][:-4]}), "push_bad_p256dh", None),
            (but(keys={"p256dh": "not base64!"}), "push_bad_p256dh", None),
            (but(keys={"auth": b64url(bytes(15))}), "push_bad_auth",
             "the subscription's auth secret must be 16 bytes in base64url"),
            (but(endpoint="https://no-such-host.invalid/push"), "push_unknown_host", None),
        ]
        for body, code, sentence in cases:
            status, answer = await bea.post("/api/push/subscriptions", body)
            assert (status, answer["code"]) == (422, code), (body, answer)
            if sentence is not None:
                assert answer["detail"] == sentence
        status, answer = await bea.post("/api/push/subscriptions", {"endpoint": "https://x"})
        assert (status, answer["code"]) == (422, "invalid_request")
        assert await stored(room) == []
    async with httpx.AsyncClient(base_url=room.url) as guest:
        answer = (await guest.post("/api/push/subscriptions", json=good)).json()
        assert answer["code"] == "log_in_first"
    assert await stored(room) == []


async def test_the_loopback_and_private_ranges_are_refused_unless_allowed(
    tmp_path: Path, receiver: Receiver
) -> None:
    async with running_server(room_settings(tmp_path, None)) as plain, \
            person(plain.url, "Bea", online=False) as bea:
        for endpoint in (f"{receiver.origin}/push/bea", "https://10.1.2.3/push",
                         "https://[::1]:8443/push", "https://169.254.169.254/latest",
                         "https://localhost/push", "https://[::ffff:192.168.1.1]/push"):
            body = {**Browser(endpoint).subscription()}
            status, answer = await bea.post("/api/push/subscriptions", body)
            assert (status, answer["code"]) == (422, "push_private_endpoint"), endpoint
            assert "loopback or a private network" in answer["detail"]
        assert await stored(plain) == []


async def test_subscriptions_are_capped_and_the_five_latest_are_pushed_to(
    tmp_path: Path, receiver: Receiver
) -> None:
    settings = room_settings(tmp_path, receiver, subscriptions_per_account=7,
                             per_account="3/minute")
    async with running_server(settings) as room, \
            person(room.url, "Bea", online=False) as bea:
        receiver.room_key = await room_key(room)
        browsers = [receiver.browser(f"b{n}") for n in range(9)]
        for browser in browsers:
            status, kept = await bea.post("/api/push/subscriptions", browser.subscription())
            assert status == 201
        assert kept["subscriptions"] == 7
        assert await stored(room) == [b.endpoint for b in browsers[2:]]
        # b2 is seen again: it is among the latest now.
        assert (await bea.post("/api/push/subscriptions", browsers[2].subscription()))[0] == 201
        account = await account_id(room, "Bea")
        pusher = room.app.state.pusher
        assert await pusher.notify(account, "your_turn", "T1", {}, "/") == 5
        await receiver.wait_for(5)
        await drained(room)
        assert sorted(a.name for a in receiver.arrived) == ["b2", "b5", "b6", "b7", "b8"]
        # Three pushes a minute for one account here: the fourth is dropped.
        assert await pusher.notify(account, "your_turn", "T2", {}, "/") == 5
        assert await pusher.notify(account, "your_turn", "T3", {}, "/") == 5
        assert await pusher.notify(account, "your_turn", "T4", {}, "/") == 0
        # Removed from the browser, it is pushed to no more.
        answer = await bea.lobby.http.request(
            "DELETE", "/api/push/subscriptions", json={"endpoint": browsers[8].endpoint})
        assert answer.status_code == 204
        assert browsers[8].endpoint not in await stored(room)


async def test_two_processes_push_a_challenge_once(tmp_path: Path, receiver: Receiver) -> None:
    flags = ("--push-allow-hosts", "127.0.0.1", "--push-ca", str(receiver.cert))
    async with fresh_postgres() as db, fresh_redis() as redis:
        with subprocess_server(db, "--redis", redis, "--name", "p0", *flags) as p0, \
                subprocess_server(db, "--redis", redis, "--name", "p1", *flags) as p1:
            async with person(p0.url, "Bea", online=False) as bea, \
                    person(p1.url, "Ada") as ada:
                receiver.room_key = (await bea.get("/api/push/key"))["key"]
                assert (await ada.get("/api/push/key"))["key"] == receiver.room_key
                status, _ = await bea.post("/api/push/subscriptions",
                                           receiver.browser("bea").subscription())
                assert status == 201
                status, first = await ada.post("/api/challenges", {"name": "Bea"})
                assert status == 201, first
                await receiver.wait_for(1)
                # Her page, opened on the other process, is offered the challenge (in Redis).
                await bea.open()
                offer = await bea.wait_for(lambda m: m["type"] == "challenge")
                assert (offer["id"], offer["from"]) == (first["id"], "Ada")
                await bea.close()
                assert (await bea.post(f"/api/challenges/{first['id']}/decline"))[0] == 204
                status, second = await ada.post("/api/challenges", {"name": "Bea"})
                assert status == 201, second
                arrived = await receiver.wait_for(2)
                assert [a.payload["tag"] for a in arrived] == [
                    f"challenge:{first['id']}", f"challenge:{second['id']}"]
                assert not receiver.refused


class Clock:
    def __init__(self, moment: datetime) -> None:
        self.moment = moment

    def __call__(self) -> datetime:
        return self.moment


async def test_a_tournaments_players_are_pushed_its_start_once(
    room: Server, receiver: Receiver
) -> None:
    starts = datetime.now(UTC).replace(microsecond=0) + timedelta(hours=1)
    director = room.app.state.tournaments
    director.clock = Clock(starts - timedelta(hours=1))
    async with person(room.url, "Bea", online=False) as bea, \
            person(room.url, "Ada", online=False) as ada:
        assert (await bea.post("/api/push/subscriptions",
                               receiver.browser("bea").subscription()))[0] == 201
        made = await ada.lobby.create_tournament(
            name="Friday swiss", kind="swiss", rounds=2, starts_at=starts.isoformat())
        for someone in (ada, bea):
            await someone.lobby.join_tournament(made["id"])
        await director.tend()
        assert receiver.arrived == []
        director.clock.moment = starts - timedelta(minutes=4)
        await director.tend()
        [push] = await receiver.wait_for(1)
        assert push.payload["kind"] == "tournament_start"
        assert push.payload["params"] == {"name": "Friday swiss", "minutes": 4}
        assert push.payload["url"] == f"/#/tournaments/{made['id']}"
        await director.tend()
        await drained(room)
        assert len(receiver.arrived) == 1



async def test_the_download_lists_subscriptions_without_keys_and_deletion_removes_them(
    room: Server, receiver: Receiver
) -> None:
    async with person(room.url, "Bea", online=False) as bea:
        browser = receiver.browser("bea")
        assert (await bea.post("/api/push/subscriptions", browser.subscription()))[0] == 201
        await bea.lobby.http.put("/api/push/kinds", json={"tournament_start": False})
        answer = await bea.lobby.http.get("/api/account/export")
        data = answer.json()
        [kept] = data["push_subscriptions"]
        assert kept["endpoint"] == browser.endpoint and not {"p256dh", "auth"} & set(kept)
        assert [(c["kind"], c["enabled"]) for c in data["push_choices"]] == [
            ("tournament_start", False)]
        keys = browser.subscription()["keys"]
        assert keys["p256dh"] not in answer.text and keys["auth"] not in answer.text
        deleted = await bea.lobby.http.request("DELETE", "/api/account",
                                               json={"password": "a good password"})
        assert deleted.status_code == 204, deleted.text
    assert await stored(room) == []


async def test_a_key_file_signs_instead_of_the_rooms_own(
    tmp_path: Path, receiver: Receiver
) -> None:
    key = ec.generate_private_key(ec.SECP256R1())
    pem = tmp_path / "vapid.pem"
    pem.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                      serialization.PrivateFormat.PKCS8,
                                      serialization.NoEncryption()))
    public = b64url(key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint))
    async with running_server(room_settings(tmp_path, receiver, vapid_key=pem)) as room:
        receiver.room_key = await room_key(room)
        assert receiver.room_key == public
        async with person(room.url, "Bea", online=False) as bea:
            assert (await bea.post("/api/push/subscriptions",
                                   receiver.browser("bea").subscription()))[0] == 201
            pusher = room.app.state.pusher
            assert await pusher.notify(await account_id(room, "Bea"), "challenge", "c1",
                                       {"name": "Ada"}, "/") == 1
            [push] = await receiver.wait_for(1)
            assert push.payload["kind"] == "challenge" and not receiver.refused
    other = tmp_path / "rsa.pem"
    other.write_bytes(rsa.generate_private_key(65537, 2048).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption()))
    with pytest.raises(ValueError, match="a VAPID key is a P-256"):
        read_key_file(other)


@pytest.mark.parametrize("engine", ["sqlite", "postgresql"])
async def test_two_writers_noting_one_event_at_once_push_it_once(
    engine: str, tmp_path: Path
) -> None:
    """Two processes (each with its own storage) that hear one event at once: one of them is
    told it is the first, the other that it was pushed already."""
    async with contextlib.AsyncExitStack() as stack:
        url = (sqlite_url(tmp_path / "room.db") if engine == "sqlite"
               else await stack.enter_async_context(fresh_postgres()))
        first, second = Storage(url), Storage(url)
        for storage in (first, second):
            await storage.open()
            stack.push_async_callback(storage.close)

        async def make(connection: AsyncConnection) -> int:
            made = await connection.execute(accounts.insert().values(
                name="Bea", name_key="bea", password_hash="x", created_at=now()))
            assert made.inserted_primary_key is not None
            return int(made.inserted_primary_key[0])

        bea = await first.write(make)
        for event in ("challenge:a", "tournament_start:7", "your_turn:T1:12"):
            told = await asyncio.gather(*(
                push_queries.first_time(storage, bea, event, now())
                for storage in (first, second, first, second)))
            assert sorted(told) == [False, False, False, True], (event, told)


async def test_a_post_to_the_loopback_is_refused_where_it_connects(
    tmp_path: Path, receiver: Receiver
) -> None:
    """A subscription kept while its host was allowed (or a name that resolved elsewhere when
    it was given) is not posted to once it is the loopback without the operator's leave: the
    check is made again at each post, by the address and by the resolver."""
    by_address, by_name = receiver.browser("address"), receiver.browser("name", "localhost")
    for allowed, expected in (({"127.0.0.1", "localhost"}, ["address", "name"]), (set(), [])):
        receiver.arrived.clear()
        settings = replace(room_settings(tmp_path, receiver), sections=(PushSettings(
            allow_hosts=frozenset(allowed), ca_file=receiver.cert),))
        async with running_server(settings) as room:
            receiver.room_key = await room_key(room)
            async with person(room.url, f"Bea{len(allowed)}", online=False):
                account = await account_id(room, f"Bea{len(allowed)}")
                for browser in (by_address, by_name):
                    body = browser.subscription()
                    await push_queries.subscribe(room.room.storage, account, Subscription(
                        body["endpoint"], body["keys"]["p256dh"], body["keys"]["auth"]),
                        20, now())
                assert await room.app.state.pusher.notify(account, "your_turn", "T", {},
                                                          "/") == 2
                await drained(room)
        assert sorted(a.name for a in receiver.arrived) == expected and not receiver.refused
