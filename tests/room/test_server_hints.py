"""Hints over real sockets: the seat to move gets the master's move for its own view and why,
nobody else hears of it, and asking out of turn (or as a spectator) is refused and changes
nothing."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from scopa.players.hints import REASONS
from scopa.server.client import Lobby, TableConnection

from .server_support import (
    TIMEOUT,
    Seated,
    anyio_backend,
    running_server,
    seat_people,
    settings_for,
)

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]

CARD_CODE = re.compile(r"\b[A2-7JQK][DHSC]\b")


async def spectators_view(url: str, code: str) -> dict[str, Any]:
    """The table as a fresh spectator sees it: the version and the public view."""
    async with await TableConnection.open(url, code) as watcher:
        state = await watcher.wait_for(lambda m: m["type"] == "state", TIMEOUT)
    return {"version": state["version"], "view": state["view"]}


async def messages_until_pong(connection: TableConnection) -> list[dict[str, Any]]:
    """Every message the server sends ``connection`` before the answer to a ping: what it was
    sent meanwhile, without waiting on the clock."""
    await connection.send({"type": "ping"})
    seen = []
    while (message := await connection.recv(TIMEOUT))["type"] != "pong":
        seen.append(message)
    return seen


def mover_and_other(people: list[Seated]) -> tuple[TableConnection, TableConnection]:
    mover = next(p.connection for p in people if p.connection.my_turn)
    other = next(p.connection for p in people if not p.connection.my_turn)
    return mover, other


@pytest.mark.parametrize("preset", ["scopa", "escoba"])
async def test_the_seat_to_move_gets_a_legal_move_from_its_own_cards(
    tmp_path: Path, preset: str
) -> None:
    async with running_server(settings_for(tmp_path)) as server, Lobby(server.url) as lobby:
        code, people = await seat_people(lobby, server.url, preset=preset)
        mover, other = mover_and_other(people)
        assert mover.view is not None
        before = await spectators_view(server.url, code)
        await mover.hint(ref="h1")
        answer = await mover.wait_for(lambda m: m["type"] == "hint", TIMEOUT)

        assert answer["ref"] == "h1"
        assert (answer["table"], answer["match"], answer["version"]) == (
            code, mover.match, mover.version
        )
        assert answer["move"] in mover.view["legal_moves"]
        reason = answer["reason"]
        assert reason["key"] in REASONS and reason["text"]
        assert set(reason["params"]) <= {"count", "total", "card", "rank"}
        # Nothing hidden: every card the answer names is in this seat's hand or on the table.
        hand, table = set(mover.view["hand"]), set(mover.view["table"])
        assert answer["move"][:2] in hand
        assert set(CARD_CODE.findall(repr(answer))) <= hand | table
        assert other.view is not None and not set(other.view["hand"]) & set(
            CARD_CODE.findall(repr(answer))
        )

        # Only the asking seat hears of it, and nothing at the table changed.
        assert await messages_until_pong(other) == []
        assert await spectators_view(server.url, code) == before

        # Asked again, the same hint (kept, not searched again); and it is a move one may play.
        await mover.hint()
        again = await mover.wait_for(lambda m: m["type"] == "hint", TIMEOUT)
        assert "ref" not in again and again["move"] == answer["move"]
        await mover.move(answer["move"])
        state = await other.wait_for(lambda m: m["type"] == "state", TIMEOUT)
        assert state["version"] == before["version"] + 1
        assert state["play"]["move"] == answer["move"]


async def test_a_hint_out_of_turn_or_for_a_spectator_is_refused(tmp_path: Path) -> None:
    async with running_server(settings_for(tmp_path)) as server, Lobby(server.url) as lobby:
        code, people = await seat_people(lobby, server.url)
        mover, other = mover_and_other(people)
        before = await spectators_view(server.url, code)

        await other.hint(ref=9)
        error = await other.wait_for(lambda m: m["type"] == "error", TIMEOUT)
        assert error["code"] == "not_your_turn" and error["ref"] == 9
        assert "not your turn" in error["message"]
        async with await TableConnection.open(server.url, code) as watcher:
            await watcher.hint()
            error = await watcher.wait_for(lambda m: m["type"] == "error", TIMEOUT)
            assert error["code"] == "not_seated"

        assert await messages_until_pong(mover) == []
        assert await messages_until_pong(other) == []
        assert await spectators_view(server.url, code) == before
        # The refused seat is still served: once it is to move, it gets its hint.
        assert mover.view is not None
        await mover.move(mover.view["legal_moves"][0])
        await other.wait_for(lambda m: m["type"] == "state", TIMEOUT)
        await other.hint()
        answer = await other.wait_for(lambda m: m["type"] == "hint", TIMEOUT)
        assert other.view is not None and answer["move"] in other.view["legal_moves"]


async def test_no_hint_before_the_match(tmp_path: Path) -> None:
    async with running_server(settings_for(tmp_path)) as server, Lobby(server.url) as lobby:
        created = await lobby.create_table(name="Ada")
        code = created["table"]["code"]
        async with await TableConnection.open(server.url, code, created["token"]) as ada:
            await ada.hint()
            error = await ada.wait_for(lambda m: m["type"] == "error", TIMEOUT)
            assert error["code"] == "no_match"
