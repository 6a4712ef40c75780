"""Leaderboards and profiles at a real card room: a rated match shows in the profile with its
rating history and a replay link; the leaderboard orders settled players, leaves provisional
ones out and gives your own rank; unknown pools and names are 404s with a sentence."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest
from sqlalchemy.ext.asyncio import AsyncConnection

from scopa.server.accounts.ratings import display
from scopa.server.client import Lobby, TableConnection
from scopa.server.store.schema import accounts, ratings

from .server_support import (
    Seated,
    Server,
    anyio_backend,
    play_randomly,
    running_server,
    settings_for,
)

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]



async def _seed_players(server: Server) -> None:
    """Three settled players and one provisional one in scopa-2, written as a past would."""
    moment = datetime(2026, 11, 1, tzinfo=UTC)

    async def run(connection: AsyncConnection) -> None:
        for number, (name, mu, sigma, played) in enumerate(
            [("Bea", 30.0, 2.0, 9), ("Carlo", 26.0, 2.0, 6), ("Dina", 40.0, 3.0, 4),
             ("Ezio", 20.0, 2.0, 5)], start=10
        ):
            await connection.execute(accounts.insert().values(
                id=number, name=name, name_key=name.lower(), password_hash="$argon2id$x",
                created_at=moment))
            await connection.execute(ratings.insert().values(
                account_id=number, pool="scopa-2", mu=mu, sigma=sigma, matches=played,
                wins=played // 2, losses=played - played // 2, updated_at=moment))

    await server.room.storage.write(run)


async def test_a_rated_match_shows_in_the_profile_and_the_leaderboard(server: Server) -> None:
    await _seed_players(server)
    async with Lobby(server.url) as lobby:
        registered = await lobby.http.post(
            "/api/account/register", json={"name": "Anna", "password": "a good password"}
        )
        assert registered.status_code == 201
        grant = await lobby.play_computer(name="Anna", level="random", rated=True, target=1)
        connection = await TableConnection.open(
            server.url, grant["table"]["code"], grant["token"]
        )
        try:
            await play_randomly(Seated(0, grant["token"], connection), random.Random(5))
            over = connection.over
        finally:
            await connection.close()
        assert over is not None
        match = grant["table"]["match"]
        result = "win" if over["winner"] == 0 else "loss"

        profile = (await lobby.http.get("/api/profiles/anna")).json()
        assert (profile["name"], profile["wins"] + profile["losses"]) == ("Anna", 1)
        (pool,) = profile["ratings"]
        assert (pool["pool"], pool["matches"], pool["provisional"]) == ("scopa-2", 1, True)
        assert pool["rating"] == display(pool["mu"], pool["sigma"])
        assert pool["history"] == [
            {"match": match, "at": pool["history"][0]["at"], "rating": pool["rating"],
             "result": result}
        ]
        (recent,) = profile["recent"]
        assert (recent["match"], recent["result"], recent["rated"], recent["replay"]) == (
            match, result, True, f"/#/m/{match}")
        assert recent["change"] == pool["rating"] - 1000
        assert [(p["name"], p["kind"], p["level"]) for p in recent["players"]] == [
            ("Anna", "human", None), ("Bot 2", "bot", "random")]

        board = (await lobby.http.get("/api/leaderboards/scopa-2")).json()
        # Dina (4 matches) and Anna (1) are provisional: left out of the top.
        assert [(s["rank"], s["name"]) for s in board["top"]] == [
            (1, "Bea"), (2, "Carlo"), (3, "Ezio")]
        assert board["top"][0]["rating"] == display(30.0, 2.0)
        assert (board["me"]["name"], board["me"]["rank"], board["me"]["provisional"]) == (
            "Anna", None, True)

    async with httpx.AsyncClient(base_url=server.url) as guest:
        board = (await guest.get("/api/leaderboards/scopa-2")).json()
        assert board["me"] is None and len(board["top"]) == 3


async def test_a_settled_player_sees_their_own_rank(server: Server) -> None:
    await _seed_players(server)
    async with Lobby(server.url) as lobby:
        fede = await lobby.http.post(
            "/api/account/register", json={"name": "Fede", "password": "a good password"}
        )

        async def settle(connection: AsyncConnection) -> None:
            await connection.execute(ratings.insert().values(
                account_id=fede.json()["id"], pool="scopa-2", mu=27.0, sigma=2.0, matches=5,
                wins=3, losses=2, updated_at=datetime(2026, 11, 2, tzinfo=UTC)))

        await server.room.storage.write(settle)
        board = (await lobby.http.get("/api/leaderboards/scopa-2")).json()
    assert [s["name"] for s in board["top"]] == ["Bea", "Fede", "Carlo", "Ezio"]
    assert (board["me"]["rank"], board["me"]["provisional"]) == (2, False)


@pytest.mark.parametrize(
    ("path", "sentence"),
    [
        ("/api/profiles/nobody", "no player is named 'nobody'"),
        ("/api/leaderboards/chess", "there is no pool 'chess'; the pools are: scopa-2, scopa-3, "
         "scopa-teams, scopa-6-teams, scopa-6-pairs, escoba-2, escoba-3, escoba-teams, "
         "escoba-6-teams, escoba-6-pairs"),
    ],
)
async def test_unknown_players_and_pools_are_404s(server: Server, path: str, sentence: str) -> None:
    async with httpx.AsyncClient(base_url=server.url) as http:
        answer = await http.get(path)
    assert (answer.status_code, answer.json()["detail"]) == (404, sentence)


async def test_the_provisional_count_is_the_rooms_setting(tmp_path: Path) -> None:
    async with running_server(settings_for(tmp_path, provisional_matches=4)) as server:
        await _seed_players(server)
        async with httpx.AsyncClient(base_url=server.url) as guest:
            board = (await guest.get("/api/leaderboards/scopa-2")).json()
    # Dina's 4 matches are enough here: she leads.
    assert board["provisional_matches"] == 4
    assert [s["name"] for s in board["top"]] == ["Dina", "Bea", "Carlo", "Ezio"]
