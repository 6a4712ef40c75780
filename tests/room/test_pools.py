"""Play a person now: the pools over real sockets at ``/ws/pools``, on a real card room.

Waves are run by the test itself (``pool_wave`` is an hour), with the matchmaker's clock moved
by hand: how long people waited is the clock's, never the test's own time.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from scopa.server.client import Lobby, TableConnection
from scopa.server.pools.matching import Person, Waiting
from scopa.server.pools.settings import PoolSettings
from scopa.server.pools.store import RedisPools
from scopa.server.social import queries as social_queries
from scopa.server.store.schema import ratings
from scopa.server.store.storage import now

from .pool_support import Waiter, pools_url
from .server_support import (
    TIMEOUT,
    Server,
    anyio_backend,
    fresh_redis,
    running_server,
    settings_for,
    until,
)

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]
PASSWORD = "correct horse battery"


class Clock:
    """The matchmaker's clock, moved by the test."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


HOURLY = PoolSettings(wave=3600.0)
"""Waves an hour apart: the test runs them."""


@contextlib.asynccontextmanager
async def pool_room(
    tmp_path: Path, pools: PoolSettings = HOURLY, **changes: Any
) -> AsyncIterator[tuple[Server, Clock]]:
    """A card room whose waves run only when the test says, on a clock the test moves."""
    clock = Clock()
    async with running_server(settings_for(tmp_path, sections=(pools,), **changes)) as server:
        server.app.state.pools.clock = clock
        yield server, clock


async def wave(server: Server) -> None:
    pools = server.app.state.pools
    await pools.tick()
    await pools.wave()


async def log_in(server: Server, name: str) -> tuple[int, str]:
    """A new account: its id and the cookie of its session."""
    async with Lobby(server.url) as lobby:
        answer = await lobby.http.post(
            "/api/account/register", json={"name": name, "password": PASSWORD})
        assert answer.status_code == 201, answer.text
        return int(answer.json()["id"]), f"scopa_session={lobby.http.cookies['scopa_session']}"


async def set_rating(server: Server, account: int, pool: str, mu: float) -> None:
    async with server.room.storage.engine.begin() as connection:
        await connection.execute(ratings.insert().values(
            account_id=account, pool=pool, mu=mu, sigma=2.0, matches=10, wins=5, losses=5,
            updated_at=now()))


async def test_two_people_are_paired_once_into_one_table_with_valid_seats(
    tmp_path: Path,
) -> None:
    async with pool_room(tmp_path) as (server, clock):
        ada, bruno = await Waiter.open(server.url), await Waiter.open(server.url)
        await ada.join(name="Ada")
        assert (await ada.wait_for("waiting"))["pool"] == "scopa"
        clock.now += 1  # the longer waiter sits first
        await bruno.join(name="Bruno")
        await bruno.wait_for("waiting")
        await wave(server)
        first, second = await ada.wait_for("paired"), await bruno.wait_for("paired")
        assert first["code"] == second["code"] and first["players"] == ["Ada", "Bruno"]
        assert {first["seat"], second["seat"]} == {0, 1} and first["token"] != second["token"]
        assert "tickets" not in first and "tokens" not in first  # nobody else's token
        assert await ada.closed() == (1000, "paired") and await bruno.closed() == (1000, "paired")
        for grant in (first, second):
            async with await TableConnection.open(
                server.url, grant["code"], grant["token"]) as table:
                assert table.seat == grant["seat"]
                state = await table.wait_for(lambda m: m["type"] == "state", TIMEOUT)
                assert state["view"]["hand"]  # dealt at once
        # Paired once: another wave seats nobody again, and the pool is empty.
        await wave(server)
        assert server.app.state.pools.counts["scopa-casual"] == 0
        assert len(server.room.tables) == 1


async def test_the_window_widens_as_people_wait(tmp_path: Path) -> None:
    # Two fresh accounts in the rated pool: a newcomer's first matches before rated play are
    # tests/room/test_rating_farming.py's.
    async with pool_room(tmp_path, newcomer_matches=0) as (server, clock):
        strong, weak = await log_in(server, "Strong"), await log_in(server, "Weak")
        await set_rating(server, strong[0], "scopa-2", 32.0)
        await set_rating(server, weak[0], "scopa-2", 25.0)  # 7 mu (280 points) apart
        first, second = (await Waiter.open(server.url, strong[1]),
                         await Waiter.open(server.url, weak[1]))
        for waiter in (first, second):
            await waiter.join(rated=True)
            await waiter.wait_for("waiting")
            clock.now += 1
        await wave(server)
        clock.now += 8  # windows of 5 mu and 4.75: still too far apart
        await wave(server)
        for waiter in (first, second):
            assert all(m["type"] == "waiting" and m["waiting"] == 2
                       for m in await waiter.until_pong())  # both wait, nobody paired
        clock.now += 9  # windows of 7.25 mu and 7
        await wave(server)
        paired = await first.wait_for("paired"), await second.wait_for("paired")
        assert paired[0]["rated"] and paired[0]["players"] == ["Strong", "Weak"]
        async with Lobby(server.url) as lobby:
            table = await lobby.table(paired[0]["code"])
        assert [seat["name"] for seat in table["seats"]] == ["Strong", "Weak"]


