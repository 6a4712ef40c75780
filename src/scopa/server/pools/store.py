"""Where the pools are kept: in this process's memory alone, or in Redis for the whole room.

Both keep the same things and answer the same calls, so one matchmaker's code runs on either:

* each pool is a map of **tickets** (a waiting party, :class:`.matching.Waiting`);
* each person waiting has a **person key** holding their ticket, so a person waits in one pool
  at a time, wherever their sockets are. The process holding the person's socket renews the
  key (it expires :data:`HOLD_SECONDS` after that process stops: a killed process's people
  leave the pools by themselves);
* a wave **takes** a group out in one step (in Redis, one Lua script, as the hub's lease
  scripts are): every ticket must still be there, or nothing changes (another process took
  one first: nobody is paired twice); a ticket whose person key no longer holds it belongs to
  a person who has gone, and is dropped while the others stay, with their places at the front.
  A taken person's key says ``taken:<maker>`` until the maker has seated them, then
  ``seated:<maker>`` until it has told them, so their own process waits for the table, and
  puts them back if the maker died first (the matchmaker's ``<maker>`` names the process and
  the table it makes, :class:`.matchmaker.Seating`);
* a person's **leave** and the maker's **seat** decide who is in through that one key, each in
  one step: a leave takes the person out whatever the key says (their ticket, their pair code,
  or ``taken:``, whose key then goes), unless it says ``seated:<maker>``, which only the seat
  writes, and only if every key of the group still says ``taken:<maker>``. So a leave before
  the seat leaves the person out (the maker ends the table it made, and the others go back to
  their pool with their places), and a leave after it learns they were paired: the ``paired``
  message, with the seat's token, follows (issue 34, item 5: a leave answered ``left`` while
  the table being made seated the person anyway).

Also kept: the last waits of each pool (for the typical wait shown), the tables people were
paired to (a person at an unfinished table may not queue) and the pair codes friends share.
"""

from __future__ import annotations

import json
import statistics
from collections import deque
from dataclasses import dataclass
from typing import Final, Protocol

import redis.asyncio as redis

from ..common.closing import within
from .matching import Waiting

HOLD_SECONDS: Final = 7.0
"""A person key not renewed for this long expires: the same as a table's lease."""
TAKEN_SECONDS: Final = 30.0
"""How long a taken person waits for their table before their process puts them back (a key
that says ``seated:`` lasts as long, until its people are told)."""
SEATED_NEWS: Final = 10.0
"""How long a seated person's key still says so (``seated:<maker>``) once they are told."""
SEATED_SECONDS: Final = 24 * 3600.0
"""How long the room remembers the table a person was paired to."""
TABLES_KEPT: Final = 100_000
"""People whose last table one process alone remembers (Redis forgets after a day instead)."""
PAIR_SECONDS: Final = 600.0
"""How long a pair code waits for the friend."""
WAITS_KEPT: Final = 50
"""The last waits of a pool that its typical wait is the median of."""
PREFIX: Final = "scopa:pools:"
CONNECTIONS: Final = 50
"""Connections to Redis the pools of one process use at most."""


@dataclass(frozen=True)
class Taken:
    """What taking a group out of a pool did: ``taken``, or the tickets of the people found
    gone (dropped; the others stay), or ``stale`` (a ticket was taken already: nothing
    changed)."""

    taken: bool
    gone: tuple[str, ...] = ()


