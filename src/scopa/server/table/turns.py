"""Whose turn it is and what plays it: a table's bots, the person to move's clock, the
stand-ins that play for a person whose clock ran out, and the hold at a round's end.

A table of people must not stall on one who went away or sits silent, and a bot must not play
before the people have read a round's breakdown: this piece decides what plays the next turn
and when, and nothing else. What it plays goes through the table's own ``play``, as a person's
move does, so a bot's or a stand-in's move is checked, stored and shown the same way; what it
changes of the table (a stand-in, the end of a hold) it changes under the table's one lock.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Coroutine
from typing import Any, Protocol, TypeVar

from ...game import Game
from ...rules import Rules
from ...view import Play
from ..common.protocol import ProtocolError
from ..common.settings import Settings
from ..common.tokens import token_matches
from ..store.storage import Storage, StoredSeat
from ..store.writer import StaleOwnerError
from . import bots
from .listeners import Broadcast

log = logging.getLogger(__name__)
T = TypeVar("T")

HOLD_SECONDS = 15.0
"""How long a round's end holds the table for its people to read the breakdown at most: the
bots and the turn's clock wait until every person at the table has continued, or this long."""


class Played(Protocol):
    """What the turns read of their table: the match, its seats, its lock, its broadcast, and
    its ``play`` and tasks. A protocol, not the table's class, so they import one way."""

    code: str
    pace: str
    rules: Rules
    status: str
    seats: list[StoredSeat]
    game: Game | None
    plays: list[Play]
    deck: list[str] | None
    epoch: int
    lock: asyncio.Lock

    @property
    def version(self) -> int: ...

    @property
    def broadcast(self) -> Broadcast: ...

    async def play(
        self, seat: int, code: str, version: int | None = None, ref: str | int | None = None,
        token: str | None = None,
    ) -> None: ...

    def spawn(self, coroutine: Coroutine[Any, Any, T]) -> asyncio.Task[T]: ...


