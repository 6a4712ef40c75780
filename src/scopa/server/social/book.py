"""The open challenges, shared by every process of the room: one process alone keeps them in
memory (:class:`LocalBook`), processes sharing a room in Redis (:class:`RedisBook`).

A challenge is open until it is settled once: accepted, declined or expired. Settling is one
atomic step (a Lua script in Redis), so a challenge accepted on one process as it expires on
another is either accepted or expired, never both, and only the step that settled it tells
anyone. A challenger has one open challenge to each person at a time (its *pair* key). A
settled challenge is kept :data:`KEEP_SECONDS` more, so that a late answer hears that it
expired, or was answered, rather than that there is no such challenge.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from typing import Any, Final, Protocol

import redis.asyncio as redis

from ..cluster.hub import PREFIX
from ..common import fairplay

KEEP_SECONDS: Final = 600.0
"""How long a settled (or lapsed) challenge is remembered."""

Clock = Callable[[], float]
"""Seconds since the epoch: ``time.time``, unless a test moves time itself."""


@dataclass(frozen=True)
class Challenge:
    id: str
    from_id: int
    from_name: str
    to_id: int
    to_name: str
    preset: str
    target: int | None
    look: str
    rated: bool
    expires: float
    """When it expires (seconds since the epoch)."""
    state: str = "open"
    """``open``, ``accepted``, ``declined`` or ``expired``."""
    casual: str | None = None
    """Why a challenge sent rated will be played casual (a code of
    :data:`..common.fairplay.CASUAL`), as it was when sent: said before it is accepted."""

    def offer(self, now: float) -> dict[str, Any]:
        """The challenge as its two people see it (``expires_in``: seconds left)."""
        return {
            "id": self.id, "from": self.from_name, "to": self.to_name, "preset": self.preset,
            "target": self.target, "look": self.look,
            "rated": self.rated and self.casual is None,
            "casual": None if self.casual is None else fairplay.casual_notice(self.casual),
            "expires_in": max(0.0, round(self.expires - now, 1)),
        }


class Book(Protocol):
    async def add(self, challenge: Challenge) -> bool:
        """Keep ``challenge``, open; False (and nothing kept) if its challenger has an open
        challenge to the same person already."""

    async def get(self, challenge_id: str) -> Challenge | None:
        """The challenge, open or settled (not past :data:`KEEP_SECONDS`), or None."""

    async def open_to(self, account_id: int) -> list[Challenge]:
        """The challenges to ``account_id`` still open and waiting: those a page of theirs
        opened after they were sent (from a challenge's notification) is offered."""

    async def settle(self, challenge: Challenge, state: str) -> Challenge | None:
        """Settle the open ``challenge`` as ``state``; the settled challenge, or None if it
        was settled already (or, for an answer, has expired)."""


class LocalBook:
    """One process alone: the challenges in a dict."""

    def __init__(self, clock: Clock = time.time) -> None:
        self._clock = clock
        self._kept: dict[str, Challenge] = {}
        self._pairs: dict[tuple[int, int], str] = {}

    async def add(self, challenge: Challenge) -> bool:
        now = self._clock()
        for key, kept in list(self._kept.items()):
            if kept.expires + KEEP_SECONDS < now:
                del self._kept[key]
        pair = (challenge.from_id, challenge.to_id)
        held = self._kept.get(self._pairs.get(pair, ""))
        if held is not None and held.state == "open" and held.expires > now:
            return False
        self._pairs[pair] = challenge.id
        self._kept[challenge.id] = challenge
        return True

    async def get(self, challenge_id: str) -> Challenge | None:
        return self._kept.get(challenge_id)

    async def open_to(self, account_id: int) -> list[Challenge]:
        now = self._clock()
        return [kept for kept in self._kept.values()
                if kept.to_id == account_id and kept.state == "open" and kept.expires > now]

    async def settle(self, challenge: Challenge, state: str) -> Challenge | None:
        held = self._kept.get(challenge.id)
        if held is None or held.state != "open":
            return None
        if state != "expired" and held.expires <= self._clock():
            return None
        settled = self._kept[challenge.id] = replace(held, state=state)
        self._pairs.pop((held.from_id, held.to_id), None)
        return settled


_ADD: Final = """
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[3]) then return 0 end
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[4])
redis.call('SADD', KEYS[3], ARGV[1])
if redis.call('PTTL', KEYS[3]) < tonumber(ARGV[3]) then redis.call('PEXPIRE', KEYS[3], ARGV[3]) end
return 1
"""
_SETTLE: Final = """
local kept = redis.call('GET', KEYS[1])
if not kept then return false end
local challenge = cjson.decode(kept)
if challenge.state ~= 'open' then return false end
if ARGV[1] ~= 'expired' and challenge.expires <= tonumber(ARGV[2]) then return false end
challenge.state = ARGV[1]
local settled = cjson.encode(challenge)
redis.call('SET', KEYS[1], settled, 'KEEPTTL')
if redis.call('GET', KEYS[2]) == challenge.id then redis.call('DEL', KEYS[2]) end
return settled
"""


class RedisBook:
    """Processes sharing a room: each challenge a JSON value in Redis, with its pair key."""

    def __init__(self, client: redis.Redis, clock: Clock = time.time) -> None:
        self._redis = client
        self._clock = clock
        self._add = client.register_script(_ADD)
        self._settle = client.register_script(_SETTLE)

    @staticmethod
    def _key(challenge_id: str) -> str:
        return f"{PREFIX}challenge:{challenge_id}"

    @staticmethod
    def _to(account_id: int) -> str:
        """The ids of the challenges sent to an account, kept while the last may wait."""
        return f"{PREFIX}challenges-to:{account_id}"

    @staticmethod
    def _pair(challenge: Challenge) -> str:
        return f"{PREFIX}challenge-pair:{challenge.from_id}:{challenge.to_id}"

    async def add(self, challenge: Challenge) -> bool:
        left = max(1, int((challenge.expires - self._clock()) * 1000))
        added = await self._add(
            keys=[self._pair(challenge), self._key(challenge.id), self._to(challenge.to_id)],
            args=[challenge.id, json.dumps(asdict(challenge)), left,
                  left + int(KEEP_SECONDS * 1000)],
        )
        return bool(added)

    async def get(self, challenge_id: str) -> Challenge | None:
        kept = await self._redis.get(self._key(challenge_id))
        return None if kept is None else Challenge(**json.loads(kept))

    async def open_to(self, account_id: int) -> list[Challenge]:
        ids = sorted(await self._redis.smembers(self._to(account_id)))
        if not ids:
            return []
        now = self._clock()
        kept = await self._redis.mget([self._key(str(each)) for each in ids])
        found = [Challenge(**json.loads(value)) for value in kept if value]
        return [c for c in found if c.state == "open" and c.expires > now]

    async def settle(self, challenge: Challenge, state: str) -> Challenge | None:
        settled = await self._settle(
            keys=[self._key(challenge.id), self._pair(challenge)],
            args=[state, self._clock()],
        )
        return None if settled is None else Challenge(**json.loads(settled))