class PoolStore(Protocol):
    async def enter(self, pool: str, party: Waiting, expected: dict[str, str]) -> bool:
        """Put ``party`` in ``pool`` if none of its people waits anywhere (or their key says
        exactly what ``expected`` gives for them: a pair's creator, a person put back);
        whether it went in."""

    async def leave(self, pool: str, party: Waiting) -> bool:
        """Take ``party`` out of ``pool`` (its people's keys go); whether it was still in."""

    async def withdraw(self, pool: str, person: str) -> str | None:
        """``person`` leaves ``pool`` in one step, whatever their key says: their party's
        ticket (the party leaves the pool; a friend in it goes back alone), their pair code's
        ``pair:``, or ``taken:`` (the key goes, so the maker's :meth:`seat` leaves them out);
        but a key that says ``seated:<maker>`` stays: too late, they sit there. What the key
        said (None: nothing)."""

    async def parties(self, pool: str) -> list[Waiting]:
        """The parties waiting in ``pool`` now; those of people gone are dropped."""

    async def take(self, pool: str, group: list[Waiting], maker: str) -> Taken:
        """Take ``group`` out of ``pool`` at once, for ``maker`` to seat: their keys say
        ``taken:<maker>`` meanwhile."""

    async def seat(self, people: list[str], maker: str) -> tuple[str, ...]:
        """``maker`` seats ``people`` at its table if every one's key still says
        ``taken:<maker>``: the keys say ``seated:<maker>`` then, and nothing is returned. Else
        the people who left meanwhile are returned, and the keys of the others go, so that
        their processes put them back in their pool with their places."""

    async def seated(self, people: list[str], maker: str, table: str) -> None:
        """``people`` were told their seats at ``maker``'s ``table``: their keys go (in Redis, after
        :data:`SEATED_NEWS`, while the news reaches their processes), the table is
        remembered."""

    async def renew(self, held: list[tuple[str, str]]) -> list[str | None]:
        """Renew each (person, ticket) key still holding its ticket; for each, ``ok`` or what
        the key says instead (``taken:...``, ``pair:...``, or None once it is gone)."""

    async def hold(self, person: str, value: str, expected: str | None) -> bool:
        """Set ``person``'s key to ``value`` if it says ``expected`` now (None: nothing)."""

    async def table_of(self, person: str) -> str | None:
        """The table ``person`` was last paired to, if any."""

    async def state_of(self, person: str) -> str | None:
        """What ``person``'s key says now (None: nothing)."""

    async def waited(self, pool: str, seconds: list[float]) -> None: ...

    async def typical(self, pool: str) -> float | None:
        """The median of the pool's last waits (None before any)."""

    async def keep_pair(self, code: str, party: Waiting, pool: str) -> None: ...

    async def take_pair(self, code: str) -> tuple[Waiting, str] | None:
        """The party and pool a pair code was made for, once (None: unknown or used)."""

    async def close(self) -> None: ...