class Turns:
    """A table's turns: its bots, the turn's clock, the stand-ins and the round-end hold."""

    def __init__(
        self, table: Played, storage: Storage, settings: Settings, pool: bots.Bots,
        stand_ins: set[int],
    ) -> None:
        self._table = table
        self._storage = storage
        self._settings = settings
        self._pool = pool
        self.stand_ins = stand_ins
        """People's seats a bot plays for, since their turn timed out, until they come back
        (stored, so a restart or a takeover keeps them)."""
        self._turn: asyncio.Task[None] | None = None
        self._clock: tuple[int, int, float] | None = None
        """The person to move's turn clock, while one runs: their seat, the version their turn
        began at, and when it runs out (the event loop's time)."""
        self._alarm: asyncio.TimerHandle | None = None
        """The timer that looks at the clock when it may have run out. A turn's clock is set at
        nearly every move of a table of people, and each runs out later than the one before:
        the timer is left alone then and, when it goes off early, set again for the clock of
        the turn being played (a timer cancelled and made at each move cost 2% of a move)."""
        self.continuers: set[int] = set()
        """Seats whose client said in its hello that it continues after a round's breakdown:
        only they are waited for at a round's end."""
        self.hold: tuple[int, set[int]] | None = None
        """The round whose end the table holds (1: the first) and the seats whose people have
        not continued yet; nothing but a person's move is played meanwhile."""
        self._hold_timer: asyncio.TimerHandle | None = None

    # -- facts ------------------------------------------------------------------------------

    def idle(self) -> bool:
        """No turn's clock and no hold runs (the table may leave memory once nothing else
        does)."""
        return self._clock is None and self._hold_timer is None

    def to_move(self) -> int | None:
        game = self._table.game
        return None if game is None else game.to_move

    def clock_left(self) -> float | None:
        """The seconds left on the turn's clock of the person to move, if one runs: a client
        counts down to the stand-in of an away seat from it."""
        if self._clock is None:
            return None
        return round(max(0.0, self._clock[2] - asyncio.get_running_loop().time()), 1)

    def continuing(self) -> list[int]:
        """The seats the round's end is held for (none: it is not held), as ``table`` says."""
        return [] if self.hold is None else sorted(self.hold[1])

    def position(self, game: Game, seat: int) -> bots.Position:
        """What a bot (or the master, for a hint) thinks about for ``seat``."""
        table = self._table
        return bots.position(table.rules, game.seed, table.deck, table.plays, seat)

    def refuse_out_of_turn(
        self, game: Game, seat: int, version: int | None, ref: str | int | None,
        token: str | None,
    ) -> None:
        """Refuse a move at ``seat`` of ``game`` that is not the seat's to play now: a
        stand-in's (no ``token``) whose person came back, one for another ``version`` than
        the match's, one out of turn. Call it holding the table's lock."""
        table = self._table
        if token is None and table.seats[seat].kind == "human" and seat not in self.stand_ins:
            # A stand-in's move, but its person came back while it was thinking.
            raise ProtocolError("stale_version", "the person came back: theirs to play", ref)
        if version is not None and version != table.version:
            raise ProtocolError(
                "stale_version",
                f"that move was for version {version}, but the match is at version "
                f"{table.version}: look at the latest state and play again",
                ref,
            )
        if seat != game.to_move:
            raise ProtocolError(
                "not_your_turn", f"not your turn: seat {game.to_move} is to play", ref
            )

    def _people(self) -> int:
        return sum(seat.kind == "human" for seat in self._table.seats)

    # -- the next turn ----------------------------------------------------------------------

    def schedule(self) -> None:
        """Start whatever plays the next turn without a person: a bot (or a stand-in for a
        person who timed out), or the turn's clock at a table of people. The clock runs from
        the start of the turn whether the person is connected or not: one who is here but
        silent holds up the others as much as one who left. A correspondence table's turns
        have no clock here: its days run in the database, kept by the room's
        correspondence."""
        table = self._table
        if self._turn is not None:
            self._turn.cancel()
            self._turn = None
        self._clock = None
        game = table.game
        if game is None or table.status != "playing" or game.to_move is None:
            return
        if self.hold is not None:
            return  # the people are reading a round's breakdown: play goes on once they have
        seat = table.seats[game.to_move]
        if seat.kind == "bot":
            level = bots.known_level(seat.level)
            self._turn = table.spawn(self._bot_turn(seat.seat, level, table.version))
        elif seat.seat in self.stand_ins:
            self._turn = table.spawn(
                self._bot_turn(seat.seat, bots.stand_in_level(), table.version)
            )
        elif (self._settings.turn_timeout is not None and table.pace == "live"
              and self._people() >= 2):
            loop = asyncio.get_running_loop()
            ends = loop.time() + self._settings.turn_timeout
            self._clock = (seat.seat, table.version, ends)
            if self._alarm is None or self._alarm.when() > ends:
                if self._alarm is not None:
                    self._alarm.cancel()
                self._alarm = loop.call_at(ends, self._look_at_clock)

    def _look_at_clock(self) -> None:
        """The alarm went off: the turn's clock ran out, or it is the clock of a later turn,
        which runs on (the alarm is set again for it), or none runs any more."""
        self._alarm = None
        if self._clock is None:
            return
        seat, version, ends = self._clock
        loop = asyncio.get_running_loop()
        if ends > loop.time():
            self._alarm = loop.call_at(ends, self._look_at_clock)
            return
        self._clock = None
        self._turn = self._table.spawn(self._timed_out(seat, version))

    async def _bot_turn(self, seat: int, level: str, version: int) -> None:
        await bots.pause(self._settings.bot_delay)
        await self._play_for(seat, level, version)

    async def _play_for(self, seat: int, level: str, version: int) -> None:
        table = self._table
        game = table.game
        if game is None or table.version != version or game.to_move != seat:
            return
        view = game.view(seat)
        try:
            move = await bots.think(self._pool, level, self.position(game, seat))
        except Exception:
            # A table must never stall on a bot's bug: log it and play any legal move instead.
            log.exception("table %s: the bot at seat %s failed; playing at random", table.code,
                          seat)
            move = random.choice(view.legal_moves())
        try:
            await table.play(seat, str(move), version)
        except ProtocolError as error:
            # A stale version means a person played first or left; anything else is a bot bug.
            if error.code != "stale_version":
                log.error("table %s: bot at seat %s played %s: %s", table.code, seat, move,
                          error)

    # -- stand-ins --------------------------------------------------------------------------

    async def _timed_out(self, seat: int, version: int) -> None:
        """The person at ``seat`` let their turn's clock run out (gone, or here and silent): a
        stand-in plays for them (shown in the seat's ``stand_in``) from now on, until they come
        back (:meth:`come_back`, or a ``hello`` with the seat's token)."""
        table = self._table
        async with table.lock:  # not while the person's move, or their coming back, is stored
            if table.version != version or seat in self.stand_ins:
                return
            self.stand_ins.add(seat)
            table.broadcast.broadcast_table()
            stored = await self.save_stand_ins()
        if stored:
            await self._play_for(seat, bots.stand_in_level(), version)

    async def come_back(self, seat: int, token: str | None) -> None:
        """A command from the person at ``seat`` (a move, a hint, a sync: anything but a
        ``ping``, which a client may send by itself): if a stand-in plays for them, it stops,
        everyone is told, and a turn of theirs now has a fresh clock."""
        if seat not in self.stand_ins or token is None:
            return
        table = self._table
        async with table.lock:
            if seat not in self.stand_ins or not token_matches(
                token, table.seats[seat].token_hash
            ):
                return
            self.stand_ins.discard(seat)
            await self.save_stand_ins()
            table.broadcast.broadcast_table()
            if seat == self.to_move():
                self.schedule()  # the stand-in's turn ends, the person's clock starts

    async def save_stand_ins(self) -> bool:
        """Store who has a stand-in now; whether it was stored (not if the table moved on)."""
        table = self._table
        try:
            await self._storage.save_stand_ins(table.code, set(self.stand_ins), epoch=table.epoch)
        except StaleOwnerError as error:
            log.warning("table %s: stand-ins not stored: %s", table.code, error)
            return False
        return True

    # -- a round's end, held for its people -------------------------------------------------

    def hold_round_end(self, finished: int) -> None:
        """Round ``finished`` has ended: hold the table for the people at it (connected and
        not played for) to read its breakdown, for :data:`HOLD_SECONDS` at most."""
        table = self._table
        waiting = {
            seat.seat
            for seat in table.seats
            if seat.seat in self.continuers
            and seat.seat not in self.stand_ins
            and table.broadcast.present(seat.seat)
        }
        if not waiting:
            return
        self.end_hold()
        self.hold = (finished, waiting)
        self._hold_timer = asyncio.get_running_loop().call_later(
            HOLD_SECONDS, self._hold_ran_out, finished
        )
        table.broadcast.broadcast_table()

    def continue_round(self, seat: int, finished: int, ref: str | int | None) -> None:
        """:meth:`.Table.continue_round` once the seat is known to play here: call it holding
        the table's lock."""
        held = self.hold
        if held is None or held[0] != finished or seat not in held[1]:
            raise ProtocolError(
                "not_held", f"the table is not waiting for you at the end of round {finished}",
                ref,
            )
        if self.ready(seat):
            self._go_on()
        else:
            self._table.broadcast.broadcast_table()  # who is still reading

    def ready(self, seat: int) -> bool:
        """``seat`` is ready for the next deal (it continued, played, or left); whether it was
        the last the table waited for, which ends the hold."""
        assert self.hold is not None
        self.hold[1].discard(seat)
        if self.hold[1]:
            return False
        self.end_hold()
        return True

    def _go_on(self) -> None:
        """The hold is over: the next turn's bot or clock starts, and everyone is told."""
        broadcast = self._table.broadcast
        broadcast.broadcast_table()
        self.schedule()
        broadcast.broadcast_state()  # with the turn's clock, now running

    def _hold_ran_out(self, finished: int) -> None:
        self._hold_timer = None
        if self.hold is not None and self.hold[0] == finished:
            self._table.spawn(self._release(finished))

    async def _release(self, finished: int) -> None:
        async with self._table.lock:
            if self.hold is not None and self.hold[0] == finished:
                self.end_hold()
                self._go_on()

    def end_hold(self) -> None:
        if self._hold_timer is not None:
            self._hold_timer.cancel()
            self._hold_timer = None
        self.hold = None

    def stop(self) -> None:
        """Stop the clock, its alarm and the hold (the server is shutting down)."""
        self._clock = None
        if self._alarm is not None:
            self._alarm.cancel()
            self._alarm = None
        self.end_hold()
