"""The card room: every table, found by its code, and the work no single table owns.

It opens the database, brings back every table that was waiting or playing when the server
stopped (a ``kill -9`` included), creates tables, lends the tables one pool of worker processes
for their bots, and sweeps: waiting tables nobody joins expire, and tables nobody watches leave
memory (they come back from the database when someone asks for them).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime, timedelta
from typing import Any, Final

import sqlalchemy.exc

from ...looks import LOOKS
from ...players import LEVELS
from ...rules import Rules
from ..common.closing import every
from ..common.errors import LobbyError
from ..common.hub import Hub, LocalHub, process_name
from ..common.ratelimit import HttpLimits
from ..common.settings import Settings
from ..common.tokens import hash_token, new_seat_token, new_table_code, normalise_code
from ..store.deletion_queries import HeldSeat
from ..store.storage import Storage, StoredSeat, StoredTable, now
from .bots import BotPool, Bots
from .finished import MatchEnds
from .listeners import Listener
from .seating import clean_name
from .tables import MoveStored, MoveWrite, Table

log = logging.getLogger(__name__)

LOBBY_CACHE_SECONDS = 5.0
"""The longest a process answers the open-table list from its copy, however quiet the lobby
(a change is seen at once, through the lobby's version; this bounds what a lost word costs)."""
RecordSeal = Callable[[int, int | None], Awaitable[str | None]]
"""Asked before a finished match's record is read (match id, and the account asking for its
replay, if that is what is asked): a sentence keeps the record hidden for now."""
CODE_ATTEMPTS = 20
"""Table codes tried before giving up: with 32**6 codes a clash is rare, twenty in a row is a
broken database."""
ACCOUNT_DELETED: Final = "account_deleted"
"""What the room tells a deleted account's key (``account:ID``, as its ``/ws/me`` goes by):
each process's tables let its seats go and close its sockets, and ``/ws/me`` closes its own
(:meth:`CardRoom.account_deleted`)."""


def build_rules(
    preset: str, players: int | None, teams: int | None, target: int | None
) -> Rules:
    """The rules of a new table, refused (422) with the core's own sentence when impossible."""
    overrides: dict[str, Any] = {}
    if players is not None:
        overrides["players"] = players
    if teams is not None:
        overrides["teams"] = teams
    if target is not None:
        overrides["target"] = target
    try:
        return Rules.preset(preset, **overrides)
    except (ValueError, TypeError) as error:
        raise LobbyError(422, str(error), code="bad_rules") from None


def check_look(look: str) -> str:
    if look not in LOOKS:
        raise LobbyError(422, f"unknown deck look {look!r}; the looks are: {', '.join(LOOKS)}",
                         code="unknown_look", params={"look": look})
    return look


def check_level(level: str) -> str:
    if level not in LEVELS:
        raise LobbyError(422, f"unknown bot level {level!r}; the levels are: {', '.join(LEVELS)}",
                         code="unknown_level", params={"level": level})
    return level


class CardRoom:
    """All the tables of one server process, opened with :meth:`open`."""

    def __init__(
        self, settings: Settings, hub: Hub | None = None, pool: Bots | None = None
    ) -> None:
        """``hub`` and ``pool``: how this process talks to the room's others and where its bots
        think, as the composition root (``server/app.py``) builds them from the settings;
        without them, a process alone with bots of its own (``LocalHub``, ``BotPool``)."""
        self.settings = settings
        self.storage = Storage(settings.db_url)
        self.match_ends = MatchEnds()
        """Told of every match that ends at a table of this process: ratings subscribe, and
        whatever else a finished match sets going."""
        self.move_writes: list[MoveWrite] = []
        """Asked for a write to store with each move of a table whose pace is not live, in
        the move's own transaction (a correspondence table's clock, set again by the move)."""
        self.moves_stored: list[MoveStored] = []
        """Told of every move stored at a table whose pace is not live, outside the table's
        lock (a correspondence table's mover is pushed)."""
        self.record_seals: list[RecordSeal] = []
        """Asked before a finished match's record is shown (its seed and decks, or its replay):
        one that answers with a sentence keeps it hidden (403), as the daily deal keeps its
        matches until their day is over."""
        self.hub: Hub = hub or LocalHub(settings.process_name or process_name())
        self.name = self.hub.name
        self.pool: Bots = pool or BotPool(settings.bot_workers, settings.review_workers)
        self.limits = HttpLimits(settings)
        self.tables: dict[str, Table] = {}
        """The tables this process owns, and so holds in memory."""
        self.strangers = 0
        """Sockets open now that have not said hello yet."""
        self.relayed = 0
        """Commands this process's sockets sent to other processes' tables since it started."""
        self._loading = asyncio.Lock()
        self._sweeper: asyncio.Task[None] | None = None
        self._closing = asyncio.Event()
        self._open_list: tuple[int, float, list[dict[str, Any]]] | None = None
        """The open-table list as last read from the database: the lobby's version it was
        read at, when, and the list."""
        self._letting_go: set[asyncio.Task[None]] = set()
        """Deleted accounts' seats and sockets being let go of here, as the room was told."""
        self.hub.on_told(self._told)

    async def open(self) -> None:
        """Migrate the database, expire the waiting tables that waited too long, then (alone)
        bring back every other unfinished table and resume its bots. Among other processes,
        tables come back when someone asks for them, or when their owner dies."""
        await self.storage.open()
        await self.limits.open()
        if await self.storage.expire_waiting(now() - self._expiry):
            await self._lobby_changed()
        if not self.hub.shared:
            for code in await self.storage.active_table_codes():
                await self.locate(code)
        self._sweeper = asyncio.create_task(
            every(lambda: self.settings.sweep_every, self._closing, lambda: self.sweep(now()),
                  "the sweep"), name="scopa-sweeper")

    async def close(self) -> None:
        """Stop the sweeps by a flag, not by cancelling their loop (as the pools' matchmaker
        and the tournaments' director stop): on Python 3.11 a cancellation that meets a
        database or Redis call just as it finishes can be lost (``asyncio.wait_for``'s
        gh-86296), and a loop that lost it sleeps on while the close waits for it. The sweep
        in progress ends, then the loop returns."""
        self._closing.set()
        if self._sweeper is not None:
            await self._sweeper
        for table in self.tables.values():
            await table.close()
        await self.pool.close()
        await self.storage.close()

    @property
    def _expiry(self) -> timedelta:
        return timedelta(seconds=self.settings.waiting_expiry)

    async def sweep(self, at: datetime) -> None:
        """As of ``at``: waiting tables untouched for the expiry time expire and leave memory,
        other tables idle for the eviction time leave memory (a correspondence table as soon
        as it is idle: it lives in the database between moves), and (among other processes)
        the live tables in play that no process holds are taken here."""
        idle = timedelta(seconds=self.settings.idle_eviction)
        for table in list(self.tables.values()):
            if table.status == "waiting" and table.touched + self._expiry <= at:
                await table.expire()
            if table.status == "expired" or (
                table.status != "waiting" and table.is_idle()
                and (table.pace != "live" or table.touched + idle <= at)
            ):
                await self._evict(table)
        if await self.storage.expire_waiting(at - self._expiry):
            await self._lobby_changed()
        if self.hub.shared:
            await self._adopt_stranded()

    async def _adopt_stranded(self) -> None:
        """Take every table in play that no process holds, so that its clock and its bots run
        with nobody watching it (issue 35, item 2). A table's turn clock and stand-ins live in
        the memory of the process that holds it, and among many processes a table is loaded
        only when someone asks for it or when its owner dies; a table let go otherwise (its
        process stopped and gave its leases back, or its lease lapsed under load and the owner
        let go with no takeover) stood still at its turn, its seats held, until someone opened
        it. Its turn's clock starts again from the load: a person who is away is played for
        within a sweep and a turn's timeout."""
        codes = [code for code in await self.storage.active_table_codes(("playing",))
                 if code not in self.tables]
        if not codes:
            return
        for code, owner in zip(codes, await self.hub.owners(codes), strict=True):
            if owner is None:
                await self.locate(code)

    async def _lobby_changed(self) -> None:
        try:
            await self.hub.lobby_changed()
        except Exception:
            log.exception("could not tell the other processes that the lobby changed")

    async def _evict(self, table: Table) -> None:
        async with self._loading:
            if self.tables.get(table.code) is table:
                del self.tables[table.code]
                await self.hub.release(table.code)
        await table.close()

    async def hand_over(self, table: Table, to: str) -> list[Listener] | None:
        """Give ``table`` to process ``to``: once its write in progress is stored, it leaves
        this process (its bots and clock stop) and its lease becomes ``to``'s. The listeners it
        had then, or ``None`` if it was not this process's any more."""
        async with table.lock:
            async with self._loading:
                if self.tables.get(table.code) is not table:
                    return None
                del self.tables[table.code]
                if not await self.hub.hand(table.code, to):
                    log.warning("table %s: lease lost before it was handed over", table.code)
            left = list(table.listeners)
            table.listeners.clear()
            await table.close()
        return left

    async def locate(self, code: str) -> Table | str | None:
        """Where table ``code`` (any case) is: this process's own ``Table`` (taken over and
        loaded from the database when nobody owned it), the name of the process that owns it,
        or ``None`` when there is no such table."""
        code = normalise_code(code)
        table = self.tables.get(code)
        if table is not None:
            return table
        async with self._loading:  # one load per table, even when two clients ask at once
            table = self.tables.get(code)
            if table is not None:
                return table
            if not await self.hub.claim(code):
                owner = await self.hub.owner(code)
                if owner is not None and owner != self.name:
                    return owner
                if not await self.hub.claim(code):  # its lease ran out just now
                    return await self.hub.owner(code)
            epoch = await self.storage.take_table(code)  # earlier writers are fenced off now
            stored = None if epoch is None else await self.storage.load_table(code)
            if epoch is None or stored is None:
                await self.hub.release(code)
                return None
            table = self.tables[code] = self._restore(stored, epoch)
            return table

    async def get(self, code: str) -> Table | None:
        """The table with ``code`` if this process owns it (see :meth:`locate`)."""
        where = await self.locate(code)
        return where if isinstance(where, Table) else None

    def _new_table(
        self, code: str, rules: Rules, look: str, status: str, seats: list[StoredSeat],
        epoch: int = 0, pace: str = "live",
    ) -> Table:
        return Table(
            code, rules, look, status, seats, self.storage, self.settings, self.pool, epoch=epoch,
            lobby_changed=self.hub.lobby_changed,
            match_ends=self.match_ends, pace=pace, moves_stored=self.moves_stored,
            move_writes=self.move_writes,
        )

    def _restore(self, stored: StoredTable, epoch: int) -> Table:
        """The table ``stored`` in memory, to be written at ``epoch``."""
        table = self._new_table(
            stored.code, Rules.from_dict(stored.rules), stored.look, stored.status, stored.seats,
            epoch, stored.pace,
        )
        if stored.status == "waiting" and stored.touched is not None:
            table.touched = stored.touched
        match = stored.match
        if match is not None:
            table.resume(match.id, match.seed, match.deck, match.moves, match.resigned)
        return table

    async def create(
        self,
        rules: Rules,
        look: str,
        bots: dict[int, str],
        name: str | None,
        code: str | None = None,
        pace: str = "live",
    ) -> tuple[Table, int | None, str | None]:
        """A new table with ``bots`` (seat -> level) in their seats; with ``name``, its creator
        takes the first other seat. Returns the table and the creator's seat and token.
        ``code``: the code to give it, chosen beforehand (the pools name it in their people's
        keys before they make it); tried once, and refused with 409 if it is taken.
        ``pace``: how its turns are timed (``tables.pace``)."""
        look = check_look(look)
        for seat, level in bots.items():
            if not 0 <= seat < rules.players:
                raise LobbyError(422, f"bot seat must be 0..{rules.players - 1}; got {seat}",
                                 code="bad_bot_seat",
                                 params={"most": rules.players - 1, "seat": seat})
            check_level(level)
        if name is None and len(bots) >= rules.players:
            raise LobbyError(
                422, "a table of bots only has nobody to start it: leave a seat for a person",
                code="bots_only"
            )
        seats = [
            StoredSeat(seat, "bot", f"Bot {seat + 1}", bots[seat])
            if seat in bots
            else StoredSeat(seat, "human")
            for seat in range(rules.players)
        ]
        token = None
        mine = None
        if name is not None:
            name = clean_name(name)
            free = [seat for seat in seats if seat.kind == "human"]
            if not free:
                raise LobbyError(422, "every seat has a bot: leave one for yourself",
                                 code="all_bots")
            mine = free[0].seat
            token = new_seat_token()
            seats[mine] = StoredSeat(mine, "human", name, None, hash_token(token))
        for candidate in [code] if code is not None else (
            new_table_code() for _ in range(CODE_ATTEMPTS)
        ):
            if candidate in self.tables:
                continue
            if not await self.hub.claim(candidate):
                continue
            try:
                await self.storage.insert_table(candidate, rules.to_dict(), look, seats, pace)
            except sqlalchemy.exc.IntegrityError:
                await self.hub.release(candidate)
                continue
            table = self.tables[candidate] = self._new_table(
                candidate, rules, look, "waiting", seats, pace=pace
            )
            table.chat.made_now()
            await self._lobby_changed()
            return table, mine, token
        if code is not None:
            raise LobbyError(409, f"there is a table {code} already",
                             code="table_exists", params={"code": code})
        raise LobbyError(503, "could not find a free table code; try again", code="no_free_code")

    async def account_deleted(self, account_id: int, held: Sequence[HeldSeat]) -> None:
        """Account ``account_id``, deleted, held ``held`` (issue 34, item 12): every process is
        told (its tables here let the seats go and close the account's sockets, its
        ``/ws/me`` closes), and a table where it was playing that no process holds in memory
        is loaded here to resign the match: the stored seat already opens nothing."""
        tables: dict[str, dict[int, str | None]] = {}
        for seat in held:
            tables.setdefault(seat.code, {})[seat.seat] = seat.token_hash
        try:
            await self.hub.tell(f"account:{account_id}", {
                "type": ACCOUNT_DELETED, "account": account_id,
                "tables": {code: list(seats.items()) for code, seats in tables.items()},
            })
        except Exception:
            log.exception("could not tell the room that account %s was deleted", account_id)
        for code in sorted({seat.code for seat in held if seat.status == "playing"}):
            where = await self.locate(code)
            if isinstance(where, Table):
                await where.account_deleted(account_id, tables[code])

    def _told(self, person: str, message: dict[str, Any]) -> None:
        """What the room tells a person: the deletion of an account reaches this process's
        tables where it sits or watches."""
        if message.get("type") != ACCOUNT_DELETED or not isinstance(message.get("account"), int):
            return
        task = asyncio.create_task(self._let_go_of(message["account"], message.get("tables")))
        self._letting_go.add(task)
        task.add_done_callback(self._letting_go.discard)

    async def _let_go_of(self, account_id: int, told: Any) -> None:
        tables = told if isinstance(told, dict) else {}
        for table in list(self.tables.values()):
            held = {int(seat): token_hash for seat, token_hash in tables.get(table.code, ())}
            if held or any(listener.account_id == account_id for listener in table.listeners):
                try:
                    await table.account_deleted(account_id, held)
                except Exception:
                    log.exception("table %s: deleted account %s not let go of", table.code,
                                  account_id)

    async def open_tables(self) -> list[dict[str, Any]]:
        """Tables waiting for people, oldest first, as the lobby shows them: from memory when
        this process is alone, else from the database, so every process lists the same. The
        list read from the database is kept while the lobby's version in Redis stays the same
        (every process changes it with each change to a waiting table), for
        :data:`LOBBY_CACHE_SECONDS` at most: a request costs one Redis read, not the two
        queries (and one per table waiting for a rematch) of reading it again."""
        if not self.hub.shared:
            return [table.info() for table in self.tables.values() if table.is_open()]
        version = await self.hub.lobby_version()
        moment = asyncio.get_running_loop().time()
        kept = self._open_list
        if kept is not None and kept[0] == version and moment - kept[1] < LOBBY_CACHE_SECONDS:
            return kept[2]
        found = []
        for stored in await self.storage.waiting_tables():
            table = self.tables.get(stored.code) or self._restore(stored, stored.epoch)
            if table.is_open():
                found.append(table.info())
        self._open_list = (version, moment, found)
        return found

    async def sealed(self, match_id: int, replay_for: int | None = None) -> str | None:
        """Why match ``match_id``'s record may not be shown yet, if a seal says so (see
        :attr:`record_seals`): every route that gives a record or a replay asks."""
        for seal in self.record_seals:
            refusal = await seal(match_id, replay_for)
            if refusal is not None:
                return refusal
        return None

    async def match_record(
        self, match_id: int, replay_for: int | None = None
    ) -> dict[str, Any]:
        """A finished match's record (seed and decks included): 404 unknown, 403 not over or
        sealed. ``replay_for``: the account asking for the match's replay, which shows the
        cards but never the seed, and which a seal may open to it earlier."""
        found = await self.storage.load_match_record(match_id)
        if found is None:
            raise LobbyError(404, f"no match has the id {match_id}",
                             code="unknown_match", params={"match": match_id})
        refusal = await self.sealed(match_id, replay_for)
        if refusal is not None:
            raise LobbyError(403, refusal, code="replay_sealed")
        _, record = found
        if record is None:
            raise LobbyError(
                403, "the match is not over: its record holds the deck order, shown only at the "
                "end", code="match_not_over")
        return record
