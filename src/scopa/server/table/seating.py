"""Who sits at a table: taking a seat and giving it up, a deleted account's seats, what the
lobby may know of the table, and whose own moves each seat's were.

A seat is a secret token's (only its hash is stored) and, during a match, a person's or a
bot's. This piece keeps the seats' rules in one place: who may sit where and when, that a
seat's token is checked before anything is done for it, that a seat given up is stored before
anyone is told, and that the connections of a seat someone left are closed, so whoever sits
there next is not watched through them. Its table calls it holding the table's lock.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any, Protocol, TypeVar

from ...game import Game
from ...rules import Rules
from ...view import Play
from ..common import fairplay
from ..common.errors import LobbyError
from ..common.protocol import encode
from ..common.settings import Settings
from ..common.tokens import hash_token, new_seat_token, token_matches
from ..store import rating_queries
from ..store.deletion_queries import DELETED_NAME
from ..store.storage import Storage, StoredSeat
from ..store.writer import StaleOwnerError
from . import bots
from .listeners import Broadcast
from .turns import Turns

log = logging.getLogger(__name__)
T = TypeVar("T")

MAX_NAME_LENGTH = 32


def clean_name(name: str) -> str:
    """A guest's display name: printable, trimmed, 1 to 32 characters."""
    name = " ".join(name.split())
    if not name or not name.isprintable():
        raise LobbyError(422, "a display name must have at least one printable character",
                         code="display_name_empty")
    if len(name) > MAX_NAME_LENGTH:
        raise LobbyError(422, f"a display name may have at most {MAX_NAME_LENGTH} characters",
                         code="display_name_too_long", params={"most": MAX_NAME_LENGTH})
    return name


class Seated(Protocol):
    """What the seating reads of its table: the seats, the match's status and mode, its
    broadcast and turns. A protocol, not the table's class, so they import one way."""

    code: str
    pace: str
    rules: Rules
    look: str
    status: str
    seats: list[StoredSeat]
    match_id: int | None
    game: Game | None
    plays: list[Play]
    epoch: int
    touched: datetime
    mode: rating_queries.TableMode | None

    @property
    def version(self) -> int: ...

    @property
    def broadcast(self) -> Broadcast: ...

    @property
    def turns(self) -> Turns: ...

    def touch(self) -> None: ...


