"""Who is in the card room now: a person is online while one of their ``/ws/me`` sockets is
open, on any process.

One process alone counts its sockets in memory (:class:`LocalPresence`). Processes sharing a
room keep it in Redis (:class:`RedisPresence`): a sorted set per person of their sockets, each
scored by the moment it lapses. Its process renews its sockets' moments every
:data:`RENEW_SECONDS`, so the sockets of a process that was killed lapse within
:data:`LAPSE_SECONDS` and their person goes offline without anyone saying so; a socket that
closes is taken out at once. Each call answers whether the person came online or went
offline with it, so that those who follow them are told only then.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Collection
from typing import Final, Protocol

import redis.asyncio as redis

from ..cluster.hub import PREFIX

log = logging.getLogger(__name__)

LAPSE_SECONDS: Final = 30.0
"""A socket of a process that stopped renewing counts as gone after this long."""
RENEW_SECONDS: Final = 10.0
"""How often a process renews its sockets' moments in Redis."""


class Presence(Protocol):
    async def came(self, person: str, socket: str) -> bool:
        """``person`` opened ``socket``: whether they were offline before it."""

    async def went(self, person: str, socket: str) -> bool:
        """``person`` closed ``socket``: whether they are offline now."""

    async def online(self, people: Collection[str]) -> set[str]:
        """Those of ``people`` who are online now."""

    async def close(self) -> None: ...


class LocalPresence:
    """One process alone: a count of each person's open sockets."""

    def __init__(self) -> None:
        self._sockets: dict[str, set[str]] = {}

    async def came(self, person: str, socket: str) -> bool:
        held = self._sockets.setdefault(person, set())
        held.add(socket)
        return len(held) == 1

    async def went(self, person: str, socket: str) -> bool:
        held = self._sockets.get(person, set())
        held.discard(socket)
        if held:
            return False
        self._sockets.pop(person, None)
        return True

    async def online(self, people: Collection[str]) -> set[str]:
        return {person for person in people if person in self._sockets}

    async def close(self) -> None:
        self._sockets.clear()


class RedisPresence:
    """Processes sharing a room: every person's sockets in Redis, each with its lapse."""

    def __init__(self, client: redis.Redis, process: str) -> None:
        self._redis = client
        self._process = process
        self._mine: dict[str, set[str]] = {}
        self._renewer: asyncio.Task[None] | None = None

    @staticmethod
    def _key(person: str) -> str:
        return f"{PREFIX}online:{person}"

    def _member(self, socket: str) -> str:
        return f"{self._process}/{socket}"

    async def came(self, person: str, socket: str) -> bool:
        now = time.time()
        key = self._key(person)
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.zremrangebyscore(key, "-inf", now)
            pipe.zcard(key)
            pipe.zadd(key, {self._member(socket): now + LAPSE_SECONDS})
            pipe.expire(key, int(LAPSE_SECONDS) + 1)
            _, before, _, _ = await pipe.execute()
        self._mine.setdefault(person, set()).add(socket)
        if self._renewer is None:
            self._renewer = asyncio.create_task(self._renew(), name="scopa-presence")
        return int(before) == 0

    async def went(self, person: str, socket: str) -> bool:
        held = self._mine.get(person, set())
        held.discard(socket)
        if not held:
            self._mine.pop(person, None)
        key = self._key(person)
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.zrem(key, self._member(socket))
            pipe.zcount(key, time.time(), "+inf")
            _, left = await pipe.execute()
        return int(left) == 0

    async def online(self, people: Collection[str]) -> set[str]:
        asked = list(people)
        if not asked:
            return set()
        now = time.time()
        async with self._redis.pipeline(transaction=False) as pipe:
            for person in asked:
                pipe.zcount(self._key(person), now, "+inf")
            counts = await pipe.execute()
        return {person for person, count in zip(asked, counts, strict=True) if int(count)}

    async def _renew(self) -> None:
        while True:
            await asyncio.sleep(RENEW_SECONDS)
            try:
                lapse = time.time() + LAPSE_SECONDS
                async with self._redis.pipeline(transaction=False) as pipe:
                    for person, sockets in list(self._mine.items()):
                        key = self._key(person)
                        pipe.zadd(key, {self._member(socket): lapse for socket in sockets})
                        pipe.expire(key, int(LAPSE_SECONDS) + 1)
                    await pipe.execute()
            except Exception:
                log.exception("renewing who is online failed; trying again")

    async def close(self) -> None:
        """Stop renewing, and take this process's sockets out at once (a process that stops
        cleanly leaves nobody online for the lapse)."""
        if self._renewer is not None:
            self._renewer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._renewer
        with contextlib.suppress(Exception):
            async with self._redis.pipeline(transaction=False) as pipe:
                for person, sockets in self._mine.items():
                    pipe.zrem(self._key(person), *(self._member(s) for s in sockets))
                await pipe.execute()
        self._mine.clear()