class MemoryPools:
    """One process alone: the pools in dictionaries. Every call runs without awaiting, so on
    one event loop each is as atomic as Redis's scripts."""

    def __init__(self) -> None:
        self.pools: dict[str, dict[str, Waiting]] = {}
        self.keys: dict[str, str] = {}
        self.tables: dict[str, str] = {}
        self.waits: dict[str, deque[float]] = {}
        self.pairs: dict[str, tuple[Waiting, str]] = {}

    async def enter(self, pool: str, party: Waiting, expected: dict[str, str]) -> bool:
        for person in party.people:
            if self.keys.get(person.key, "") != expected.get(person.key, ""):
                return False
        for person in party.people:
            self.keys[person.key] = party.ticket
        self.pools.setdefault(pool, {})[party.ticket] = party
        return True

    async def leave(self, pool: str, party: Waiting) -> bool:
        for person in party.people:
            if self.keys.get(person.key) == party.ticket:
                del self.keys[person.key]
        return self.pools.get(pool, {}).pop(party.ticket, None) is not None

    async def withdraw(self, pool: str, person: str) -> str | None:
        state = self.keys.get(person)
        if state is None or state.startswith("seated:"):
            return state
        party = self.pools.get(pool, {}).get(state)
        if party is not None:
            await self.leave(pool, party)
        self.keys.pop(person, None)
        return state

    async def parties(self, pool: str) -> list[Waiting]:
        found = self.pools.get(pool, {})
        for ticket, party in list(found.items()):
            if any(self.keys.get(p.key) != ticket for p in party.people):
                await self.leave(pool, party)
        return list(found.values())

    async def take(self, pool: str, group: list[Waiting], maker: str) -> Taken:
        found = self.pools.get(pool, {})
        if any(party.ticket not in found for party in group):
            return Taken(False)
        gone = [party for party in group
                if any(self.keys.get(p.key) != party.ticket for p in party.people)]
        if gone:
            for party in gone:
                await self.leave(pool, party)
            return Taken(False, tuple(party.ticket for party in gone))
        for party in group:
            del found[party.ticket]
            for person in party.people:
                self.keys[person.key] = f"taken:{maker}"
        return Taken(True)

    async def seat(self, people: list[str], maker: str) -> tuple[str, ...]:
        gone = tuple(person for person in people if self.keys.get(person) != f"taken:{maker}")
        for person in people:
            if gone:
                self._release(person, f"taken:{maker}")
            else:
                self.keys[person] = f"seated:{maker}"
        return gone

    async def seated(self, people: list[str], maker: str, table: str) -> None:
        # One process alone: its people heard the news as it was told.
        for person in people:
            self._release(person, f"seated:{maker}")
            self.tables.pop(person, None)
            self.tables[person] = table
        while len(self.tables) > TABLES_KEPT:  # the oldest pairings go first
            del self.tables[next(iter(self.tables))]

    async def renew(self, held: list[tuple[str, str]]) -> list[str | None]:
        return ["ok" if self.keys.get(person) == ticket else self.keys.get(person)
                for person, ticket in held]

    async def hold(self, person: str, value: str, expected: str | None) -> bool:
        if self.keys.get(person, "") != (expected or ""):
            return False
        self.keys[person] = value
        return True

    def _release(self, person: str, value: str) -> None:
        if self.keys.get(person) == value:
            del self.keys[person]

    async def table_of(self, person: str) -> str | None:
        return self.tables.get(person)

    async def state_of(self, person: str) -> str | None:
        return self.keys.get(person)

    async def waited(self, pool: str, seconds: list[float]) -> None:
        self.waits.setdefault(pool, deque(maxlen=WAITS_KEPT)).extendleft(seconds)

    async def typical(self, pool: str) -> float | None:
        waits = self.waits.get(pool)
        return statistics.median(waits) if waits else None

    async def keep_pair(self, code: str, party: Waiting, pool: str) -> None:
        self.pairs[code] = (party, pool)

    async def take_pair(self, code: str) -> tuple[Waiting, str] | None:
        return self.pairs.pop(code, None)

    async def close(self) -> None:
        pass


