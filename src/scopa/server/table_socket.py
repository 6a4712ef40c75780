"""The WebSocket of one seat (or one spectator) at a table: ``/ws/tables/{code}``.

The first message is ``hello``, with the seat token (none: a spectator) and the match version the
client already has. After it, ``move``, ``hint``, ``sync`` and ``ping``. Each connection has an
outbox drained by its own task, so a table never waits for a slow client: a client that lets its
outbox fill up is dropped. Messages that break the protocol get an ``error`` back and change
nothing; floods and bad tokens also close the connection (1008, policy violation).

Sockets that have not said hello cost memory and hold nothing: at most
``Settings.max_strangers`` are open at once, and the next is closed at once (1013, try again
later). One client address may keep ``Settings.table_sockets_per_address`` open on a process,
said hello or not (:mod:`.socket_places`, as the room's other sockets): the next gets
``too_many_sockets`` and 1013, so one outsider cannot open hundreds of spectators at a table,
nor take the strangers' places. A seat may be open on ``Settings.sockets_per_seat`` sockets; a
newer one replaces the oldest (see :meth:`Table.attach`). What is said at a table is limited
per person and per address here, where the client's address is known, before it goes to the
table (:func:`.table.chat.pace`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from dataclasses import dataclass
from typing import Final

from starlette.websockets import WebSocket, WebSocketDisconnect

from .accounts.links import seen_at_table
from .chat.spectators import spectator_account
from .cluster.cluster import Cluster
from .common.protocol import (
    ClientMessage,
    Hello,
    Ping,
    ProtocolError,
    ReportRequest,
    SayRequest,
    encode,
    error_message,
    parse,
    state_position,
)
from .common.ratelimit import ChatLimits, TokenBucket
from .common.services import Service
from .common.settings import Settings
from .common.tokens import normalise_code
from .socket_places import SocketPlaces, address_of
from .table import commands
from .table.chat import pace, person_of
from .table.room import CardRoom
from .table.tables import POLICY_VIOLATION, Table

log = logging.getLogger(__name__)

GOING_AWAY: Final = 1001
TRY_AGAIN_LATER: Final = 1013
SEND_TIMEOUT: Final = 10.0
"""Seconds one message may take to go out before the client is taken for gone: found out by
the next message pushed to it (an idle one that reads nothing fails uvicorn's keepalive ping)."""
MAX_SOCKETS: Final = 20_000
"""Table sockets a process keeps open at once, ten times the load benchmark's 2,000 people on
one process; one more is refused as ``busy`` (1013)."""


class Doorway:
    """What this process counts across its table sockets: their places, in all and by client
    address, and the chat's limits per person and per address."""

    def __init__(self, settings: Settings) -> None:
        self.places = SocketPlaces(MAX_SOCKETS, settings.table_sockets_per_address)
        self.chat = ChatLimits(settings.redis_url)

    def refusal(self, address: str) -> ProtocolError | None:
        """Why one more socket from ``address`` may not open, if it may not."""
        if self.places.taken >= self.places.most:
            return ProtocolError("busy", "the server has too many table sockets open: try "
                                 "again")
        if self.places.full(address):
            return ProtocolError(
                "too_many_sockets",
                f"at most {self.places.per_address} table sockets may be open from one "
                "address: close a table's page, then try again",
            )
        return None


DOORWAY: Service[Doorway] = Service("table_doorway")
"""The app's :class:`Doorway`."""


@dataclass(frozen=True)
class _Close:
    code: int
    reason: str


class Connection:
    """One client: what it may do (its seat) and what it is sent (its outbox)."""

    def __init__(self, socket: WebSocket, settings: Settings, doorway: Doorway) -> None:
        self.socket = socket
        self.settings = settings
        self.doorway = doorway
        self.address = address_of(socket)
        self.seat: int | None = None
        self.token: str | None = None
        self.account_id: int | None = None
        """A spectator's account, from its session cookie (:mod:`scopa.server.chat.spectators`)."""
        self.continues = False
        """Whether its hello said it sends ``continue`` after a round's breakdown."""
        self.table: Table | None = None
        """The table, when this process owns it."""
        self.greeted = False
        self.code = ""
        self.owner: str | None = None
        """The process that owns the table, when another one does: this socket is relayed."""
        self.relay_id = ""
        self.welcomed = False
        """Whether this client got its ``welcome`` (a takeover must not send it twice)."""
        self.seen: tuple[int | None, int | None] = (None, None)
        """The (match, version) this client has, while it is relayed: what its ``hello``
        named, then the version of each ``state`` it is sent. When its table moves, the next
        owner is told it, and lists the plays after it as ``missed``: however long the socket
        was between owners, and whatever was played meanwhile, it skips no version."""
        self.room: CardRoom | None = None
        self.cluster: Cluster | None = None
        self.bucket = TokenBucket(settings.rate_capacity, settings.rate_per_second)
        self.outbox: deque[str | _Close] = deque()
        """What is to go out, oldest first: at most ``Settings.outbox_size`` messages and a
        close (a deque and a future to wake the sender, since an ``asyncio.Queue``'s own
        bookkeeping was 5% of a move's CPU)."""
        self._wake: asyncio.Future[None] | None = None
        """What the sender waits on while the outbox is empty."""
        self.closing = False
        self.sender: asyncio.Task[None] | None = None
        """The task that sends the outbox (:meth:`send_all`)."""
        self.sending_since: float | None = None
        """When the message going out now was handed to uvicorn (``None``: none is). Its
        sender returns at once unless the client's buffer is full; a clock around every
        message (an ``asyncio.timeout``, a timer set and cancelled, two a move) for that
        rare client was 2.5% of a web process's samples, so :meth:`push` looks at this."""
        self._loop = asyncio.get_running_loop()

    def push(self, text: str) -> None:
        since = self.sending_since
        if since is not None and self._loop.time() - since > SEND_TIMEOUT and self.sender:
            self.closing = True
            self.sender.cancel()  # stuck on a client that reads nothing: taken for gone
            return
        if self.closing:
            return
        if len(self.outbox) >= self.settings.outbox_size:
            self.close(TRY_AGAIN_LATER, "too many unread messages")
            return
        if not self.welcomed and text.startswith('{"type":"welcome"'):
            self.welcomed = True
        if self.owner is not None and (position := state_position(text)) is not None:
            self.seen = position
        self._put(text)

    def close(self, code: int, reason: str) -> None:
        if not self.closing:
            self.closing = True
            self._put(_Close(code, reason))

    def _put(self, item: str | _Close) -> None:
        self.outbox.append(item)
        wake, self._wake = self._wake, None
        if wake is not None and not wake.done():
            wake.set_result(None)

    def refuse(self, error: ProtocolError) -> None:
        self.push(error_message(error))

    async def send_all(self) -> None:
        """Send the outbox in order until a close is queued or the client is gone (or taken
        for gone by :meth:`push`, which cancels this)."""
        outbox, socket = self.outbox, self.socket
        while True:
            if not outbox:
                self._wake = self._loop.create_future()
                await self._wake
                continue
            item = outbox.popleft()
            if isinstance(item, _Close):
                await socket.close(item.code, item.reason)
                return
            self.sending_since = self._loop.time()
            await socket.send_text(item)
            self.sending_since = None

    # -- receiving -------------------------------------------------------------------------

    async def receive(self, timeout: float | None = None) -> str | None:
        """The next text message, or ``None`` once the client has gone."""
        while True:
            receiving = self.socket.receive()
            message = await (receiving if timeout is None else asyncio.wait_for(receiving, timeout))
            if message["type"] == "websocket.disconnect":
                return None
            text: str | None = message.get("text")
            if text is None:
                data: bytes = message.get("bytes") or b""
                if len(data) > self.settings.max_message_bytes:
                    self.refuse(self._too_large())
                else:
                    self.refuse(ProtocolError("bad_json", "send JSON as text frames, not binary"))
                continue
            return text

    def _too_large(self) -> ProtocolError:
        return ProtocolError(
            "too_large", f"a message may have at most {self.settings.max_message_bytes} bytes"
        )

    def admit(self, text: str) -> bool:
        """Whether to read ``text``: it must fit the size limit, and the client the rate limit
        (a flood closes the connection)."""
        if not self.bucket.take():
            self.refuse(
                ProtocolError(
                    "rate_limited",
                    f"more than {self.settings.rate_per_second:g} messages a second: goodbye",
                )
            )
            self.close(POLICY_VIOLATION, "rate limit")
            return False
        if len(text) > self.settings.max_message_bytes or (
            len(text.encode("utf-8", "surrogatepass")) > self.settings.max_message_bytes
        ):
            self.refuse(self._too_large())
            return False
        return True

    def played(self) -> None:
        self.bucket.give_back()

    async def adopt(self, table: Table) -> None:
        """This process took the table over: listen to it here, and get its state now, with
        the plays since the version this client was last shown."""
        if await table.seat_listener(
            self, self.token, self.seen, welcome=not self.welcomed, continues=self.continues
        ):
            self.table = table
        self.owner = None  # only now: what the client sends meanwhile goes on to the old one

    async def resend(self, text: str) -> None:
        """Carry out a command again (counted against the chat's limits the first time)."""
        assert self.room is not None and self.cluster is not None
        try:
            await self.carry_out(self.room, self.cluster, self.code, text, parse(text))
        except ProtocolError as error:
            self.refuse(error)

    async def serve(self, room: CardRoom, cluster: Cluster, code: str) -> None:
        """Read this client's messages until it goes or is closed."""
        self.room, self.cluster = room, cluster
        while not self.closing:
            timeout = None if self.greeted else self.settings.hello_timeout
            try:
                text = await self.receive(timeout)
            except TimeoutError:
                self.refuse(ProtocolError("hello_first", "say hello first"))
                self.close(POLICY_VIOLATION, "no hello")
                return
            if text is None:
                return
            if not self.admit(text):
                continue
            try:
                await self.handle(room, cluster, code, text)
            except ProtocolError as error:
                self.refuse(error)

    async def handle(self, room: CardRoom, cluster: Cluster, code: str, text: str) -> None:
        message = parse(text)
        if self.greeted and isinstance(message, SayRequest | ReportRequest):
            await pace(self.doorway.chat, message,
                       person_of(self.token, self.account_id, self.address), self.address)
        await self.carry_out(room, cluster, code, text, message)

    async def carry_out(
        self, room: CardRoom, cluster: Cluster, code: str, text: str, message: ClientMessage
    ) -> None:
        if isinstance(message, Ping):
            self.push(encode({"type": "pong"}))
        elif isinstance(message, Hello):
            await self.hello(room, cluster, code, message)
        elif self.owner is not None:
            room.relayed += 1
            cluster.send(
                self.owner,
                {"op": "command", "from": room.name, "conn": self.relay_id, "text": text},
            )
        elif self.table is None:
            raise ProtocolError("hello_first", "say hello first, with your seat token or none")
        elif await commands.run(self, self.table, message):
            # A played move is paced by the game itself (one per turn): only refused ones, and
            # every other message, count against the rate limit. Bots play at once in tests.
            self.bucket.give_back()

    async def hello(self, room: CardRoom, cluster: Cluster, code: str, hello: Hello) -> None:
        if self.greeted:
            raise ProtocolError("already_said_hello", "this connection has already said hello")
        where = await room.locate(code)
        if where is None:
            self.refuse(ProtocolError("no_table", f"no table has the code {code!r}"))
            self.close(POLICY_VIOLATION, "no such table")
            return
        self.greeted = True
        room.strangers -= 1
        self.code, self.token = normalise_code(code), hello.token
        self.continues = hello.continues
        if hello.token is None:
            self.account_id = await spectator_account(self.socket)
        else:
            await seen_at_table(room.storage, self.socket, self.code)
        if isinstance(where, Table):
            if await where.seat_listener(
                self, hello.token, (hello.match, hello.version), continues=hello.continues
            ):
                self.table = where
            return
        # Another process owns the table: it says hello and sends everything, through it, and
        # is asked to hand the table over to this process.
        self.owner, self.relay_id = where, cluster.new_id()
        self.seen = (hello.match, hello.version)
        cluster.relay(self, self.relay_id, {"since": list(self.seen), "continues": self.continues,
                                            "account": self.account_id})


class TableSockets:
    """The endpoint ``/ws/tables/{code}`` of one app: this process's tables, its place among
    the processes, and what it counts across its table sockets (:class:`Doorway`)."""

    def __init__(self, room: CardRoom, cluster: Cluster) -> None:
        self.room = room
        self.cluster = cluster
        self.door = Doorway(room.settings)

    async def serve(self, socket: WebSocket, code: str) -> None:
        """Accept, serve the client, and always let go of the table afterwards."""
        room, cluster, door = self.room, self.cluster, self.door
        await socket.accept()
        connection = Connection(socket, room.settings, door)
        refusal = door.refusal(connection.address)
        if refusal is None and room.strangers >= room.settings.max_strangers:
            refusal = ProtocolError("busy", "too many connections are starting: try again")
        if refusal is not None:
            connection.refuse(refusal)
            connection.close(TRY_AGAIN_LATER, refusal.code)
            await connection.send_all()
            return
        room.strangers += 1
        door.places.take(connection.address)
        sender = connection.sender = asyncio.create_task(connection.send_all())
        try:
            reader = asyncio.create_task(connection.serve(room, cluster, code))
            done, _ = await asyncio.wait({reader, sender}, return_when=asyncio.FIRST_COMPLETED)
            if reader in done:
                if not reader.cancelled() and reader.exception() is not None and not isinstance(
                    reader.exception(), WebSocketDisconnect
                ):
                    log.error("table %s: connection failed", code, exc_info=reader.exception())
                connection.close(GOING_AWAY, "bye")
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(sender, SEND_TIMEOUT)
            else:
                reader.cancel()
                with contextlib.suppress(BaseException):
                    await reader
        finally:
            door.places.give_back(connection.address)
            if not connection.greeted:
                room.strangers -= 1
            sender.cancel()
            with contextlib.suppress(BaseException):
                await sender
            if connection.table is not None:
                connection.table.detach(connection)
            if connection.relay_id:
                cluster.forget(connection.relay_id)
