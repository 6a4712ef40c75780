"""Correspondence matches: dealt at a table kept in the database between moves, with a clock
of days that runs in wall time across restarts and processes.

A correspondence table is a table of the room like any other (its moves are stored before they
are shown, by its one writer, fenced by its epoch: :mod:`..table.tables`), with the pace
``correspondence``: no turn clock in memory and no stand-in, and it leaves memory as soon as
nobody is at it (:meth:`..table.room.CardRoom.sweep`). Its clock is a row here
(:mod:`.queries`), set again by each move in the move's own transaction
(:meth:`Games.move_write`).

Every process looks at the clocks now and then (:meth:`Games.sweep`): an alarm due (80% of the
mover's time used) pushes the mover, unless they are at the table; a clock that ran out spends
a vacation day of the mover's if one is left, else stops if the other waits for them, else
the match is lost on time: the table is loaded and resigned for the mover, rated as any loss.
A process acts only on a table nobody else holds: the holder acts on its own tables, so a
clock is handled once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine
from datetime import datetime
from typing import Any, Final

from ...rules import Rules
from ..accounts import accounts, ratings
from ..common.closing import every
from ..common.errors import LobbyError
from ..common.protocol import ProtocolError
from ..common.services import Service
from ..feature import Notify
from ..store import rating_queries
from ..store.writer import Write
from ..table.finished import FinishedMatch
from ..table.room import CardRoom
from ..table.tables import Moved, Table
from . import clocks
from . import queries as games_queries
from .settings import CorrespondenceSettings

log = logging.getLogger(__name__)

PACE: Final = "correspondence"
FINISHED_SHOWN_DAYS: Final = 7
"""Days a finished match stays in its players' list of games."""