class Seating:
    """A table's seats: who takes and leaves them, and what the lobby is shown of them."""

    def __init__(
        self, table: Seated, storage: Storage, settings: Settings,
        lobby_changed: Callable[[], Awaitable[None]] | None,
    ) -> None:
        self._table = table
        self._storage = storage
        self._settings = settings
        self._lobby_changed = lobby_changed
        """Called once a change that the lobby's open-table list shows is stored."""
        self._played_for = [0] * len(table.seats)
        """Moves of the current match that a stand-in, or the bot that took over a seat walked
        out of, played for each seat: not its person's own, so they do not count toward the 2
        a side makes before its result counts (:mod:`..common.fairplay`). Counted in memory: a
        match resumed after a restart counts its earlier moves as its people's own."""
        self._walked_out: set[int] = set()
        """People's seats of the current match that a bot took over when they left."""
        self.deleted: set[int] = set()
        """People's seats of the current match whose account was deleted during it: the match
        they resign rates nobody (:meth:`account_deleted`)."""

    # -- facts ------------------------------------------------------------------------------

    @staticmethod
    def is_free(seat: StoredSeat) -> bool:
        return seat.kind == "human" and seat.token_hash is None

    def is_open(self) -> bool:
        """:meth:`.Table.is_open`, which says what it is."""
        table = self._table
        return table.status == "waiting" and any(self.is_free(s) for s in table.seats) and any(
            s.kind == "human" and s.token_hash is not None for s in table.seats)

    def seat_of(self, token: str) -> int | None:
        """The seat that ``token`` belongs to, if any."""
        for seat in self._table.seats:
            if token_matches(token, seat.token_hash):
                return seat.seat
        return None

    def seat_for(self, token: str) -> StoredSeat:
        number = self.seat_of(token)
        if number is None:
            raise LobbyError(403, "that token holds no seat at this table", code="bad_token")
        return self._table.seats[number]

    def info(self) -> dict[str, Any]:
        """What anyone may know about the table (for the lobby and the ``table`` message)."""
        table = self._table
        connected = table.broadcast.connected()
        stand_ins = table.turns.stand_ins
        return {
            "code": table.code,
            "status": table.status,
            "pace": table.pace,
            "rules": table.rules.to_dict(),
            "look": table.look,
            "players": table.rules.players,
            "sides": table.rules.sides,
            "seats": [
                {
                    "seat": seat.seat,
                    "side": table.rules.side_of(seat.seat),
                    "kind": seat.kind,
                    "name": seat.name,
                    "level": seat.level,
                    "open": self.is_free(seat),
                    "connected": seat.kind == "bot" or seat.seat in connected,
                    "stand_in": seat.seat in stand_ins,
                }
                for seat in table.seats
            ],
            "match": table.match_id,
            "version": table.version,
            "continuing": table.turns.continuing(),
            **self.mode_info(),
        }

    def mode_info(self) -> dict[str, Any]:
        """Whether the match is rated, and the notice of a table chosen rated whose match the
        deal made casual (``casual``: its code and sentence), as the lobby, ``welcome`` and
        ``table`` show them before a move; unknown before the first deal (None)."""
        mode = self._table.mode
        return {
            "rated": None if mode is None else mode.rated,
            "casual": None if mode is None or mode.casual is None
            else fairplay.casual_notice(mode.casual),
        }

    def welcome_message(self, seat: int | None, hints: bool) -> str:
        """The ``welcome`` a socket's hello is answered with, for ``seat`` (None: a spectator);
        ``hints``: whether that seat may ask for a hint."""
        table = self._table
        return encode(
            {
                "type": "welcome",
                "table": table.code,
                "seat": seat,
                "side": None if seat is None else table.rules.side_of(seat),
                "name": None if seat is None else table.seats[seat].name,
                # Whether this seat may ask for a hint: a client shows the button
                # only then (a spectator never may).
                "hints": seat is not None and hints,
                **self.mode_info(),
            }
        )

    def refuse_expired(self) -> None:
        if self._table.status == "expired":
            minutes = self._settings.waiting_expiry / 60
            raise LobbyError(
                410, f"this table expired after {minutes:g} minutes with nobody joining it",
                code="table_expired", params={"minutes": minutes}
            )

    # -- whose own moves --------------------------------------------------------------------

    def new_match(self) -> None:
        """A match is dealt: its seats' moves are counted from nothing."""
        self._played_for = [0] * len(self._table.seats)
        self._walked_out = set()
        self.deleted = set()

    def played(self, seat: int, by_its_person: bool) -> None:
        """A move at ``seat`` is stored: not its person's own if a stand-in, or the bot that
        took over the seat its person walked out of, played it."""
        table = self._table
        if not by_its_person and (table.seats[seat].kind == "human" or seat in self._walked_out):
            self._played_for[seat] += 1

    def own_moves(self) -> tuple[int, ...]:
        """Each side's moves of its own in the current match: every move at its seats but
        those a stand-in or a walked-out seat's bot played."""
        rules = self._table.rules
        own = [0] * rules.sides
        for play in self._table.plays:
            own[rules.side_of(play.seat)] += 1
        for seat, played_for in enumerate(self._played_for):
            own[rules.side_of(seat)] -= played_for
        return tuple(own)

    # -- taking and leaving seats -----------------------------------------------------------

    async def join(self, name: str, seat: int | None) -> tuple[int, str]:
        """:meth:`.Table.join` with ``name`` cleaned, holding the table's lock."""
        table = self._table
        self.refuse_expired()
        if table.status == "playing":
            raise LobbyError(409, "the match has started: watch it, or join another table",
                             code="match_started")
        if seat is None:
            free = [s for s in table.seats if self.is_free(s)]
            if not free:
                raise LobbyError(409, "every seat at this table is taken", code="table_full")
            chosen = free[0]
        else:
            if not 0 <= seat < len(table.seats):
                raise LobbyError(422, f"seat must be 0..{len(table.seats) - 1}; got {seat}",
                                 code="bad_seat",
                                 params={"most": len(table.seats) - 1, "seat": seat})
            chosen = table.seats[seat]
            if not self.is_free(chosen):
                raise LobbyError(409, f"seat {seat} is taken",
                                 code="seat_taken", params={"seat": seat})
        token = new_seat_token()
        taken = StoredSeat(chosen.seat, "human", name, None, hash_token(token))
        await self.stored(self._storage.save_seat(table.code, taken, epoch=table.epoch))
        table.seats[chosen.seat] = taken
        table.touch()
        await self.listed()
        table.broadcast.broadcast_table()
        return chosen.seat, token

    async def leave(self, token: str) -> None:
        """:meth:`.Table.leave`, holding the table's lock."""
        table = self._table
        turns = table.turns
        seat = self.seat_for(token)
        self.refuse_expired()
        if table.status == "playing" and table.pace != "live":
            raise LobbyError(
                409, "a correspondence match has no stand-in to leave your seat to: resign it "
                "instead, or come back to move", code="correspondence_no_leave")
        if table.status == "playing":
            level = bots.stand_in_level()
            left = StoredSeat(seat.seat, "bot", seat.name, level, None)
            self._walked_out.add(seat.seat)
        else:
            left = StoredSeat(seat.seat, "human")
        await self.stored(self._storage.save_seat(table.code, left, epoch=table.epoch))
        table.seats[seat.seat] = left
        turns.stand_ins.discard(seat.seat)
        turns.continuers.discard(seat.seat)
        if turns.hold is not None:
            turns.ready(seat.seat)
        table.touch()
        await self.listed()
        # Whoever takes the seat next must not be watched through the old connections.
        gone = encode(
            {"type": "error", "code": "bad_token", "message": "you left this seat"}
        )
        table.broadcast.drop([seat.seat], None, gone, "left the seat")
        table.broadcast.broadcast_table()
        turns.schedule()

    async def account_deleted(self, account_id: int, held: dict[int, str | None]) -> list[int]:
        """The account that held the seats ``held`` names here was deleted (issue 34, item 12):
        each with the hash its token had then, so a seat taken by someone else since is left
        alone. Its seats stop being anyone's at once (their tokens open nothing) and read
        :data:`.DELETED_NAME`, or are free again at a table still waiting; its sockets here
        (its seats', and its own as a spectator) are told so and closed with 1008, which a
        client does not reconnect after. A match being played is then resigned for it, as
        the room ends any resigned match, and rates nobody: a deletion is no result its
        opponents played out, and one a booster could time (:mod:`..common.fairplay`).
        Hearing it twice (the room's word, then the deleting process's own look) changes
        nothing the second time. Call it holding the table's lock; it returns the seats a match
        being played is to be resigned for, which the table does once the lock is let go."""
        table = self._table
        turns = table.turns
        mine = sorted(seat for seat, token_hash in held.items()
                      if 0 <= seat < len(table.seats)
                      and self._held_by_deleted(table.seats[seat], token_hash))
        playing = table.status == "playing" and table.game is not None
        resigns = [seat for seat in mine if playing and table.seats[seat].kind == "human"]
        for seat in mine:
            before = table.seats[seat]
            if table.status == "waiting":
                after = StoredSeat(seat, "human")
            else:
                after = StoredSeat(seat, before.kind, DELETED_NAME, before.level, None)
            if after != before:
                table.seats[seat] = after
                try:
                    await self._storage.save_seat(table.code, after, epoch=table.epoch)
                except StaleOwnerError as error:  # the deletion stored it already
                    log.warning("table %s: a deleted seat not stored: %s", table.code, error)
            turns.continuers.discard(seat)
            if turns.hold is not None and seat in turns.hold[1]:
                turns.ready(seat)
        self.deleted.update(resigns)
        gone = encode({"type": "error", "code": "account_deleted",
                       "message": "this account was deleted: its seats are nobody's now"})
        table.broadcast.drop(mine, account_id, gone, "account deleted")
        if mine:
            table.touch()
            table.broadcast.broadcast_table()
            if table.status == "waiting":
                await self.listed()
        return resigns

    @staticmethod
    def _held_by_deleted(seat: StoredSeat, token_hash: str | None) -> bool:
        """Whether ``seat`` is still the deleted account's: its token is the one it had then;
        or, loaded after the deletion stored it, it reads :data:`.DELETED_NAME` with no token;
        or (no token then) it is the bot that took it over when its person walked out."""
        if token_hash is not None:
            return seat.token_hash == token_hash or (
                seat.token_hash is None and seat.name == DELETED_NAME)
        return seat.kind == "bot" and seat.name != DELETED_NAME

    async def wait_again(self) -> None:
        """A rematch is asked for at a table with a free seat: it waits for someone to take
        it (call it holding the table's lock)."""
        table = self._table
        table.status = "waiting"
        table.touch()
        await self.stored(
            self._storage.set_status(table.code, "waiting", table.touched, epoch=table.epoch)
        )
        await self.listed()
        table.broadcast.broadcast_table()

    async def expire(self) -> None:
        """:meth:`.Table.expire`, holding the table's lock."""
        table = self._table
        if table.status != "waiting":
            return
        try:
            await self._storage.set_status(table.code, "expired", epoch=table.epoch)
        except StaleOwnerError as error:
            log.warning("table %s: not expired here: %s", table.code, error)
            return
        table.status = "expired"
        await self.listed()
        table.broadcast.broadcast_table()

    # -- telling the lobby, storing ---------------------------------------------------------

    async def listed(self) -> None:
        """Tell every process that the open-table list changed (a lost word costs only a
        list out of date until the next change)."""
        if self._lobby_changed is None:
            return
        try:
            await self._lobby_changed()
        except Exception:
            log.exception("table %s: could not tell the lobby it changed", self._table.code)

    async def stored(self, write: Awaitable[T]) -> T:
        """Await a write of this table. One the database refused, since another process took
        the table over, is a 503 that says so: this process lets the table go once its lease
        keeper notices, and asked again, the table's new owner answers."""
        try:
            return await write
        except StaleOwnerError:
            raise LobbyError(
                503, "this table moved to another server just now: try again",
                code="table_moved"
            ) from None
