"""Limits: the lobby's rate limit per address, bounded values (never a 500), one-sentence
validation errors, a cap on sockets per seat and on sockets that never say hello."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect

from scopa.server.client import Closed, Lobby, LobbyRefused, TableConnection, socket_url

from .server_support import TIMEOUT, anyio_backend, running_server, seat_people, settings_for

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]


async def test_an_address_that_creates_too_many_tables_is_refused(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, http_writes="5/minute", http_reads="100/minute")
    async with running_server(settings) as server, Lobby(server.url) as lobby:
        answers = await asyncio.gather(
            *(lobby.http.post("/api/tables", json={"name": "Ada"}) for _ in range(30)),
        )
        statuses = sorted(answer.status_code for answer in answers)
        assert statuses == [201] * 5 + [429] * 25
        refused = next(answer for answer in answers if answer.status_code == 429).json()
        assert refused.pop("code") == "too_many_requests"
        assert refused.pop("params") == {}
        assert refused == {
            "detail": "too many requests from your address: at most 5 per 1 minute; "
            "try again shortly"
        }
        assert len(await lobby.open_tables()) == 5  # reads have their own limit
        assert (await lobby.http.get("/healthz")).status_code == 200  # health has none


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("GET", "/api/matches/9223372036854775808", None),
        ("GET", "/api/matches/2147483648", None),
        ("GET", "/api/matches/-1", None),
        ("GET", "/api/matches/seven", None),
        ("GET", "/api/tables/" + "A" * 5000, None),
        ("POST", "/api/tables", {"players": 9223372036854775808}),
        ("POST", "/api/tables", {"target": 10**30}),
        ("POST", "/api/tables", {"teams": -(10**20)}),
        ("POST", "/api/tables", {"bots": {"9223372036854775808": "expert"}}),
        ("POST", "/api/tables", {"bots": {str(n): "expert" for n in range(100)}}),
        ("POST", "/api/tables", {"name": "x" * 100_000}),
        ("POST", "/api/tables", {"preset": "p" * 10_000}),
        ("POST", "/api/tables", {"look": "\ud800"}),
        ("POST", "/api/tables", [1, 2]),
        ("POST", "/api/play", {"level": "m" * 1000}),
        ("POST", "/api/tables/ABCDEF/join", {"name": "Ada", "seat": 2**70}),
        ("POST", "/api/tables/ABCDEF/leave", {"token": "t" * 100_000}),
        ("POST", "/api/tables/ABCDEF/start", {}),
    ],
)
async def test_out_of_range_values_are_one_sentence_errors(
    tmp_path: Path, method: str, path: str, body: Any
) -> None:
    async with running_server(settings_for(tmp_path)) as server, Lobby(server.url) as lobby:
        content = None if body is None else json.dumps(body)  # ASCII: lone surrogates escaped
        answer = await lobby.http.request(
            method, path, content=content, headers={"content-type": "application/json"}
        )
        assert 400 <= answer.status_code < 500, answer.text
        detail = answer.json()["detail"]
        assert isinstance(detail, str) and detail and "\n" not in detail
        assert await lobby.open_tables() == []  # nothing was made on the way


async def test_a_validation_error_says_which_field_and_why(tmp_path: Path) -> None:
    async with running_server(settings_for(tmp_path)) as server, Lobby(server.url) as lobby:
        answer = await lobby.http.post("/api/tables", json={"players": 99})
        assert answer.status_code == 422
        assert answer.json() == {"detail": "players: input should be less than or equal to 16",
                                 "code": "invalid_request", "params": {}}
        broken = await lobby.http.post(
            "/api/tables", content=b"{not json", headers={"content-type": "application/json"}
        )
        assert broken.json()["detail"] == "the request body is not valid JSON"


async def test_a_seat_keeps_at_most_three_sockets_and_the_oldest_goes(tmp_path: Path) -> None:
    async with running_server(settings_for(tmp_path)) as server, Lobby(server.url) as lobby:
        code, (ada, _) = await seat_people(lobby, server.url)
        more = [await TableConnection.open(server.url, code, ada.token) for _ in range(3)]
        # The first socket (seat_people's) was the oldest of four: it is told why and closed.
        replaced = await ada.connection.wait_for(lambda m: m["type"] == "error", TIMEOUT)
        assert replaced["code"] == "replaced"
        with pytest.raises(Closed) as closed:
            await ada.connection.recv(TIMEOUT)
        assert closed.value.code == 1008
        # The three newer ones still play: a move from the newest reaches the other two.
        newest, *others = reversed(more)
        await newest.wait_for(lambda m: m["type"] == "state", TIMEOUT)
        assert newest.view is not None and newest.my_turn
        await newest.move(newest.view["legal_moves"][0])
        for other in others:
            state = await other.wait_for(
                lambda m: m["type"] == "state" and m["version"] == 1, TIMEOUT
            )
            assert state["play"]["seat"] == ada.seat
        seats = (await lobby.table(code))["seats"]
        assert seats[ada.seat]["connected"]


async def test_sockets_that_never_say_hello_are_capped(tmp_path: Path) -> None:
    async with running_server(settings_for(tmp_path, max_strangers=2)) as server, Lobby(
        server.url
    ) as lobby:
        code, _ = await seat_people(lobby, server.url)
        url = socket_url(server.url, code)
        silent = [await connect(url) for _ in range(2)]
        async with connect(url) as third:
            busy = json.loads(await asyncio.wait_for(third.recv(), TIMEOUT))
            assert busy["code"] == "busy"
            await asyncio.wait_for(third.wait_closed(), TIMEOUT)
            assert third.close_code == 1013
        # Once one of them says hello (or goes), there is room for another stranger.
        await silent[0].send(json.dumps({"type": "hello"}))
        welcome = json.loads(await asyncio.wait_for(silent[0].recv(), TIMEOUT))
        assert welcome["type"] == "welcome"
        watcher = await TableConnection.open(server.url, code)  # welcomed, as a spectator
        assert watcher.seat is None
        for socket in silent:
            await socket.close()
        await watcher.close()


async def test_a_table_of_bots_only_is_refused(tmp_path: Path) -> None:
    async with running_server(settings_for(tmp_path)) as server, Lobby(server.url) as lobby:
        with pytest.raises(LobbyRefused) as refused:
            await lobby.create_table(bots={"0": "expert", "1": "random"})
        assert refused.value.status == 422
        assert "bots only" in str(refused.value)
        assert await lobby.open_tables() == []
