"""Bad input over real sockets: each gets a clear error to that client, the table stays as it
was, and the server goes on serving everyone else."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from scopa.server.client import (
    Closed,
    Lobby,
    LobbyRefused,
    ServerError,
    TableConnection,
    socket_url,
)

from .server_support import (
    TIMEOUT,
    Seated,
    Server,
    anyio_backend,
    play_randomly,
    running_server,
    seat_people,
    settings_for,
)

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]


@dataclass
class Scene:
    server: Server
    lobby: Lobby
    code: str
    people: list[Seated]

    @property
    def to_move(self) -> Seated:
        return next(p for p in self.people if p.connection.my_turn)

    @property
    def waiting(self) -> Seated:
        return next(p for p in self.people if not p.connection.my_turn)

    async def table_state(self) -> dict[str, Any]:
        """What the table is now, as a fresh spectator sees it."""
        watcher = await TableConnection.open(self.server.url, self.code)
        state = await watcher.wait_for(lambda m: m["type"] == "state", TIMEOUT)
        await watcher.close()
        return {"version": state["version"], "view": state["view"]}


@pytest.fixture
async def scene(tmp_path: Path) -> AsyncIterator[Scene]:
    async with running_server(settings_for(tmp_path)) as server, Lobby(server.url) as lobby:
        code, people = await seat_people(lobby, server.url)
        yield Scene(server, lobby, code, people)


async def error_after(connection: TableConnection, text: str) -> dict[str, Any]:
    await connection.send_text(text)
    return await connection.wait_for(lambda m: m["type"] == "error", TIMEOUT)


async def still_serves(scene: Scene, before: dict[str, Any]) -> None:
    """The table is as it was, and the match can still be played to its end."""
    assert await scene.table_state() == before
    await scene.server.room.storage.ping()
    assert (await scene.lobby.health())["status"] == "ok"
    rng = random.Random(3)
    for person in scene.people:
        if person.connection.socket.close_code is not None:  # closed by the test: come back
            person.connection = await TableConnection.open(
                scene.server.url, scene.code, person.token
            )
            await person.connection.wait_for(lambda m: m["type"] == "state", TIMEOUT)
    await asyncio.gather(*(play_randomly(person, rng) for person in scene.people))


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("{not json", "bad_json"),
        ("[1, 2, 3]", "bad_json"),
        ('"move"', "bad_json"),
        ("{}", "bad_message"),
        ('{"type": 7}', "bad_message"),
        ('{"type": "dance"}', "unknown_type"),
        ('{"type": "move"}', "bad_message"),
        ('{"type": "move", "move": 5}', "bad_message"),
        ('{"type": "move", "move": "5D", "version": -1}', "bad_message"),
        ('{"type": "move", "move": "hello"}', "invalid_move"),
        ('{"type": "hello"}', "already_said_hello"),
    ],
)
async def test_malformed_messages_get_an_error_and_change_nothing(
    scene: Scene, text: str, code: str
) -> None:
    before = await scene.table_state()
    error = await error_after(scene.to_move.connection, text)
    assert error["code"] == code and error["message"]
    await still_serves(scene, before)


async def test_a_move_out_of_turn_is_refused(scene: Scene) -> None:
    before = await scene.table_state()
    waiting = scene.waiting.connection
    assert waiting.view is not None
    hand = waiting.view["hand"]
    error = await error_after(
        waiting, f'{{"type": "move", "move": "{hand[0]}", "ref": "mine"}}'
    )
    assert error["code"] == "not_your_turn" and error["ref"] == "mine"
    await still_serves(scene, before)


async def test_an_illegal_move_is_refused_with_the_rules_reason(scene: Scene) -> None:
    before = await scene.table_state()
    mover = scene.to_move.connection
    assert mover.view is not None
    other = scene.waiting.connection.view
    assert other is not None
    # A card of the other hand is not in this one; a capture of cards not on the table neither.
    error = await error_after(mover, f'{{"type": "move", "move": "{other["hand"][0]}"}}')
    assert error["code"] == "illegal_move" and "not in your hand" in error["message"]
    card = mover.view["hand"][0]
    missing = next(c for c in other["hand"] if c[0] != card[0])
    error = await error_after(mover, f'{{"type": "move", "move": "{card}x{missing}"}}')
    assert error["code"] in ("illegal_move", "invalid_move")
    await still_serves(scene, before)


async def test_a_move_for_an_old_version_is_refused(scene: Scene) -> None:
    before = await scene.table_state()
    mover = scene.to_move.connection
    assert mover.view is not None
    move = mover.view["legal_moves"][0]
    error = await error_after(mover, f'{{"type": "move", "move": "{move}", "version": 7}}')
    assert error["code"] == "stale_version"
    await still_serves(scene, before)


async def test_a_wrong_token_is_refused_and_the_connection_closed(scene: Scene) -> None:
    before = await scene.table_state()
    with pytest.raises(ServerError) as refused:
        await TableConnection.open(scene.server.url, scene.code, "not-a-token")
    assert refused.value.code == "bad_token"
    messages, code = await _raw_hello(scene.server.url, scene.code, scene.people[0].token + "x")
    assert [m["code"] for m in messages] == ["bad_token"] and code == 1008
    for path, body in [
        ("start", {"token": "nope"}),
        ("leave", {"token": "nope"}),
        ("rematch", {"token": "nope"}),
        ("leave", {}),
    ]:
        response = await scene.lobby.http.post(f"/api/tables/{scene.code}/{path}", json=body)
        assert response.status_code in (403, 422), (path, response.text)
    await still_serves(scene, before)


async def _raw_hello(url: str, code: str, token: str) -> tuple[list[dict[str, Any]], int | None]:
    """Every message the server sends after a hello, and the code it closes the socket with."""
    received = []
    async with connect(socket_url(url, code)) as socket:
        await socket.send(json.dumps({"type": "hello", "token": token}))
        try:
            async for text in socket:
                received.append(json.loads(text))
        except ConnectionClosed:
            pass
        return received, socket.close_code


async def test_a_spectator_without_a_token_cannot_play(scene: Scene) -> None:
    before = await scene.table_state()
    watcher = await TableConnection.open(scene.server.url, scene.code)
    await watcher.wait_for(lambda m: m["type"] == "state", TIMEOUT)
    mover = scene.to_move.connection
    assert mover.view is not None
    move = mover.view["legal_moves"][0]
    error = await error_after(watcher, f'{{"type": "move", "move": "{move}"}}')
    assert error["code"] == "not_seated"
    await still_serves(scene, before)


async def test_nothing_but_hello_before_hello(scene: Scene) -> None:
    before = await scene.table_state()
    async with connect(socket_url(scene.server.url, scene.code)) as socket:
        await socket.send('{"type": "move", "move": "5D"}')
        assert json.loads(await socket.recv())["code"] == "hello_first"
        await socket.send('{"type": "ping"}')
        assert json.loads(await socket.recv()) == {"type": "pong"}
    await still_serves(scene, before)


async def test_an_unknown_table_is_refused(scene: Scene) -> None:
    messages, code = await _raw_hello(scene.server.url, "NOSUCH", "")
    assert [m["code"] for m in messages] == ["no_table"] and code == 1008
    with pytest.raises(LobbyRefused) as refused:
        await scene.lobby.join("NOSUCH", "Ada")
    assert refused.value.status == 404


async def test_a_message_over_4_kib_is_refused(scene: Scene) -> None:
    before = await scene.table_state()
    mover = scene.to_move.connection
    padding = "x" * 4100
    error = await error_after(mover, f'{{"type": "ping", "padding": "{padding}"}}')
    assert error["code"] == "too_large" and "4096" in error["message"]
    await mover.socket.send(b"\x00" * 5000)
    error = await mover.wait_for(lambda m: m["type"] == "error", TIMEOUT)
    assert error["code"] == "too_large"
    await mover.socket.send(b"{}")
    error = await mover.wait_for(lambda m: m["type"] == "error", TIMEOUT)
    assert error["code"] == "bad_json"
    # Far over the limit, the frame is not even read: the server closes with 1009 (too big).
    await mover.send_text(" " * 70_000)
    with pytest.raises(Closed) as closed:
        await mover.wait_for(lambda m: False, TIMEOUT)
    assert closed.value.code == 1009
    await still_serves(scene, before)


async def test_a_flood_is_cut_off_with_a_policy_violation(scene: Scene) -> None:
    before = await scene.table_state()
    flooder = scene.waiting.connection
    errors = []
    for _ in range(200):
        try:
            await flooder.send_text('{"type": "sync"}')
        except Closed:
            break
    with pytest.raises(Closed) as closed:
        while True:
            message = await flooder.recv(TIMEOUT)
            if message["type"] == "error":
                errors.append(message["code"])
    assert closed.value.code == 1008
    assert errors == ["rate_limited"]
    await still_serves(scene, before)


async def test_bad_lobby_requests_are_refused_with_reasons(tmp_path: Path) -> None:
    async with running_server(settings_for(tmp_path)) as server, Lobby(server.url) as lobby:
        for choices, status, words in [
            ({"preset": "poker"}, 422, "unknown preset"),
            ({"players": 5}, 422, "players must be one of"),
            ({"preset": "scopone", "players": 3}, 422, "hand_size"),
            ({"look": "tarot"}, 422, "unknown deck look"),
            ({"bots": {"1": "genius"}}, 422, "unknown bot level"),
            ({"bots": {"5": "random"}}, 422, "bot seat must be"),
            ({"name": "   "}, 422, "display name"),
            ({"name": "x" * 40}, 422, "at most 32"),
            ({"bots": {"0": "random", "1": "random"}, "name": "Ada"}, 422, "every seat"),
        ]:
            with pytest.raises(LobbyRefused) as refused:
                await lobby.create_table(**choices)
            assert refused.value.status == status, choices
            assert words in refused.value.detail, refused.value.detail
        response = await lobby.http.post("/api/tables", content=b"{nope")
        assert response.status_code == 422
        created = await lobby.create_table(name="Ada")
        code = created["table"]["code"]
        with pytest.raises(LobbyRefused) as refused:
            await lobby.start(code, created["token"])
        assert refused.value.status == 409 and "free" in refused.value.detail
        await lobby.join(code, "Bob")
        with pytest.raises(LobbyRefused) as refused:
            await lobby.join(code, "Cy")
        assert refused.value.status == 409
        with pytest.raises(LobbyRefused) as refused:
            await lobby.match_record(12345)
        assert refused.value.status == 404