async def test_the_computer_is_offered_after_the_wait_and_a_person_who_comes_is_told(
    tmp_path: Path,
) -> None:
    async with pool_room(tmp_path, replace(HOURLY, bot_offer=30.0)) as (server, clock):
        ada = await Waiter.open(server.url)
        await ada.join(name="Ada")
        await ada.wait_for("waiting")
        await ada.send({"type": "play_bot"})
        assert (await ada.wait_for("error"))["code"] == "no_offer"
        clock.now += 29
        await wave(server)
        assert "offer" not in [m["type"] for m in await ada.until_pong()]
        clock.now += 1
        await wave(server)
        offer = await ada.wait_for("offer")
        assert offer == {"type": "offer", "level": "expert", "after": 30.0}
        await ada.send({"type": "play_bot"})
        grant = await ada.wait_for("bot_table")
        async with await TableConnection.open(server.url, grant["code"], grant["token"]) as bot:
            await bot.wait_for(lambda m: m["type"] == "state", TIMEOUT)
            assert bot.seat == 0
            # She waits on while she plays: a person who comes is her match, and she is told.
            bruno = await Waiter.open(server.url)
            await bruno.join(name="Bruno")
            await bruno.wait_for("waiting")
            await wave(server)
            paired = await ada.wait_for("paired")
            assert paired["players"] == ["Ada", "Bruno"] and paired["code"] != grant["code"]


async def test_a_person_gone_before_the_pairing_is_not_seated(tmp_path: Path) -> None:
    async with pool_room(tmp_path) as (server, clock):
        ada, bruno = await Waiter.open(server.url), await Waiter.open(server.url)
        await ada.join(name="Ada")
        await ada.wait_for("waiting")
        await ada.close()
        await until(lambda: _not_held(server, "Ada"), "Ada's close heard")
        await bruno.join(name="Bruno")
        await bruno.wait_for("waiting")
        await wave(server)
        assert [m["type"] for m in await bruno.until_pong()] == ["waiting"]
        assert len(server.room.tables) == 0
        carla = await Waiter.open(server.url)
        clock.now += 1
        await carla.join(name="Carla")
        await carla.wait_for("waiting")
        await wave(server)
        assert (await bruno.wait_for("paired"))["players"] == ["Bruno", "Carla"]


async def _not_held(server: Server, name: str) -> bool:
    return all(held.person.name != name for held in server.app.state.pools.held.values())


async def test_a_taken_pairing_drops_the_gone_and_keeps_the_others_first() -> None:
    """In Redis, the take is one script: a party whose person key is gone (their process died)
    is dropped, nothing is taken, and the others keep their places; a group taken once cannot
    be taken again."""
    async with fresh_redis() as url:
        store = RedisPools(url)
        try:
            ada = Waiting("t1", (Person("guest:a", "Ada"),), 25.0, since=1.0)
            bea = Waiting("t2", (Person("guest:b", "Bea"),), 25.0, since=2.0)
            assert await store.enter("scopa-casual", ada, {})
            assert await store.enter("scopa-casual", bea, {})
            assert not await store.enter("escoba-casual", Waiting(
                "t3", (Person("guest:a", "Ada"),), 25.0, since=3.0), {})  # one pool at a time
            await store.redis.delete("scopa:pools:person:guest:a")
            taken = await store.take("scopa-casual", [ada, bea], "p1")
            assert not taken.taken and taken.gone == ("t1",)
            assert await store.parties("scopa-casual") == [bea]
            cid = Waiting("t4", (Person("guest:c", "Cid"),), 25.0, since=4.0)
            assert await store.enter("scopa-casual", cid, {})
            assert (await store.take("scopa-casual", [bea, cid], "p1")).taken
            assert not (await store.take("scopa-casual", [bea, cid], "p2")).taken
            assert await store.renew([("guest:b", "t2")]) == ["taken:p1"]
        finally:
            await store.close()


