"""Three ``scopa serve`` processes on PostgreSQL and Redis share one room: any of them answers
for any table, the owner is the one writer, and when it is killed (``kill -9``) mid-match
another takes its tables over and the match goes on with nothing lost or played twice.

Needs the PostgreSQL and Redis servers that ``scripts/test.sh`` starts on loopback.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import subprocess
import threading
from pathlib import Path
from typing import Any

import pytest

from scopa import Game
from scopa.server.client import Closed, Lobby, TableConnection
from scopa.server.cluster.hub import RedisHub
from scopa.server.common.hub import LocalHub

from .server_support import (
    LOCATIONS,
    NGINX,
    NO_NGINX,
    TIMEOUT,
    Seated,
    ServerProcess,
    anyio_backend,
    free_port,
    fresh_postgres,
    fresh_redis,
    nginx_in_front,
    play_randomly,
    running_server,
    seat_people,
    settings_for,
    subprocess_server,
)

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]

TAKEOVER = 10.0
"""Seconds a dead owner's tables may wait for a new one (the issue's bound)."""


async def owner_of(servers: list[ServerProcess], code: str) -> list[str]:
    """The names of the processes that list ``code`` as theirs in ``/healthz``."""
    owners = []
    for server in servers:
        async with Lobby(server.url) as lobby:
            health = await lobby.health()
            if code in health["owned"]:
                owners.append(health["process"])
    return owners


async def play_moves(people: list[Seated], moves: int, rng: random.Random) -> None:
    """Play ``moves`` random moves, each seen by everyone before the next."""
    for _ in range(moves):
        while not any(p.connection.my_turn for p in people):  # a bot is to play
            await people[0].connection.wait_for(lambda m: m["type"] == "state", TIMEOUT)
        mover = next(p for p in people if p.connection.my_turn)
        assert mover.connection.view is not None and mover.connection.version is not None
        target = mover.connection.version + 1
        await mover.connection.move(rng.choice(mover.connection.view["legal_moves"]))
        for person in people:
            await person.connection.wait_for(
                lambda m, v=target: m["type"] == "state" and m["version"] == v, TIMEOUT
            )


def plays_seen(messages: list[dict[str, Any]]) -> dict[int, str]:
    """Each version's move, from the states a client got."""
    return {
        m["version"]: m["play"]["move"]
        for m in messages
        if m["type"] == "state" and m["play"] is not None
    }


