"""The room's hub, as the tables and the features see it: how a process sends to the others,
holds its tables' leases and hears what the whole room is told (:class:`Hub`), and the hub of a
process alone (:class:`LocalHub`).

The interface is on the floor so that the table code depends on it alone; the composition root
(``server/app.py``) hands the room the hub its settings ask for, :class:`LocalHub` or the
cluster's Redis one (``cluster/hub.py``).
"""

from __future__ import annotations

import os
import socket
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

Deliver = Callable[[dict[str, Any]], Awaitable[None]]
Told = Callable[[str, dict[str, Any]], None]
"""A listener of messages to people: called with the person's key and the message."""

def process_name() -> str:
    """This process's default name: host and process id, unique among running processes."""
    return f"{socket.gethostname()}:{os.getpid()}"


class Hub(Protocol):
    name: str
    shared: bool
    """Whether other processes share the room (and so the lobby and the leases)."""

    async def open(self, deliver: Deliver) -> None:
        """Start delivering this process's inbox to ``deliver``."""

    async def close(self) -> None: ...

    async def send(self, messages: list[tuple[str, dict[str, Any]]]) -> None:
        """Put each message in its process's inbox, in order (lost if that process is gone)."""

    async def claim(self, code: str) -> bool:
        """Take table ``code``'s lease if nobody holds it; whether this process holds it now."""

    async def owner(self, code: str) -> str | None:
        """The process holding ``code``'s lease, if any."""

    async def owners(self, codes: list[str]) -> list[str | None]:
        """The owner of each of ``codes``, in one round trip."""

    def keep(self, held: Callable[[], list[str]], lost: Callable[[list[str]], None]) -> None:
        """Renew the leases on the tables ``held()`` names, every few seconds, until
        closed; ``lost`` gets those this process no longer holds (it is called from another
        thread)."""

    async def stop_keeping(self) -> None:
        """Stop renewing leases, and return once the renewer has stopped: a process that is
        closing gives its tables back after this, so the renewer never takes its own release
        for a lease lost to another process."""

    async def release(self, code: str) -> None: ...

    async def hand(self, code: str, to: str) -> bool:
        """Give ``code``'s lease, held by this process, to process ``to`` (whether it was still
        this process's to give): ``to`` is its owner at once, so nobody else claims it meanwhile,
        and it raises the table's epoch when it loads it, like any new owner."""

    async def alive(self) -> set[str]:
        """The processes that are alive now (this one included)."""

    async def orphans(self) -> list[str]:
        """The tables that processes now dead owned (each dead process is then forgotten)."""

    async def lobby_changed(self) -> None:
        """A waiting table changed (made, joined, left, started, expired) in the database:
        every process's copy of the open-table list is out of date."""

    async def lobby_version(self) -> int:
        """A number that changes with every :meth:`lobby_changed`, in any process."""

    def on_lobby_change(self, heard: Callable[[], None]) -> None:
        """Call ``heard`` after every :meth:`lobby_changed` of any process, this one's too (the
        lobby's live list, :mod:`..lobby_feed`, listens)."""

    async def tell(self, person: str, message: dict[str, Any]) -> None:
        """Send ``message`` to ``person`` (a key naming an account or a guest), wherever in the
        room their sockets are: every process's listeners hear it, and those that hold one of
        the person's sockets pass it on (lost if the person has none open anywhere)."""

    def on_told(self, heard: Told) -> None:
        """Call ``heard`` with each :meth:`tell` of any process, this one's too."""


class LocalHub:
    """One process alone: it owns every table, and there is nobody else."""

    shared = False

    def __init__(self, name: str) -> None:
        self.name = name
        self._lobby_heard: list[Callable[[], None]] = []
        self._told: list[Told] = []

    async def open(self, deliver: Deliver) -> None:
        pass

    async def close(self) -> None:
        pass

    async def send(self, messages: list[tuple[str, dict[str, Any]]]) -> None:
        raise AssertionError("one process alone has nobody to talk to")

    async def claim(self, code: str) -> bool:
        return True

    async def owner(self, code: str) -> str | None:
        return self.name

    async def owners(self, codes: list[str]) -> list[str | None]:
        return [self.name for _ in codes]

    def keep(self, held: Callable[[], list[str]], lost: Callable[[list[str]], None]) -> None:
        pass

    async def stop_keeping(self) -> None:
        pass

    async def release(self, code: str) -> None:
        pass

    async def hand(self, code: str, to: str) -> bool:
        return False

    async def alive(self) -> set[str]:
        return {self.name}

    async def orphans(self) -> list[str]:
        return []

    async def lobby_changed(self) -> None:
        for heard in self._lobby_heard:
            heard()

    async def lobby_version(self) -> int:
        return 0

    def on_lobby_change(self, heard: Callable[[], None]) -> None:
        self._lobby_heard.append(heard)

    async def tell(self, person: str, message: dict[str, Any]) -> None:
        for heard in self._told:
            heard(person, message)

    def on_told(self, heard: Told) -> None:
        self._told.append(heard)
