"""The card room's processes working as one: commands relayed to a table's owner, its messages
relayed back, lobby requests forwarded, leases kept, and tables taken over from dead owners.

Every process is an equal ``scopa serve`` behind one address. A socket may land on any of
them. At the owner of its table (see :mod:`.hub`) it is an ordinary listener; anywhere else it
is *relayed*: its hello and commands go to the owner's inbox, and the owner keeps a
:class:`RemoteListener` for it, whose messages come back through this process's inbox. The
owner runs the same code for both (:mod:`.commands`), so a seat's sockets may sit on different
processes and still count together (presence, the cap of sockets per seat).

Messages between processes are JSON objects with an ``op``: ``attach``, ``command`` and
``detach`` go to an owner; ``push``, ``played`` and ``close`` come back; ``act`` and ``reply``
carry lobby requests. They leave in the order they were sent (one sender task), so a socket's
messages arrive in order.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import logging
from collections import defaultdict
from collections.abc import Coroutine
from typing import Any, Final, Protocol

from .commands import run
from .hub import RENEW_SECONDS
from .protocol import ProtocolError, error_message, parse
from .room import CardRoom
from .tables import POLICY_VIOLATION, LobbyError, Table
from .workers import RemoteBots

log = logging.getLogger(__name__)

ASK_SECONDS: Final = 5.0
"""How long a forwarded lobby request waits for the owner's answer."""
SERVICE_RESTART: Final = 1012
"""The close code for a socket whose table moved to another process: reconnect."""


class Relayed(Protocol):
    """A socket of this process whose table another process owns."""

    code: str
    token: str | None
    owner: str | None
    welcomed: bool

    def push(self, text: str) -> None: ...

    def close(self, code: int, reason: str) -> None: ...

    def played(self) -> None:
        """A move this socket sent was played (moves do not count against its rate limit)."""

    async def adopt(self, table: Table) -> None:
        """This process now owns the table: listen to it directly, as a local socket."""


class RemoteListener:
    """At the owner: a socket held by another process, listening to one of its tables."""

    def __init__(
        self, cluster: Cluster, process: str, conn: str, token: str | None, table: Table
    ) -> None:
        self.cluster = cluster
        self.process = process
        self.conn = conn
        self.token = token
        self.table = table
        self.seat: int | None = None

    def push(self, text: str) -> None:
        self.cluster.send(self.process, {"op": "push", "conn": self.conn, "text": text})

    def close(self, code: int, reason: str) -> None:
        self.cluster.remotes.pop(self.conn, None)
        self.cluster.send(
            self.process, {"op": "close", "conn": self.conn, "code": code, "reason": reason}
        )


