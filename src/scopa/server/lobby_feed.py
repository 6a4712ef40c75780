"""The lobby's open tables, live: a WebSocket at ``/ws/lobby`` that sends the list at once and
again whenever it changes, so the lobby page never needs a Refresh button.

A change is heard from the room's hub (:meth:`.cluster.hub.Hub.on_lobby_change`): in one
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
from starlette.websockets import WebSocketState

from .table.room import CardRoom

log = logging.getLogger(__name__)

MAX_SOCKETS: Final = 5000
"""Lobby sockets a process keeps open at once; one more is closed with 1013, try again later
(the page then falls back to asking now and then, as it does after any drop)."""
PER_ADDRESS: Final = 20
"""Lobby sockets one client address may keep open at once (a person's tabs and devices behind
one router): past it, 1013 too, so that one outsider cannot take every place of the lobby."""
TRY_AGAIN_LATER: Final = 1013
POLICY_VIOLATION: Final = 1008


class LobbyFeed:
    """This process's lobby sockets, and the open tables sent to them."""

    def __init__(self, room: CardRoom) -> None:
        self.room = room
        self.sockets: set[WebSocket] = set()
        self._by_address: dict[str, int] = {}
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
        address = socket.client.host if socket.client is not None else "unknown"
        if len(self.sockets) >= MAX_SOCKETS or self._by_address.get(address, 0) >= PER_ADDRESS:
            await socket.close(TRY_AGAIN_LATER, "the lobby is full just now; try again later")
            return
        self.sockets.add(socket)
        self._by_address[address] = self._by_address.get(address, 0) + 1
        try:
            await socket.send_text(await self._message())
            while True:
                # The client has nothing to say here: a frame of any kind is read and dropped,
                # and a binary one (which receive_text would fail on) closes the socket.
                message = await socket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                if message.get("bytes") is not None:
                    await socket.close(POLICY_VIOLATION, "the lobby's socket takes no messages")
                    break
        except WebSocketDisconnect:
            pass
        finally:
            self.sockets.discard(socket)
            left = self._by_address.get(address, 1) - 1
            if left:
                self._by_address[address] = left
            else:
                self._by_address.pop(address, None)
            if socket.application_state == WebSocketState.CONNECTED:
                with contextlib.suppress(Exception):
                    await socket.close()