async def test_friends_queue_as_a_pair_and_sit_as_a_team(tmp_path: Path) -> None:
    async with pool_room(tmp_path) as (server, _):
        ada, bea, cid, dan = [await Waiter.open(server.url) for _ in range(4)]
        await ada.join(pool="scopone", name="Ada", pair="new")
        code = (await ada.wait_for("pair_code"))["code"]
        await bea.join(pool="scopone", name="Bea", pair=code.lower())
        assert (await bea.wait_for("partner"))["name"] == "Ada"
        assert (await ada.wait_for("partner"))["name"] == "Bea"
        for waiter, name in ((cid, "Cid"), (dan, "Dan")):
            await waiter.join(pool="scopone", name=name)
            await waiter.wait_for("waiting")
        await wave(server)
        grants = {w.guest: await w.wait_for("paired") for w in (ada, bea, cid, dan)}
        assert len({grant["code"] for grant in grants.values()}) == 1
        seats = {grant["seat"] for grant in grants.values()}
        assert seats == {0, 1, 2, 3}
        assert grants[ada.guest]["seat"] % 2 == grants[bea.guest]["seat"] % 2  # one team
        await bea.close()
        other = await Waiter.open(server.url)
        await other.join(pool="scopone", pair=code)
        assert (await other.wait_for("error"))["code"] == "no_pair"  # a code serves once


async def test_people_where_one_blocked_the_other_are_never_paired(tmp_path: Path) -> None:
    async with pool_room(tmp_path) as (server, _):
        anna, boris, carl = [await log_in(server, name) for name in ("Anna", "Boris", "Carl")]
        await social_queries.block(server.room.storage, anna[0], boris[0], now())
        first, second = (await Waiter.open(server.url, anna[1]),
                         await Waiter.open(server.url, boris[1]))
        for waiter in (first, second):
            await waiter.join()
            await waiter.wait_for("waiting")
        await wave(server)
        assert [m["type"] for m in await first.until_pong()] == ["waiting"]
        third = await Waiter.open(server.url, carl[1])
        await third.join()
        await third.wait_for("waiting")
        await wave(server)
        paired = await third.wait_for("paired")
        assert "Carl" in paired["players"] and len(paired["players"]) == 2


async def test_bad_input_gets_a_sentence_and_changes_nothing(tmp_path: Path) -> None:
    async with pool_room(tmp_path) as (server, _):
        pools = server.app.state.pools
        ada = await Waiter.open(server.url)

        async def refused(message: Any, code: str) -> str:
            if isinstance(message, dict):
                await ada.send(message)
            else:
                await ada.socket.send(message)
            error = await ada.wait_for("error")
            assert error["code"] == code, error
            assert pools.held.keys() <= {f"guest:{ada.guest}"}
            return str(error["message"])

        assert "JSON" in await refused("[1, 2]", "bad_json")
        assert "JSON" in await refused(b"\x00binary", "bad_json")
        assert "unknown message type" in await refused({"type": "dance"}, "unknown_type")
        assert "pool" in await refused({"type": "join"}, "bad_message")
        assert "rated" in await refused(
            {"type": "join", "pool": "scopa", "rated": "yes", "guest": ada.guest}, "bad_message")
        assert "guest" in await refused({"type": "join", "pool": "scopa", "guest": "short"},
                                        "bad_message")
        assert "bytes" in await refused({"type": "join", "pool": "x" * 5000}, "too_large")
        assert "scopa, escoba, scopone" in await refused(
            {"type": "join", "pool": "chess", "guest": ada.guest}, "unknown_pool")
        assert "log in" in await refused(
            {"type": "join", "pool": "scopa", "rated": True, "guest": ada.guest},
            "guests_casual")
        assert "scopone" in await refused(
            {"type": "join", "pool": "scopa", "pair": "new", "guest": ada.guest}, "no_pairs")
        assert "expired" in await refused(
            {"type": "join", "pool": "scopone", "pair": "ZZZZZZ", "guest": ada.guest},
            "no_pair")
        assert "not waiting" in await refused({"type": "leave"}, "not_waiting")
        assert "not waiting" in await refused({"type": "play_bot"}, "not_waiting")
        assert not pools.held
        await ada.join(name="Ada")
        await ada.wait_for("waiting")
        # Two pools at once: on this socket, or from another tab with the same browser key.
        assert "already" in await refused(
            {"type": "join", "pool": "escoba", "guest": ada.guest}, "already_waiting")
        tab = await Waiter.open(server.url)
        tab.guest = ada.guest
        await tab.join(pool="escoba", name="Ada")
        assert (await tab.wait_for("error"))["code"] == "already_waiting"
        assert [held.pool for held in pools.held.values()] == ["scopa-casual"]
        await ada.send({"type": "leave"})
        await ada.wait_for("left")
        assert not pools.held

        # A pool while seated at a table whose match is in play.
        bruno = await Waiter.open(server.url)
        await ada.join(name="Ada")
        await bruno.join(name="Bruno")
        await ada.wait_for("waiting")
        await bruno.wait_for("waiting")
        await wave(server)
        await bruno.wait_for("paired")
        again = await Waiter.open(server.url)
        again.guest = bruno.guest
        await again.join(name="Bruno")
        error = await again.wait_for("error")
        assert error["code"] == "seated" and "finish or resign" in error["message"]
        assert not pools.held

        # A flood is closed with 1008, after a sentence.
        flood = await Waiter.open(server.url)
        for _ in range(40):
            await flood.send({"type": "ping"})
        assert (await flood.wait_for("error"))["code"] == "rate_limited"
        assert await flood.closed() == (1008, "rate limit")


