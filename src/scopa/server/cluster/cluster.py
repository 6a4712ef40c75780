"""The card room's processes working as one: commands relayed to a table's owner, its messages
relayed back, lobby requests forwarded, leases kept, and tables taken over from dead owners.

Every process is an equal ``scopa serve`` behind one address. A socket may land on any of
them. At the owner of its table (see :mod:`.hub`) it is an ordinary listener; anywhere else it
is *relayed*: its hello and commands go to the owner's inbox, and the owner keeps a
:class:`RemoteListener` for it, whose messages come back through this process's inbox. The
owner runs the same code for both (:mod:`.commands`), so a seat's sockets may sit on different
processes and still count together (presence, the cap of sockets per seat).

Ownership follows the sockets: a process that gets a socket for a table another process owns
asks that owner to **hand it over** (``handover``). An owner with no socket of its own at the
table agrees: it stops taking its relayed sockets' commands (those that arrive now are
``bounce``d back to their process, which sends them again to the new owner), waits for the
commands it is running, gives its lease to the asker in Redis, and tells every process with
sockets at the table (``handed``); the asker loads the table, raising its epoch, so the database
refuses the former owner's writes as after any takeover. An owner with a socket of its own
keeps the table, so two people on two processes never toss it back and forth; their moves are
relayed as before. Behind nginx (``hash $uri consistent`` on the socket's path) all of a
table's sockets reach one process, so a table is handed over at most once, when its first
socket arrives at a process other than the one that made it.

Messages between processes are JSON objects with an ``op``: ``attach``, ``command``,
``detach`` and ``handover`` go to an owner; ``push``, ``played``, ``close``, ``bounce`` and
``handed`` come back; ``act`` and ``reply`` carry lobby requests. They leave in the order they
were sent (one sender task), so a socket's messages arrive in order.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import logging
from collections import defaultdict
from collections.abc import Callable, Coroutine
from typing import Any, Final, Protocol

from ..common.errors import LobbyError
from ..common.protocol import ProtocolError, error_message, parse
from ..table.commands import run
from ..table.room import CardRoom
from ..table.tables import POLICY_VIOLATION, Table
from .hub import RENEW_SECONDS
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
    closing: bool
    seen: tuple[int | None, int | None]
    """The (match, version) its client has: what it said hello with, then its last state.
    Each owner it is moved to is told it, and sends the plays after it as ``missed``."""
    continues: bool
    """Its hello said the client continues after a round's breakdown: every owner holds a
    round's end for it, as for a socket of its own."""
    account_id: int | None
    """A spectator's account, read from its cookie here: each owner is told it, and trusts
    it, as it comes from a process of the room."""

    def push(self, text: str) -> None: ...

    def close(self, code: int, reason: str) -> None: ...

    def played(self) -> None:
        """A move this socket sent was played (moves do not count against its rate limit)."""

    async def adopt(self, table: Table) -> None:
        """This process now owns the table: listen to it directly, as a local socket."""

    async def resend(self, text: str) -> None:
        """Carry out again a command its table's former owner bounced: here if this process
        owns the table now, else at its owner."""


