"""The pools at work in one process: people who wait here, the waves that pair them, and the
tables made for them.

Every process runs the same loop, every ``PoolSettings.wave`` seconds:

1. **renew** the person keys of the people whose sockets it holds (:mod:`.store`), and put back
   in their pool, with their place, anyone whose key was lost: a party dropped because a
   friend left, people whose table lost someone as it was made, or people a process took and
   died before seating;
2. offer the computer to people who have waited ``PoolSettings.bot_offer`` seconds;
3. run a **wave** of every pool (:mod:`.matching`), take each group found out of the pool in
   one atomic step, and seat the groups it took: a table made with everyone seated through the
   lobby's own machinery (:meth:`.table.room.CardRoom.create`, :meth:`.table.tables.Table.join`),
   the seating decided in one step against the people who left meanwhile
   (:meth:`.store.PoolStore.seat`: if one did, the table ends unplayed and the others go back
   to their pool with their places), dealt, and each person told their table and seat token
   with :meth:`Hub.tell`, which reaches them on whatever process holds their socket.

With several processes each runs waves; the take decides which process seats a group, so a
person is seated once. One process alone keeps the pools in memory and runs the same code.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Collection, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final, Literal, Protocol

from limits import parse_many
from limits.aio.strategies import MovingWindowRateLimiter

from ..accounts import accounts, ratings
from ..common.errors import Param
from ..common.ratelimit import limit_storage
from ..common.services import Service
from ..common.tokens import new_table_code
from ..store import rating_queries
from ..store.storage import Storage
from ..table.room import CardRoom
from . import queries as pool_queries
from .formats import FORMATS, POOLS, Format, level_for, pool_name
from .matching import NEWCOMER, Blocked, Person, Waiting, couples, foursomes
from .settings import PoolSettings
from .store import MemoryPools, PoolStore, RedisPools

log = logging.getLogger(__name__)

BlockedAmong = Callable[[Storage, Collection[int]], Awaitable[Blocked]]
"""The pairs of some accounts where one blocked the other: the social feature's answer
(:func:`scopa.server.social.blocks.blocked_among`), handed in by the list of parts
(``parts.py``), since the features never import each other."""

NORMAL_CLOSURE: Final = 1000
WAVE_MOST: Final = 256
"""Parties one wave of one pool looks at, at most (the longest waiting)."""
SEATING: Final = 8
"""Tables a process makes for the pools at once."""
TOLD: Final = "pools:"
"""What the pools' :meth:`Hub.tell` keys start with (``pools:account:12``): their messages carry
seat tokens and pool tickets for this module's listeners alone, not for every socket of the
person (such as ``/ws/me``, which passes on what is told to ``account:12``)."""

Left = Literal["left", "paired", "not_waiting"]
"""What a person's leave did (:meth:`Matchmaker.leave`)."""


