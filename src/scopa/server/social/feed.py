"""The person's socket, ``/ws/me``: opened by the browser on every page while a player is
logged in, it makes them online (:mod:`.presence`) and brings them, at once, the list of
those they follow (who is online, and at which table) and their challenges. Following needs no
consent, so the table is there only as its player allows (issue 34, item 8): to all who follow
them, to those they follow back (the default), or to none; a daily deal's table never.

Whatever the room tells a person (:meth:`.Hub.tell`, heard by every process) reaches the
person's ``/ws/me`` sockets on this process, as it was told. One message is this module's own
and never sent as it is: ``friends_changed``, told to the followers of one who came or went,
or whose match ended, makes this process read each such follower's list again and send it.
A table that starts is heard as a change of the lobby (:meth:`.Hub.on_lobby_change`); the
lists of this process's people who follow anyone are then read again, once for a burst (and
at most every :data:`REFRESH_GAP` seconds while changes keep coming), and sent if they
changed. A killed process's people go offline by lapsing (:mod:`.presence`),
which nobody is told of: with several processes those lists are also read again every
:data:`.LAPSE_SECONDS`.

Bounded as the lobby's feed is (:mod:`..socket_places`): sockets per process and per client
address (1013 past either), a binary frame closes its socket with 1008, and so does a socket
opened with no live session or from a page of another site, and every socket of an account
once it is deleted (the room tells :data:`..table.room.ACCOUNT_DELETED`). The client sends
nothing else.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections.abc import Awaitable, Callable, Collection
from typing import Any, Final

from fastapi import WebSocket, WebSocketDisconnect

from ..accounts.accounts import current_account
from ..cluster.hub import RedisHub
from ..common.errors import LobbyError
from ..common.protocol import encode
from ..common.services import Service
from ..socket_places import (
    POLICY_VIOLATION,
    TRY_AGAIN_LATER,
    SocketPlaces,
    address_of,
    close_quietly,
    read_until_closed,
)
from ..table.finished import FinishedMatch
from ..table.room import ACCOUNT_DELETED, CardRoom
from . import queries as social_queries
from .presence import LAPSE_SECONDS, LocalPresence, Presence, RedisPresence

log = logging.getLogger(__name__)

MAX_SOCKETS: Final = 5000
"""``/ws/me`` sockets a process keeps open at once; one more is closed with 1013."""
PER_ADDRESS: Final = 20
"""``/ws/me`` sockets one client address may keep open at once; past it, 1013 too."""
FRIENDS_CHANGED: Final = "friends_changed"
REFRESH_GAP: Final = 2.0
"""Seconds between two readings of every list here for changes of the lobby that keep coming:
a busy lobby costs a reading of the lists every 2 s at most, not one per change."""


async def _no_challenges(account_id: int) -> list[dict[str, Any]]:
    return []


def person_of(account_id: int) -> str:
    """The key a logged-in person goes by in the hub and in :mod:`.presence`."""
    return f"account:{account_id}"


class PeopleFeed:
    """This process's ``/ws/me`` sockets, by person, and who is online in the room."""

    def __init__(self, room: CardRoom, unlisted: social_queries.Unlisted) -> None:
        self.room = room
        self.unlisted = unlisted
        """Which tables are listed nowhere (the daily deal's), never shown to followers."""
        self.presence: Presence = (
            RedisPresence(room.hub.redis, room.name) if isinstance(room.hub, RedisHub)
            else LocalPresence()
        )
        self.sockets: dict[str, set[WebSocket]] = {}
        self._accounts: dict[str, int] = {}
        self._following: set[str] = set()
        """Those of this process's people who follow anyone: whose lists a table that starts
        may change."""
        self._followers: dict[str, set[int]] = {}
        """Who followed each person here when they came, and who followed them since: told
        when the person goes, even once the follows are gone (a deleted account takes its
        follows with it, and its followers' lists went on showing it online, with Challenge,
        until a reload; issue 35, item 10)."""
        self._sent: dict[str, str] = {}
        """The list each person here was sent last: a list read again and found the same is
        not sent again."""
        self._lapses: asyncio.Task[None] | None = None
        self.places = SocketPlaces(MAX_SOCKETS, PER_ADDRESS)
        self.open_challenges: Callable[[int], Awaitable[list[dict[str, Any]]]] = _no_challenges
        """The challenges to an account still waiting, as offers (the challenges' own, given
        by :class:`.challenges.Challenges`): sent to each page as it opens, so that a page
        opened from a challenge's notification is offered it."""
        self._numbers = itertools.count()
        self._refreshing: asyncio.Task[None] | None = None
        self._again = False
        self._tasks: set[asyncio.Task[None]] = set()
        room.hub.on_told(self.told)
        room.hub.on_lobby_change(self.lobby_changed)

    # -- what the room tells people --------------------------------------------------------

    def _soon(self, work: Any) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def told(self, person: str, message: dict[str, Any]) -> None:
        """A message for ``person``, from any process: to their sockets here, if any."""
        if person not in self.sockets:
            return
        if message.get("type") == FRIENDS_CHANGED:
            if isinstance(message.get("follower"), int) and person in self._followers:
                self._followers[person].add(message["follower"])
            self._soon(self.send_friends(person))
            return
        if message.get("type") == ACCOUNT_DELETED:
            self._soon(self._deleted(person))
            return
        self._soon(self._send(person, encode(message)))

    async def _send(self, person: str, text: str) -> None:
        for socket in list(self.sockets.get(person, ())):
            with contextlib.suppress(Exception):  # a socket closing meanwhile
                await socket.send_text(text)

    async def _deleted(self, person: str) -> None:
        """``person``'s account was deleted: its sockets here close with 1008, after which a
        client does not connect again (issue 34, item 12)."""
        for socket in list(self.sockets.get(person, ())):
            with contextlib.suppress(Exception):  # a socket closing meanwhile
                await socket.close(POLICY_VIOLATION, "account deleted")

    async def friends(self, account_id: int) -> list[dict[str, Any]]:
        """Those ``account_id`` follows, by name: whether each is online, and the table where
        each online one is playing, if they show it to ``account_id``
        (:func:`.queries.playing_at`; None: at none, or not shown)."""
        storage = self.room.storage
        followed = await social_queries.followed_by(storage, account_id)
        online = await self.presence.online([person_of(one.account_id) for one in followed])
        here = [one.account_id for one in followed if person_of(one.account_id) in online]
        tables = await social_queries.playing_at(storage, account_id, here, self.unlisted)
        return [
            {
                "name": one.name,
                "online": person_of(one.account_id) in online,
                "table": tables.get(one.account_id),
            }
            for one in followed
        ]

    async def send_friends(self, person: str, changed_only: bool = False) -> None:
        """Read ``person``'s list again and send it to their sockets here (``changed_only``:
        unless it is what they were sent last)."""
        account_id = self._accounts.get(person)
        if account_id is None:
            return
        try:
            listed = await self.friends(account_id)
        except Exception:
            log.exception("the list of those %s follows could not be read", person)
            return
        if listed:
            self._following.add(person)
        else:
            self._following.discard(person)
        text = encode({"type": "friends", "friends": listed})
        if changed_only and self._sent.get(person) == text:
            return
        self._sent[person] = text
        await self._send(person, text)

    async def tell_followers(self, account_id: int, also: Collection[int] = ()) -> None:
        """Those who follow ``account_id`` read their lists again, wherever they are, and
        those in ``also`` (who followed it a moment ago) too."""
        followers = set(await social_queries.followers_of(self.room.storage, account_id))
        for follower in sorted(followers | set(also)):
            await self.room.hub.tell(person_of(follower), {"type": FRIENDS_CHANGED})

    def lobby_changed(self) -> None:
        """A table was made, joined or started: the tables of those followed may differ."""
        if not self._following:
            return
        if self._refreshing is not None and not self._refreshing.done():
            self._again = True
            return
        self._refreshing = asyncio.create_task(self._refresh_all(), name="scopa-friends")

    async def _refresh_all(self) -> None:
        while True:
            self._again = False
            for person in list(self._following):
                await self.send_friends(person, changed_only=True)
            if not self._again:
                return
            await asyncio.sleep(REFRESH_GAP)

    async def _watch_lapses(self) -> None:
        """Processes sharing a room: a killed process's people go offline by lapsing, and
        nobody tells their followers; every :data:`.LAPSE_SECONDS` the lists here are read
        again, and those that changed are sent."""
        while True:
            await asyncio.sleep(LAPSE_SECONDS)
            self.lobby_changed()

    async def match_ended(self, match: FinishedMatch) -> None:
        """The players of a finished match are at its table no more (or at a new one)."""
        for account_id in await social_queries.seated_accounts(self.room.storage, match.code):
            await self.tell_followers(account_id)

    # -- the sockets -----------------------------------------------------------------------

    async def serve(self, socket: WebSocket) -> None:
        """One page's ``/ws/me`` socket, for as long as it stays open."""
        await socket.accept()
        try:
            account = await current_account(socket, write=True)
        except LobbyError as error:
            await socket.close(POLICY_VIOLATION, error.message)
            return
        if account is None:
            await socket.close(POLICY_VIOLATION, "log in first: /ws/me is a logged-in player's")
            return
        address = address_of(socket)
        if self.places.full(address):
            await socket.close(TRY_AGAIN_LATER, "the room is full just now; try again later")
            return
        person = person_of(account.id)
        number = str(next(self._numbers))
        if self._lapses is None and isinstance(self.presence, RedisPresence):
            self._lapses = asyncio.create_task(self._watch_lapses(), name="scopa-lapses")
        self.sockets.setdefault(person, set()).add(socket)
        self._accounts[person] = account.id
        self.places.take(address)
        try:
            # Marked online before "me" says so: a page told it is in the room may be
            # challenged at once, and the challenge asks the presence.
            await self._came(person, number, account.id)
            await socket.send_text(encode({"type": "me", "name": account.name}))
            await self.send_friends(person)
            for offer in await self.open_challenges(account.id):
                await socket.send_text(encode({"type": "challenge", **offer}))
            await read_until_closed(socket, "/ws/me takes no messages")
        except WebSocketDisconnect:
            pass
        finally:
            await self._gone(person, socket, address, number, account.id)

    async def _came(self, person: str, number: str, account_id: int) -> None:
        """Mark ``person`` online; a failure (Redis out of reach) leaves them offline to others
        but keeps their socket, which still gets their challenges' answers and lists."""
        try:
            self._followers[person] = set(
                await social_queries.followers_of(self.room.storage, account_id))
            if await self.presence.came(person, number):
                await self.tell_followers(account_id)
        except Exception:
            log.exception("%s could not be marked online", person)

    async def _gone(
        self, person: str, socket: WebSocket, address: str, number: str, account_id: int
    ) -> None:
        held = self.sockets.get(person, set())
        held.discard(socket)
        followed_by: set[int] = set()
        if not held:
            followed_by = self._followers.pop(person, set())
            self.sockets.pop(person, None)
            self._accounts.pop(person, None)
            self._following.discard(person)
            self._sent.pop(person, None)
        self.places.give_back(address)
        await close_quietly(socket)
        try:
            if await self.presence.went(person, number):
                await self.tell_followers(account_id, also=followed_by)
        except Exception:
            log.exception("%s could not be marked offline", person)

    async def close(self) -> None:
        if self._lapses is not None:
            self._lapses.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._lapses
        await self.presence.close()


PEOPLE: Service[PeopleFeed] = Service("people")
"""Who is online and who follows whom, as a dependency of the routes."""