async def test_joins_past_the_limit_are_refused_per_address_and_per_person(
    tmp_path: Path,
) -> None:
    """One address with no account had dealt 342 tables a minute through the pools (issue 34,
    item 6): joins are limited per client address and per person, as the lobby's writes."""
    async with pool_room(tmp_path, replace(HOURLY, joins="3/minute")) as (server, _):
        pools = server.app.state.pools
        ada = await Waiter.open(server.url)
        for _ in range(3):
            await ada.join(name="Ada")
            await ada.wait_for("waiting")
            await ada.send({"type": "leave"})
            await ada.wait_for("left")
        await ada.join(name="Ada")
        error = await ada.wait_for("error")
        assert error["code"] == "too_many_joins"
        assert "from your address (at most 3 per 1 minute)" in error["message"]
        assert not pools.held and pools.counts["scopa-casual"] == 3  # as the last join left it
        # From another address she is still herself: refused; someone new there may join.
        elsewhere = await Waiter.open(server.url, local="127.0.0.2")
        elsewhere.guest = ada.guest
        await elsewhere.join(name="Ada")
        error = await elsewhere.wait_for("error")
        assert error["code"] == "too_many_joins" and "from you (at most 3" in error["message"]
        bea = await Waiter.open(server.url, local="127.0.0.2")
        await bea.join(name="Bea")
        await bea.wait_for("waiting")
        assert [held.person.name for held in pools.held.values()] == ["Bea"]


def test_the_join_limit_comes_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    """A load test from loopback raises it (benchmarks/pairing.py); a wrong one is one line."""
    from scopa.cli import build_parser, main
    from scopa.server.pools.feature import Pools
    from scopa.server.social.blocks import blocked_among

    def joins(*argv: str) -> str:
        return Pools(blocked_among).section(build_parser().parse_args(["serve", *argv])).joins

    assert joins("--pool-joins", "5/second") == "5/second"
    assert joins() == "10/minute;100/hour"
    assert main(["serve", "--pool-joins", "lots"]) == 2
    err = capsys.readouterr().err
    assert err == "scopa: error: --pool-joins must be limits such as '20/second;300/minute'; " \
        "got 'lots'\n"


async def test_a_page_of_another_site_may_not_wait_for_an_account(tmp_path: Path) -> None:
    async with pool_room(tmp_path) as (server, _):
        _, cookie = await log_in(server, "Anna")
        async with connect(pools_url(server.url), open_timeout=TIMEOUT, additional_headers={
                "Cookie": cookie, "Origin": "https://evil.example"}) as socket:
            with pytest.raises(ConnectionClosed) as closed:
                await socket.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        assert "another site" in closed.value.rcvd.reason


async def test_a_socket_that_never_joins_and_one_past_the_cap_are_closed(tmp_path: Path) -> None:
    async with pool_room(tmp_path, hello_timeout=0.2) as (server, _):
        idle = await Waiter.open(server.url)
        assert (await idle.wait_for("error"))["code"] == "join_first"
        assert await idle.closed() == (1008, "no join")
    async with pool_room(tmp_path) as (server, _):
        kept = [await Waiter.open(server.url) for _ in range(20)]
        for waiter in kept:
            await waiter.until_pong()  # open and served
        extra = await Waiter.open(server.url)
        code, reason = await extra.closed()
        assert code == 1013 and reason is not None and "try again later" in reason
        for waiter in kept:
            await waiter.close()