class PoolError(Exception):
    """A request the pools refuse: a code, a sentence for the person and what it is made of
    (``params``, for the client's own wording); nothing changed."""

    def __init__(self, code: str, message: str, params: Mapping[str, Param] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = dict(params or {})


class Socket(Protocol):
    """A waiting person's socket, as the matchmaker sees it."""

    def push(self, message: dict[str, Any]) -> None: ...

    def close(self, code: int, reason: str) -> None: ...


@dataclass
class Held:
    """A person whose pool socket this process holds, and what they wait for."""

    socket: Socket
    person: Person
    rating: float
    pool: str
    format: Format
    since: float
    party: Waiting | None = None
    """Their party in the pool (None while a pair's creator waits for the friend)."""
    pair_code: str | None = None
    offered: bool = False
    shown: tuple[int, float | None] | None = None
    """The last count and typical wait they were sent."""
    bot_table: str | None = None
    """The table against the computer they play while they wait, if they chose one."""

    @property
    def key_value(self) -> str:
        """What this person's key says while they wait here."""
        if self.party is not None:
            return self.party.ticket
        return f"pair:{self.pair_code}"


def new_ticket() -> str:
    return secrets.token_urlsafe(12)


@dataclass(frozen=True)
class Seating:
    """A group taken out of a pool: the table made for it and when, and the process making
    it.

    Its people's keys name it (``taken:`` and :meth:`mark`) until they are seated, and
    (``seated:`` and the mark) until they are told: their people are told in one message
    (:meth:`Matchmaker.told`), so either all of them heard or none did. A process that finds
    the maker dead while its person's key names it ends that table, if it was made
    (:meth:`~..store.storage.Storage.abandon_table`), and only then puts its person back: a
    maker killed between making the table and telling its people would otherwise leave them
    seated at a table they never heard of, and at the one their next pairing makes."""

    code: str
    since: datetime
    process: str

    def mark(self) -> str:
        return f"{self.code}:{int(self.since.timestamp() * 1000)}:{self.process}"

    @classmethod
    def read(cls, state: str) -> Seating | None:
        """The seating a key's ``state`` names, if it names one (``taken:`` or ``seated:``,
        and a mark)."""
        kind, _, mark = state.partition(":")
        if kind not in ("taken", "seated"):
            return None
        code, _, rest = mark.partition(":")
        stamp, _, process = rest.partition(":")
        if not stamp.isdigit() or not process:
            return None
        return cls(code, datetime.fromtimestamp(int(stamp) / 1000, UTC), process)


class Matchmaker:
    """This process's part of the pools."""

    def __init__(self, room: CardRoom, blocked_among: BlockedAmong) -> None:
        self.room = room
        self.blocked_among = blocked_among
        """Who blocked whom among some accounts (never seated together)."""
        self.settings = room.settings
        self.section = room.settings.section(PoolSettings)
        self.store: PoolStore = (
            RedisPools(self.settings.redis_url) if self.settings.redis_url else MemoryPools()
        )
        self.clock: Callable[[], float] = time.time
        """Seconds now: how long people have waited (tests move it by hand)."""
        self.held: dict[str, Held] = {}
        """The people whose pool sockets this process holds, by person key."""
        self.counts: dict[str, int] = {}
        """People waiting in each pool at the last wave."""
        self.typical: dict[str, float | None] = {}
        """Each pool's typical wait at the last wave (seconds; None before any pairing)."""
        self.pairings = 0
        """Groups this process seated since it started."""
        self.waves = 0
        """Waves of a two-player pool this process ran (where their runs start, see
        :func:`.matching.couples`)."""
        self._loop: asyncio.Task[None] | None = None
        self._closing = asyncio.Event()
        """Set by :meth:`close`: the waves stop."""
        self._seating = asyncio.Semaphore(SEATING)
        self._join_limits = parse_many(self.section.joins)
        self._joins: MovingWindowRateLimiter | None = None
        room.hub.on_told(self.told)

    async def open(self) -> None:
        # Made here: the limits' memory storage starts its expiry task in the running loop.
        self._joins = MovingWindowRateLimiter(limit_storage(self.settings.redis_url))
        self._loop = asyncio.create_task(self._now_and_then(), name="scopa-pools")

    async def close(self) -> None:
        """Stop the waves once the one in progress is over, then put back whoever is held
        here. Not by cancelling the loop: a cancellation that lands in the middle of a wave's
        Redis or database call can be taken up by it (a stressed clean-clone run once hung a
        process's shutdown there for 30 s, the loop asleep again after its cancel), and the
        tournaments' director stops the same way."""
        if self._loop is not None:
            self._closing.set()
            await self._loop
        for held in list(self.held.values()):
            await self.leave(held.person.key, listening=False)
        await self.store.close()

    async def _now_and_then(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.section.wave):
                    await self._closing.wait()
            if self._closing.is_set():
                return
            try:
                await self.tick()
                await self.wave()
            except Exception:
                log.exception("a wave of the pools failed; the next one will try again")

    # -- a person's requests -----------------------------------------------------------------

    async def join(
        self, socket: Socket, person: Person, address: str, format_name: str, rated: bool,
        pair: str | None,
    ) -> None:
        """``person`` asks from ``address`` to play in a pool; ``pair`` is ``new`` (make a pair
        code for a friend), a friend's pair code, or None. Refused with a :class:`PoolError`."""
        found = FORMATS.get(format_name)
        if found is None:
            raise PoolError("unknown_pool", f"there is no pool {format_name!r}; the pools are: "
                            f"{', '.join(FORMATS)}")
        if rated and person.account is None:
            raise PoolError("guests_casual", "guests play casual games only: log in to play "
                            "rated, or choose casual")
        await self._count_join(person, address)
        if rated and person.account is not None:
            # A fresh second account cannot be paired rated with its owner's main one at once.
            refusal = await ratings.newcomer_refusal(
                self.room.storage, person.account, None, self.room.settings.newcomer_matches)
            if refusal is not None:
                raise PoolError("new_account", refusal)
        if pair is not None and found.players != 4:
            raise PoolError("no_pairs", "friends queue as a pair for scopone, the game of four "
                            "in teams, only")
        if person.key in self.held:
            raise PoolError("already_waiting", "you are waiting in a pool already: leave it "
                            "first to join another")
        codes = await self._tables_of(person)
        playing = await pool_queries.playing_table(self.room.storage, person.account, codes)
        if playing is not None:
            raise PoolError("seated", f"you are seated at table {playing}, whose match is in "
                            "play: finish or resign it first", {"table": playing})
        rating = NEWCOMER
        if person.account is not None:
            rating = await pool_queries.rating_of(
                self.room.storage, person.account, found.rating_pool) or NEWCOMER
        pool = pool_name(found.name, rated)
        held = Held(socket, person, rating, pool, found, self.clock())
        if pair == "new":
            await self._make_pair(held)
        elif pair is not None:
            await self._join_pair(held, pair)
        else:
            held.party = Waiting(new_ticket(), (person,), rating, held.since)
            if not await self.store.enter(pool, held.party,
                                          await self._told_seating(person.key, codes)):
                raise PoolError("already_waiting", "you are waiting in a pool already (in "
                                "another tab or device): leave it there first")
            self.held[person.key] = held
        # Counted at once (the next wave counts everyone again), so nobody reads "0 waiting".
        self.counts[pool] = self.counts.get(pool, 0) + 1
        self._show(held)

    async def _tables_of(self, person: Person) -> list[str]:
        return [code for code in [await self.store.table_of(person.key)] if code is not None]

    async def _told_seating(self, key: str, codes: list[str]) -> dict[str, str]:
        """What a person's key may say for them to queue at once: their key says they were
        seated (``seated:``, kept :data:`.store.SEATED_NEWS` after they are told, for their
        other processes) at the table they were told of (``codes``), whose match is over (the
        join checked it): that news is old, and the key is theirs to take. Else nothing (a
        key that says anything else keeps them out: waiting elsewhere, being seated)."""
        state = await self.store.state_of(key)
        seating = None if state is None else Seating.read(state)
        if state is not None and state.startswith("seated:") and seating is not None \
                and seating.code in codes:
            return {key: state}
        return {}

    async def _count_join(self, person: Person, address: str) -> None:
        """Count a join against ``PoolSettings.joins``, per address and per person, as the
        lobby's writes are counted: each join may deal a table. Past it, refused."""
        assert self._joins is not None, "open() first"
        for limit in self._join_limits:
            if not await self._joins.hit(limit, "pool-join-address", address):
                raise PoolError("too_many_joins", f"too many pool joins from your address (at "
                                f"most {limit}): wait a little and join again")
        for limit in self._join_limits:
            if not await self._joins.hit(limit, "pool-join-person", person.key):
                raise PoolError("too_many_joins", f"too many pool joins from you (at most "
                                f"{limit}): wait a little and join again")

    async def _make_pair(self, held: Held) -> None:
        code = new_table_code()
        held.pair_code = code
        told = await self._told_seating(held.person.key, await self._tables_of(held.person))
        if not await self.store.hold(held.person.key, held.key_value,
                                     told.get(held.person.key)):
            raise PoolError("already_waiting", "you are waiting in a pool already (in another "
                            "tab or device): leave it there first")
        creator = Waiting(new_ticket(), (held.person,), held.rating, held.since)
        await self.store.keep_pair(code, creator, held.pool)
        self.held[held.person.key] = held
        held.socket.push({"type": "pair_code", "code": code})

    async def _join_pair(self, held: Held, code: str) -> None:
        code = code.strip().upper()
        found = await self.store.take_pair(code)
        if found is None:
            raise PoolError("no_pair", f"no friend waits with the pair code {code!r}: it is "
                            "mistyped, used or expired")
        creator, pool = found
        if pool != held.pool or creator.people[0].key == held.person.key:
            await self.store.keep_pair(code, creator, pool)
            raise PoolError("no_pair", f"the pair code {code!r} is for {pool}, with a friend: "
                            "join that pool, as someone else")
        party = Waiting(new_ticket(), (*creator.people, held.person),
                        (creator.rating + held.rating) / 2, creator.since)
        if not await self.store.enter(pool, party, {creator.people[0].key: f"pair:{code}"}):
            raise PoolError("no_pair", "your friend left, or you are waiting in a pool already")
        held.party = party
        held.since = party.since
        self.held[held.person.key] = held
        await self.room.hub.tell(TOLD + creator.people[0].key, {
            "type": "pool_partner", "party": party.to_dict(), "name": held.person.name})
        held.socket.push({"type": "partner", "name": creator.people[0].name})

    async def leave(self, person: str, *, listening: bool = True) -> Left:
        """``person`` leaves their pool: ``left``; or ``not_waiting``; or ``paired`` when a
        table has seated them already (:meth:`.store.PoolStore.withdraw`): they stay held
        here, ``listening``, until their ``paired`` message comes with the seat's token. A
        socket that closed is not listening: the person goes from here either way."""
        held = self.held.get(person)
        if held is None:
            return "not_waiting"
        state = await self.store.withdraw(held.pool, person)
        paired = state is not None and state.startswith("seated:")
        if self.held.get(person) is held and (not paired or not listening):
            del self.held[person]
        if paired:
            return "paired"
        if held.pair_code is not None:
            await self.store.take_pair(held.pair_code)
        return "left"

    async def play_bot(self, person: str) -> dict[str, Any]:
        """A table against the computer at the person's level while they wait on; they stay in
        the pool. Casual, like every game against the computer from here."""
        held = self.held.get(person)
        if held is None:
            raise PoolError("not_waiting", "you are not waiting in a pool")
        if not held.offered:
            raise PoolError("no_offer", "the computer is offered after a wait: wait a little")
        if held.bot_table is not None:
            raise PoolError("no_offer", "you have a table against the computer already")
        level = level_for(held.rating)
        rules = held.format.rules()
        table, seat, token = await self.room.create(
            rules, held.format.look, {s: level for s in range(1, rules.players)},
            held.person.name)
        await table.start_now()
        held.bot_table = table.code
        return {"type": "bot_table", "code": table.code, "seat": seat, "token": token,
                "socket": f"/ws/tables/{table.code}", "level": level}

    # -- messages from any process -------------------------------------------------------------

    def told(self, person: str, message: dict[str, Any]) -> None:
        """A message :meth:`Hub.tell` sent: the pools' own (to :data:`TOLD` keys), for the
        people held here. A table's ``pool_paired`` is one message for all its people (each
        given only their own seat and token), so a maker that dies telling them told all or
        none."""
        if not person.startswith(TOLD):
            return
        if message["type"] == "pool_paired":
            for key in message["tokens"]:
                self._paired(key, message)
            return
        held = self.held.get(person.removeprefix(TOLD))
        if held is None:
            return
        if message["type"] == "pool_partner" and held.party is None:
            held.party = Waiting.from_dict(message["party"])
            held.socket.push({"type": "partner", "name": message["name"]})

    def _paired(self, person: str, message: dict[str, Any]) -> None:
        held = self.held.get(person)
        if held is None or held.party is None or held.party.ticket not in message["tickets"]:
            return
        del self.held[person]
        held.socket.push({key: value for key, value in message.items()
                          if key not in ("tickets", "tokens", "seats")}
                         | {"type": "paired", "seat": message["seats"][person],
                            "token": message["tokens"][person]})
        held.socket.close(NORMAL_CLOSURE, "paired")

    # -- the loop --------------------------------------------------------------------------------

    def _show(self, held: Held) -> None:
        shown = (self.counts.get(held.pool, 0), self.typical.get(held.pool))
        if shown != held.shown:
            held.shown = shown
            held.socket.push({"type": "waiting", "pool": held.format.name,
                              "rated": held.pool.endswith("-rated"), "waiting": shown[0],
                              "typical": None if shown[1] is None else round(shown[1], 1),
                              "pair": held.pair_code})

    async def tick(self) -> None:
        """Renew the keys of the people held here, put back those who lost their place, offer
        the computer to those who waited long enough."""
        people = list(self.held.values())
        found = await self.store.renew([(h.person.key, h.key_value) for h in people])
        now = self.clock()
        alive: set[str] | None = None
        for held, state in zip(people, found, strict=True):
            if self.held.get(held.person.key) is not held:
                continue  # left meanwhile
            if state is None:
                await self._put_back(held, None)
            elif (seating := Seating.read(state)) is not None:
                # A process is seating or telling them; put them back only if it died
                # meanwhile, once the table it was making for them, if it made it, is ended.
                if alive is None:
                    alive = await self.room.hub.alive()
                if seating.process not in alive:
                    if await self.room.storage.abandon_table(seating.code, seating.since):
                        log.warning("pools: table %s ended: %s died making it",
                                    seating.code, seating.process)
                        await self.room.hub.lobby_changed()
                    await self._put_back(held, state)
            if not held.offered and now - held.since >= self.section.bot_offer:
                held.offered = True
                held.socket.push({"type": "offer", "level": level_for(held.rating),
                                  "after": self.section.bot_offer})

    async def _put_back(self, held: Held, state: str | None) -> None:
        """Put a person back in their pool, alone, with the place they had."""
        was_pair = held.party is not None and len(held.party.people) > 1
        party = Waiting(new_ticket(), (held.person,), held.rating, held.since)
        if await self.store.enter(held.pool, party, {held.person.key: state or ""}):
            held.party = party
            held.pair_code = None
            if was_pair:
                held.socket.push({"type": "partner_left"})
        elif state is None:
            log.warning("pools: %s could not be put back", held.person.key)

    async def wave(self) -> None:
        """One wave of every pool."""
        for pool in POOLS:
            await self._wave(pool)
        for held in list(self.held.values()):
            self._show(held)

    async def _wave(self, pool: str) -> None:
        parties = await self.store.parties(pool)
        self.counts[pool] = sum(len(party.people) for party in parties)
        self.typical[pool] = await self.store.typical(pool)
        format_ = FORMATS[pool.rsplit("-", 1)[0]]
        if self.counts[pool] < format_.players:
            return
        now = self.clock()
        # A crowd is paired the longest waiters first, WAVE_MOST a wave: a wave's cost stays
        # bounded, and a backlog shrinks wave by wave instead of slowing every wave down.
        parties = sorted(parties, key=lambda party: (party.since, party.ticket))[:WAVE_MOST]
        # Never two people where one blocked the other.
        blocked: Blocked = await self.blocked_among(
            self.room.storage,
            [p.account for party in parties for p in party.people if p.account is not None])
        groups: list[tuple[list[Waiting], list[Person]]]
        if format_.players == 2:
            # In a thread: a crowded pool's matching takes a while, and the sockets of this
            # process go on being served meanwhile.
            self.waves += 1
            groups = [([a, b], [a.people[0], b.people[0]]) for a, b in await asyncio.to_thread(
                couples, parties, now, blocked, self.waves * 7)]
        else:
            groups = [(list(found.parties), list(found.seats))
                      for found in await asyncio.to_thread(foursomes, parties, now, blocked)]
        taken_groups = []
        for group, seats in groups:
            seating = Seating(new_table_code(), datetime.now(UTC), self.room.name)
            taken = await self.store.take(pool, group, seating.mark())
            if taken.taken:
                taken_groups.append((seating, group, seats))
                self.counts[pool] -= len(seats)
        if not taken_groups:
            return
        await self.store.waited(pool, [now - party.since for _, group, _ in taken_groups
                                       for party in group])
        # The tables are made side by side (a wave's last group does not wait for the database's
        # round trips of every table before it), a few at a time: each takes connections to
        # the database and Redis, whose pools a crowd of tables at once would exhaust.
        made = await asyncio.gather(
            *(self._seat_soon(seating, pool, format_, group, seats)
              for seating, group, seats in taken_groups),
            return_exceptions=True)
        for failure in made:
            if isinstance(failure, BaseException):
                # Their keys say they were taken: their processes put them back once the keys
                # expire (store.TAKEN_SECONDS).
                log.error("pools: a table for %s could not be made", pool, exc_info=failure)

    async def _seat_soon(
        self, seating: Seating, pool: str, format_: Format, group: list[Waiting],
        seats: list[Person],
    ) -> None:
        async with self._seating:
            await self._seat(seating, pool, format_, group, seats)

    async def _seat(
        self, seating: Seating, pool: str, format_: Format, group: list[Waiting],
        seats: list[Person],
    ) -> None:
        """A table for ``seats`` (in seat order), dealt, and everyone told where they sit."""
        rules = format_.rules()
        table, first, token = await self.room.create(
            rules, format_.look, {}, seats[0].name, code=seating.code)
        assert first == 0 and token is not None
        tokens = {seats[0].key: token}
        for seat, person in enumerate(seats[1:], start=1):
            _, tokens[person.key] = await table.join(person.name, seat)
        if pool.endswith("-rated"):
            await rating_queries.set_rated(self.room.storage, table.code, True)
        for seat, person in enumerate(seats):
            if person.account is not None:
                await accounts.give_seat(
                    self.room.storage, table.code, seat, person.account, tokens[person.key])
        people = [person.key for person in seats]
        # Who is in is decided here, in one step against their leaves: before the deal, so a
        # table that lost someone ends unplayed (its match never began) and seats nobody.
        gone = await self.store.seat(people, seating.mark())
        if gone:
            log.info("pools: table %s ended unplayed: %s left as it was made",
                     table.code, ", ".join(gone))
            await table.expire()
            return
        await table.start_now()
        self.pairings += 1
        # As the deal decided: a rated pool's two accounts past their rated matches of the day
        # together play casual, and are told so with the table (docs/ratings.md).
        mode = table.info()
        message = {
            "type": "pool_paired", "pool": format_.name, "rated": bool(mode["rated"]),
            "casual": mode["casual"], "code": table.code,
            "socket": f"/ws/tables/{table.code}",
            "players": [person.name for person in seats],
            "tickets": [party.ticket for party in group],
        }
        # One message for everyone (it stays among the processes: each person is passed only
        # their own seat and token), so they are told all at once or, if this process dies
        # first, none is, and their processes end the table and put them back (:meth:`tick`).
        await self.room.hub.tell(TOLD + "paired:" + table.code, message | {
            "seats": {person.key: seat for seat, person in enumerate(seats)},
            "tokens": tokens})
        await self.store.seated(people, seating.mark(), table.code)


MATCHMAKER: Service[Matchmaker] = Service("pools")
"""This process's part in the pools."""
