"""One table of the card room: its seats, the match being played, and who is listening.

A table is the one writer of its match (lichess's round actor): every change runs under the
table's lock, one at a time. A move is checked by the core, stored, and only then shown: each
seat gets its own view (``Game.view(seat)``), spectators the public one, each with the match's
version, the number of moves played. The game in memory is always the stored moves played again,
so a restart rebuilds exactly the same table from the database.

:class:`Table` is what the rest of the room calls, and it holds the match and the lock. What it
does besides is in pieces of their own, each called under that lock: :mod:`.seating` (who sits
where, what the lobby is shown), :mod:`.turns` (bots, the turn's clock, stand-ins, the hold at
a round's end), :mod:`.listeners` (who listens, and the views they are sent) and
:mod:`.hints` (the master's hints).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy.ext.asyncio import AsyncConnection

from ...errors import IllegalMoveError, InvalidMoveError
from ...game import Game
from ...rules import Rules
from ...view import Play
from ..common.errors import LobbyError
from ..common.protocol import ProtocolError
from ..common.settings import Settings
from ..common.tokens import new_seed, token_matches
from ..store import assist_queries, rating_queries
from ..store.storage import Storage, StoredSeat, now
from ..store.writer import StaleOwnerError, Write
from . import bots
from .chat import TableChat
from .finished import Announcer, FinishedMatch, MatchEnds
from .hints import Hints
from .listeners import POLICY_VIOLATION, Broadcast, Listener, replaced_message
from .seating import MAX_NAME_LENGTH, Seating, clean_name
from .turns import HOLD_SECONDS, Turns

__all__ = [
    "HOLD_SECONDS", "MAX_NAME_LENGTH", "POLICY_VIOLATION", "Listener", "MoveStored",
    "MoveWrite", "Moved", "Table", "clean_name", "replaced_message", "replay_moves",
]

log = logging.getLogger(__name__)
T = TypeVar("T")


@dataclass(frozen=True)
class Moved:
    """A move just stored at a table whose pace is not live: what its clock is set from."""

    code: str
    match_id: int
    version: int
    """The moves played, this one included."""
    seat: int
    """Who played it."""
    to_move: int | None
    """The seat to play next (None: the match is over)."""


MoveStored = Callable[[Moved], Coroutine[Any, Any, None]]
"""Told of each :class:`Moved` once it is stored (:attr:`.room.CardRoom.moves_stored`)."""
MoveWrite = Callable[[Moved], Write | None]
"""The write a :class:`Moved` brings into its own transaction, if any
(:attr:`.room.CardRoom.move_writes`): stored with the move, or not at all."""


def joined(makers: Sequence[MoveWrite], moved: Moved) -> Write | None:
    """The writes ``moved`` brings into its own transaction, as one (None: none)."""
    writes = [write for make in makers if (write := make(moved)) is not None]
    if not writes:
        return None

    async def run(connection: AsyncConnection) -> None:
        for write in writes:
            await write(connection)

    return run


def replay_moves(
    rules: Rules, seed: int, deck: list[str] | None, moves: list[str], resigned: int | None = None
) -> tuple[Game, list[Play]]:
    """The game a stored match is in, and every play of it (the plays are public, kept so a
    client that reconnects can be sent the ones it missed); ``resigned``, the seat that gave
    the match up after those moves, if one did."""
    game = Game.new(rules, seed=seed, deck=deck)
    plays = []
    for move in moves:
        game.play(move)
        assert game.last_move is not None
        plays.append(game.last_move)
    if resigned is not None:
        game.resign(resigned)
    return game, plays


class Table:
    """A table: seats (people or bots), at most one match at a time, and its listeners. The
    one writer of its match, which owns its lock and composes its pieces."""

    def __init__(
        self,
        code: str,
        rules: Rules,
        look: str,
        status: str,
        seats: list[StoredSeat],
        storage: Storage,
        settings: Settings,
        pool: bots.Bots,
        touched: datetime | None = None,
        epoch: int = 0,
        lobby_changed: Callable[[], Awaitable[None]] | None = None,
        match_ends: MatchEnds | None = None,
        pace: str = "live",
        moves_stored: Sequence[MoveStored] = (),
        move_writes: Sequence[MoveWrite] = (),
    ) -> None:
        """``match_ends``: told of each match that ends here, once stored and broadcast.
        ``pace``: ``live`` (:mod:`.turns`' clock) or ``correspondence``, whose moves carry
        ``move_writes`` and are told to ``moves_stored``."""
        self.code = code
        self.pace = pace
        self._moves_stored = moves_stored if pace != "live" else ()
        self._move_writes = move_writes if pace != "live" else ()
        self.rules = rules
        self.look = look
        self.status = status
        """``waiting`` (for people or for a start), ``playing`` or ``over``."""
        self.seats = seats
        self.match_id: int | None = None
        self.game: Game | None = None
        self.plays: list[Play] = []
        """Every play of the current match that has been stored: its length is the version."""
        self.deck: list[str] | None = None
        self.next_seed: int | None = None
        """The seed the next match is dealt from, when whoever made the table chose one (the
        daily deal's, one deck for everyone that day); else each match gets a fresh one."""
        self.lock = asyncio.Lock()
        self.epoch = epoch
        """The writer epoch this process took the table at: every write names it, and the
        database refuses them once another process has taken the table over."""
        self.touched = touched or now()
        """When the table last changed or was last watched: expiry and eviction count from it."""
        self._storage = storage
        self.chat = TableChat(storage)
        """What is said at the table (:mod:`scopa.server.chat`)."""
        self.announcer = Announcer(self, match_ends)
        """Tells the room's subscribers of each match that ends here (:mod:`.finished`)."""
        self._tasks: set[asyncio.Task[Any]] = set()
        self.mode: rating_queries.TableMode | None = None
        """Whether the current match is rated, and why not though the table was chosen rated,
        as its deal decided (None: not read yet)."""
        self.broadcast = Broadcast(self, storage, settings)
        """Who listens, and what they are sent (:mod:`.listeners`)."""
        self.turns = Turns(self, storage, settings, pool,
                           {seat.seat for seat in seats if seat.stand_in})
        """What plays each turn, its clock, the stand-ins and the round-end hold (:mod:`.turns`)."""
        self.seating = Seating(self, storage, settings, lobby_changed)
        """Who sits where, and what the lobby is shown (:mod:`.seating`)."""
        self.hints = Hints(self, storage, pool)
        """The master's hints (:mod:`.hints`)."""

    # -- facts -----------------------------------------------------------------------------

    @property
    def version(self) -> int:
        return len(self.plays)

    @property
    def listeners(self) -> dict[Listener, None]:
        """Every connection listening, oldest first (a set that keeps the order they came in)."""
        return self.broadcast.listeners

    @property
    def stand_ins(self) -> set[int]:
        """People's seats a bot plays for, since their turn timed out, until they come back
        (stored, so a restart or a takeover keeps them)."""
        return self.turns.stand_ins

    def is_idle(self) -> bool:
        """Nobody is listening and nothing is running: the table may leave memory."""
        return (
            not self.listeners
            and not self._tasks
            and self.turns.idle()
            and not self.lock.locked()
        )

    def touch(self) -> None:
        self.touched = now()

    def is_open(self) -> bool:
        """Waiting, with a seat for someone to take and someone at it to play with: a table
        its people have all left is listed no more (the lobby showed it as "nobody waiting, 2
        free" for as long as it stayed; issue 35, item 10)."""
        return self.seating.is_open()

    def seat_of(self, token: str) -> int | None:
        """The seat that ``token`` belongs to, if any."""
        return self.seating.seat_of(token)

    def info(self) -> dict[str, Any]:
        """What anyone may know about the table (for the lobby and the ``table`` message)."""
        return self.seating.info()

    # -- listeners ---------------------------------------------------------------------------

    def state_message(
        self,
        seat: int | None,
        since: tuple[int | None, int | None] | None = None,
        shared: tuple[dict[str, Any] | None, bool, float | None] | None = None,
    ) -> str:
        """The ``state`` message for ``seat``: its view at the current version. ``since`` is the
        (match, version) a client already has; the plays after it come as ``missed``.
        ``shared``: what :meth:`.Broadcast.state_shared` gave for this version, when it is at
        hand."""
        return self.broadcast.state_message(seat, since, shared)

    async def seat_listener(
        self,
        listener: Listener,
        token: str | None,
        since: tuple[int | None, int | None] | None,
        welcome: bool = True,
        continues: bool = False,
    ) -> bool:
        """Say hello to ``listener`` for the seat ``token`` holds (none: a spectator) and start
        sending it this table's messages. A token that holds no seat: ``False``, and the
        listener is told why and closed. ``continues``: the client continues after a round's
        breakdown, so the table holds a round's end for its seat."""
        return await self.broadcast.seat_listener(listener, token, since, welcome, continues)

    def attach(
        self,
        listener: Listener,
        since: tuple[int | None, int | None] | None,
        came_back: bool = False,
    ) -> None:
        """Start sending this table's messages to ``listener`` (:meth:`.Broadcast.attach`); call
        it holding the lock."""
        self.broadcast.attach(listener, since, came_back)

    def detach(self, listener: Listener) -> None:
        self.broadcast.detach(listener)

    # -- the lobby -------------------------------------------------------------------------

    async def join(self, name: str, seat: int | None) -> tuple[int, str]:
        """Take a seat as guest ``name``: returns the seat and its secret token."""
        name = clean_name(name)
        async with self.lock:
            return await self.seating.join(name, seat)

    async def leave(self, token: str) -> None:
        """Give up a seat. Before the match it is free again; during it a stand-in bot takes it
        over, so the others can finish."""
        async with self.lock:
            await self.seating.leave(token)

    async def account_deleted(self, account_id: int, held: dict[int, str | None]) -> None:
        """The account that held the seats ``held`` names here was deleted (issue 34, item 12):
        its seats here are nobody's, its sockets closed (:meth:`.Seating.account_deleted`),
        and a match being played is then resigned for it, rating nobody."""
        async with self.lock:
            resigns = await self.seating.account_deleted(account_id, held)
        if resigns:
            # ProtocolError: the match ended meanwhile, and rates nobody all the same.
            with contextlib.suppress(ProtocolError):
                await self.resign(resigns[0])

    async def start(self, token: str) -> None:
        """Deal the first match, once every seat is taken."""
        async with self.lock:
            self.seating.seat_for(token)
            self.seating.refuse_expired()
            if self.status != "waiting":
                raise LobbyError(409, f"the table is {self.status}, not waiting to start",
                                 code="table_not_waiting", params={"status": self.status})
            await self._start_match()

    async def rematch(self, token: str) -> None:
        """After a match, another one with the same seats (once any free seat is taken)."""
        async with self.lock:
            self.seating.seat_for(token)
            self.seating.refuse_expired()
            if self.status != "over":
                raise LobbyError(409, f"the table is {self.status}: a rematch follows a match",
                                 code="no_rematch", params={"status": self.status})
            if self.pace != "live":
                raise LobbyError(409, "a correspondence match has no rematch at its table: "
                                 "offer a new one from your games",
                                 code="correspondence_no_rematch")
            if any(self.seating.is_free(seat) for seat in self.seats):
                await self.seating.wait_again()
                return
            await self._start_match()

    async def start_now(self) -> None:
        """Deal at once (play against the computer: every other seat is a bot)."""
        async with self.lock:
            await self._start_match()

    async def expire(self) -> None:
        """The table waited too long for people: it is over for good, whoever is watching."""
        async with self.lock:
            await self.seating.expire()

    async def _start_match(self) -> None:
        free = [seat.seat for seat in self.seats if self.seating.is_free(seat)]
        if free:
            raise LobbyError(409, f"seats {free} are still free: a match needs every seat taken",
                             code="seats_free", params={"seats": str(free)})
        # Whether this match is rated is decided as it is dealt, and said before its first move
        # (docs/ratings.md, "Fair play"); the hints follow it.
        self.mode = await rating_queries.deal_mode(self._storage, self.code, now())
        self.hints.forget_barred()
        seed = new_seed() if self.next_seed is None else self.next_seed
        self.next_seed = None
        game = Game.new(self.rules, seed=seed)
        players = [
            {"seat": s.seat, "kind": s.kind, "name": s.name, "level": s.level} for s in self.seats
        ]
        self.match_id = await self.seating.stored(
            self._storage.insert_match(
                self.code, self.rules.to_dict(), seed, None, players, epoch=self.epoch
            )
        )
        self.game, self.plays, self.deck = game, [], None
        self.seating.new_match()
        self.status = "playing"
        await self.seating.listed()
        self.stand_ins.clear()
        self.touch()
        self.turns.end_hold()
        self.broadcast.broadcast_table()
        self.turns.schedule()
        self.broadcast.broadcast_state()

    def resume(
        self, match_id: int, seed: int, deck: list[str] | None, moves: list[str],
        resigned: int | None = None,
    ) -> None:
        """Bring back a stored match after a restart, and let its bots play on."""
        self.game, self.plays = replay_moves(self.rules, seed, deck, moves, resigned)
        self.match_id, self.deck = match_id, deck
        self.turns.schedule()

    # -- playing ---------------------------------------------------------------------------

    async def play(
        self,
        seat: int,
        code: str,
        version: int | None = None,
        ref: str | int | None = None,
        token: str | None = None,
    ) -> None:
        """Play ``code`` for ``seat`` (a person proves the seat is still theirs with ``token``);
        a refused move raises :class:`ProtocolError` and changes nothing. The move runs in its
        own task, so a client that goes away in the middle cannot leave it half done."""
        await asyncio.shield(self.spawn(self._play(seat, code, version, ref, token)))

    async def _play(
        self, seat: int, code: str, version: int | None, ref: str | int | None, token: str | None
    ) -> None:
        ended: tuple[FinishedMatch, str, list[Listener]] | None = None
        async with self.lock:
            game = self.match_for(seat, ref, token)
            self.turns.refuse_out_of_turn(game, seat, version, ref, token)
            round_number = game.round_number
            try:
                game.play(code, seat)
            except InvalidMoveError as error:
                raise ProtocolError("invalid_move", str(error), ref) from None
            except IllegalMoveError as error:
                raise ProtocolError("illegal_move", str(error), ref) from None
            play = game.last_move
            assert play is not None and self.match_id is not None
            finished = None
            if game.winner is not None:
                finished = (game.winner, game.record())
            moved = Moved(self.code, self.match_id, self.version + 1, seat, game.to_move)
            try:
                await self._storage.append_move(
                    self.code, self.match_id, self.version + 1, seat, str(play.move), finished,
                    epoch=self.epoch, also=joined(self._move_writes, moved),
                )
            except Exception as error:
                if isinstance(error, StaleOwnerError):  # its lease keeper lets the table go
                    log.warning("table %s: move %s refused: %s", self.code, play.move, error)
                else:
                    log.exception("table %s: could not store move %s", self.code, play.move)
                # The game in memory is always the stored moves: take this one back.
                self.game, self.plays = replay_moves(
                    self.rules, game.seed, self.deck, [str(p.move) for p in self.plays]
                )
                raise ProtocolError(
                    "server_error", "the move could not be stored; play it again", ref
                ) from None
            self.plays.append(play)
            self.touch()
            if token is None and self.seats[seat].kind == "human":
                self.broadcast.by_stand_in = (self.match_id, self.version)
            self.seating.played(seat, by_its_person=token is not None)
            turns = self.turns
            if turns.hold is not None and turns.ready(seat):  # a person who plays has read it
                self.broadcast.broadcast_table()
            if game.winner is None and game.round_number != round_number:
                turns.hold_round_end(game.round_number)
            if game.winner is not None:
                ended = self._match_over(game.winner)
            turns.schedule()
            self.broadcast.broadcast_state(with_over=ended is None)
        for told in self._moves_stored:
            self.spawn(told(moved))
        if ended is not None:
            self.announcer.announce(*ended)

    def _match_over(self, winner: int) -> tuple[FinishedMatch, str, list[Listener]]:
        """The match's end is stored: the table is over and its stand-ins end (no turns are
        left for them to play). Returned for the lock's holder to announce once the lock is
        let go (:meth:`.Announcer.announce`): the finished match, its ``over``, and who is sent
        its last state."""
        assert self.game is not None and self.match_id is not None
        self.status = "over"
        ended = FinishedMatch(
            self.code, self.match_id, self.rules,
            tuple(seat.kind for seat in self.seats), tuple(self.game.scores), winner,
            resigned=self.game.resigned,
            timed_out=tuple(sorted(
                seat for seat in self.stand_ins if self.seats[seat].kind == "human"
            )),
            own_moves=self.seating.own_moves(),
            deleted=tuple(sorted(self.seating.deleted)),
            pace=self.pace,
        )
        self.stand_ins.clear()
        self.broadcast.broadcast_table()
        return ended, self.broadcast.over_message(), list(self.listeners)

    async def resign(
        self, seat: int, ref: str | int | None = None, token: str | None = None,
        version: int | None = None,
    ) -> None:
        """The person at ``seat`` gives the match up: their side loses, and the match ends as
        at its last move (stored, announced, then ``state`` and ``over`` to everyone). In its
        own task, like a move, so a client that goes away meanwhile cannot leave it half done;
        a refusal raises :class:`ProtocolError` and changes nothing; ``version``: only at it."""
        await asyncio.shield(self.spawn(self._resign(seat, ref, token, version)))

    async def _resign(
        self, seat: int, ref: str | int | None, token: str | None, version: int | None
    ) -> None:
        async with self.lock:
            game = self.match_for(seat, ref, token)
            if version is not None and version != self.version:
                raise ProtocolError("stale_version", f"the match is at version {self.version}, "
                                    f"not {version}", ref)
            assert self.match_id is not None
            game.resign(seat)  # the match is being played and the seat is the table's
            assert game.winner is not None
            try:
                await self._storage.finish_match(
                    self.code, self.match_id, game.winner, game.record(), epoch=self.epoch
                )
            except Exception as error:
                if isinstance(error, StaleOwnerError):
                    log.warning("table %s: resignation refused: %s", self.code, error)
                else:
                    log.exception("table %s: could not store a resignation", self.code)
                # The game in memory is always what is stored: the match goes on.
                self.game, self.plays = replay_moves(
                    self.rules, game.seed, self.deck, [str(p.move) for p in self.plays]
                )
                raise ProtocolError(
                    "server_error", "the resignation could not be stored; resign again", ref
                ) from None
            self.touch()
            self.turns.end_hold()
            ended = self._match_over(game.winner)
            self.turns.schedule()
            self.broadcast.broadcast_state(with_over=False)
        self.announcer.announce(*ended)

    async def continue_round(
        self, seat: int, finished: int, ref: str | int | None = None, token: str | None = None
    ) -> None:
        """The person at ``seat`` has read round ``finished``'s breakdown; the last of them
        lets the match go on. A continue for a round the table is not holding changes nothing
        and says so (the hold may have run out, or every other person continued first)."""
        async with self.lock:
            self.match_for(seat, ref, token)
            self.turns.continue_round(seat, finished, ref)

    def match_for(self, seat: int, ref: str | int | None, token: str | None) -> Game:
        """The match ``seat`` is playing, if its ``token`` (a person's) still holds the seat."""
        if token is not None and not token_matches(token, self.seats[seat].token_hash):
            raise ProtocolError("bad_token", "this seat is no longer yours", ref)
        if self.game is None or self.status != "playing":
            raise ProtocolError("no_match", "no match is being played at this table", ref)
        return self.game

    async def hints_barred(self) -> assist_queries.Barred | None:
        """Why the master gives no hints here, or None where it does (:meth:`.Hints.barred`)."""
        return await self.hints.barred()

    async def hint(
        self, seat: int, ref: str | int | None = None, token: str | None = None
    ) -> str:
        """The ``hint`` message for ``seat``: the master's move for that seat's own view and
        why, worked out without the table's lock (:meth:`.Hints.hint`)."""
        return await self.hints.hint(seat, ref, token)

    async def come_back(self, seat: int, token: str | None) -> None:
        """A command from the person at ``seat``: a stand-in of theirs stops
        (:meth:`.Turns.come_back`)."""
        await self.turns.come_back(seat, token)

    # -- tasks -----------------------------------------------------------------------------

    def spawn(self, coroutine: Coroutine[Any, Any, T]) -> asyncio.Task[T]:
        """A task the table keeps a reference to until it ends (asyncio holds only weak ones)."""
        task = asyncio.create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        """Forget a finished task, and log what failed in it when nobody was left to hear: a
        move whose client went away, a bot's turn after the table closed."""
        self._tasks.discard(task)
        if task.cancelled():
            return
        error = task.exception()
        if error is not None and not isinstance(error, ProtocolError):
            log.error("table %s: a task failed", self.code, exc_info=error)

    async def close(self) -> None:
        """Stop the table's bots and timers (the server is shutting down)."""
        self.turns.stop()
        await self.announcer.wait()  # told before the storage closes
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
