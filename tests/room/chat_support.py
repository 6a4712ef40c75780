"""What the chat's tests share: an account that may write (past its first matches), and the
cookie that logs a spectator's socket in as it."""

from __future__ import annotations

from typing import Any

from scopa.server.client import Lobby, TableConnection

from .server_support import TIMEOUT

PASSWORD = "a good password"


def said(message: dict[str, Any]) -> bool:
    return message["type"] == "said"


async def refused(connection: TableConnection) -> dict[str, Any]:
    return await connection.wait_for(lambda m: m["type"] == "error", TIMEOUT)


async def register(lobby: Lobby, name: str) -> int:
    """Register ``name`` and log ``lobby`` in as it; its id."""
    answer = await lobby.http.post(
        "/api/account/register", json={"name": name, "password": PASSWORD})
    assert answer.status_code in (200, 201), answer.text
    account_id: int = answer.json()["id"]
    return account_id


async def season(lobby: Lobby, url: str, matches: int = 3) -> None:
    """Finish ``matches`` matches against the computer as ``lobby``'s account (resigned)."""
    for _ in range(matches):
        grant = await lobby.play_computer(name="Me", level="random")
        async with await TableConnection.open(
            url, grant["table"]["code"], grant["token"]
        ) as connection:
            await connection.wait_for(lambda m: m["type"] == "state", TIMEOUT)
            await connection.resign()
            await connection.wait_for(lambda m: m["type"] == "over", TIMEOUT)


def cookie(lobby: Lobby) -> str:
    """The ``Cookie`` header of ``lobby``'s session, for a socket of the same person."""
    return "; ".join(f"{name}={value}" for name, value in lobby.http.cookies.items())
