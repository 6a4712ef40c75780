"""What the card room's processes say to each other, and which of them owns which table.

A table has one writer at a time: the process that holds its **lease**, a Redis key that
expires unless its owner renews it. Every process may hold sockets for any table; one that
does not own the table relays its sockets' commands to the owner's **inbox** (a Redis pub/sub
channel per process), and the owner sends each relayed socket its messages back the same way.
When an owner stops renewing (killed, paused, cut off), its leases expire and another process
takes its tables over from the database. The database is the fence: a move is stored with its
number, and the key (match, number) refuses a second move with the same number, so a paused
owner that wakes up can never apply a move twice; every other write of a table names the
table's epoch, which the new owner raised when it took the table over (``Storage.take_table``),
so the old owner's are refused too.

:class:`RedisHub` is the room of many processes, on redis-py's asyncio client; the interface it
implements, and the one-process room's hub (``scopa serve`` alone), are on the floor
(:mod:`..common.hub`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
from collections.abc import Callable
from typing import Any, Final

import redis as sync_redis
import redis.asyncio as redis

from ..common.closing import within
from ..common.hub import Deliver, Told
from ..common.protocol import encode_list

log = logging.getLogger(__name__)

LEASE_SECONDS: Final = 7.0
"""A lease not renewed for this long expires: the longest a dead owner's tables wait for a new
owner is this plus one renewal period (9 s). A busy owner renews late; a lease lost that way
costs its sockets a reconnection, never a move."""
RENEW_SECONDS: Final = 2.0
"""How often an owner renews its leases and looks for processes that died."""
PREFIX: Final = "scopa:"


def inbox(client: redis.Redis | sync_redis.Redis, process: str) -> str:
    """The pub/sub channel of ``process``'s inbox, on the database ``client`` is connected to.

    Keys live in one of Redis's numbered databases, but pub/sub channels are one namespace for
    the whole server: the database's number is in the channel's name, so that two rooms on two
    databases of one server (two test runs side by side) never read each other's messages.
    """
    return f"{PREFIX}{client.connection_pool.connection_kwargs.get('db', 0)}:inbox:{process}"

_RENEW: Final = """
local kept = {}
for i, key in ipairs(KEYS) do
    if redis.call('GET', key) == ARGV[1] then
        redis.call('PEXPIRE', key, ARGV[2])
        kept[#kept + 1] = i
    end
end
return kept
"""
_HAND: Final = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
redis.call('SREM', KEYS[2], ARGV[4])
redis.call('SADD', KEYS[3], ARGV[4])
return 1
"""
_RELEASE: Final = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class RedisHub:
    """Processes sharing one room through Redis: leases, inboxes, and who is alive."""

    shared = True

    def __init__(self, url: str, name: str) -> None:
        self.name = name
        self.redis: redis.Redis = redis.Redis.from_url(url, decode_responses=True)
        self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        self._reader: asyncio.Task[None] | None = None
        self.url = url
        self._stop = threading.Event()
        self._keeper: threading.Thread | None = None
        self._release = self.redis.register_script(_RELEASE)
        self._hand = self.redis.register_script(_HAND)
        self._lease_ms = int(LEASE_SECONDS * 1000)
        self._lobby_heard: list[Callable[[], None]] = []
        self._told: list[Told] = []
        # Channels per database, as the inboxes are (see inbox()).
        database = self.redis.connection_pool.connection_kwargs.get("db", 0)
        self._lobby_channel = f"{PREFIX}{database}:lobby"
        self._people_channel = f"{PREFIX}{database}:people"

    @staticmethod
    def _lease(code: str) -> str:
        return f"{PREFIX}lease:{code}"

    async def open(self, deliver: Deliver) -> None:
        await self._pubsub.subscribe(
            inbox(self.redis, self.name), self._lobby_channel, self._people_channel
        )
        await self._beat()
        self._reader = asyncio.create_task(self._read(deliver), name="scopa-hub")

    async def _read(self, deliver: Deliver) -> None:
        async for message in self._pubsub.listen():
            if message["channel"] == self._lobby_channel:
                for heard in self._lobby_heard:
                    heard()
                continue
            try:
                if message["channel"] == self._people_channel:
                    told = json.loads(message["data"])
                    for listener in self._told:
                        listener(str(told["to"]), told["message"])
                    continue
                found = json.loads(message["data"])
                for each in found if isinstance(found, list) else [found]:
                    await deliver(each)
            except Exception:
                log.exception("a message from another process failed: %.200s", message["data"])

    async def close(self) -> None:
        await self.stop_keeping()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        with contextlib.suppress(Exception):
            await self.redis.zrem(f"{PREFIX}processes", self.name)
        await within("the hub's subscription", self._pubsub.aclose())  # type: ignore[no-untyped-call,unused-ignore]
        await within("the hub's Redis connections", self.redis.aclose())

    async def send(self, messages: list[tuple[str, dict[str, Any]]]) -> None:
        """One ``PUBLISH`` per process, of its messages as a JSON array: each Redis command,
        and each message read from a channel, costs both processes far more than its bytes."""
        by_process: dict[str, list[dict[str, Any]]] = {}
        for process, message in messages:
            by_process.setdefault(process, []).append(message)
        if len(by_process) == 1:
            ((process, batch),) = by_process.items()
            await self.redis.publish(inbox(self.redis, process), encode_list(batch))
            return
        async with self.redis.pipeline(transaction=False) as pipe:
            for process, batch in by_process.items():
                pipe.publish(inbox(self.redis, process), encode_list(batch))
            await pipe.execute()

    def _owned(self, process: str) -> str:
        return f"{PREFIX}owned:{process}"

    async def claim(self, code: str) -> bool:
        if await self.redis.set(self._lease(code), self.name, nx=True, px=self._lease_ms):
            await self.redis.sadd(self._owned(self.name), code)
            return True
        return await self.owner(code) == self.name

    async def owner(self, code: str) -> str | None:
        found = await self.redis.get(self._lease(code))
        return None if found is None else str(found)

    async def owners(self, codes: list[str]) -> list[str | None]:
        if not codes:
            return []
        found = await self.redis.mget([self._lease(code) for code in codes])
        return [None if owner is None else str(owner) for owner in found]

    def keep(self, held: Callable[[], list[str]], lost: Callable[[list[str]], None]) -> None:
        """Leases are renewed by a thread of their own, with its own connection: an event loop
        that is busy (a burst of moves, a slow takeover) must not let its leases lapse, or
        its tables would bounce between processes exactly when they are busiest. A process
        that is really stopped (killed, paused) stops this thread too."""
        self._keeper = threading.Thread(
            target=self._renew_now_and_then, args=(held, lost), name="scopa-leases", daemon=True
        )
        self._keeper.start()

    async def stop_keeping(self) -> None:
        self._stop.set()
        if self._keeper is not None:
            await asyncio.to_thread(self._keeper.join)

    def _renew_now_and_then(
        self, held: Callable[[], list[str]], lost: Callable[[list[str]], None]
    ) -> None:
        client = sync_redis.Redis.from_url(self.url, decode_responses=True)
        renew = client.register_script(_RENEW)
        try:
            while not self._stop.wait(RENEW_SECONDS):
                try:
                    seconds, micros = client.time()
                    client.zadd(f"{PREFIX}processes", {self.name: seconds + micros / 1e6})
                    codes = held()
                    if not codes:
                        continue
                    kept = renew(
                        keys=[self._lease(code) for code in codes],
                        args=[self.name, self._lease_ms],
                    )
                    still = {codes[int(i) - 1] for i in kept}
                    gone = [code for code in codes if code not in still]
                    if gone:
                        client.srem(self._owned(self.name), *gone)
                        lost(gone)
                except Exception:
                    log.exception("renewing the leases failed; trying again")
        finally:
            client.close()

    async def release(self, code: str) -> None:
        await self._release(keys=[self._lease(code)], args=[self.name])
        await self.redis.srem(self._owned(self.name), code)

    async def hand(self, code: str, to: str) -> bool:
        handed = await self._hand(
            keys=[self._lease(code), self._owned(self.name), self._owned(to)],
            args=[self.name, to, self._lease_ms, code],
        )
        return bool(handed)

    async def _beat(self) -> None:
        """Say this process is alive now (a sorted set of last heartbeats)."""
        now: float = await self._now()
        await self.redis.zadd(f"{PREFIX}processes", {self.name: now})

    async def _now(self) -> float:
        seconds, micros = await self.redis.time()
        return float(seconds) + float(micros) / 1e6

    async def lobby_changed(self) -> None:
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.incr(f"{PREFIX}lobby")
            pipe.publish(self._lobby_channel, "")
            await pipe.execute()

    async def lobby_version(self) -> int:
        return int(await self.redis.get(f"{PREFIX}lobby") or 0)

    def on_lobby_change(self, heard: Callable[[], None]) -> None:
        self._lobby_heard.append(heard)

    async def tell(self, person: str, message: dict[str, Any]) -> None:
        told = json.dumps({"to": person, "message": message})
        await self.redis.publish(self._people_channel, told)

    def on_told(self, heard: Told) -> None:
        self._told.append(heard)

    async def alive(self) -> set[str]:
        now = await self._now()
        names = await self.redis.zrangebyscore(f"{PREFIX}processes", now - LEASE_SECONDS, "+inf")
        return {str(name) for name in names}

    async def orphans(self) -> list[str]:
        now = await self._now()
        dead = await self.redis.zrangebyscore(f"{PREFIX}processes", "-inf", now - LEASE_SECONDS)
        codes: list[str] = []
        for name in dead:
            process = str(name)
            codes.extend(str(code) for code in await self.redis.smembers(self._owned(process)))
            await self.redis.delete(self._owned(process))
            await self.redis.zrem(f"{PREFIX}processes", process)
        return codes
