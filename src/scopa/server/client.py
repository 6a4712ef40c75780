"""A Python client of the card room: the HTTP lobby and a table's WebSocket (asyncio).

Used by the tests, the load benchmark and the terminal client. It keeps no rules of its own: the
server sends each seat its view, legal moves included.

    async with Lobby("http://127.0.0.1:8000") as lobby:
        grant = await lobby.play_computer(name="Ada")
        async with await TableConnection.open(lobby.url, grant["table"]["code"],
                                              grant["token"]) as table:
            while table.over is None:
                message = await table.recv()
                if message["type"] == "state" and table.view["legal_moves"] and table.my_turn:
                    await table.move(table.view["legal_moves"][0])

The protocol is described in ``docs/protocol.md``.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from types import TracebackType
from typing import Any, Self

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed


class LobbyRefused(Exception):
    """The lobby said no: ``status`` is the HTTP status, ``detail`` the server's sentence."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(f"{status}: {detail}")
        self.status = status
        self.detail = detail


class Closed(Exception):
    """The table's WebSocket was closed, with the close ``code`` and ``reason`` the server gave
    (1006 when the connection just dropped)."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(f"connection closed: {code} {reason}".strip())
        self.code = code
        self.reason = reason


class Lobby:
    """The lobby's HTTP API; every method returns the server's JSON or raises LobbyRefused."""

    def __init__(self, url: str, timeout: float = 30.0) -> None:
        self.url = url.rstrip("/")
        self.http = httpx.AsyncClient(base_url=self.url, timeout=timeout)

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self.http.aclose()

    async def _call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        response = await self.http.request(method, path, json=body)
        if response.is_error:
            try:
                detail = response.json().get("detail", response.text)
            except ValueError:
                detail = response.text
            raise LobbyRefused(response.status_code, str(detail))
        return response.json()

    async def health(self) -> dict[str, Any]:
        result: dict[str, Any] = await self._call("GET", "/healthz")
        return result

    async def create_table(self, **choices: Any) -> dict[str, Any]:
        """``preset``, ``players``, ``teams``, ``target``, ``look``, ``bots`` ({seat: level})
        and ``name`` (yours, to sit at it)."""
        result: dict[str, Any] = await self._call("POST", "/api/tables", choices)
        return result

    async def open_tables(self) -> list[dict[str, Any]]:
        result: list[dict[str, Any]] = await self._call("GET", "/api/tables")
        return result

    async def table(self, code: str) -> dict[str, Any]:
        result: dict[str, Any] = await self._call("GET", f"/api/tables/{code}")
        return result

    async def join(self, code: str, name: str, seat: int | None = None) -> dict[str, Any]:
        result: dict[str, Any] = await self._call(
            "POST", f"/api/tables/{code}/join", {"name": name, "seat": seat}
        )
        return result

    async def leave(self, code: str, token: str) -> dict[str, Any]:
        result: dict[str, Any] = await self._call(
            "POST", f"/api/tables/{code}/leave", {"token": token}
        )
        return result

    async def start(self, code: str, token: str) -> dict[str, Any]:
        result: dict[str, Any] = await self._call(
            "POST", f"/api/tables/{code}/start", {"token": token}
        )
        return result

    async def rematch(self, code: str, token: str) -> dict[str, Any]:
        result: dict[str, Any] = await self._call(
            "POST", f"/api/tables/{code}/rematch", {"token": token}
        )
        return result

    async def play_computer(self, **choices: Any) -> dict[str, Any]:
        """A table against bots, dealt at once: ``name``, ``level`` and the rule choices."""
        result: dict[str, Any] = await self._call("POST", "/api/play", choices)
        return result

    async def levels(self) -> list[dict[str, Any]]:
        """The bot levels, weakest first: ``level``, ``name`` and ``default``."""
        result: list[dict[str, Any]] = await self._call("GET", "/api/levels")
        return result

    async def match_record(self, match_id: int) -> dict[str, Any]:
        result: dict[str, Any] = await self._call("GET", f"/api/matches/{match_id}")
        return result

    # Tournaments (logged in to make, join or start one: the session's cookie is this
    # client's, as after ``POST /api/account/login``).

    async def tournaments(self) -> list[dict[str, Any]]:
        result: list[dict[str, Any]] = await self._call("GET", "/api/tournaments")
        return result

    async def create_tournament(self, **choices: Any) -> dict[str, Any]:
        """``name``, ``kind`` (arena or swiss), ``preset``, ``minutes`` or ``rounds``,
        ``starts_at`` (ISO 8601)."""
        result: dict[str, Any] = await self._call("POST", "/api/tournaments", choices)
        return result

    async def tournament(self, tournament_id: int) -> dict[str, Any]:
        """The tournament, and under ``me`` this client's part (its table and seat token)."""
        result: dict[str, Any] = await self._call("GET", f"/api/tournaments/{tournament_id}")
        return result

    async def join_tournament(self, tournament_id: int) -> dict[str, Any]:
        result: dict[str, Any] = await self._call(
            "POST", f"/api/tournaments/{tournament_id}/join")
        return result

    async def withdraw_from_tournament(self, tournament_id: int) -> dict[str, Any]:
        result: dict[str, Any] = await self._call(
            "POST", f"/api/tournaments/{tournament_id}/withdraw")
        return result

    async def start_tournament(self, tournament_id: int) -> dict[str, Any]:
        result: dict[str, Any] = await self._call(
            "POST", f"/api/tournaments/{tournament_id}/start")
        return result


