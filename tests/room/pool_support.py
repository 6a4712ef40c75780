"""A person waiting in a pool, over a real WebSocket at ``/ws/pools``, for the pools' tests and
the pairing benchmark."""

from __future__ import annotations

import asyncio
import json
import secrets
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

TIMEOUT = 30.0


def pools_url(url: str) -> str:
    return url.rstrip("/").replace("http://", "ws://").replace("https://", "wss://") + "/ws/pools"


@dataclass
class Waiter:
    """One person's pool socket, and everything it was sent."""

    socket: ClientConnection
    guest: str = field(default_factory=lambda: secrets.token_urlsafe(16))
    seen: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    async def open(cls, url: str, cookie: str | None = None, local: str | None = None
                   ) -> Waiter:
        """``local``: the loopback address to connect from (127.0.0.2, say), for another
        client address than 127.0.0.1's."""
        headers = {"Cookie": cookie} if cookie else None
        if local is None:
            return cls(await connect(pools_url(url), open_timeout=TIMEOUT,
                                     additional_headers=headers))
        return cls(await connect(pools_url(url), open_timeout=TIMEOUT,
                                 additional_headers=headers, local_addr=(local, 0)))

    async def send(self, message: dict[str, Any]) -> None:
        await self.socket.send(json.dumps(message))

    async def join(self, pool: str = "scopa", name: str = "Guest", **more: Any) -> None:
        await self.send({"type": "join", "pool": pool, "name": name, "guest": self.guest, **more})

    async def recv(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        async with asyncio.timeout(timeout):
            message: dict[str, Any] = json.loads(await self.socket.recv(decode=True))
        self.seen.append(message)
        return message

    async def wait_for(self, kind: str, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The next message of type ``kind`` (others before it are kept in ``seen``)."""
        while True:
            message = await self.recv(timeout)
            if message["type"] == kind:
                return message

    async def until_pong(self) -> list[dict[str, Any]]:
        """Everything sent before the answer to a ping: what the server had queued by now."""
        await self.send({"type": "ping"})
        before = []
        while (message := await self.recv())["type"] != "pong":
            before.append(message)
        return before

    async def closed(self) -> tuple[int | None, str | None]:
        """The close code and reason, once the server closes the socket."""
        try:
            while True:
                await self.recv()
        except ConnectionClosed as closed:
            received = closed.rcvd
            return (None, None) if received is None else (received.code, received.reason)

    async def close(self) -> None:
        await self.socket.close()
