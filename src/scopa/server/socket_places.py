"""The places of the room's sockets that only push (the lobby's, ``/ws/me``, a tournament's)
and of the pools' sockets: how many a process keeps open, and how many one client address.

Every such endpoint holds at most a number of sockets a process and a number per address (a
household behind one router may open a few; one outsider may not take every place), and one
more is closed with 1013, try again later. Each endpoint keeps its own numbers and sentences
(docs/protocol.md lists them); what they share is the counting, the reading of a socket the
client sends nothing on (a binary frame closes it with 1008), and the closing at the end.
"""

from __future__ import annotations

import contextlib
from typing import Final

from fastapi import WebSocket
from starlette.websockets import WebSocketState

TRY_AGAIN_LATER: Final = 1013
POLICY_VIOLATION: Final = 1008


def address_of(socket: WebSocket) -> str:
    """The client address a socket's place is counted against."""
    return socket.client.host if socket.client is not None else "unknown"


class SocketPlaces:
    """The open sockets of one endpoint in this process, counted in all and by address."""

    def __init__(self, most: int, per_address: int) -> None:
        self.most = most
        self.per_address = per_address
        self.taken = 0
        self._by_address: dict[str, int] = {}

    def full(self, address: str) -> bool:
        """Whether one more socket from ``address`` is past either cap."""
        return self.taken >= self.most or self._by_address.get(address, 0) >= self.per_address

    def take(self, address: str) -> None:
        self.taken += 1
        self._by_address[address] = self._by_address.get(address, 0) + 1

    def give_back(self, address: str) -> None:
        self.taken -= 1
        left = self._by_address.get(address, 1) - 1
        if left:
            self._by_address[address] = left
        else:
            self._by_address.pop(address, None)


async def read_until_closed(socket: WebSocket, binary_reason: str) -> None:
    """Read a socket the client has nothing to say on until the client closes it: a frame of
    any kind is read and dropped, and a binary one (which receive_text would fail on) closes
    the socket with 1008 and ``binary_reason``."""
    while True:
        message = await socket.receive()
        if message["type"] == "websocket.disconnect":
            return
        if message.get("bytes") is not None:
            await socket.close(POLICY_VIOLATION, binary_reason)
            return


async def close_quietly(socket: WebSocket) -> None:
    """Close a socket that is still open, as a server does at the end; one closing meanwhile
    is left to close."""
    if socket.application_state == WebSocketState.CONNECTED:
        with contextlib.suppress(Exception):
            await socket.close()