def socket_url(url: str, code: str) -> str:
    """The WebSocket URL of table ``code`` on the server at ``url``.

    >>> socket_url("http://127.0.0.1:8000/", "abc234")
    'ws://127.0.0.1:8000/ws/tables/abc234'
    """
    base = url.rstrip("/")
    if base.startswith("https://"):
        base = "wss://" + base.removeprefix("https://")
    elif base.startswith("http://"):
        base = "ws://" + base.removeprefix("http://")
    return f"{base}/ws/tables/{code}"


class TableConnection:
    """One WebSocket at a table, as a seat (with its token) or as a spectator.

    It remembers what the server last said: ``table`` (the lobby facts), ``view`` (this seat's
    view), ``match`` and ``version``, and ``over`` once the match has ended, so that reconnecting
    with :meth:`open` can ask only for what was missed.
    """

    def __init__(self, socket: ClientConnection) -> None:
        self.socket = socket
        self.seat: int | None = None
        self.hints = False
        """Whether the welcome said this seat may ask for hints (not at a rated table, a
        tournament's game or the daily deal; never as a spectator)."""
        self.table: dict[str, Any] | None = None
        self.view: dict[str, Any] | None = None
        self.match: int | None = None
        self.version: int | None = None
        self.over: dict[str, Any] | None = None
        self.welcome: dict[str, Any] | None = None
        """The server's ``welcome``: the seat, hints, and whether the match is rated (and why
        it plays casual at a table chosen rated)."""

    @classmethod
    async def open(
        cls,
        url: str,
        code: str,
        token: str | None = None,
        match: int | None = None,
        version: int | None = None,
        timeout: float = 30.0,
        ping_interval: float | None = 20.0,
        cookie: str | None = None,
    ) -> TableConnection:
        """Connect and say hello; returns once the server has welcomed this client.
        ``ping_interval``: seconds between this client's keepalive pings (``None``: it sends
        none and only answers the server's, as a browser does). ``cookie``: the ``Cookie``
        header to send, so a spectator watches logged in (its account may write)."""
        try:
            socket = await connect(
                socket_url(url, code), open_timeout=timeout, max_size=2**22,
                ping_interval=ping_interval,
                additional_headers={"Cookie": cookie} if cookie else None,
            )
        except (OSError, TimeoutError) as error:
            raise Closed(1006, str(error)) from error
        connection = cls(socket)
        await connection.send({"type": "hello", "token": token, "match": match, "version": version})
        await connection.wait_for(lambda m: m["type"] == "welcome", timeout)
        return connection

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        await self.close()

    async def close(self) -> None:
        await self.socket.close()

    @property
    def my_turn(self) -> bool:
        return self.view is not None and self.seat is not None and self.view["to_move"] == self.seat

    async def send(self, message: dict[str, Any]) -> None:
        await self.send_text(json.dumps(message))

    async def send_text(self, text: str) -> None:
        """Send raw text, valid or not (the tests send broken messages on purpose)."""
        try:
            await self.socket.send(text)
        except ConnectionClosed as error:
            raise self._closed(error) from None

    async def move(self, move: str, ref: str | int | None = None) -> None:
        """Play ``move`` for the version last seen, so a move chosen on an old view is refused."""
        await self.send({"type": "move", "move": move, "version": self.version, "ref": ref})

    async def hint(self, ref: str | int | None = None) -> None:
        """Ask for the master's move for this seat, on its turn; the answer is a ``hint``."""
        await self.send({"type": "hint", "ref": ref})

    async def resign(self, ref: str | int | None = None) -> None:
        """Give the match up: this seat's side loses, and everyone is sent ``state`` and
        ``over`` as at a normal end."""
        await self.send({"type": "resign", "ref": ref})

    async def say(
        self, phrase: str | None = None, text: str | None = None, ref: str | int | None = None
    ) -> None:
        """Say a quick ``phrase`` (its id) or free ``text`` at the table; everyone who may hear
        it (this connection too) gets a ``said``."""
        message: dict[str, Any] = {"type": "say", "ref": ref}
        if phrase is not None:
            message["phrase"] = phrase
        if text is not None:
            message["text"] = text
        await self.send(message)

    async def report(self, message_id: int, ref: str | int | None = None) -> None:
        """Report the ``said`` message ``message_id`` to the moderators (answer: ``reported``)."""
        await self.send({"type": "report", "id": message_id, "ref": ref})

    async def sync(self) -> None:
        await self.send({"type": "sync", "match": self.match, "version": self.version})

    async def recv(self, timeout: float | None = 30.0) -> dict[str, Any]:
        """The next message from the server (after noting what it says)."""
        try:
            text = await asyncio.wait_for(self.socket.recv(), timeout)
        except ConnectionClosed as error:
            raise self._closed(error) from None
        message: dict[str, Any] = json.loads(text)
        self._note(message)
        return message

    async def wait_for(
        self, wanted: Callable[[dict[str, Any]], bool], timeout: float | None = 30.0
    ) -> dict[str, Any]:
        """Read messages until one is ``wanted``; an error message in between is raised as
        :class:`ServerError` unless it is the one wanted."""
        async with asyncio.timeout(timeout):
            while True:
                message = await self.recv(None)
                if wanted(message):
                    return message
                if message["type"] == "error":
                    raise ServerError(message)

    def _note(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "welcome":
            self.welcome = message
            self.seat = message["seat"]
            self.hints = bool(message.get("hints"))
        elif kind == "table":
            self.table = message["table"]
        elif kind == "state":
            if message["match"] != self.match:
                self.over = None
            self.view = message["view"]
            self.match = message["match"]
            self.version = message["version"]
        elif kind == "over":
            self.over = message

    @staticmethod
    def _closed(error: ConnectionClosed) -> Closed:
        received = error.rcvd
        if received is None:
            return Closed(1006, "the connection dropped")
        return Closed(received.code, received.reason)


class ServerError(Exception):
    """An ``error`` message from the server, while waiting for something else."""

    def __init__(self, message: dict[str, Any]) -> None:
        super().__init__(f"{message.get('code')}: {message.get('message')}")
        self.code: str = message.get("code", "")
        self.message = message