async def test_three_processes_behind_nginx_share_a_room_and_survive_a_kill_9(
    tmp_path: Path,
) -> None:
    async with fresh_postgres() as db, fresh_redis() as redis:
        with contextlib.ExitStack() as stack:
            servers = {
                f"p{k}": stack.enter_context(
                    subprocess_server(db, "--redis", redis, "--name", f"p{k}", "--bot-delay", "0")
                )
                for k in (1, 2, 3)
            }
            front = stack.enter_context(
                nginx_in_front([server.url for server in servers.values()], tmp_path / "nginx")
            )
            async with Lobby(front) as lobby:
                created = await lobby.create_table(name="Ada")
                code = created["table"]["code"]
                (owner,) = await owner_of(list(servers.values()), code)
                # The lobby is the same from every process.
                for server in servers.values():
                    async with Lobby(server.url) as direct:
                        assert [t["code"] for t in await direct.open_tables()] == [code]
                bob = await lobby.join(code, "Bob")  # through nginx: at any process
                assert bob["table"]["seats"][1]["name"] == "Bob"
                # Ada plays from the table's owner, Bea from another process (relayed): the
                # owner has a socket of its own there, so it keeps the table.
                others = [name for name in servers if name != owner]
                ada = Seated(0, created["token"], await TableConnection.open(
                    servers[owner].url, code, created["token"]))
                bea = Seated(1, bob["token"], await TableConnection.open(
                    servers[others[0]].url, code, bob["token"]))
                started = await lobby.start(code, created["token"])
                assert started["status"] == "playing"
                people = [ada, bea]
                for person in people:
                    await person.connection.wait_for(lambda m: m["type"] == "state", TIMEOUT)
                assert (await lobby.table(code))["seats"][1]["connected"]  # relayed, yet present
                rng = random.Random(12)
                await play_moves(people, 6, rng)
                version = ada.connection.version
                assert version == 6 and await owner_of(list(servers.values()), code) == [owner]
                async with Lobby(servers[others[0]].url) as direct:
                    health = await direct.health()
                assert health["relaying"] == 1 and health["relayed"] >= 3  # Bea's moves
            # A table against bots at the same owner, played on the owner's own socket.
            async with Lobby(servers[owner].url) as direct:
                computer = await direct.play_computer(name="Cy", level="random")
            cy_code = computer["table"]["code"]
            cy = Seated(0, computer["token"], await TableConnection.open(
                servers[owner].url, cy_code, computer["token"]))
            await cy.connection.wait_for(lambda m: m["type"] == "state", TIMEOUT)
            await play_moves([cy], 2, rng)
            cy_at = (cy.connection.match, cy.connection.version)

            servers.pop(owner).kill()
            # Bea's relayed socket's table is taken over by a survivor, which pushes the state.
            pushed = await bea.connection.wait_for(
                lambda m: m["type"] == "state", TAKEOVER + TIMEOUT
            )
            assert pushed["version"] == version
            (new_owner,) = await owner_of(list(servers.values()), code)
            assert new_owner in others
            # Ada's socket died with its process: she comes back through nginx, at her version.
            ada.connection = await TableConnection.open(
                front, code, ada.token, match=ada.connection.match, version=version,
                timeout=TAKEOVER + TIMEOUT,
            )
            state = await ada.connection.wait_for(lambda m: m["type"] == "state", TIMEOUT)
            assert state["version"] == version and state["missed"] == []
            # Cy's socket died with its process: Cy comes back through nginx, at his version.
            cy.connection = await TableConnection.open(
                front, cy_code, cy.token, match=cy_at[0], version=cy_at[1],
                timeout=TAKEOVER + TIMEOUT,
            )
            state = await cy.connection.wait_for(lambda m: m["type"] == "state", TIMEOUT)
            # The bot's reply to Cy's last move may have been stored before the kill: if so, it
            # comes as missed.
            assert cy_at[1] is not None and state["version"] in (cy_at[1], cy_at[1] + 1)
            assert len(state["missed"]) == state["version"] - cy_at[1]
            # Both matches play on to the end.
            collected = await asyncio.gather(
                *(play_randomly(p, random.Random(k)) for k, p in enumerate([*people, cy]))
            )
            async with Lobby(front) as lobby:
                match = ada.connection.match
                assert match is not None
                record = await lobby.match_record(match)
                cy_record = await lobby.match_record(cy.connection.match or 0)
            # Every move shown to anyone is in the record, in its place, once.
            stored = dict(enumerate(record["moves"], start=1))
            for messages in collected[:2]:
                for version_seen, move in plays_seen(messages).items():
                    assert stored[version_seen] == move
            # Ada saw every move after her version (her socket's table may have been handed
            # to her process meanwhile, which sends the state at her version again).
            later = [seen for seen in plays_seen(collected[0]) if seen > version]
            assert sorted(later) == list(range(version + 1, len(stored) + 1))
            assert Game.replay(record).winner == ada.connection.over["winner"]  # type: ignore[index]
            assert Game.replay(cy_record).winner == cy.connection.over["winner"]  # type: ignore[index]


async def test_the_lobby_rate_limit_is_shared_through_redis(tmp_path: Path) -> None:
    async with fresh_postgres() as db, fresh_redis() as redis:
        shared = {"db_url": db, "redis_url": redis, "http_writes": "4/minute"}
        async with running_server(
            settings_for(tmp_path, process_name="a", **shared)
        ) as a, Lobby(a.url) as one:
            await one.health()  # started: the second one does not migrate beside it
            async with running_server(
                settings_for(tmp_path, process_name="b", **shared)
            ) as b, Lobby(b.url) as two:
                statuses = []
                for lobby in (one, two, one, two, one, two):
                    answer = await lobby.http.post("/api/tables", json={"name": "Ada"})
                    statuses.append(answer.status_code)
                assert statuses == [201, 201, 201, 201, 429, 429]
                # Both list the same four tables, each owned by the process that made it.
                listed = [
                    sorted(table["code"] for table in await lobby.open_tables())
                    for lobby in (one, two)
                ]
                assert listed[0] == listed[1] and len(listed[0]) == 4
                owned = [(await lobby.health())["owned"] for lobby in (one, two)]
                assert sorted(owned[0] + owned[1]) == listed[0] and len(owned[0]) == 2


