"""The socket of a person waiting in a pool: ``/ws/pools``. Waiting is holding it open; its
close is leaving the pool.

A guest is known by a random key its browser keeps (sent with ``join``), an account by its
session cookie. Every message is read with the same limits as a table's socket (size, a token
bucket per connection); bad input gets an ``error`` with a code and a sentence and changes
nothing; a flood, a page of another site, and a socket that does not join within
``Settings.hello_timeout`` are closed with 1008; a process's or one address's socket beyond the
caps with 1013 (try again later). Joins are counted per address and per person
(``PoolSettings.joins``, in the matchmaker). docs/protocol.md lists the messages and the
codes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from typing import Annotated, Any, Final, Literal

import orjson
from fastapi import WebSocket, WebSocketDisconnect
from pydantic import BaseModel, ConfigDict, Field, StringConstraints, TypeAdapter, ValidationError
from starlette.requests import Request

from ..accounts import accounts
from ..common.errors import LobbyError
from ..common.ratelimit import TokenBucket
from ..common.settings import Settings
from ..socket_places import POLICY_VIOLATION, TRY_AGAIN_LATER, SocketPlaces, address_of
from ..table.tables import clean_name
from .matching import Person
from .matchmaker import Matchmaker, PoolError

log = logging.getLogger(__name__)

MAX_SOCKETS: Final = 5000
"""Pool sockets a process keeps open at once."""
PER_ADDRESS: Final = 20
"""Pool sockets one client address may keep open at once (a household behind one router)."""
SEND_TIMEOUT: Final = 10.0
OUTBOX: Final = 64
GUEST_KEY: Final = re.compile(r"[A-Za-z0-9_-]{16,64}")


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Join(_Message):
    type: Literal["join"]
    pool: Annotated[str, StringConstraints(max_length=32)]
    rated: bool = False
    name: Annotated[str, StringConstraints(max_length=256)] | None = None
    guest: Annotated[str, StringConstraints(max_length=64)] | None = None
    pair: Annotated[str, StringConstraints(max_length=16)] | None = None


class Leave(_Message):
    type: Literal["leave"]


class PlayBot(_Message):
    type: Literal["play_bot"]


class Ping(_Message):
    type: Literal["ping"]


ClientMessage = TypeAdapter(
    Annotated[Join | Leave | PlayBot | Ping, Field(discriminator="type")])
TYPES: Final = ("join", "leave", "play_bot", "ping")


def read(text: str) -> Join | Leave | PlayBot | Ping:
    """One message of a waiting person, or a :class:`PoolError` that says what is wrong.

    >>> read('{"type": "join", "pool": "scopa"}').pool
    'scopa'
    >>> read('{"type": "dance"}')
    Traceback (most recent call last):
    ...
    scopa.server.pools.matchmaker.PoolError: unknown message type 'dance'; the types are join, leave, play_bot, ping
    """  # noqa: E501
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError:
        raise PoolError("bad_json", "a message must be a JSON object") from None
    if not isinstance(data, dict):
        raise PoolError("bad_json", "a message must be a JSON object, not an array or a value")
    if data.get("type") not in TYPES:
        raise PoolError("unknown_type", f"unknown message type {data.get('type')!r}; the types "
                        f"are {', '.join(TYPES)}")
    try:
        return ClientMessage.validate_python(data)
    except ValidationError as error:
        problem = error.errors()[0]
        where = ".".join(str(part) for part in problem["loc"][1:]) or "the message"
        raise PoolError("bad_message", f"{where}: {problem['msg'][:1].lower()}"
                        f"{problem['msg'][1:]}") from None


class PoolSocket:
    """One waiting person's socket: what it is sent goes through an outbox, in order."""

    def __init__(self, socket: WebSocket, settings: Settings, address: str) -> None:
        self.socket = socket
        self.settings = settings
        self.address = address
        self.outbox: asyncio.Queue[str | tuple[int, str]] = asyncio.Queue(OUTBOX + 1)
        self.bucket = TokenBucket(settings.rate_capacity, settings.rate_per_second)
        self.closing = False
        self.person: Person | None = None

    def push(self, message: dict[str, Any]) -> None:
        if self.closing:
            return
        if self.outbox.qsize() >= OUTBOX:
            self.close(TRY_AGAIN_LATER, "too many unread messages")
            return
        self.outbox.put_nowait(orjson.dumps(message).decode())

    def close(self, code: int, reason: str) -> None:
        if not self.closing:
            self.closing = True
            self.outbox.put_nowait((code, reason))

    def refuse(self, error: PoolError) -> None:
        self.push({"type": "error", "code": error.code, "message": error.message,
                   "params": error.params})

    async def send_all(self) -> None:
        while True:
            item = await self.outbox.get()
            if isinstance(item, tuple):
                await self.socket.close(*item)
                return
            async with asyncio.timeout(SEND_TIMEOUT):
                await self.socket.send_text(item)

    async def serve(self, matchmaker: Matchmaker, account: accounts.Account | None) -> None:
        """Read messages until the person goes or the socket is closed."""
        while not self.closing:
            try:
                message = await asyncio.wait_for(
                    self.socket.receive(),
                    None if self.person is not None else self.settings.hello_timeout)
            except TimeoutError:
                self.refuse(PoolError("join_first", "join a pool, or close this socket"))
                self.close(POLICY_VIOLATION, "no join")
                return
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            if not self.bucket.take():
                self.refuse(PoolError("rate_limited", f"more than "
                                      f"{self.settings.rate_per_second:g} messages a second: "
                                      "goodbye"))
                self.close(POLICY_VIOLATION, "rate limit")
                return
            try:
                if text is None:
                    raise PoolError("bad_json", "send JSON as text frames, not binary")
                if len(text.encode("utf-8", "surrogatepass")) > self.settings.max_message_bytes:
                    raise PoolError("too_large", f"a message may have at most "
                                    f"{self.settings.max_message_bytes} bytes")
                await self.handle(matchmaker, account, read(text))
            except PoolError as error:
                self.refuse(error)
            except LobbyError as error:
                self.refuse(PoolError(error.code or "refused", error.message, error.params))

    async def handle(self, matchmaker: Matchmaker, account: accounts.Account | None,
                     message: Join | Leave | PlayBot | Ping) -> None:
        if isinstance(message, Ping):
            self.push({"type": "pong"})
        elif isinstance(message, Join):
            if self.person is not None and self.person.key in matchmaker.held:
                raise PoolError("already_waiting", "this socket waits in a pool already: leave "
                                "it first to join another")
            person = await self._person(matchmaker, account, message)
            await matchmaker.join(
                self, person, self.address, message.pool, message.rated, message.pair)
            self.person = person
        elif isinstance(message, Leave):
            left = "not_waiting" if self.person is None else await matchmaker.leave(
                self.person.key)
            if left == "not_waiting":
                raise PoolError("not_waiting", "you are not waiting in a pool")
            if left == "paired":
                raise PoolError("paired", "too late to leave: you were paired just now, and "
                                "your table follows")
            self.push({"type": "left"})
        else:
            if self.person is None:
                raise PoolError("not_waiting", "you are not waiting in a pool")
            self.push(await matchmaker.play_bot(self.person.key))

    @staticmethod
    async def _person(
        matchmaker: Matchmaker, account: accounts.Account | None, join: Join
    ) -> Person:
        """Who is asking: the session's account, or a guest by its browser's key and name."""
        if account is not None:
            return Person(f"account:{account.id}", account.name, account.id)
        if join.guest is None or not GUEST_KEY.fullmatch(join.guest):
            raise PoolError("bad_message", "a guest sends 'guest', the random key its browser "
                            "keeps (16 to 64 letters, digits, - or _)")
        name = join.name or "Guest"
        await accounts.check_guest_name(matchmaker.room.storage, name)
        return Person(f"guest:{join.guest}", clean_name(name))


