"""Who listens at a table, and what they are sent: the ``table``, each seat's ``state`` and
the match's ``over``.

A table has one writer and many readers: its seats' sockets (a few a seat) and its spectators.
What each may see is the core's business (``Game.view(seat)``): this piece keeps the
connections in the order they came, caps a seat's sockets, and writes each seat's message once
per broadcast from that seat's own view, so no seat is ever sent another's hand. It changes
nothing of the match. Its table calls it holding the table's lock, so the state sent is a
stored one and no broadcast slips between the parts of another.
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection
from typing import Any, Protocol

import orjson

from ...game import Game
from ...view import Play
from ..common.protocol import ProtocolError, encode, error_message
from ..common.settings import Settings
from ..store import assist_queries, rating_queries
from ..store.storage import Storage, StoredSeat
from .chat import TableChat
from .views import ViewTexts

POLICY_VIOLATION = 1008
"""The WebSocket close code for a client that broke the rules of the protocol."""


class Listener(Protocol):
    """A connection that receives this table's messages for one seat (``None``: a spectator);
    a spectator's socket has the account it is logged in as, which the chat reads."""

    seat: int | None
    account_id: int | None

    def push(self, text: str) -> None:
        """Queue ``text`` for the client; never blocks."""

    def close(self, code: int, reason: str) -> None:
        """Close the connection once what is queued has been sent."""


def replaced_message(cap: int) -> str:
    """What the oldest socket of a seat is told when a newer one takes its place."""
    return encode(
        {
            "type": "error",
            "code": "replaced",
            "message": f"this seat is open in {cap} newer places: this one is closed",
        }
    )


class Clock(Protocol):
    """What the broadcast reads of the table's turns: the clock a ``state`` shows, who is to
    move, whose clock starts afresh when their person comes back, and the seats that continue
    after a round's breakdown or that a stand-in plays for."""

    continuers: set[int]
    stand_ins: set[int]

    def clock_left(self) -> float | None: ...

    async def save_stand_ins(self) -> bool: ...

    def to_move(self) -> int | None: ...

    def schedule(self) -> None: ...


class Greeter(Protocol):
    """What the broadcast reads of the table's seating when a socket says hello."""

    def seat_of(self, token: str) -> int | None: ...

    def welcome_message(self, seat: int | None, hints: bool) -> str: ...


class Shown(Protocol):
    """What the broadcast reads of its table: the match, its lock, its turns, seating and chat,
    and what anyone may know of it. A protocol, not the table's class, so the table and its
    pieces import one way."""

    code: str
    status: str
    seats: list[StoredSeat]
    match_id: int | None
    game: Game | None
    plays: list[Play]
    mode: rating_queries.TableMode | None
    lock: asyncio.Lock
    chat: TableChat

    @property
    def version(self) -> int: ...

    @property
    def listeners(self) -> dict[Listener, None]: ...

    @property
    def turns(self) -> Clock: ...

    @property
    def seating(self) -> Greeter: ...

    async def hints_barred(self) -> assist_queries.Barred | None: ...

    def info(self) -> dict[str, Any]: ...

    def touch(self) -> None: ...