def test_the_deployed_site_config_is_one_nginx_accepts(tmp_path: Path) -> None:
    """deploy/nginx/scopa.conf (TLS, the upstream of three processes) as nginx -t reads it,
    with a self-signed certificate in place of the real one."""
    if not NGINX:
        pytest.skip(NO_NGINX)
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=room.example.org", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )
    site = (LOCATIONS.parent / "scopa.conf").read_text()
    site = site.replace("/etc/letsencrypt/live/room.example.org/fullchain.pem", str(cert))
    site = site.replace("/etc/letsencrypt/live/room.example.org/privkey.pem", str(key))
    site = site.replace("/etc/nginx/scopa-locations.conf", str(LOCATIONS))
    (tmp_path / "scopa.conf").write_text(site)
    config = tmp_path / "nginx.conf"
    config.write_text(
        f"pid {tmp_path}/nginx.pid;\nevents {{}}\n"
        f"http {{ access_log off; include {tmp_path}/scopa.conf; }}\n"
    )
    checked = subprocess.run(
        [NGINX, "-t", "-c", str(config), "-p", str(tmp_path), "-e", str(tmp_path / "error.log")],
        capture_output=True, text=True,
    )
    assert checked.returncode == 0, checked.stderr
    assert "syntax is ok" in checked.stderr


async def test_a_lobby_request_without_redis_is_a_503_not_a_500(tmp_path: Path) -> None:
    async with fresh_redis() as redis:
        settings = settings_for(tmp_path, redis_url=redis, process_name="a")
        async with running_server(settings) as server, Lobby(server.url) as lobby:
            code = (await lobby.create_table(name="Ada"))["table"]["code"]
            await server.room.hub.redis.aclose()
            # Redis is gone (a port nobody listens on): the lobby says so, in one sentence.
            server.room.hub.redis = type(server.room.hub.redis).from_url(
                f"redis://127.0.0.1:{free_port()}/0"
            )
            server.room.tables.clear()  # so the table must be looked up in Redis
            answer = await lobby.http.get(f"/api/tables/{code}")
            assert answer.status_code == 503
            assert answer.json() == {
                "detail": "the card room cannot reach its Redis just now; try again shortly",
                "code": "redis_down", "params": {},
            }


async def test_an_owner_that_lost_its_lease_lets_go_and_its_sockets_move(
    tmp_path: Path,
) -> None:
    async with fresh_postgres() as db, fresh_redis() as redis:
        shared = {"db_url": db, "redis_url": redis}
        async with running_server(
            settings_for(tmp_path, process_name="a", **shared)
        ) as a, Lobby(a.url) as lobby:
            await lobby.health()  # started: the second one does not migrate beside it
            async with running_server(settings_for(tmp_path, process_name="b", **shared)) as b:
                code, people = await seat_people(lobby, a.url)
                await play_moves(people, 3, random.Random(5))
                # As if "a" had been paused past its lease and "b" had taken the table over.
                await a.room.hub.redis.set(f"scopa:lease:{code}", "b")
                for person in people:
                    with pytest.raises(Closed) as closed:
                        await person.connection.wait_for(lambda m: False, TIMEOUT)
                    assert closed.value.code == 1012
                assert code not in a.room.tables
                # They come back at "b", at the version they had, and play on there.
                for person in people:
                    old = person.connection
                    person.connection = await TableConnection.open(
                        b.url, code, person.token, match=old.match, version=old.version
                    )
                    state = await person.connection.wait_for(
                        lambda m: m["type"] == "state", TIMEOUT
                    )
                    assert state["version"] == 3 and state["missed"] == []
                await play_moves(people, 2, random.Random(6))
                assert list(b.room.tables) == [code]
                for person in people:
                    await person.connection.close()