_ENTER: Final = """
for i = 2, #KEYS do
    local now = redis.call('GET', KEYS[i])
    if (now or '') ~= ARGV[i + 2] then return 0 end
end
for i = 2, #KEYS do redis.call('SET', KEYS[i], ARGV[1], 'PX', ARGV[3]) end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
"""
_LEAVE: Final = """
for i = 2, #KEYS do
    if redis.call('GET', KEYS[i]) == ARGV[1] then redis.call('DEL', KEYS[i]) end
end
return redis.call('HDEL', KEYS[1], ARGV[1])
"""
_WITHDRAW: Final = """
local state = redis.call('GET', KEYS[2])
if not state then return '' end
if string.sub(state, 1, 7) == 'seated:' then return state end
local party = redis.call('HGET', KEYS[1], state)
if party then
    -- The party's other people (a friend, whom this person's process may not know yet) are
    -- read from the party itself: their keys are made here, as the prefix makes them.
    for _, person in ipairs(cjson.decode(party)['people']) do
        local key = ARGV[1] .. person[1]
        if redis.call('GET', key) == state then redis.call('DEL', key) end
    end
    redis.call('HDEL', KEYS[1], state)
end
redis.call('DEL', KEYS[2])
return state
"""
_TAKE: Final = """
local gone = {}
for i = 2, #KEYS do
    local ticket = ARGV[i + 1]
    if redis.call('HEXISTS', KEYS[1], ticket) == 0 then return {'stale'} end
    if redis.call('GET', KEYS[i]) ~= ticket then gone[#gone + 1] = ticket end
end
if #gone > 0 then
    for i = 2, #KEYS do
        local ticket = ARGV[i + 1]
        for _, dropped in ipairs(gone) do
            if ticket == dropped and redis.call('GET', KEYS[i]) == ticket then
                redis.call('DEL', KEYS[i])
            end
        end
    end
    for _, dropped in ipairs(gone) do redis.call('HDEL', KEYS[1], dropped) end
    table.insert(gone, 1, 'gone')
    return gone
end
for i = 2, #KEYS do
    redis.call('HDEL', KEYS[1], ARGV[i + 1])
    redis.call('SET', KEYS[i], ARGV[1], 'PX', ARGV[2])
end
return {'taken'}
"""
_RENEW: Final = """
local found = {}
for i, key in ipairs(KEYS) do
    local now = redis.call('GET', key)
    if now == ARGV[i + 1] then
        redis.call('PEXPIRE', key, ARGV[1])
        found[i] = 'ok'
    else
        found[i] = now or ''
    end
end
return found
"""
_HOLD: Final = """
if (redis.call('GET', KEYS[1]) or '') ~= ARGV[2] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
return 1
"""
_SEAT: Final = """
local gone = {}
for i, key in ipairs(KEYS) do
    if redis.call('GET', key) ~= ARGV[1] then gone[#gone + 1] = i - 1 end
end
for _, key in ipairs(KEYS) do
    if #gone > 0 then
        if redis.call('GET', key) == ARGV[1] then redis.call('DEL', key) end
    else
        redis.call('SET', key, ARGV[2], 'PX', ARGV[3])
    end
end
return gone
"""


