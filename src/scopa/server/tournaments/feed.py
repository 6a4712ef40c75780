"""A tournament's page, live: a WebSocket at ``/ws/tournaments/{id}`` that sends the
tournament at once and again whenever it changes (a join, a pairing, a result, its end), from
whichever process made the change, and tells a logged-in player when they are paired.

Changes are heard through the hub (``tournament:ID``, see :mod:`.director`): a process reads
the tournament once per change for all its sockets on that tournament, and changes heard
while it reads are sent once more afterwards, in one send. A player's socket also listens to
``account:ID``, on which the director tells them their table and seat token when paired.

Messages: ``{"type": "tournament", "tournament": {...}}`` (what ``GET /api/tournaments/{id}``
returns, without ``me``) and ``{"type": "paired", ...}``. The socket reads nothing from the
client but its close (a binary frame closes it, 1008).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any, Final

import orjson
from fastapi import WebSocket, WebSocketDisconnect

from ..accounts import accounts
from ..common.errors import LobbyError
from ..socket_places import (
    POLICY_VIOLATION,
    TRY_AGAIN_LATER,
    SocketPlaces,
    address_of,
    close_quietly,
    read_until_closed,
)
from . import queries as tournament_queries
from .director import Tournaments, person_key, watch_key
from .views import public_view

log = logging.getLogger(__name__)

MAX_SOCKETS: Final = 5000
"""Tournament sockets a process keeps open at once; one more is closed with 1013."""
PER_ADDRESS: Final = 20


class Watchers:
    """This process's sockets on one tournament, and the tournament sent to them."""

    def __init__(self, feed: TournamentFeed, tournament_id: int) -> None:
        self.feed = feed
        self.tournament_id = tournament_id
        self.sockets: set[WebSocket] = set()
        self._telling: asyncio.Task[None] | None = None
        self._again = False

    def heard(self, message: dict[str, Any]) -> None:
        if message.get("type") != "tournament_changed":
            return
        if self._telling is not None and not self._telling.done():
            self._again = True
            return
        self._telling = asyncio.create_task(self._tell_all(), name="scopa-tournament-feed")

    async def message(self) -> str | None:
        found = await tournament_queries.find(self.feed.director.storage, self.tournament_id)
        if found is None:
            return None
        view = await public_view(self.feed.director.storage, found)
        return orjson.dumps({"type": "tournament", "tournament": view}).decode()

    async def _tell_all(self) -> None:
        while True:
            self._again = False
            try:
                text = await self.message()
            except Exception:
                log.exception("tournament %s could not be read", self.tournament_id)
                return
            for socket in list(self.sockets):
                if text is not None:
                    with contextlib.suppress(Exception):  # a socket closing meanwhile
                        await socket.send_text(text)
            if not self._again:
                return


class TournamentFeed:
    """Every tournament socket of this process."""

    def __init__(self, director: Tournaments) -> None:
        self.director = director
        self.watching: dict[int, Watchers] = {}
        self.places = SocketPlaces(MAX_SOCKETS, PER_ADDRESS)
        self._sending: set[asyncio.Task[None]] = set()

    async def serve(self, socket: WebSocket, tournament_id: int) -> None:
        """One tournament page's socket, for as long as it stays open."""
        await socket.accept()
        address = address_of(socket)
        if self.places.full(address):
            await socket.close(TRY_AGAIN_LATER, "too many pages are open just now; try later")
            return
        if await tournament_queries.find(self.director.storage, tournament_id) is None:
            await socket.close(POLICY_VIOLATION, f"no tournament has the id {tournament_id}")
            return
        # The session cookie the page's socket carries, read as a request's would be, and
        # only from a page of this site: another site's page could open this socket with the
        # player's cookie and read their seat tokens.
        try:
            account = await accounts.current_account(socket, write=True)
        except LobbyError as error:
            await socket.close(POLICY_VIOLATION, error.message)
            return
        watchers = self.watching.get(tournament_id)
        if watchers is None:
            watchers = self.watching[tournament_id] = Watchers(self, tournament_id)
            self.director.listen(watch_key(tournament_id), watchers.heard)
        watchers.sockets.add(socket)
        self.places.take(address)

        def told(message: dict[str, Any]) -> None:
            if message.get("tournament") == tournament_id:
                text = orjson.dumps(message).decode()
                sending = asyncio.create_task(self._send(socket, text))
                self._sending.add(sending)
                sending.add_done_callback(self._sending.discard)

        person = None if account is None else person_key(account.id)
        if person is not None:
            self.director.listen(person, told)
        try:
            first = await watchers.message()
            if first is not None:
                await socket.send_text(first)
            await read_until_closed(socket, "this socket takes no messages")
        except WebSocketDisconnect:
            pass
        finally:
            if person is not None:
                self.director.stop_listening(person, told)
            watchers.sockets.discard(socket)
            if not watchers.sockets:
                self.director.stop_listening(watch_key(tournament_id), watchers.heard)
                self.watching.pop(tournament_id, None)
            self.places.give_back(address)
            await close_quietly(socket)

    @staticmethod
    async def _send(socket: WebSocket, text: str) -> None:
        with contextlib.suppress(Exception):
            await socket.send_text(text)