async def test_a_closing_process_stops_renewing_before_it_gives_its_tables_back() -> None:
    """A process that is shutting down releases its leases; were its renewer still running,
    it would find them gone and take its own release for a takeover ("lease lost")."""
    async with fresh_redis() as url:
        hub = RedisHub(url, "a")

        async def deliver(message: dict[str, Any]) -> None:
            pass

        await hub.open(deliver)
        asked = threading.Event()
        lost: list[list[str]] = []

        def held() -> list[str]:
            asked.set()
            return ["T1"]

        assert await hub.claim("T1")
        hub.keep(held, lost.append)
        try:
            assert await asyncio.to_thread(asked.wait, TIMEOUT), "the renewer never ran"
            await hub.stop_keeping()
            assert not [t for t in threading.enumerate() if t.name == "scopa-leases"]
            await hub.release("T1")
            assert await hub.owner("T1") is None and lost == []
        finally:
            await hub.close()


async def test_two_rooms_on_two_databases_of_one_redis_never_read_each_others_messages() -> None:
    """Pub/sub channels span a Redis server's databases: a process named ``p1`` in one room
    (one database) must not be sent what another room's ``p1`` is sent. The stray message is
    published first, so had it crossed over it would be the first one delivered."""
    async with fresh_redis() as first_url, fresh_redis() as second_url:
        delivered: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        first, second = RedisHub(first_url, "p1"), RedisHub(second_url, "p1")

        async def deliver(message: dict[str, Any]) -> None:
            await delivered.put(message)

        async def ignore(message: dict[str, Any]) -> None:
            pass

        await first.open(deliver)
        await second.open(ignore)
        try:
            await second.send([("p1", {"room": "second"})])
            await first.send([("p1", {"room": "first"})])
            assert await asyncio.wait_for(delivered.get(), TIMEOUT) == {"room": "first"}
        finally:
            await first.close()
            await second.close()


async def test_a_message_told_to_a_person_reaches_every_process_of_its_room_only() -> None:
    """``tell`` is heard by every process of the room, the teller's too (any of them may hold
    the person's socket), and by none of a room on another database of the same Redis; the
    stray message goes first, so had it crossed over it would be the first one heard."""
    async with fresh_redis() as url, fresh_redis() as other_url:
        heard: dict[str, asyncio.Queue[tuple[str, dict[str, Any]]]] = {
            name: asyncio.Queue() for name in ("a", "b", "other")
        }
        hubs = {"a": RedisHub(url, "a"), "b": RedisHub(url, "b"),
                "other": RedisHub(other_url, "a")}

        async def ignore(message: dict[str, Any]) -> None:
            pass

        for name, hub in hubs.items():
            hub.on_told(lambda person, message, name=name: heard[name].put_nowait(
                (person, message)))
            await hub.open(ignore)
        try:
            await hubs["other"].tell("account:7", {"type": "stray"})
            await hubs["a"].tell("account:7", {"type": "challenge", "from": "Anna"})
            expected = ("account:7", {"type": "challenge", "from": "Anna"})
            for name in ("a", "b"):
                assert await asyncio.wait_for(heard[name].get(), TIMEOUT) == expected
            assert await asyncio.wait_for(heard["other"].get(), TIMEOUT) == (
                "account:7", {"type": "stray"})
            assert heard["a"].empty() and heard["b"].empty()
        finally:
            for hub in hubs.values():
                await hub.close()


async def test_one_process_alone_hears_what_it_tells() -> None:
    hub = LocalHub("alone")
    heard: list[tuple[str, dict[str, Any]]] = []
    hub.on_told(lambda person, message: heard.append((person, message)))
    await hub.tell("guest:x1", {"type": "paired", "table": "ABC123"})
    assert heard == [("guest:x1", {"type": "paired", "table": "ABC123"})]
