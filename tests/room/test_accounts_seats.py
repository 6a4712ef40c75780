"""Seats follow a logged-in player: the seat taken on one device is there, with its token, on
the other device once logged in there too, and only there; the database holds no token in the
clear, and a password change keeps the seats."""

from __future__ import annotations

from pathlib import Path

import pytest

from scopa.server.accounts.seatkeys import KEY_COOKIE
from scopa.server.client import Lobby, TableConnection

from .server_support import TIMEOUT, Server, anyio_backend

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]

PASSWORD = "a good password"



async def _log_in(lobby: Lobby, name: str, register: bool = False) -> None:
    path = "/api/account/register" if register else "/api/account/login"
    answer = await lobby.http.post(path, json={"name": name, "password": PASSWORD})
    assert answer.status_code in (200, 201), answer.text
    assert lobby.http.cookies.get(KEY_COOKIE)


async def test_a_seat_follows_its_player_to_another_device(
    server: Server, tmp_path: Path
) -> None:
    async with Lobby(server.url) as phone, Lobby(server.url) as laptop, \
            Lobby(server.url) as bruno:
        await _log_in(phone, "Anna", register=True)
        await _log_in(laptop, "Anna")
        await _log_in(bruno, "Bruno", register=True)
        grant = await phone.play_computer(name="Guest", level="random")
        code = grant["table"]["code"]
        assert grant["table"]["seats"][0]["name"] == "Anna"

        seats = (await laptop.http.get("/api/account/seats")).json()
        assert seats == [{"code": code, "seat": 0, "token": grant["token"],
                          "status": "playing"}]
        connection = await TableConnection.open(server.url, code, seats[0]["token"])
        try:
            state = await connection.wait_for(lambda m: m["type"] == "state", TIMEOUT)
            assert len(state["view"]["hand"]) == 3
        finally:
            await connection.close()

        assert (await bruno.http.get("/api/account/seats")).json() == []
        files = b"".join(path.read_bytes() for path in tmp_path.glob("room.db*"))
        assert grant["token"].encode() not in files

        changed = await laptop.http.post(
            "/api/account/password", json={"current": PASSWORD, "new": "another password"}
        )
        assert changed.status_code == 204
        again = (await laptop.http.get("/api/account/seats")).json()
        assert [seat["token"] for seat in again] == [grant["token"]]
        assert (await phone.http.get("/api/account/seats")).status_code == 401
        # A seat given up is no longer listed: its token would not take it.
        await laptop.leave(code, grant["token"])
        assert (await laptop.http.get("/api/account/seats")).json() == []


async def test_a_session_without_the_seat_key_lists_nothing(server: Server) -> None:
    async with Lobby(server.url) as phone:
        await _log_in(phone, "Anna", register=True)
        await phone.play_computer(name="Anna", level="random")
        assert len((await phone.http.get("/api/account/seats")).json()) == 1
        phone.http.cookies.delete(KEY_COOKIE)
        assert (await phone.http.get("/api/account/seats")).json() == []