class RedisPools:
    """The pools of a room of many processes, in the room's Redis."""

    def __init__(self, url: str) -> None:
        # A crowd joining at once waits for a free connection, as a queue would, instead of
        # being refused: redis-py's own pool fails ("Too many connections") past its size.
        self.redis: redis.Redis = redis.Redis(connection_pool=redis.BlockingConnectionPool.from_url(
            url, decode_responses=True, max_connections=CONNECTIONS, timeout=10))
        self._enter = self.redis.register_script(_ENTER)
        self._leave = self.redis.register_script(_LEAVE)
        self._take = self.redis.register_script(_TAKE)
        self._renew = self.redis.register_script(_RENEW)
        self._hold = self.redis.register_script(_HOLD)
        self._withdraw = self.redis.register_script(_WITHDRAW)
        self._seat = self.redis.register_script(_SEAT)
        self._hold_ms = int(HOLD_SECONDS * 1000)

    @staticmethod
    def _pool(pool: str) -> str:
        return f"{PREFIX}pool:{pool}"

    @staticmethod
    def _person(person: str) -> str:
        return f"{PREFIX}person:{person}"

    async def enter(self, pool: str, party: Waiting, expected: dict[str, str]) -> bool:
        keys = [self._pool(pool), *(self._person(p.key) for p in party.people)]
        args: list[str | int] = [party.ticket, json.dumps(party.to_dict()), self._hold_ms,
                                 *(expected.get(p.key, "") for p in party.people)]
        return bool(await self._enter(keys=keys, args=args))

    async def leave(self, pool: str, party: Waiting) -> bool:
        keys = [self._pool(pool), *(self._person(p.key) for p in party.people)]
        return bool(await self._leave(keys=keys, args=[party.ticket]))

    async def withdraw(self, pool: str, person: str) -> str | None:
        state = await self._withdraw(keys=[self._pool(pool), self._person(person)],
                                     args=[self._person("")])
        return str(state) or None

    async def parties(self, pool: str) -> list[Waiting]:
        found = [Waiting.from_dict(json.loads(text))
                 for text in (await self.redis.hgetall(self._pool(pool))).values()]
        if not found:
            return []
        keys = [self._person(p.key) for party in found for p in party.people]
        values = iter(await self.redis.mget(keys))
        kept = []
        for party in found:
            if all(next(values) == party.ticket for _ in party.people):
                kept.append(party)
            else:
                await self.leave(pool, party)
        return kept

    async def take(self, pool: str, group: list[Waiting], maker: str) -> Taken:
        keys = [self._pool(pool)]
        tickets = []
        for party in group:
            for person in party.people:
                keys.append(self._person(person.key))
                tickets.append(party.ticket)
        found = await self._take(
            keys=keys, args=[f"taken:{maker}", int(TAKEN_SECONDS * 1000), *tickets])
        if found[0] == "taken":
            return Taken(True)
        return Taken(False, tuple(str(ticket) for ticket in found[1:]))

    async def seat(self, people: list[str], maker: str) -> tuple[str, ...]:
        gone = await self._seat(keys=[self._person(person) for person in people],
                                args=[f"taken:{maker}", f"seated:{maker}",
                                      int(TAKEN_SECONDS * 1000)])
        return tuple(people[int(index)] for index in gone)

    async def seated(self, people: list[str], maker: str, table: str) -> None:
        # Their keys say so a little longer, while the news reaches their processes: one that
        # found the key gone first would put its person back in the pool.
        for person in people:
            await self._hold(keys=[self._person(person)],
                             args=[f"seated:{maker}", f"seated:{maker}", int(SEATED_NEWS * 1000)])
        async with self.redis.pipeline(transaction=False) as pipe:
            for person in people:
                pipe.set(f"{PREFIX}table:{person}", table, ex=int(SEATED_SECONDS))
            await pipe.execute()

    async def renew(self, held: list[tuple[str, str]]) -> list[str | None]:
        if not held:
            return []
        found = await self._renew(keys=[self._person(person) for person, _ in held],
                                  args=[self._hold_ms, *(ticket for _, ticket in held)])
        return [str(value) or None for value in found]

    async def hold(self, person: str, value: str, expected: str | None) -> bool:
        return bool(await self._hold(keys=[self._person(person)],
                                     args=[value, expected or "", self._hold_ms]))

    async def table_of(self, person: str) -> str | None:
        found = await self.redis.get(f"{PREFIX}table:{person}")
        return None if found is None else str(found)

    async def state_of(self, person: str) -> str | None:
        found = await self.redis.get(self._person(person))
        return None if found is None else str(found)

    async def waited(self, pool: str, seconds: list[float]) -> None:
        if not seconds:
            return
        key = f"{PREFIX}waits:{pool}"
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.lpush(key, *(f"{s:.3f}" for s in seconds))
            pipe.ltrim(key, 0, WAITS_KEPT - 1)
            await pipe.execute()

    async def typical(self, pool: str) -> float | None:
        waits = await self.redis.lrange(f"{PREFIX}waits:{pool}", 0, -1)
        return statistics.median(float(w) for w in waits) if waits else None

    async def keep_pair(self, code: str, party: Waiting, pool: str) -> None:
        await self.redis.set(f"{PREFIX}pair:{code}",
                             json.dumps({"party": party.to_dict(), "pool": pool}),
                             ex=int(PAIR_SECONDS))

    async def take_pair(self, code: str) -> tuple[Waiting, str] | None:
        found = await self.redis.getdel(f"{PREFIX}pair:{code}")
        if found is None:
            return None
        data = json.loads(found)
        return Waiting.from_dict(data["party"]), str(data["pool"])

    async def close(self) -> None:
        await within("the pools' Redis connections", self.redis.aclose())