class PoolSockets:
    """The endpoint, with this process's caps on open pool sockets."""

    def __init__(self, matchmaker: Matchmaker) -> None:
        self.matchmaker = matchmaker
        self.places = SocketPlaces(MAX_SOCKETS, PER_ADDRESS)

    async def serve(self, socket: WebSocket) -> None:
        await socket.accept()
        settings = self.matchmaker.settings
        address = address_of(socket)
        connection = PoolSocket(socket, settings, address)
        if self.places.full(address):
            await socket.close(TRY_AGAIN_LATER, "the pools are full just now; try again later")
            return
        try:
            # The cookie's account, checked as a write is (a page of another site may not wait
            # in a pool for the person): the handshake is an HTTP request.
            account = await accounts.current_account(
                Request({**socket.scope, "type": "http"}), write=True)
        except LobbyError as error:
            await socket.close(POLICY_VIOLATION, error.message[:120])
            return
        self.places.take(address)
        sender = asyncio.create_task(connection.send_all())
        reader = asyncio.create_task(connection.serve(self.matchmaker, account))
        try:
            done, _ = await asyncio.wait({reader, sender}, return_when=asyncio.FIRST_COMPLETED)
            if reader in done:
                failure = None if reader.cancelled() else reader.exception()
                if failure is not None and not isinstance(failure, WebSocketDisconnect):
                    log.error("a pool socket failed", exc_info=failure)
                connection.close(1000, "bye")
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(sender, SEND_TIMEOUT)
            else:
                reader.cancel()
                with contextlib.suppress(BaseException):
                    await reader
        finally:
            sender.cancel()
            with contextlib.suppress(BaseException):
                await sender
            self.places.give_back(address)
            if connection.person is not None:
                held = self.matchmaker.held.get(connection.person.key)
                if held is not None and held.socket is connection:
                    await self.matchmaker.leave(connection.person.key, listening=False)
