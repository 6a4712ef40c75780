"""The lobby over HTTP: tables are created, listed, joined, left, started and played again."""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path

import pytest

from scopa.players import LEVEL_NAMES, LEVELS
from scopa.server.client import Lobby, LobbyRefused, TableConnection

from .server_support import (
    TIMEOUT,
    Seated,
    anyio_backend,
    play_randomly,
    running_server,
    settings_for,
)

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]


async def test_a_table_from_creation_to_a_rematch(tmp_path: Path) -> None:
    async with running_server(settings_for(tmp_path)) as server, Lobby(server.url) as lobby:
        created = await lobby.create_table(
            preset="escoba", players=4, look="spanish", bots={"2": "random"}, name="Ada"
        )
        table = created["table"]
        code = table["code"]
        assert created["seat"] == 0 and created["socket"] == f"/ws/tables/{code}"
        assert table["status"] == "waiting" and table["look"] == "spanish"
        assert table["rules"]["name"] == "escoba" and table["sides"] == 2
        assert [(s["kind"], s["open"]) for s in table["seats"]] == [
            ("human", False),
            ("human", True),
            ("bot", False),
            ("human", True),
        ]
        assert [t["code"] for t in await lobby.open_tables()] == [code]
        # Codes ignore case; a chosen seat is given, a taken one refused.
        bruno = await lobby.join(code.lower(), "  Bruno  ", seat=3)
        assert bruno["seat"] == 3 and bruno["table"]["seats"][3]["name"] == "Bruno"
        with pytest.raises(LobbyRefused) as refused:
            await lobby.join(code, "Cy", seat=3)
        assert refused.value.status == 409
        # Leaving before the match frees the seat and voids the token.
        await lobby.leave(code, bruno["token"])
        assert (await lobby.table(code))["seats"][3]["open"]
        with pytest.raises(LobbyRefused) as refused:
            await lobby.leave(code, bruno["token"])
        assert refused.value.status == 403
        cy = await lobby.join(code, "Cy")
        di = await lobby.join(code, "Di")
        assert (cy["seat"], di["seat"]) == (1, 3)
        assert await lobby.open_tables() == []
        started = await lobby.start(code, di["token"])
        assert started["status"] == "playing" and started["match"] is not None
        with pytest.raises(LobbyRefused) as refused:
            await lobby.join(code, "Ed")
        assert refused.value.status == 409
        people = []
        for grant in (created, cy, di):
            connection = await TableConnection.open(server.url, code, grant["token"])
            people.append(Seated(grant["seat"], grant["token"], connection))
        for person in people:
            await person.connection.wait_for(lambda m: m["type"] == "state", TIMEOUT)
        rng = random.Random(8)
        await asyncio.gather(*(play_randomly(p, random.Random(rng.random())) for p in people))
        first = started["match"]
        assert (await lobby.table(code))["status"] == "over"
        assert (await lobby.match_record(first))["players"][2]["kind"] == "bot"
        # One leaves after the match: a rematch waits for the seat to be taken again.
        await lobby.leave(code, cy["token"])
        waiting = await lobby.rematch(code, created["token"])
        assert waiting["status"] == "waiting" and waiting["seats"][1]["open"]
        ed = await lobby.join(code, "Ed")
        again = await lobby.start(code, ed["token"])
        assert again["status"] == "playing" and again["match"] != first and again["version"] == 0


async def test_health_start_page_and_api_docs(tmp_path: Path) -> None:
    async with running_server(settings_for(tmp_path)) as server, Lobby(server.url) as lobby:
        health = await lobby.health()
        assert health == {
            "status": "ok", "process": server.room.name, "tables": 0, "owned": [], "relayed": 0,
            "relaying": 0,
        }
        created = await lobby.create_table(name="Ada")
        assert (await lobby.health())["owned"] == [created["table"]["code"]]
        page = await lobby.http.get("/")
        assert page.status_code == 200 and "<html" in page.text
        schema = (await lobby.http.get("/openapi.json")).json()
        assert "/api/tables/{code}/join" in schema["paths"]
        docs = await lobby.http.get("/docs")
        assert docs.status_code == 200


async def test_the_api_docs_need_no_internet(tmp_path: Path) -> None:
    async with running_server(settings_for(tmp_path)) as server, Lobby(server.url) as lobby:
        docs = (await lobby.http.get("/docs")).text
        assets = re.findall(r"""(?:src|href)=["']([^"']+)["']""", docs)
        assert assets and all(asset.startswith("/") for asset in assets), assets
        served = {asset: await lobby.http.get(asset) for asset in assets}
        assert all(answer.status_code == 200 for answer in served.values()), served
        (bundle,) = [asset for asset in assets if asset.endswith("swagger-ui-bundle.js")]
        assert "SwaggerUIBundle" in served[bundle].text


async def test_the_levels_of_the_computer(tmp_path: Path) -> None:
    async with running_server(settings_for(tmp_path)) as server, Lobby(server.url) as lobby:
        levels = await lobby.levels()
        assert [level["level"] for level in levels] == list(LEVELS)
        assert [level["name"] for level in levels] == [LEVEL_NAMES[level] for level in LEVELS]
        assert [level["level"] for level in levels if level["default"]] == ["expert"]
        schema = (await lobby.http.get("/openapi.json")).json()
        assert "get" in schema["paths"]["/api/levels"]
        # Each level listed is one the lobby takes.
        for level in levels:
            grant = await lobby.play_computer(name="Ada", level=level["level"])
            assert {seat["level"] for seat in grant["table"]["seats"][1:]} == {level["level"]}