class RemoteListener:
    """At the owner: a socket held by another process, listening to one of its tables."""

    def __init__(
        self, cluster: Cluster, process: str, conn: str, token: str | None, table: Table,
        account_id: int | None = None,
    ) -> None:
        self.cluster = cluster
        self.process = process
        self.conn = conn
        self.token = token
        self.table = table
        self.seat: int | None = None
        self.account_id = account_id

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
        self.sockets: dict[str, Relayed] = {}
        """Sockets of this process that were ever relayed, by their id, until they close: a
        command a former owner bounces finds its socket here, relayed or not."""
        self._held: dict[str, list[str]] = {}
        """Commands bounced by an owner that is handing their table over, by socket: sent
        again once the table has its new owner."""
        self._handing: set[str] = set()
        """Tables this process is handing over now."""
        self._ids = itertools.count(1)
        self._replies: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._outbox: asyncio.Queue[tuple[str, dict[str, Any]]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._orphans: set[str] = set()
        self._letting_go: set[asyncio.Task[None]] = set()
        self._chains: dict[str, asyncio.Task[None]] = {}
        """The last step queued for each relayed socket (or lobby request)."""
        self.also_held: list[Callable[[], list[str]]] = []
        """Other leases this process keeps, beside its tables' (each tournament's director,
        :meth:`..tournaments.director.Tournaments.held`): called from the lease keeper's
        thread, so each must read without changing anything."""

    async def open(self) -> None:
        if not self.hub.shared:
            return
        await self.hub.open(self._deliver)
        self._tasks.append(asyncio.create_task(self._send_all(), name="scopa-cluster-send"))
        loop = asyncio.get_running_loop()

        def lost(codes: list[str]) -> None:  # in the lease keeper's thread
            loop.call_soon_threadsafe(self._let_go, codes)

        self.hub.keep(
            lambda: list(self.room.tables) + [key for more in self.also_held for key in more()],
            lost,
        )
        self._tasks.append(asyncio.create_task(self._take_over(), name="scopa-takeovers"))

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self.hub.stop_keeping()
        for code in list(self.room.tables):
            with contextlib.suppress(Exception):
                await self.hub.release(code)
        await self.hub.close()

    def new_id(self) -> str:
        return f"{self.hub.name}/{next(self._ids)}"

    def relay(self, socket: Relayed, conn: str, hello: dict[str, Any]) -> None:
        """Start relaying ``socket`` (id ``conn``) to its table's owner, with its ``hello``
        (``since``), and ask the owner for the table."""
        assert socket.owner is not None
        self.relayed[conn] = self.sockets[conn] = socket
        self.send(socket.owner, {"op": "attach", "from": self.hub.name, "conn": conn,
                                 "code": socket.code, "token": socket.token, **hello})
        self.send(socket.owner, {"op": "handover", "from": self.hub.name, "conn": conn,
                                 "code": socket.code})

    def forget(self, conn: str) -> None:
        """Socket ``conn`` of this process closed: tell its table's owner if it was relayed."""
        self._held.pop(conn, None)
        self.sockets.pop(conn, None)
        relayed = self.relayed.pop(conn, None)
        if relayed is not None and relayed.owner is not None:
            self.send(relayed.owner, {"op": "detach", "conn": conn})

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
            raise LobbyError(404, f"no table has the code {code.strip().upper()!r}",
                             code="unknown_table", params={"code": code.strip().upper()})
        if isinstance(where, Table):
            try:
                return await act_here(where, action, args)
            except LobbyError as error:
                if error.status != 503 or self.room.tables.get(where.code) is where:
                    raise
            # The table was handed over while this waited for it: ask its new owner.
            where = await self.room.locate(code)
            if not isinstance(where, str):
                raise LobbyError(503, "this table moved to another server just now: try again",
                                 code="table_moved")
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
            raise LobbyError(503, "the table's server did not answer in time; try again",
                             code="table_server_slow") from None
        finally:
            self._replies.pop(ask, None)
        if "error" in reply:
            # The owner's refusal as it raised it: its status, sentence, code and params (a
            # process of an older release sends the first two only).
            status, message, *said = reply["error"]
            raise LobbyError(status, message, code=said[0] if said else "refused",
                             params=said[1] if said else None)
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
        elif op == "handover":
            self._in_order(message["conn"], self._hand_over(message))
        elif op == "handed":
            self._in_order(f"table:{message['code']}", self._follow(message["code"]))
        elif op == "bounce":
            self._bounced(message)
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
        known = self.remotes.pop(conn, None)
        if known is not None:
            if known.table is where and known in where.listeners:
                # Attached here already: both the lease (``_tend``) and the former owner's
                # ``handed`` sent it on. A second listener would send it everything twice.
                self.remotes[conn] = known
                return
            known.table.detach(known)
        account = message.get("account")
        remote = RemoteListener(self, process, conn, message.get("token"), where,
                                account if isinstance(account, int) else None)
        since = message.get("since") or [None, None]
        if await where.seat_listener(
            remote, remote.token, (since[0], since[1]), welcome=not message.get("again"),
            continues=message.get("continues") is True,
        ):
            self.remotes[conn] = remote

    async def _command(self, message: dict[str, Any]) -> None:
        remote = self.remotes.get(message["conn"])
        if remote is None:
            # Not (or no longer) a socket of a table here: its table was handed over, or it
            # was closed. Its process sends it again to the new owner, or drops it.
            self.send(message["from"], {"op": "bounce", "from": self.hub.name,
                                        "conn": message["conn"], "text": message["text"]})
            return
        try:
            if await run(remote, remote.table, parse(message["text"])):
                self.send(remote.process, {"op": "played", "conn": remote.conn})
        except ProtocolError as error:
            remote.push(error_message(error))

    def _bounced(self, message: dict[str, Any]) -> None:
        conn = message["conn"]
        socket = self.sockets.get(conn)
        if socket is None or socket.closing:
            return
        if socket.owner == message["from"]:  # its table's new owner is not known here yet
            self._held.setdefault(conn, []).append(message["text"])
        else:
            self._in_order(conn, socket.resend(message["text"]))

    async def _hand_over(self, message: dict[str, Any]) -> None:
        """Another process has a socket for a table this one owns: give it the table, unless a
        socket of this process is at it (then it stays, and cannot come back and forth)."""
        code, to = message["code"], message["from"]
        table = self.room.tables.get(code)
        if table is None or to == self.hub.name or code in self._handing:
            return
        if not all(isinstance(listener, RemoteListener) for listener in table.listeners):
            return
        remotes = [r for r in table.listeners if isinstance(r, RemoteListener)]
        if not any(remote.process == to for remote in remotes):  # its socket was refused
            return
        self._handing.add(code)
        try:
            for remote in remotes:  # their next commands bounce; they still get its messages
                self.remotes.pop(remote.conn, None)
            me = asyncio.current_task()
            running = {
                task for remote in remotes
                if (task := self._chains.get(remote.conn)) is not None and task is not me
                and remote.conn != message["conn"]
            }
            if running:  # a move being stored is stored, and shown, before the table goes
                await asyncio.wait(running)
            left = await self.room.hand_over(table, to)
            if left is None:
                return
            for listener in left:  # a socket of this process that came meanwhile: reconnect
                if not isinstance(listener, RemoteListener):
                    listener.close(SERVICE_RESTART, "the table moved: connect again")
            for process in {remote.process for remote in remotes} | {to}:
                self.send(process, {"op": "handed", "code": code})
            log.info("table %s: handed over to %s", code, to)
        finally:
            self._handing.discard(code)

    async def _follow(self, code: str) -> None:
        """Table ``code`` was handed over: take it if it is this process's now (the lease says
        so), and move its relayed sockets to it."""
        sockets = [(conn, r) for conn, r in self.relayed.items() if r.code == code]
        await self._move(sockets, await self.room.locate(code))

    async def _move(self, sockets: list[tuple[str, Relayed]], where: Table | str | None) -> None:
        """Relayed ``sockets`` of one table listen to it ``where`` it is now: here, or at
        another owner. Commands bounced meanwhile go after them."""
        for conn, relayed in sockets:
            if self.relayed.get(conn) is not relayed:
                # Moved meanwhile by another step (``_tend`` reads the leases while a
                # ``handed`` is followed), or closed: adopted twice, it would be sent the
                # state again, with plays it has seen as ``missed``.
                continue
            if isinstance(where, Table):
                self.relayed.pop(conn, None)
                await relayed.adopt(where)
            elif isinstance(where, str):
                relayed.owner = where
                self.send(where, {"op": "attach", "from": self.hub.name, "conn": conn,
                                  "code": relayed.code, "token": relayed.token,
                                  "again": relayed.welcomed, "since": list(relayed.seen),
                                  "continues": relayed.continues,
                                  "account": relayed.account_id})
            for text in self._held.pop(conn, []):
                await relayed.resend(text)

    async def _act(self, message: dict[str, Any]) -> None:
        reply: dict[str, Any] = {"op": "reply", "id": message["id"]}
        try:
            reply["result"] = await self.act(message["code"], message["action"], message["args"])
        except LobbyError as error:
            reply["error"] = [error.status, error.message, error.code, error.params]
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
            await self._move(sockets, await self.room.locate(code))

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
        raise LobbyError(422, f"unknown lobby action {action!r}",
                         code="unknown_action", params={"action": action})
    return {"table": table.info(), "seat": seat, "token": token}