class Games:
    """This process's share of the room's correspondence matches."""

    def __init__(self, room: CardRoom, notify: Notify) -> None:
        self.room = room
        self.notify = notify
        self._closing = asyncio.Event()
        self._sweeper: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.alarms_due = 0
        """Alarms this process took as due (rung once each, among the processes)."""
        self.alarms_rung = 0
        """Of those, the alarms pushed (the others' movers were at their tables)."""
        room.move_writes.append(self.move_write)
        room.moves_stored.append(self.moved)

    @property
    def pushes_waiting(self) -> int:
        """Moves' pushes waiting their moment to look whether their mover is at the table."""
        return len(self._tasks)

    @property
    def settings(self) -> CorrespondenceSettings:
        return self.room.settings.section(CorrespondenceSettings)

    def clock(self) -> datetime:
        """Now, as the correspondence clocks read it (the settings' clock)."""
        return self.settings.clock()

    async def open(self) -> None:
        self._sweeper = asyncio.create_task(
            every(lambda: self.settings.sweep_every, self._closing, self.sweep,
                  "the correspondence sweep"), name="scopa-correspondence")

    async def close(self) -> None:
        """Stop by the flag, not by cancelling (a cancellation taken up inside a database call
        of a sweep left a loop asleep again): the sweep in progress ends, then the loop."""
        self._closing.set()
        if self._sweeper is not None:
            await self._sweeper
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def _soon(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- a new match -------------------------------------------------------------------------

    async def refuse_full(self, account_id: int, name: str | None) -> None:
        """Refuse (409) a new match for an account that plays its most already."""
        most = self.settings.max_matches
        if await games_queries.playing_count(self.room.storage, account_id) >= most:
            if name is None:
                raise LobbyError(
                    409, f"you play {most} correspondence matches already: finish one first",
                    code="correspondence_full", params={"most": most})
            raise LobbyError(
                409, f"{name} plays {most} correspondence matches already: offer them one later",
                code="correspondence_full_other", params={"most": most, "name": name})

    async def refuse_newcomer(self, account_id: int, name: str | None) -> None:
        refusal = await ratings.newcomer_refusal(
            self.room.storage, account_id, name, self.room.settings.newcomer_matches)
        if refusal is not None:
            raise LobbyError(403, refusal, code="new_account")

    async def start(
        self, rules: Rules, look: str, rated: bool, days: int,
        players: tuple[tuple[int, str], tuple[int, str]],
    ) -> tuple[Table, list[tuple[int, str]]]:
        """Deal a correspondence match between ``players`` (account id and name, the first at
        seat 0): the table, and each player's seat and token (given to their accounts, so
        their seats follow them to every device of theirs)."""
        storage = self.room.storage
        first_name, second_name = players[0][1], players[1][1]
        table, seat, token = await self.room.create(rules, look, {}, first_name, pace=PACE)
        assert seat is not None and token is not None
        grants = [(seat, token), await table.join(second_name, None)]
        if rated:
            await rating_queries.set_rated(storage, table.code, True)
        for (account_id, _), (held, secret) in zip(players, grants, strict=True):
            await accounts.give_seat(storage, table.code, held, account_id, secret)
        await games_queries.start(storage, table.code, days, rated, self.clock())
        await table.start(token)
        mover = table.turns.to_move()
        assert mover is not None
        await games_queries.moved(storage, table.code, 0, mover, self.clock())
        self._your_turn(table.code, table.match_id, 0, mover)
        return table, [(held, secret) for held, secret in grants]

    # -- what the tables tell ----------------------------------------------------------------

    def move_write(self, move: Moved) -> Write:
        """A move at a correspondence table, in its own transaction: the next mover's clock
        starts with the whole days, or the clock stops at the match's last move. A move and
        its clock are stored together or not at all, so a ``kill -9`` between the two cannot
        leave the clock with the mover who just moved."""
        if move.to_move is None:
            return games_queries.finish_write(move.code, self.clock())
        return games_queries.moved_write(move.code, move.version, move.to_move, self.clock())

    async def moved(self, move: Moved) -> None:
        """A move stored: the next mover is pushed in a moment, if they are not at the
        table."""
        if move.to_move is not None:
            self._your_turn(move.code, move.match_id, move.version, move.to_move)

    def _your_turn(self, code: str, match_id: int | None, version: int, seat: int) -> None:
        self._soon(self._push_turn(code, match_id, version, seat))

    async def _push_turn(self, code: str, match_id: int | None, version: int, seat: int) -> None:
        """lila's rule: a move's push waits a moment, and goes only to a mover who is not at
        the table and whose turn it still is."""
        await asyncio.sleep(self.settings.push_delay)
        table = self.room.tables.get(code)
        if table is not None and (table.version != version or table.broadcast.present(seat)):
            return
        who = await games_queries.seated(self.room.storage, code)
        if seat not in who.accounts:
            return
        await self.notify(self.room, who.accounts[seat], "your_turn", str(match_id or code),
                          {"name": who.opponent_of(seat), "preset": who.preset},
                          f"/#/t/{code}", once=f"turn:{code}:{version}")

    async def match_ended(self, match: FinishedMatch) -> None:
        if match.pace == PACE:
            await games_queries.finish(self.room.storage, match.code, self.clock())

    # -- the clocks --------------------------------------------------------------------------

    async def _mine_to_handle(self, code: str) -> bool:
        """Whether this process is the one to act on ``code``'s clock: nobody holds the table,
        or this process does."""
        if code in self.room.tables:
            return True
        return await self.room.hub.owner(code) in (None, self.room.name)

    async def sweep(self) -> None:
        """Ring the alarms due, and handle the clocks that ran out, as of now."""
        moment = self.clock()
        storage = self.room.storage
        for clock in await games_queries.alarms_due(storage, moment):
            if await self._mine_to_handle(clock.code) and await games_queries.ring(storage, clock):
                self.alarms_due += 1
                await self._ring(clock)
        for clock in await games_queries.due(storage, moment):
            if await self._mine_to_handle(clock.code):
                try:
                    await self._ran_out(clock)
                except Exception:
                    log.exception("table %s: its correspondence clock could not be handled",
                                  clock.code)

    async def _ring(self, clock: games_queries.Clock) -> None:
        """The mover has used 80% of their time: push them, unless they are at the table."""
        if clock.mover is None:
            return
        table = self.room.tables.get(clock.code)
        if table is not None and table.broadcast.present(clock.mover):
            return
        who = await games_queries.seated(self.room.storage, clock.code)
        if clock.mover not in who.accounts:
            return
        self.alarms_rung += 1
        assert clock.deadline is not None
        hours = max(0, round((clock.deadline - self.clock()).total_seconds() / 3600))
        await self.notify(self.room, who.accounts[clock.mover], "time_alarm", clock.code,
                          {"name": who.opponent_of(clock.mover), "hours": hours},
                          f"/#/t/{clock.code}",
                          once=f"alarm:{clock.code}:{clock.version}:{clock.vacation}")

    async def _ran_out(self, clock: games_queries.Clock) -> None:
        """The mover's time ran out: a vacation day is spent if they have one, else the clock
        stops if the other waits, else the match is lost on time."""
        storage = self.room.storage
        where = await self.room.locate(clock.code)
        if not isinstance(where, Table):
            return  # another process took it meanwhile: its sweep handles it
        table = where
        if table.status != "playing" or table.game is None:
            await games_queries.finish(storage, clock.code, self.clock())
            return
        fresh = await games_queries.clock_of(storage, clock.code)
        if fresh is None or fresh.version != table.version or fresh.deadline is None \
                or fresh.deadline > self.clock():
            # Since the sweep read it, a move set the clock again, or a vacation day spent on
            # another of the mover's clocks moved this one on too (one day covers them all).
            return
        clock = fresh
        assert clock.mover is not None and clock.deadline is not None
        holders = await games_queries.seat_holders(storage, clock.code)
        mover_account = holders.get(clock.mover)
        if mover_account is not None and await games_queries.spend_vacation(
            storage, mover_account, clock.deadline.year, self.settings.vacation_days
        ):
            table.broadcast.broadcast_table()
            return
        others = {seat for seat in holders if table.rules.side_of(seat)
                  != table.rules.side_of(clock.mover)}
        if others & set(clock.patient):
            await games_queries.wait_late(storage, clock)
            return
        await self.lose_on_time(table, clock.mover, clock.version)

    async def claim(self, clock: games_queries.Clock, seat: int) -> None:
        """The person at ``seat``, who waited for a late mover, claims the win: the clock is
        due again with nobody waiting, and the process that holds the table (this one, or
        another's next sweep) ends the match on time."""
        if await games_queries.claim(self.room.storage, clock, seat, self.clock()) and \
                await self._mine_to_handle(clock.code):
            fresh = await games_queries.clock_of(self.room.storage, clock.code)
            if fresh is not None and fresh.deadline is not None:
                await self._ran_out(fresh)

    async def lose_on_time(self, table: Table, seat: int, version: int) -> None:
        """The person at ``seat`` ran out of time at ``version``: the match is theirs lost
        (resigned for them, as the room ends any match given up), unless a move came first."""
        with contextlib.suppress(ProtocolError):  # the match moved on, or ended, meanwhile
            await table.resign(seat, version=version)


GAMES: Service[Games] = Service("correspondence_games")
"""This process's correspondence matches, as a dependency of the routes."""

__all__ = ["FINISHED_SHOWN_DAYS", "GAMES", "PACE", "Games", "clocks"]
