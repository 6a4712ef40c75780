"""Nothing lost: ``kill -9`` the server in the middle of matches, start it again on the same
database, and every table is exactly where it was; people reconnect and play on to the end."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest

from scopa import Game
from scopa.cli import main
from scopa.server.client import Lobby, TableConnection

from .server_support import (
    TIMEOUT,
    Seated,
    anyio_backend,
    play_randomly,
    seat_people,
    sqlite_url,
    subprocess_server,
)

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]


async def snapshot(url: str, code: str, people: list[Seated]) -> dict[str, Any]:
    """What each seat and a spectator are shown now, from fresh connections."""
    shown: dict[str, Any] = {}
    for who, token in [("spectator", None), *((p.seat, p.token) for p in people)]:
        connection = await TableConnection.open(url, code, token)
        state = await connection.wait_for(lambda m: m["type"] == "state", TIMEOUT)
        shown[str(who)] = (state["match"], state["version"], state["view"])
        await connection.close()
    return shown


async def play_some(people: list[Seated], moves: int, rng: random.Random) -> None:
    """Play ``moves`` random legal moves, each acknowledged before the next; return when it is
    a person's turn (not a bot's)."""
    for _ in range(moves):
        await persons_turn(people)
        mover = next(p for p in people if p.connection.my_turn)
        assert mover.connection.view is not None
        version = mover.connection.version
        await mover.connection.move(rng.choice(mover.connection.view["legal_moves"]))
        for person in people:
            await person.connection.wait_for(
                lambda m, v=version: m["type"] == "state" and m["version"] == v + 1, TIMEOUT
            )
    await persons_turn(people)


async def persons_turn(people: list[Seated]) -> None:
    while not any(p.connection.my_turn for p in people):
        await people[0].connection.wait_for(lambda m: m["type"] == "state", TIMEOUT)


async def test_kill_9_in_the_middle_of_matches_loses_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = sqlite_url(tmp_path / "room.db")
    rng = random.Random(9)
    with subprocess_server(db, "--bot-delay", "0") as server:
        async with Lobby(server.url) as lobby:
            code, people = await seat_people(lobby, server.url)
            await play_some(people, 7, rng)
            # A second table against a bot, and a third still waiting for a second person.
            computer = await lobby.play_computer(name="Cy", level="random")
            cy_code = computer["table"]["code"]
            cy_socket = await TableConnection.open(server.url, cy_code, computer["token"])
            cy = Seated(0, computer["token"], cy_socket)
            await cy.connection.wait_for(lambda m: m["type"] == "state", TIMEOUT)
            await play_some([cy], 3, rng)
            waiting = await lobby.create_table(name="Di", preset="escoba")
            before = await snapshot(server.url, code, people)
            before_cy = await snapshot(server.url, cy_code, [cy])
            server.kill()
    with subprocess_server(db, "--bot-delay", "0") as server:
        async with Lobby(server.url) as lobby:
            assert await snapshot(server.url, code, people) == before
            assert await snapshot(server.url, cy_code, [cy]) == before_cy
            assert [t["code"] for t in await lobby.open_tables()] == [waiting["table"]["code"]]
            # Reconnect with the last version seen: nothing was missed, and play goes on.
            for table_code, person in [(code, people[0]), (code, people[1]), (cy_code, cy)]:
                old = person.connection
                person.connection = await TableConnection.open(
                    server.url, table_code, person.token, match=old.match, version=old.version
                )
                state = await person.connection.wait_for(lambda m: m["type"] == "state", TIMEOUT)
                assert state["version"] == old.version and state["missed"] == []
            await asyncio.gather(
                *(play_randomly(p, random.Random(k)) for k, p in enumerate([*people, cy]))
            )
            match = people[0].connection.match
            assert match is not None
            record = await lobby.match_record(match)
    assert Game.replay(record).winner == people[0].connection.over["winner"]  # type: ignore[index]
    path = tmp_path / "match.json"
    path.write_text(json.dumps(record))
    capsys.readouterr()
    assert main(["replay", str(path)]) == 0
    assert "Winner:" in capsys.readouterr().out
