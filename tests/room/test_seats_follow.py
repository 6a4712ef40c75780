"""Seats the room gives follow the account (issue 35, item 11): a pool's pairing and a
challenge accepted seat accounts with no request of theirs at hand (the challenger's was made a
minute before), and ``GET /api/account/seats`` on the player's other device lists those seats
with the tokens that take them; the database holds none of the tokens in the clear."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect

from scopa.server.accounts.seatkeys import KEY_COOKIE
from scopa.server.client import Lobby, TableConnection
from scopa.server.pools.settings import PoolSettings

from .pool_support import Waiter
from .server_support import TIMEOUT, Server, anyio_backend, running_server, settings_for

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]

PASSWORD = "a good password"


async def logged_in(lobby: Lobby, name: str, register: bool = False) -> int:
    path = "/api/account/register" if register else "/api/account/login"
    answer = await lobby.http.post(path, json={"name": name, "password": PASSWORD})
    assert answer.status_code in (200, 201), answer.text
    assert lobby.http.cookies.get(KEY_COOKIE)
    return int(answer.json()["id"])


def cookie(lobby: Lobby) -> str:
    return "; ".join(f"{name}={value}" for name, value in lobby.http.cookies.items())


async def seats_of(lobby: Lobby) -> list[dict[str, Any]]:
    answer = await lobby.http.get("/api/account/seats")
    assert answer.status_code == 200, answer.text
    found: list[dict[str, Any]] = answer.json()
    return found


async def takes_the_seat(server: Server, code: str, seat: dict[str, Any]) -> None:
    async with await TableConnection.open(server.url, code, seat["token"]) as table:
        assert table.seat == seat["seat"]
        state = await table.wait_for(lambda m: m["type"] == "state", TIMEOUT)
        assert state["view"]["hand"]


async def test_a_pool_pairing_and_a_challenge_seat_follow_both_players(
    tmp_path: Path,
) -> None:
    settings = settings_for(tmp_path, sections=(PoolSettings(wave=3600.0),),
                            register_per_address="100/minute",
                            newcomer_matches=0)
    async with running_server(settings) as server, \
            Lobby(server.url) as ada_phone, Lobby(server.url) as ada_laptop, \
            Lobby(server.url) as bea_phone, Lobby(server.url) as bea_laptop:
        await logged_in(ada_phone, "Ada", register=True)
        await logged_in(bea_phone, "Bea", register=True)
        await logged_in(ada_laptop, "Ada")
        await logged_in(bea_laptop, "Bea")

        # Paired by the pools: both wait on their phones, and find the seat on their laptops.
        ada, bea = (await Waiter.open(server.url, cookie(ada_phone)),
                    await Waiter.open(server.url, cookie(bea_phone)))
        for waiter in (ada, bea):
            await waiter.join()
            await waiter.wait_for("waiting")
        pools = server.app.state.pools
        await pools.tick()
        await pools.wave()
        paired = {"Ada": await ada.wait_for("paired"), "Bea": await bea.wait_for("paired")}
        code = paired["Ada"]["code"]
        for name, laptop in (("Ada", ada_laptop), ("Bea", bea_laptop)):
            listed = await seats_of(laptop)
            assert listed == [{"code": code, "seat": paired[name]["seat"],
                               "token": paired[name]["token"], "status": "playing"}]
            await takes_the_seat(server, code, listed[0])

        # A challenge: Ada's, made from her phone, accepted by Bea a moment later.
        me = server.url.replace("http", "ws", 1) + "/ws/me"
        async with connect(me, additional_headers={"Cookie": cookie(bea_phone)}) as bea_me:
            async with asyncio.timeout(TIMEOUT):
                assert json.loads(await bea_me.recv())["type"] == "me"
            sent = await ada_phone.http.post("/api/challenges", json={
                "name": "Bea", "preset": "scopa", "look": "italian", "rated": False})
            assert sent.status_code == 201, sent.text
            accepted = await bea_phone.http.post(f"/api/challenges/{sent.json()['id']}/accept")
            assert accepted.status_code == 200, accepted.text
        table = accepted.json()["table"]["code"]
        mine = [seat for seat in await seats_of(ada_laptop) if seat["code"] == table]
        assert [seat["seat"] for seat in mine] == [0]
        await takes_the_seat(server, table, mine[0])

        files = b"".join(path.read_bytes() for path in tmp_path.glob("room.db*"))
        for grant in paired.values():
            assert grant["token"].encode() not in files
        assert mine[0]["token"].encode() not in files
