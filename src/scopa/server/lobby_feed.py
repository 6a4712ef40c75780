"""The lobby's open tables, live: a WebSocket at ``/ws/lobby`` that sends the list at once and
again whenever it changes, so the lobby page never needs a Refresh button.

A change is heard from the room's hub (:meth:`.common.hub.Hub.on_lobby_change`): in one
process straight from the table that changed, among many through Redis, so a table made or
joined on another process reaches this process's lobby sockets too. Changes that come while
the list is being read and sent are told once more afterwards, in one send: a burst of joins
costs one read of the list, not one per join.

Every message is ``{"type": "tables", "tables": [...]}``, the list ``GET /api/tables`` returns.
The socket reads nothing from the client but its close.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any, Final

import orjson
from fastapi import WebSocket, WebSocketDisconnect

from .socket_places import (
    TRY_AGAIN_LATER,
    SocketPlaces,
    address_of,
    close_quietly,
    read_until_closed,
)
from .table.room import CardRoom

log = logging.getLogger(__name__)

MAX_SOCKETS: Final = 5000
"""Lobby sockets a process keeps open at once; one more is closed with 1013, try again later
(the page then falls back to asking now and then, as it does after any drop)."""
PER_ADDRESS: Final = 20
"""Lobby sockets one client address may keep open at once (a person's tabs and devices behind
one router): past it, 1013 too, so that one outsider cannot take every place of the lobby."""


class LobbyFeed:
    """This process's lobby sockets, and the open tables sent to them."""

    def __init__(self, room: CardRoom) -> None:
        self.room = room
        self.sockets: set[WebSocket] = set()
        self.places = SocketPlaces(MAX_SOCKETS, PER_ADDRESS)
        self._telling: asyncio.Task[None] | None = None
        self._again = False
        room.hub.on_lobby_change(self.changed)

    def changed(self) -> None:
        """The open tables changed somewhere: tell this process's lobby sockets, soon."""
        if not self.sockets:
            return
        if self._telling is not None and not self._telling.done():
            self._again = True
            return
        self._telling = asyncio.create_task(self._tell_all(), name="scopa-lobby-feed")

    async def _message(self) -> str:
        tables: list[dict[str, Any]] = await self.room.open_tables()
        return orjson.dumps({"type": "tables", "tables": tables}).decode()

    async def _tell_all(self) -> None:
        while True:
            self._again = False
            try:
                text = await self._message()
            except Exception:
                log.exception("the lobby's open tables could not be read")
                return
            for socket in list(self.sockets):
                with contextlib.suppress(Exception):  # a socket closing meanwhile
                    await socket.send_text(text)
            if not self._again:
                return

    async def serve(self, socket: WebSocket) -> None:
        """One lobby page's socket, for as long as it stays open."""
        await socket.accept()
        address = address_of(socket)
        if self.places.full(address):
            await socket.close(TRY_AGAIN_LATER, "the lobby is full just now; try again later")
            return
        self.sockets.add(socket)
        self.places.take(address)
        try:
            await socket.send_text(await self._message())
            await read_until_closed(socket, "the lobby's socket takes no messages")
        except WebSocketDisconnect:
            pass
        finally:
            self.sockets.discard(socket)
            self.places.give_back(address)
            await close_quietly(socket)