class Cluster:
    """This process's part in a room of many (with one process alone, it has nothing to do but
    answer the lobby from its own tables)."""

    def __init__(self, room: CardRoom) -> None:
        self.room = room
        self.hub = room.hub
        self.remotes: dict[str, RemoteListener] = {}
        """Sockets of other processes listening to tables this one owns, by their id."""
        self.relayed: dict[str, Relayed] = {}
        """Sockets of this process whose tables other processes own, by their id."""
        self._ids = itertools.count(1)
        self._replies: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._outbox: asyncio.Queue[tuple[str, dict[str, Any]]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._orphans: set[str] = set()
        self._letting_go: set[asyncio.Task[None]] = set()
        self._chains: dict[str, asyncio.Task[None]] = {}
        """The last step queued for each relayed socket (or lobby request)."""

    async def open(self) -> None:
        if not self.hub.shared:
            return
        await self.hub.open(self._deliver)
        self._tasks.append(asyncio.create_task(self._send_all(), name="scopa-cluster-send"))
        loop = asyncio.get_running_loop()

        def lost(codes: list[str]) -> None:  # in the lease keeper's thread
            loop.call_soon_threadsafe(self._let_go, codes)

        self.hub.keep(lambda: list(self.room.tables), lost)
        self._tasks.append(asyncio.create_task(self._take_over(), name="scopa-takeovers"))

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for code in list(self.room.tables):
            with contextlib.suppress(Exception):
                await self.hub.release(code)
        await self.hub.close()

    def new_id(self) -> str:
        return f"{self.hub.name}/{next(self._ids)}"

    def send(self, process: str, message: dict[str, Any]) -> None:
        """Queue ``message`` for ``process``'s inbox; never blocks, keeps the order."""
        self._outbox.put_nowait((process, message))

    async def _send_all(self) -> None:
        while True:
            batch = [await self._outbox.get()]
            # One turn of the loop more: what the task that queued this one queues next (a
            # move's ``played`` after its states) goes out in the same publish.
            await asyncio.sleep(0)
            while not self._outbox.empty():
                batch.append(self._outbox.get_nowait())
            try:
                await self.hub.send(coalesce(batch))
            except Exception:
                log.exception("could not send %d messages; they are lost", len(batch))

    # -- the lobby -------------------------------------------------------------------------

    async def act(self, code: str, action: str, args: dict[str, Any]) -> dict[str, Any]:
        """Lobby ``action`` on table ``code``, at whichever process owns it: the table's
        view, and a seat and token when one was taken."""
        where = await self.room.locate(code)
        if where is None:
            raise LobbyError(404, f"no table has the code {code.strip().upper()!r}")
        if isinstance(where, Table):
            return await act_here(where, action, args)
        ask = self.new_id()
        answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._replies[ask] = answer
        self.send(
            where,
            {"op": "act", "id": ask, "from": self.hub.name, "code": code, "action": action,
             "args": args},
        )
        try:
            async with asyncio.timeout(ASK_SECONDS):
                reply = await answer
        except TimeoutError:
            raise LobbyError(503, "the table's server did not answer in time; try again") from None
        finally:
            self._replies.pop(ask, None)
        if "error" in reply:
            status, message = reply["error"]
            raise LobbyError(status, message)
        result: dict[str, Any] = reply["result"]
        return result

    # -- the inbox -------------------------------------------------------------------------

    async def _deliver(self, message: dict[str, Any]) -> None:
        op = message.get("op")
        if op == "push":
            for conn in message["conns"]:
                relayed = self.relayed.get(conn)
                if relayed is not None:
                    relayed.push(message["text"])
        elif op == "played":
            relayed = self.relayed.get(message["conn"])
            if relayed is not None:
                relayed.played()
        elif op == "close":
            relayed = self.relayed.pop(message["conn"], None)
            if relayed is not None:
                relayed.close(message["code"], message["reason"])
        elif op == "attach":
            self._in_order(message["conn"], self._attach(message))
        elif op == "command":
            self._in_order(message["conn"], self._command(message))
        elif op == "detach":
            self._in_order(message["conn"], self._detach(message))
        elif op == "act":
            self._in_order(message["id"], self._act(message))
        elif op == "job":
            if isinstance(self.room.pool, RemoteBots):
                self.room.pool.answered(message)
        elif op == "reply":
            waiting = self._replies.get(message["id"])
            if waiting is not None and not waiting.done():
                waiting.set_result(message)

    def _in_order(self, key: str, step: Coroutine[Any, Any, None]) -> None:
        """Run ``step`` in its own task, after the steps already queued for ``key`` (one
        socket's messages keep their order; different sockets' never wait for each other, and
        the inbox is read on while a move waits for its commit)."""
        previous = self._chains.get(key)

        async def after_previous() -> None:
            if previous is not None:
                await asyncio.wait([previous])
            await step

        task = asyncio.create_task(after_previous())
        self._chains[key] = task
        task.add_done_callback(functools.partial(self._step_done, key))

    def _step_done(self, key: str, task: asyncio.Task[None]) -> None:
        if self._chains.get(key) is task:
            del self._chains[key]
        if not task.cancelled() and task.exception() is not None:
            log.error("a message from another process failed", exc_info=task.exception())

    async def _detach(self, message: dict[str, Any]) -> None:
        remote = self.remotes.pop(message["conn"], None)
        if remote is not None:
            remote.table.detach(remote)

    async def _attach(self, message: dict[str, Any]) -> None:
        process, conn, code = message["from"], message["conn"], message["code"]
        where = await self.room.locate(code)
        if isinstance(where, str):  # it moved on meanwhile: pass it along
            self.send(where, message)
            return
        if where is None:
            self.send(process, {"op": "push", "conn": conn, "text": error_message(
                ProtocolError("no_table", f"no table has the code {code!r}"))})
            self.send(process, {"op": "close", "conn": conn, "code": POLICY_VIOLATION,
                                "reason": "no such table"})
            return
        remote = RemoteListener(self, process, conn, message.get("token"), where)
        since = message.get("since") or [None, None]
        if await where.seat_listener(
            remote, remote.token, (since[0], since[1]), welcome=not message.get("again")
        ):
            self.remotes[conn] = remote

    async def _command(self, message: dict[str, Any]) -> None:
        remote = self.remotes.get(message["conn"])
        if remote is None:
            return
        try:
            if await run(remote, remote.table, parse(message["text"])):
                self.send(remote.process, {"op": "played", "conn": remote.conn})
        except ProtocolError as error:
            remote.push(error_message(error))

    async def _act(self, message: dict[str, Any]) -> None:
        reply: dict[str, Any] = {"op": "reply", "id": message["id"]}
        try:
            reply["result"] = await self.act(message["code"], message["action"], message["args"])
        except LobbyError as error:
            reply["error"] = [error.status, error.message]
        self.send(message["from"], reply)

    # -- leases and takeovers --------------------------------------------------------------

    def _let_go(self, codes: list[str]) -> None:
        """The lease keeper found ``codes`` lost (called in the event loop's thread)."""
        for code in codes:
            task = asyncio.create_task(self._lost(code))
            self._letting_go.add(task)
            task.add_done_callback(self._letting_go.discard)

    async def _take_over(self) -> None:
        while True:
            await asyncio.sleep(RENEW_SECONDS)
            try:
                await self._tend()
            except Exception:
                log.exception("taking tables over failed; trying again")

    async def _tend(self) -> None:
        """Take over the tables of dead processes, forget sockets of dead processes, and follow
        relayed tables that moved."""
        self._orphans.update(await self.hub.orphans())
        alive = await self.hub.alive()
        for code in list(self._orphans):
            where = await self.room.locate(code)
            if where is None or isinstance(where, Table) or where in alive:
                self._orphans.discard(code)
        for conn, remote in list(self.remotes.items()):
            if remote.process not in alive:
                del self.remotes[conn]
                remote.table.detach(remote)
        by_table: dict[str, list[tuple[str, Relayed]]] = defaultdict(list)
        for conn, relayed in self.relayed.items():
            by_table[relayed.code].append((conn, relayed))
        codes = list(by_table)
        for code, owner in zip(codes, await self.hub.owners(codes), strict=True):
            sockets = by_table[code]
            if owner is not None and owner == sockets[0][1].owner:
                continue
            where = await self.room.locate(code)
            for conn, relayed in sockets:
                if isinstance(where, Table):
                    del self.relayed[conn]
                    await relayed.adopt(where)
                elif isinstance(where, str):
                    relayed.owner = where
                    self.send(where, {"op": "attach", "from": self.hub.name, "conn": conn,
                                      "code": code, "token": relayed.token,
                                      "again": relayed.welcomed})

    async def _lost(self, code: str) -> None:
        """Another process owns ``code`` now: this one lets go, and its sockets reconnect."""
        table = self.room.tables.pop(code, None)
        if table is None:
            return
        log.warning("table %s: lease lost; letting go", code)
        for listener in list(table.listeners):
            listener.close(SERVICE_RESTART, "the table moved: connect again")
        await table.close()


def coalesce(batch: list[tuple[str, dict[str, Any]]]) -> list[tuple[str, dict[str, Any]]]:
    """The batch with each ``push`` as ``{"op": "push", "conns": [...], "text": ...}``, and a
    text pushed to several sockets of one process (the sockets of one seat, or a table's
    spectators) sent once for all of them. A push joins an earlier one only when its socket
    has nothing queued after that one, so every socket's messages keep their order.

    >>> coalesce([("b", {"op": "push", "conn": "a/1", "text": "S"}),
    ...           ("b", {"op": "push", "conn": "a/2", "text": "S"})])
    [('b', {'op': 'push', 'conns': ['a/1', 'a/2'], 'text': 'S'})]
    """
    out: list[tuple[str, dict[str, Any]]] = []
    pushed: dict[tuple[str, str], int] = {}
    """(process, text) -> where its push is in ``out``."""
    last: dict[str, int] = {}
    """socket -> where its last message is in ``out``."""
    for process, message in batch:
        conn = message.get("conn")
        if message.get("op") == "push":
            assert conn is not None
            key = (process, message["text"])
            at = pushed.get(key)
            if at is not None and last.get(conn, -1) < at:
                out[at][1]["conns"].append(conn)
                last[conn] = at
                continue
            pushed[key] = len(out)
            message = {"op": "push", "conns": [conn], "text": message["text"]}
        out.append((process, message))
        if conn is not None:
            last[conn] = len(out) - 1
    return out


async def act_here(table: Table, action: str, args: dict[str, Any]) -> dict[str, Any]:
    """Lobby ``action`` on a table this process owns."""
    seat: int | None = None
    token: str | None = None
    if action == "join":
        seat, token = await table.join(args["name"], args.get("seat"))
    elif action == "leave":
        await table.leave(args["token"])
    elif action == "start":
        await table.start(args["token"])
    elif action == "rematch":
        await table.rematch(args["token"])
    elif action != "show":
        raise LobbyError(422, f"unknown lobby action {action!r}")
    return {"table": table.info(), "seat": seat, "token": token}