class Broadcast:
    """A table's listeners, and the messages it sends them."""

    def __init__(self, table: Shown, storage: Storage, settings: Settings) -> None:
        self._table = table
        self._storage = storage
        self._settings = settings
        self.listeners: dict[Listener, None] = {}
        """Every connection listening, oldest first (a set that keeps the order they came in)."""
        self.by_stand_in: tuple[int | None, int] | None = None
        """The (match, version) of the last move a stand-in played, so a person who comes back
        is not told it was theirs."""
        self._views = ViewTexts()

    # -- who listens -------------------------------------------------------------------------

    def present(self, seat: int) -> bool:
        return any(listener.seat == seat for listener in self.listeners)

    def connected(self) -> set[int | None]:
        """The seats that have a connection here (``None`` among them: a spectator)."""
        return {listener.seat for listener in self.listeners}

    async def seat_listener(
        self,
        listener: Listener,
        token: str | None,
        since: tuple[int | None, int | None] | None,
        welcome: bool = True,
        continues: bool = False,
    ) -> bool:
        """:meth:`.Table.seat_listener`, which says what it does: it takes the table's lock."""
        table = self._table
        seat = None
        if token is not None:
            seat = table.seating.seat_of(token)
            if seat is None:
                listener.push(
                    error_message(
                        ProtocolError("bad_token", "that token holds no seat at this table")
                    )
                )
                listener.close(POLICY_VIOLATION, "bad token")
                return False
        # Read now, not once the listener is attached: from then on its client may act, and a
        # socket adopted at a takeover is relayed to the old owner until this returns.
        chat = await table.chat.greeting(table, seat, listener.account_id)
        barred = await table.hints_barred() if welcome else None
        if welcome and table.mode is None and table.status != "waiting":
            table.mode = await rating_queries.table_mode(self._storage, table.code)
        async with table.lock:
            listener.seat = seat
            if seat is not None and continues:
                table.turns.continuers.add(seat)
            if welcome:
                listener.push(table.seating.welcome_message(seat, barred is None))
            # A hello with the seat's token is its person coming back; not so a socket the
            # table's new owner takes over (``welcome`` false), which said its hello before.
            came_back = welcome and seat is not None and seat in table.turns.stand_ins
            if came_back:
                assert seat is not None
                table.turns.stand_ins.discard(seat)
                await table.turns.save_stand_ins()
            self.attach(listener, since, came_back)
            if chat is not None:
                listener.push(chat)
        return True

    def attach(
        self,
        listener: Listener,
        since: tuple[int | None, int | None] | None,
        came_back: bool = False,
    ) -> None:
        """Start sending this table's messages to ``listener``: the table, then the state.
        ``came_back``: the stand-in of the listener's seat has just ended (its person is back),
        so everyone is told, and a turn of theirs gets a fresh clock.

        Call it holding the lock, so the state sent is a stored one and no broadcast slips
        between it and the next.
        """
        table = self._table
        seat = listener.seat
        same_seat = [other for other in self.listeners if seat is not None and other.seat == seat]
        cap = self._settings.sockets_per_seat
        for oldest in same_seat[: max(0, len(same_seat) - cap + 1)]:
            del self.listeners[oldest]
            oldest.push(replaced_message(cap))
            oldest.close(POLICY_VIOLATION, "replaced by a newer connection")
        self.listeners[listener] = None
        table.touch()
        if came_back and seat == table.turns.to_move():
            table.turns.schedule()  # the stand-in's turn ends, the person's clock starts
        if came_back or (seat is not None and not same_seat):
            self.broadcast_table()
        else:
            listener.push(encode({"type": "table", "table": table.info()}))
        if table.game is not None:
            listener.push(self.state_message(listener.seat, since))
            if table.game.is_over:
                listener.push(self.over_message())

    def detach(self, listener: Listener) -> None:
        if self.listeners.pop(listener, False) is None:
            self._table.touch()
            seat = listener.seat
            if seat is not None and not self.present(seat):
                self.broadcast_table()  # away now (their turn's clock runs on either way)

    def drop(self, seats: Collection[int], account_id: int | None, message: str,
             reason: str) -> None:
        """Close, after ``message``, the connections of ``seats`` (and, given an account, that
        account's own as a spectator): whoever holds those seats next must not be watched
        through them."""
        for listener in [other for other in self.listeners
                         if other.seat in seats
                         or (account_id is not None and other.account_id == account_id)]:
            del self.listeners[listener]
            listener.push(message)
            listener.close(POLICY_VIOLATION, reason)

    # -- what they are sent ------------------------------------------------------------------

    def state_message(
        self,
        seat: int | None,
        since: tuple[int | None, int | None] | None = None,
        shared: tuple[dict[str, Any] | None, bool, float | None] | None = None,
    ) -> str:
        """:meth:`.Table.state_message`, which says what it is."""
        table = self._table
        assert table.game is not None
        play, by_stand_in, clock = shared or self.state_shared()
        message: dict[str, Any] = {
            "type": "state",
            "table": table.code,
            "match": table.match_id,
            "version": table.version,
            "play": play,
            "view": self._view_of(seat),
            "stand_in_played": by_stand_in,
            "clock": clock,
        }
        if since is not None:
            match, version = since
            if match == table.match_id and version is not None and version <= table.version:
                message["missed"] = [play.to_dict() for play in table.plays[version:]]
        return encode(message)

    def state_shared(self) -> tuple[dict[str, Any] | None, bool, float | None]:
        """What every seat's ``state`` says alike besides the view: the last play, whether a
        stand-in played it, and the turn's clock (worked out once for a broadcast)."""
        table = self._table
        return (
            table.plays[-1].to_dict() if table.plays else None,
            self.by_stand_in == (table.match_id, table.version),
            table.turns.clock_left(),
        )

    def _view_of(self, seat: int | None) -> orjson.Fragment:
        """``seat``'s view as the core writes it (``Game.view(seat).to_dict()``), as JSON."""
        table = self._table
        assert table.game is not None
        return self._views.of(table.game, table.match_id, table.version, seat)

    def over_message(self) -> str:
        table = self._table
        assert table.game is not None
        return encode(
            {
                "type": "over",
                "table": table.code,
                "match": table.match_id,
                "version": table.version,
                "winner": table.game.winner,
                "scores": table.game.scores,
                "record": f"/api/matches/{table.match_id}",
            }
        )

    def broadcast_table(self) -> None:
        text = encode({"type": "table", "table": self._table.info()})
        for listener in list(self.listeners):
            listener.push(text)

    def broadcast_state(self, with_over: bool = True) -> None:
        """Each listener gets its seat's view; a view is built once per seat, not per listener.
        ``with_over``: a finished match's ``over`` follows at once (not at the move that ends
        it: the table sends that one once the match's subscribers are done)."""
        game = self._table.game
        texts: dict[int | None, str] = {}
        over = self.over_message() if with_over and game is not None and game.is_over else None
        shared = self.state_shared()
        for listener in list(self.listeners):
            seat = listener.seat
            text = texts.get(seat)
            if text is None:
                text = texts[seat] = self.state_message(seat, shared=shared)
            listener.push(text)
            if over is not None:
                listener.push(over)
