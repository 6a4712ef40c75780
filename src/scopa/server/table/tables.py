"""One table of the card room: its seats, the match being played, and who is listening.

A table is the one writer of its match (lichess's round actor): every change runs under the
table's lock, one at a time. A move is checked by the core, stored, and only then shown: each
seat gets its own view (``Game.view(seat)``), spectators the public one, each with the match's
version, the number of moves played. The game in memory is always the stored moves played again,
so a restart rebuilds exactly the same table from the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Awaitable, Callable, Coroutine
from datetime import datetime
from typing import Any, Protocol, TypeVar

import orjson

from ...errors import IllegalMoveError, InvalidMoveError
from ...game import Game
from ...rules import Rules
from ...view import Play
from ..common import fairplay
from ..common.errors import LobbyError
from ..common.protocol import ProtocolError, encode, error_message
from ..common.settings import Settings
from ..common.tokens import hash_token, new_seat_token, new_seed, token_matches
from ..store import assist_queries, rating_queries
from ..store.deletion_queries import DELETED_NAME
from ..store.storage import StaleOwnerError, Storage, StoredSeat, now
from . import bots
from .chat import TableChat
from .finished import FinishedMatch, MatchEnds
from .views import ViewTexts

log = logging.getLogger(__name__)
T = TypeVar("T")

MAX_NAME_LENGTH = 32
POLICY_VIOLATION = 1008
"""The WebSocket close code for a client that broke the rules of the protocol."""
HOLD_SECONDS = 15.0
"""How long a round's end holds the table for its people to read the breakdown at most: the
bots and the turn's clock wait until every person at the table has continued, or this long."""
_NO_HINTS: dict[assist_queries.Barred, str] = {
    "tournament": "no hints at a tournament's game: its result must be your own play",
    "daily": "no hints at the daily deal: everyone plays the day's cards on their own",
    "rated": "no hints at a rated table: its result must be your own play",
}
"""The sentence of each ``no_hints`` refusal, by why the table gives none."""


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
    """A table: seats (people or bots), at most one match at a time, and its listeners."""

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
    ) -> None:
        """``match_ends``: the room's announcement of finished matches, told of each match
        that ends here once its end is stored and broadcast, outside the table's lock."""
        self.code = code
        self.rules = rules
        self.look = look
        self.status = status
        """``waiting`` (for people or for a start), ``playing`` or ``over``."""
        self.seats = seats
        self.match_id: int | None = None
        self.game: Game | None = None
        self.plays: list[Play] = []
        """Every play of the current match that has been stored: its length is the version."""
        self._deck: list[str] | None = None
        self.next_seed: int | None = None
        """The seed the next match is dealt from, when whoever made the table chose one (the
        daily deal's, one deck for everyone that day); else each match gets a fresh one."""
        self.lock = asyncio.Lock()
        self.listeners: dict[Listener, None] = {}
        """Every connection listening, oldest first (a set that keeps the order they came in)."""
        self.stand_ins: set[int] = {seat.seat for seat in seats if seat.stand_in}
        """People's seats a bot plays for, since their turn timed out, until they come back
        (stored, so a restart or a takeover keeps them)."""
        self.epoch = epoch
        """The writer epoch this process took the table at: every write names it, and the
        database refuses them once another process has taken the table over."""
        self.touched = touched or now()
        """When the table last changed or was last watched: expiry and eviction count from it."""
        self._storage = storage
        self.chat = TableChat(storage)
        """What is said at the table (:mod:`scopa.server.chat`)."""
        self._settings = settings
        self._pool = pool
        self._match_ends = match_ends
        self._announcing: asyncio.Task[None] | None = None
        """The announcement of the last match that ended here, while its subscribers run: the
        next one waits for it, so subscribers hear of a table's matches in the order they
        ended (a rating applied before the rematch's)."""
        self._hints: dict[int, tuple[tuple[int | None, int], dict[str, Any]]] = {}
        """The last hint worked out for each seat, by the (match, version) it is for."""
        self._barred: tuple[assist_queries.Barred | None] | None = None
        """Why this table gives no hints (None inside: it gives them), once read: a table's
        mode is written before it is dealt, so it is kept from the first read after that."""
        self._lobby_changed = lobby_changed
        """Called once a change that the lobby's open-table list shows is stored."""
        self._turn: asyncio.Task[None] | None = None
        self._clock: tuple[int, int, float] | None = None
        """The person to move's turn clock, while one runs: their seat, the version their turn
        began at, and when it runs out (the event loop's time)."""
        self._alarm: asyncio.TimerHandle | None = None
        """The timer that looks at the clock when it may have run out. A turn's clock is set at
        nearly every move of a table of people, and each runs out later than the one before:
        the timer is left alone then and, when it goes off early, set again for the clock of
        the turn being played (a timer cancelled and made at each move cost 2% of a move)."""
        self._tasks: set[asyncio.Task[Any]] = set()
        self._continuers: set[int] = set()
        """Seats whose client said in its hello that it continues after a round's breakdown:
        only they are waited for at a round's end."""
        self._hold: tuple[int, set[int]] | None = None
        """The round whose end the table holds (1: the first) and the seats whose people have
        not continued yet; nothing but a person's move is played meanwhile."""
        self._hold_timer: asyncio.TimerHandle | None = None
        self._views = ViewTexts()
        self._by_stand_in: tuple[int | None, int] | None = None
        """The (match, version) of the last move a stand-in played, so a person who comes back
        is not told it was theirs."""
        self._played_for = [0] * len(seats)
        """Moves of the current match that a stand-in, or the bot that took over a seat walked
        out of, played for each seat: not its person's own, so they do not count toward the 2
        a side makes before its result counts (:mod:`..common.fairplay`). Counted in memory: a
        match resumed after a restart counts its earlier moves as its people's own."""
        self._walked_out: set[int] = set()
        """People's seats of the current match that a bot took over when they left."""
        self._deleted: set[int] = set()
        """People's seats of the current match whose account was deleted during it: the match
        they resign rates nobody (:meth:`account_deleted`)."""
        self.mode: rating_queries.TableMode | None = None
        """Whether the current match is rated, and why not though the table was chosen rated,
        as its deal decided (None: not read yet)."""

    # -- facts -----------------------------------------------------------------------------

    @property
    def version(self) -> int:
        return len(self.plays)

    def is_idle(self) -> bool:
        """Nobody is listening and nothing is running: the table may leave memory."""
        return (
            not self.listeners
            and not self._tasks
            and self._clock is None
            and self._hold_timer is None
            and not self.lock.locked()
        )

    def touch(self) -> None:
        self.touched = now()

    def is_open(self) -> bool:
        """Waiting, with a seat for someone to take and someone at it to play with: a table
        its people have all left is listed no more (the lobby showed it as "nobody waiting, 2
        free" for as long as it stayed; issue 35, item 10)."""
        return self.status == "waiting" and any(self._is_free(s) for s in self.seats) and any(
            s.kind == "human" and s.token_hash is not None for s in self.seats)

    @staticmethod
    def _is_free(seat: StoredSeat) -> bool:
        return seat.kind == "human" and seat.token_hash is None

    def seat_of(self, token: str) -> int | None:
        """The seat that ``token`` belongs to, if any."""
        for seat in self.seats:
            if token_matches(token, seat.token_hash):
                return seat.seat
        return None

    def _seat_for(self, token: str) -> StoredSeat:
        number = self.seat_of(token)
        if number is None:
            raise LobbyError(403, "that token holds no seat at this table", code="bad_token")
        return self.seats[number]

    def info(self) -> dict[str, Any]:
        """What anyone may know about the table (for the lobby and the ``table`` message)."""
        connected = {listener.seat for listener in self.listeners}
        return {
            "code": self.code,
            "status": self.status,
            "rules": self.rules.to_dict(),
            "look": self.look,
            "players": self.rules.players,
            "sides": self.rules.sides,
            "seats": [
                {
                    "seat": seat.seat,
                    "side": self.rules.side_of(seat.seat),
                    "kind": seat.kind,
                    "name": seat.name,
                    "level": seat.level,
                    "open": self._is_free(seat),
                    "connected": seat.kind == "bot" or seat.seat in connected,
                    "stand_in": seat.seat in self.stand_ins,
                }
                for seat in self.seats
            ],
            "match": self.match_id,
            "version": self.version,
            "continuing": [] if self._hold is None else sorted(self._hold[1]),
            **self._mode_info(),
        }

    def _mode_info(self) -> dict[str, Any]:
        """Whether the match is rated, and the notice of a table chosen rated whose match the
        deal made casual (``casual``: its code and sentence), as the lobby, ``welcome`` and
        ``table`` show them before a move; unknown before the first deal (None)."""
        mode = self.mode
        return {
            "rated": None if mode is None else mode.rated,
            "casual": None if mode is None or mode.casual is None
            else fairplay.casual_notice(mode.casual),
        }

    # -- messages --------------------------------------------------------------------------

    def state_message(
        self,
        seat: int | None,
        since: tuple[int | None, int | None] | None = None,
        shared: tuple[dict[str, Any] | None, bool, float | None] | None = None,
    ) -> str:
        """The ``state`` message for ``seat``: its view at the current version. ``since`` is the
        (match, version) a client already has; the plays after it come as ``missed``.
        ``shared``: what :meth:`_state_shared` gave for this version, when it is at hand."""
        assert self.game is not None
        play, by_stand_in, clock = shared or self._state_shared()
        message: dict[str, Any] = {
            "type": "state",
            "table": self.code,
            "match": self.match_id,
            "version": self.version,
            "play": play,
            "view": self._view_of(seat),
            "stand_in_played": by_stand_in,
            "clock": clock,
        }
        if since is not None:
            match, version = since
            if match == self.match_id and version is not None and version <= self.version:
                message["missed"] = [play.to_dict() for play in self.plays[version:]]
        return encode(message)

    def _state_shared(self) -> tuple[dict[str, Any] | None, bool, float | None]:
        """What every seat's ``state`` says alike besides the view: the last play, whether a
        stand-in played it, and the turn's clock (worked out once for a broadcast)."""
        return (
            self.plays[-1].to_dict() if self.plays else None,
            self._by_stand_in == (self.match_id, self.version),
            self._clock_left(),
        )

    def _view_of(self, seat: int | None) -> orjson.Fragment:
        """``seat``'s view as the core writes it (``Game.view(seat).to_dict()``), as JSON."""
        assert self.game is not None
        return self._views.of(self.game, self.match_id, self.version, seat)

    def _over_message(self) -> str:
        assert self.game is not None
        return encode(
            {
                "type": "over",
                "table": self.code,
                "match": self.match_id,
                "version": self.version,
                "winner": self.game.winner,
                "scores": self.game.scores,
                "record": f"/api/matches/{self.match_id}",
            }
        )

    def _clock_left(self) -> float | None:
        """The seconds left on the turn's clock of the person to move, if one runs: a client
        counts down to the stand-in of an away seat from it."""
        if self._clock is None:
            return None
        return round(max(0.0, self._clock[2] - asyncio.get_running_loop().time()), 1)

    def _broadcast_table(self) -> None:
        text = encode({"type": "table", "table": self.info()})
        for listener in list(self.listeners):
            listener.push(text)

    def _broadcast_state(self, with_over: bool = True) -> None:
        """Each listener gets its seat's view; a view is built once per seat, not per listener.
        ``with_over``: a finished match's ``over`` follows at once (not at the move that ends
        it: :meth:`_announce` sends that one once the match's subscribers are done)."""
        texts: dict[int | None, str] = {}
        over = (self._over_message()
                if with_over and self.game is not None and self.game.is_over else None)
        shared = self._state_shared()
        for listener in list(self.listeners):
            seat = listener.seat
            text = texts.get(seat)
            if text is None:
                text = texts[seat] = self.state_message(seat, shared=shared)
            listener.push(text)
            if over is not None:
                listener.push(over)

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
        seat = None
        if token is not None:
            seat = self.seat_of(token)
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
        chat = await self.chat.greeting(self, seat, listener.account_id)
        barred = await self.hints_barred() if welcome else None
        if welcome and self.mode is None and self.status != "waiting":
            self.mode = await rating_queries.table_mode(self._storage, self.code)
        async with self.lock:
            listener.seat = seat
            if seat is not None and continues:
                self._continuers.add(seat)
            if welcome:
                listener.push(
                    encode(
                        {
                            "type": "welcome",
                            "table": self.code,
                            "seat": seat,
                            "side": None if seat is None else self.rules.side_of(seat),
                            "name": None if seat is None else self.seats[seat].name,
                            # Whether this seat may ask for a hint: a client shows the button
                            # only then (a spectator never may).
                            "hints": seat is not None and barred is None,
                            **self._mode_info(),
                        }
                    )
                )
            # A hello with the seat's token is its person coming back; not so a socket the
            # table's new owner takes over (``welcome`` false), which said its hello before.
            came_back = welcome and seat is not None and seat in self.stand_ins
            if came_back:
                assert seat is not None
                self.stand_ins.discard(seat)
                await self._save_stand_ins()
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
        seat = listener.seat
        same_seat = [other for other in self.listeners if seat is not None and other.seat == seat]
        cap = self._settings.sockets_per_seat
        for oldest in same_seat[: max(0, len(same_seat) - cap + 1)]:
            del self.listeners[oldest]
            oldest.push(replaced_message(cap))
            oldest.close(POLICY_VIOLATION, "replaced by a newer connection")
        self.listeners[listener] = None
        self.touch()
        if came_back and seat == self._to_move():
            self._schedule_turn()  # the stand-in's turn ends, the person's clock starts
        if came_back or (seat is not None and not same_seat):
            self._broadcast_table()
        else:
            listener.push(encode({"type": "table", "table": self.info()}))
        if self.game is not None:
            listener.push(self.state_message(listener.seat, since))
            if self.game.is_over:
                listener.push(self._over_message())

    def detach(self, listener: Listener) -> None:
        if self.listeners.pop(listener, False) is None:
            self.touch()
            seat = listener.seat
            if seat is not None and not self._present(seat):
                self._broadcast_table()  # away now (their turn's clock runs on either way)

    # -- the lobby -------------------------------------------------------------------------

    async def join(self, name: str, seat: int | None) -> tuple[int, str]:
        """Take a seat as guest ``name``: returns the seat and its secret token."""
        name = clean_name(name)
        async with self.lock:
            self._refuse_expired()
            if self.status == "playing":
                raise LobbyError(409, "the match has started: watch it, or join another table",
                                 code="match_started")
            if seat is None:
                free = [s for s in self.seats if self._is_free(s)]
                if not free:
                    raise LobbyError(409, "every seat at this table is taken", code="table_full")
                chosen = free[0]
            else:
                if not 0 <= seat < len(self.seats):
                    raise LobbyError(422, f"seat must be 0..{len(self.seats) - 1}; got {seat}",
                                     code="bad_seat",
                                     params={"most": len(self.seats) - 1, "seat": seat})
                chosen = self.seats[seat]
                if not self._is_free(chosen):
                    raise LobbyError(409, f"seat {seat} is taken",
                                     code="seat_taken", params={"seat": seat})
            token = new_seat_token()
            taken = StoredSeat(chosen.seat, "human", name, None, hash_token(token))
            await self._stored(self._storage.save_seat(self.code, taken, epoch=self.epoch))
            self.seats[chosen.seat] = taken
            self.touch()
            await self._listed()
            self._broadcast_table()
            return chosen.seat, token

    async def leave(self, token: str) -> None:
        """Give up a seat. Before the match it is free again; during it a stand-in bot takes it
        over, so the others can finish."""
        async with self.lock:
            seat = self._seat_for(token)
            self._refuse_expired()
            if self.status == "playing":
                level = bots.stand_in_level()
                left = StoredSeat(seat.seat, "bot", seat.name, level, None)
                self._walked_out.add(seat.seat)
            else:
                left = StoredSeat(seat.seat, "human")
            await self._stored(self._storage.save_seat(self.code, left, epoch=self.epoch))
            self.seats[seat.seat] = left
            self.stand_ins.discard(seat.seat)
            self._continuers.discard(seat.seat)
            if self._hold is not None:
                self._ready(seat.seat)
            self.touch()
            await self._listed()
            # Whoever takes the seat next must not be watched through the old connections.
            gone = encode(
                {"type": "error", "code": "bad_token", "message": "you left this seat"}
            )
            for listener in [other for other in self.listeners if other.seat == seat.seat]:
                del self.listeners[listener]
                listener.push(gone)
                listener.close(POLICY_VIOLATION, "left the seat")
            self._broadcast_table()
            self._schedule_turn()

    async def account_deleted(self, account_id: int, held: dict[int, str | None]) -> None:
        """The account that held the seats ``held`` names here was deleted (issue 34, item 12):
        each with the hash its token had then, so a seat taken by someone else since is left
        alone. Its seats stop being anyone's at once (their tokens open nothing) and read
        :data:`.DELETED_NAME`, or are free again at a table still waiting; its sockets here
        (its seats', and its own as a spectator) are told so and closed with 1008, which a
        client does not reconnect after. A match being played is then resigned for it, as
        the room ends any resigned match, and rates nobody: a deletion is no result its
        opponents played out, and one a booster could time (:mod:`..common.fairplay`).
        Hearing it twice (the room's word, then the deleting process's own look) changes
        nothing the second time."""
        async with self.lock:
            mine = sorted(seat for seat, token_hash in held.items()
                          if 0 <= seat < len(self.seats)
                          and self._held_by_deleted(self.seats[seat], token_hash))
            playing = self.status == "playing" and self.game is not None
            resigns = [seat for seat in mine if playing and self.seats[seat].kind == "human"]
            for seat in mine:
                before = self.seats[seat]
                if self.status == "waiting":
                    after = StoredSeat(seat, "human")
                else:
                    after = StoredSeat(seat, before.kind, DELETED_NAME, before.level, None)
                if after != before:
                    self.seats[seat] = after
                    try:
                        await self._storage.save_seat(self.code, after, epoch=self.epoch)
                    except StaleOwnerError as error:  # the deletion stored it already
                        log.warning("table %s: a deleted seat not stored: %s", self.code, error)
                self._continuers.discard(seat)
                if self._hold is not None and seat in self._hold[1]:
                    self._ready(seat)
            self._deleted.update(resigns)
            gone = encode({"type": "error", "code": "account_deleted",
                           "message": "this account was deleted: its seats are nobody's now"})
            for listener in [other for other in self.listeners
                             if other.seat in mine or other.account_id == account_id]:
                del self.listeners[listener]
                listener.push(gone)
                listener.close(POLICY_VIOLATION, "account deleted")
            if mine:
                self.touch()
                self._broadcast_table()
                if self.status == "waiting":
                    await self._listed()
        if resigns:
            # ProtocolError: the match ended meanwhile, and rates nobody all the same.
            with contextlib.suppress(ProtocolError):
                await self.resign(resigns[0])

    @staticmethod
    def _held_by_deleted(seat: StoredSeat, token_hash: str | None) -> bool:
        """Whether ``seat`` is still the deleted account's: its token is the one it had then;
        or, loaded after the deletion stored it, it reads :data:`.DELETED_NAME` with no token;
        or (no token then) it is the bot that took it over when its person walked out."""
        if token_hash is not None:
            return seat.token_hash == token_hash or (
                seat.token_hash is None and seat.name == DELETED_NAME)
        return seat.kind == "bot" and seat.name != DELETED_NAME

    async def start(self, token: str) -> None:
        """Deal the first match, once every seat is taken."""
        async with self.lock:
            self._seat_for(token)
            self._refuse_expired()
            if self.status != "waiting":
                raise LobbyError(409, f"the table is {self.status}, not waiting to start",
                                 code="table_not_waiting", params={"status": self.status})
            await self._start_match()

    async def rematch(self, token: str) -> None:
        """After a match, another one with the same seats (once any free seat is taken)."""
        async with self.lock:
            self._seat_for(token)
            self._refuse_expired()
            if self.status != "over":
                raise LobbyError(409, f"the table is {self.status}: a rematch follows a match",
                                 code="no_rematch", params={"status": self.status})
            if any(self._is_free(seat) for seat in self.seats):
                self.status = "waiting"
                self.touch()
                await self._stored(
                    self._storage.set_status(self.code, "waiting", self.touched, epoch=self.epoch)
                )
                await self._listed()
                self._broadcast_table()
                return
            await self._start_match()

    async def start_now(self) -> None:
        """Deal at once (play against the computer: every other seat is a bot)."""
        async with self.lock:
            await self._start_match()

    def _refuse_expired(self) -> None:
        if self.status == "expired":
            minutes = self._settings.waiting_expiry / 60
            raise LobbyError(
                410, f"this table expired after {minutes:g} minutes with nobody joining it",
                code="table_expired", params={"minutes": minutes}
            )

    async def expire(self) -> None:
        """The table waited too long for people: it is over for good, whoever is watching."""
        async with self.lock:
            if self.status != "waiting":
                return
            try:
                await self._storage.set_status(self.code, "expired", epoch=self.epoch)
            except StaleOwnerError as error:
                log.warning("table %s: not expired here: %s", self.code, error)
                return
            self.status = "expired"
            await self._listed()
            self._broadcast_table()

    async def _start_match(self) -> None:
        free = [seat.seat for seat in self.seats if self._is_free(seat)]
        if free:
            raise LobbyError(409, f"seats {free} are still free: a match needs every seat taken",
                             code="seats_free", params={"seats": str(free)})
        # Whether this match is rated is decided as it is dealt, and said before its first move
        # (docs/ratings.md, "Fair play"); the hints follow it.
        self.mode = await rating_queries.deal_mode(self._storage, self.code, now())
        self._barred = None
        seed = new_seed() if self.next_seed is None else self.next_seed
        self.next_seed = None
        game = Game.new(self.rules, seed=seed)
        players = [
            {"seat": s.seat, "kind": s.kind, "name": s.name, "level": s.level} for s in self.seats
        ]
        self.match_id = await self._stored(
            self._storage.insert_match(
                self.code, self.rules.to_dict(), seed, None, players, epoch=self.epoch
            )
        )
        self.game, self.plays, self._deck = game, [], None
        self._played_for = [0] * len(self.seats)
        self._walked_out = set()
        self._deleted = set()
        self.status = "playing"
        await self._listed()
        self.stand_ins.clear()
        self.touch()
        self._end_hold()
        self._broadcast_table()
        self._schedule_turn()
        self._broadcast_state()

    def resume(
        self, match_id: int, seed: int, deck: list[str] | None, moves: list[str],
        resigned: int | None = None,
    ) -> None:
        """Bring back a stored match after a restart, and let its bots play on."""
        self.game, self.plays = replay_moves(self.rules, seed, deck, moves, resigned)
        self.match_id, self._deck = match_id, deck
        self._schedule_turn()

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
        await asyncio.shield(self._spawn(self._play(seat, code, version, ref, token)))

    async def _play(
        self, seat: int, code: str, version: int | None, ref: str | int | None, token: str | None
    ) -> None:
        ended: tuple[FinishedMatch, str, list[Listener]] | None = None
        async with self.lock:
            game = self._match_for(seat, ref, token)
            if token is None and self.seats[seat].kind == "human" and seat not in self.stand_ins:
                # A stand-in's move, but its person came back while it was thinking.
                raise ProtocolError("stale_version", "the person came back: theirs to play", ref)
            if version is not None and version != self.version:
                raise ProtocolError(
                    "stale_version",
                    f"that move was for version {version}, but the match is at version "
                    f"{self.version}: look at the latest state and play again",
                    ref,
                )
            if seat != game.to_move:
                raise ProtocolError(
                    "not_your_turn", f"not your turn: seat {game.to_move} is to play", ref
                )
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
            try:
                await self._storage.append_move(
                    self.code, self.match_id, self.version + 1, seat, str(play.move), finished,
                    epoch=self.epoch,
                )
            except Exception as error:
                if isinstance(error, StaleOwnerError):  # its lease keeper lets the table go
                    log.warning("table %s: move %s refused: %s", self.code, play.move, error)
                else:
                    log.exception("table %s: could not store move %s", self.code, play.move)
                # The game in memory is always the stored moves: take this one back.
                self.game, self.plays = replay_moves(
                    self.rules, game.seed, self._deck, [str(p.move) for p in self.plays]
                )
                raise ProtocolError(
                    "server_error", "the move could not be stored; play it again", ref
                ) from None
            self.plays.append(play)
            self.touch()
            if token is None and self.seats[seat].kind == "human":
                self._by_stand_in = (self.match_id, self.version)
            if token is None and (self.seats[seat].kind == "human" or seat in self._walked_out):
                self._played_for[seat] += 1
            if self._hold is not None and self._ready(seat):  # a person who plays has read it
                self._broadcast_table()
            if game.winner is None and game.round_number != round_number:
                self._hold_round_end(game.round_number)
            if game.winner is not None:
                ended = self._match_over(game.winner)
            self._schedule_turn()
            self._broadcast_state(with_over=ended is None)
        if ended is not None:
            self._announce(*ended)

    def _match_over(self, winner: int) -> tuple[FinishedMatch, str, list[Listener]]:
        """The match's end is stored: the table is over and its stand-ins end (no turns are
        left for them to play). Returned for the lock's holder to :meth:`_announce` once the
        lock is let go: the finished match, its ``over``, and who is sent its last state."""
        assert self.game is not None and self.match_id is not None
        self.status = "over"
        ended = FinishedMatch(
            self.code, self.match_id, self.rules,
            tuple(seat.kind for seat in self.seats), tuple(self.game.scores), winner,
            resigned=self.game.resigned,
            timed_out=tuple(sorted(
                seat for seat in self.stand_ins if self.seats[seat].kind == "human"
            )),
            own_moves=self._own_moves(),
            deleted=tuple(sorted(self._deleted)),
        )
        self.stand_ins.clear()
        self._broadcast_table()
        return ended, self._over_message(), list(self.listeners)

    def _announce(self, match: FinishedMatch, over: str, listeners: list[Listener]) -> None:
        """Tell the room's subscribers (ratings, social, tournaments, the daily deal) of
        ``match`` in a task of the table's, once its last state is sent and the lock is free:
        a slow subscriber holds up no move, rematch or chat here. Then ``over`` goes to those
        of ``listeners`` still here, so that whoever is told it finds the match's
        consequences (a rating, a standing, the day's result) in place, as before; one who
        connects meanwhile is sent it at once, with the state. Each announcement waits for the
        one before it (a table's matches are told in the order they ended), and
        :class:`MatchEnds` logs a subscriber that fails. A rematch dealt before then (its
        seats saw the table ``over``) makes this ``over`` stale: it is not sent."""
        self._announcing = self._spawn(self._announce_after(self._announcing, match, over,
                                                            listeners))

    async def _announce_after(
        self, previous: asyncio.Task[None] | None, match: FinishedMatch, over: str,
        listeners: list[Listener],
    ) -> None:
        if previous is not None:
            await asyncio.wait({previous})
        if self._match_ends is not None:
            await self._match_ends.announce(match)
        if self.match_id != match.match_id:
            return  # a rematch was dealt meanwhile: its people play on, an old ``over`` is stale
        for listener in listeners:
            if listener in self.listeners:
                listener.push(over)

    def _own_moves(self) -> tuple[int, ...]:
        """Each side's moves of its own in the current match: every move at its seats but
        those a stand-in or a walked-out seat's bot played."""
        own = [0] * self.rules.sides
        for play in self.plays:
            own[self.rules.side_of(play.seat)] += 1
        for seat, played_for in enumerate(self._played_for):
            own[self.rules.side_of(seat)] -= played_for
        return tuple(own)

    async def resign(
        self, seat: int, ref: str | int | None = None, token: str | None = None
    ) -> None:
        """The person at ``seat`` gives the match up: their side loses, and the match ends as
        at its last move (stored, announced, then ``state`` and ``over`` to everyone). In its
        own task, like a move, so a client that goes away meanwhile cannot leave it half done;
        a refusal raises :class:`ProtocolError` and changes nothing."""
        await asyncio.shield(self._spawn(self._resign(seat, ref, token)))

    async def _resign(self, seat: int, ref: str | int | None, token: str | None) -> None:
        async with self.lock:
            game = self._match_for(seat, ref, token)
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
                    self.rules, game.seed, self._deck, [str(p.move) for p in self.plays]
                )
                raise ProtocolError(
                    "server_error", "the resignation could not be stored; resign again", ref
                ) from None
            self.touch()
            self._end_hold()
            ended = self._match_over(game.winner)
            self._schedule_turn()
            self._broadcast_state(with_over=False)
        self._announce(*ended)

    # -- a round's end, held for its people ----------------------------------------------

    def _hold_round_end(self, finished: int) -> None:
        """Round ``finished`` has ended: hold the table for the people at it (connected and
        not played for) to read its breakdown, for :data:`HOLD_SECONDS` at most."""
        waiting = {
            seat.seat
            for seat in self.seats
            if seat.seat in self._continuers
            and seat.seat not in self.stand_ins
            and self._present(seat.seat)
        }
        if not waiting:
            return
        self._end_hold()
        self._hold = (finished, waiting)
        self._hold_timer = asyncio.get_running_loop().call_later(
            HOLD_SECONDS, self._hold_ran_out, finished
        )
        self._broadcast_table()

    async def continue_round(
        self, seat: int, finished: int, ref: str | int | None = None, token: str | None = None
    ) -> None:
        """The person at ``seat`` has read round ``finished``'s breakdown; the last of them
        lets the match go on. A continue for a round the table is not holding changes nothing
        and says so (the hold may have run out, or every other person continued first)."""
        async with self.lock:
            self._match_for(seat, ref, token)
            held = self._hold
            if held is None or held[0] != finished or seat not in held[1]:
                raise ProtocolError(
                    "not_held", f"the table is not waiting for you at the end of round {finished}",
                    ref,
                )
            if self._ready(seat):
                self._go_on()
            else:
                self._broadcast_table()  # who is still reading

    def _ready(self, seat: int) -> bool:
        """``seat`` is ready for the next deal (it continued, played, or left); whether it was
        the last the table waited for, which ends the hold."""
        assert self._hold is not None
        self._hold[1].discard(seat)
        if self._hold[1]:
            return False
        self._end_hold()
        return True

    def _go_on(self) -> None:
        """The hold is over: the next turn's bot or clock starts, and everyone is told."""
        self._broadcast_table()
        self._schedule_turn()
        self._broadcast_state()  # with the turn's clock, now running

    def _hold_ran_out(self, finished: int) -> None:
        self._hold_timer = None
        if self._hold is not None and self._hold[0] == finished:
            self._spawn(self._release(finished))

    async def _release(self, finished: int) -> None:
        async with self.lock:
            if self._hold is not None and self._hold[0] == finished:
                self._end_hold()
                self._go_on()

    def _end_hold(self) -> None:
        if self._hold_timer is not None:
            self._hold_timer.cancel()
            self._hold_timer = None
        self._hold = None

    def _match_for(self, seat: int, ref: str | int | None, token: str | None) -> Game:
        """The match ``seat`` is playing, if its ``token`` (a person's) still holds the seat."""
        if token is not None and not token_matches(token, self.seats[seat].token_hash):
            raise ProtocolError("bad_token", "this seat is no longer yours", ref)
        if self.game is None or self.status != "playing":
            raise ProtocolError("no_match", "no match is being played at this table", ref)
        return self.game

    async def hints_barred(self) -> assist_queries.Barred | None:
        """Why the master gives no hints here (a rated table, a tournament's game, the daily
        deal: a match whose result counts is its person's own play), or None where it does.
        Read from the database, where whoever made the table wrote its mode before dealing it;
        kept once the table is dealt, so a hint costs no query. A waiting table is read again
        each time: its mode may be written just after it is made."""
        if self._barred is not None:
            return self._barred[0]
        barred = await assist_queries.hints_barred(self._storage, self.code)
        if self.status != "waiting":
            self._barred = (barred,)
        return barred

    async def hint(
        self, seat: int, ref: str | int | None = None, token: str | None = None
    ) -> str:
        """The ``hint`` message for ``seat``: the master's move for that seat's own view and
        why. Only the seat to move may ask; a refusal raises :class:`ProtocolError`. Nothing
        changes either way, and the answer is meant for the asking connection alone.

        The search runs off the event loop without the table's lock, so the table plays on
        meanwhile; the answer names the version it is for. It is kept until the next move, so
        asking again costs nothing: a client cannot keep a bot thread busy by repeating itself.
        """
        barred = await self.hints_barred()
        async with self.lock:
            game = self._match_for(seat, ref, token)
            if barred is not None:
                raise ProtocolError("no_hints", _NO_HINTS[barred], ref)
            if seat != game.to_move:
                raise ProtocolError(
                    "not_your_turn",
                    f"no hint: it is not your turn (seat {game.to_move} is to play)",
                    ref,
                )
            job = self._job(game, seat)
            position = (self.match_id, self.version)
        kept = self._hints.get(seat)
        if kept is None or kept[0] != position:
            move, why = await self._pool.advise(job)
            answer = {
                "type": "hint",
                "table": self.code,
                "match": position[0],
                "version": position[1],
                "move": str(move),
                "reason": {"key": why.key, "params": dict(why.params), "text": str(why)},
            }
            kept = self._hints[seat] = (position, answer)
        return encode(kept[1] if ref is None else {**kept[1], "ref": ref})

    async def come_back(self, seat: int, token: str | None) -> None:
        """A command from the person at ``seat`` (a move, a hint, a sync: anything but a
        ``ping``, which a client may send by itself): if a stand-in plays for them, it stops,
        everyone is told, and a turn of theirs now has a fresh clock."""
        if seat not in self.stand_ins or token is None:
            return
        async with self.lock:
            if seat not in self.stand_ins or not token_matches(
                token, self.seats[seat].token_hash
            ):
                return
            self.stand_ins.discard(seat)
            await self._save_stand_ins()
            self._broadcast_table()
            if seat == self._to_move():
                self._schedule_turn()  # the stand-in's turn ends, the person's clock starts

    def _schedule_turn(self) -> None:
        """Start whatever plays the next turn without a person: a bot (or a stand-in for a
        person who timed out), or the turn's clock at a table of people. The clock runs from
        the start of the turn whether the person is connected or not: one who is here but
        silent holds up the others as much as one who left."""
        if self._turn is not None:
            self._turn.cancel()
            self._turn = None
        self._clock = None
        game = self.game
        if game is None or self.status != "playing" or game.to_move is None:
            return
        if self._hold is not None:
            return  # the people are reading a round's breakdown: play goes on once they have
        seat = self.seats[game.to_move]
        if seat.kind == "bot":
            level = bots.known_level(seat.level)
            self._turn = self._spawn(self._bot_turn(seat.seat, level, self.version))
        elif seat.seat in self.stand_ins:
            self._turn = self._spawn(
                self._bot_turn(seat.seat, bots.stand_in_level(), self.version)
            )
        elif self._settings.turn_timeout is not None and self._people() >= 2:
            loop = asyncio.get_running_loop()
            ends = loop.time() + self._settings.turn_timeout
            self._clock = (seat.seat, self.version, ends)
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
        self._turn = self._spawn(self._timed_out(seat, version))

    def _people(self) -> int:
        return sum(seat.kind == "human" for seat in self.seats)

    def _present(self, seat: int) -> bool:
        return any(listener.seat == seat for listener in self.listeners)

    def _to_move(self) -> int | None:
        return None if self.game is None else self.game.to_move

    async def _bot_turn(self, seat: int, level: str, version: int) -> None:
        await bots.pause(self._settings.bot_delay)
        await self._play_for(seat, level, version)

    async def _timed_out(self, seat: int, version: int) -> None:
        """The person at ``seat`` let their turn's clock run out (gone, or here and silent): a
        stand-in plays for them (shown in the seat's ``stand_in``) from now on, until they come
        back (:meth:`come_back`, or a ``hello`` with the seat's token)."""
        async with self.lock:  # not while the person's move, or their coming back, is stored
            if self.version != version or seat in self.stand_ins:
                return
            self.stand_ins.add(seat)
            self._broadcast_table()
            stored = await self._save_stand_ins()
        if stored:
            await self._play_for(seat, bots.stand_in_level(), version)

    async def _save_stand_ins(self) -> bool:
        """Store who has a stand-in now; whether it was stored (not if the table moved on)."""
        try:
            await self._storage.save_stand_ins(self.code, set(self.stand_ins), epoch=self.epoch)
        except StaleOwnerError as error:
            log.warning("table %s: stand-ins not stored: %s", self.code, error)
            return False
        return True

    async def _listed(self) -> None:
        """Tell every process that the open-table list changed (a lost word costs only a
        list out of date until the next change)."""
        if self._lobby_changed is None:
            return
        try:
            await self._lobby_changed()
        except Exception:
            log.exception("table %s: could not tell the lobby it changed", self.code)

    async def _stored(self, write: Awaitable[T]) -> T:
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

    async def _play_for(self, seat: int, level: str, version: int) -> None:
        game = self.game
        if game is None or self.version != version or game.to_move != seat:
            return
        view = game.view(seat)
        try:
            move = await bots.think(self._pool, level, self._job(game, seat))
        except Exception:
            # A table must never stall on a bot's bug: log it and play any legal move instead.
            log.exception("table %s: the bot at seat %s failed; playing at random", self.code, seat)
            move = random.choice(view.legal_moves())
        try:
            await self.play(seat, str(move), version)
        except ProtocolError as error:
            # A stale version means a person played first or left; anything else is a bot bug.
            if error.code != "stale_version":
                log.error("table %s: bot at seat %s played %s: %s", self.code, seat, move, error)

    def _job(self, game: Game, seat: int) -> bots.Position:
        return bots.position(self.rules, game.seed, self._deck, self.plays, seat)

    def _spawn(self, coroutine: Coroutine[Any, Any, T]) -> asyncio.Task[T]:
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
        self._clock = None
        if self._alarm is not None:
            self._alarm.cancel()
            self._alarm = None
        self._end_hold()
        if self._announcing is not None:
            # Told before the storage closes: a rating or a standing is not cut off halfway.
            await asyncio.wait({self._announcing})
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

