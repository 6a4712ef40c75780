"""The replay's frames at a real card room: a finished match frame by frame, all 40 cards
accounted for at every step, the rounds' breakdowns adding up to the match; a match in play is
refused and reveals nothing, an unknown one is a 404."""

from __future__ import annotations

import random

import httpx
import pytest

from scopa import Game
from scopa.server.client import Lobby, TableConnection

from .server_support import (
    Seated,
    Server,
    anyio_backend,
    play_randomly,
)

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]



async def test_a_finished_match_replays_frame_by_frame(server: Server) -> None:
    async with Lobby(server.url) as lobby:
        grant = await lobby.play_computer(name="Ada", level="random", players=4, target=11,
                                          look="spanish")
        match = grant["table"]["match"]
        early = await lobby.http.get(f"/api/replays/{match}")
        assert (early.status_code, early.json()["detail"]) == (403,
            "the match is not over: its record holds the deck order, shown only at "
            "the end")
        connection = await TableConnection.open(server.url, grant["table"]["code"],
                                                grant["token"])
        try:
            await play_randomly(Seated(0, grant["token"], connection), random.Random(1))
        finally:
            await connection.close()
        replay = (await lobby.http.get(f"/api/replays/{match}")).json()
        record = await lobby.match_record(match)

    game = Game.replay(record)
    assert replay["scores"] == game.scores and replay["winner"] == game.winner
    assert [p["name"] for p in replay["players"]] == ["Ada", "Bot 2", "Bot 3", "Bot 4"]
    assert replay["look"] == "spanish"
    frames, rounds = replay["frames"], replay["rounds"]
    assert len(frames) == len(record["moves"]) + len(rounds)
    assert [f["move"] for f in frames if f["move"] is not None] == record["moves"]
    assert [f["number"] for f in frames if "number" in f] == list(range(len(record["moves"])))
    for frame in frames:
        if not frame.get("round_over"):
            cards = sum(map(len, frame["hands"])) + len(frame["table"]) + frame["stock"]
            assert cards + sum(frame["piles"]) == 40
    assert [r["number"] for r in rounds] == list(range(1, len(rounds) + 1))
    assert all(frames[r["end"]].get("round_over") for r in rounds)
    for number, r in enumerate(rounds):
        # A round's last frame: what the last move left on the table and in the piles (the
        # leftovers not yet taken), and the round's sweeps, not the next deal's empty ones.
        last = frames[r["end"]]
        assert len(last["table"]) + sum(last["piles"]) == 40, number
        assert last["sweeps"] == [side["sweeps"] for side in r["scores"]], number
    totals = [sum(r["scores"][side]["total"] for r in rounds) for side in range(2)]
    assert totals == game.scores


async def test_an_unknown_match_is_a_404(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.url) as http:
        answer = await http.get("/api/replays/999")
    assert (answer.status_code, answer.json()["detail"]) == (404, "no match has the id 999")
