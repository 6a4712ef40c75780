"""Bots on other machines: ``scopa bots --redis URL`` workers that take search jobs from Redis.

A web process started with ``--bot-queue`` puts each bot move and hint on the ``scopa:jobs``
list as JSON (a position: see :mod:`.bots`), and each move to review on ``scopa:reviews``, and
gets the answer in its inbox. A worker takes the next job from the first of the two lists that
holds one (``BLMPOP``, Redis 7), so a bot's move at a live table never waits in line behind the
master's reviews: a review runs only when no move waits. The worker puts the job on its own
``scopa:working:NAME`` list, works it out, answers, and only then drops it. Workers beat every
second; a worker that stops beating for :data:`DEAD_SECONDS` is dead, and any other worker puts
its unfinished jobs back on their queue, so a job whose worker died is run again (one taken but
not yet on the worker's list, if it died in that instant, is asked again by its web process
after :data:`ANSWER_SECONDS`). Several workers share the queues; an answer that comes twice (a
job retried after a slow worker finished it after all) is taken once.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import os
import socket
from typing import Any, Final

import redis
import redis.asyncio as aredis

from ...moves import Move
from ...players import Reason
from ...review import review_move
from ..common.closing import within
from ..table.bots import Position, hint_at, move_at, read_hint
from .hub import PREFIX, inbox

log = logging.getLogger(__name__)

JOBS: Final = f"{PREFIX}jobs"
REVIEWS: Final = f"{PREFIX}reviews"
"""The moves to review, taken only when :data:`JOBS` holds no bot's move or hint."""
WORKERS: Final = f"{PREFIX}workers"
DEAD_SECONDS: Final = 10.0
"""A worker silent this long is dead (a search takes 0.5 s at most)."""
ANSWER_SECONDS: Final = 20.0
"""How long a web process waits for an answer before it puts the job on the queue again."""


def working(worker: str) -> str:
    return f"{PREFIX}working:{worker}"


class RemoteBots:
    """A web process's side: jobs out on the queue, answers in through its inbox (the cluster
    hands them to :meth:`answered`)."""

    def __init__(self, url: str, name: str) -> None:
        self.name = name
        self.redis: aredis.Redis = aredis.Redis.from_url(url, decode_responses=True)
        self._ids = itertools.count(1)
        self._waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}

    async def _ask(self, job: dict[str, Any], queue: str = JOBS) -> dict[str, Any]:
        ask = f"{self.name}/{next(self._ids)}"
        answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[ask] = answer
        text = json.dumps({"id": ask, "reply": self.name, **job}, separators=(",", ":"))
        try:
            for _ in range(2):
                await self.redis.lpush(queue, text)
                try:
                    async with asyncio.timeout(ANSWER_SECONDS):
                        reply = await asyncio.shield(answer)
                except TimeoutError:
                    continue
                if "error" in reply:
                    raise RuntimeError(f"the bot worker failed: {reply['error']}")
                return reply
            raise TimeoutError("no bot worker answered: is `scopa bots` running?")
        finally:
            self._waiting.pop(ask, None)

    def answered(self, message: dict[str, Any]) -> None:
        waiting = self._waiting.get(message.get("id", ""))
        if waiting is not None and not waiting.done():
            waiting.set_result(message)

    async def think(self, level: str, job: Position) -> Move:
        reply = await self._ask({"kind": "move", "level": level, "position": job})
        return Move.parse(reply["result"])

    async def advise(self, job: Position) -> tuple[Move, Reason]:
        reply = await self._ask({"kind": "hint", "position": job})
        return read_hint(reply["result"])

    async def review(self, job: dict[str, Any]) -> dict[str, Any]:
        reply = await self._ask({"kind": "review", "position": job}, REVIEWS)
        judged: dict[str, Any] = reply["result"]
        return judged

    async def close(self) -> None:
        for waiting in self._waiting.values():
            waiting.cancel()
        await within("the bot workers' Redis connections", self.redis.aclose())


def answer(job: dict[str, Any]) -> dict[str, Any]:
    """The reply to one job (an ``error`` when the search failed, so nobody waits for it)."""
    reply: dict[str, Any] = {"op": "job", "id": job.get("id")}
    try:
        if job["kind"] == "move":
            reply["result"] = move_at(job["level"], job["position"])
        elif job["kind"] == "review":
            reply["result"] = review_move(job["position"])
        else:
            reply["result"] = hint_at(job["position"])
    except Exception as error:
        log.exception("job %s failed", job.get("id"))
        reply["error"] = str(error) or type(error).__name__
    return reply


def queue_of(text: str) -> str:
    """The list a job belongs on: a move to review on :data:`REVIEWS`, the rest on :data:`JOBS`
    (text that is no job goes back where the bots' jobs are, as before)."""
    try:
        kind = json.loads(text).get("kind")
    except (ValueError, AttributeError):
        return JOBS
    return REVIEWS if kind == "review" else JOBS


def requeue_dead(client: redis.Redis, now: float) -> int:
    """Put the unfinished jobs of dead workers back on their queues; how many were."""
    moved = 0
    for found in client.zrangebyscore(WORKERS, "-inf", now - DEAD_SECONDS):
        name = str(found)
        while (text := client.lindex(working(name), -1)) is not None:
            if client.lmove(working(name), queue_of(str(text)), "RIGHT", "RIGHT") is None:
                break  # another worker emptied it meanwhile
            moved += 1
        client.zrem(WORKERS, name)
    return moved


def take(client: redis.Redis, mine: str, timeout: float = 1.0) -> str | None:
    """The next job, a bot's before any review's, now on this worker's list ``mine``; None
    after ``timeout`` seconds with none."""
    found = client.blmpop(timeout, 2, JOBS, REVIEWS, direction="RIGHT")
    if found is None:
        return None
    text = str(found[1][0])
    client.lpush(mine, text)
    return text


def work(url: str, name: str, jobs: int | None = None) -> int:
    """Run jobs from the queues until stopped (or, for tests, until ``jobs`` are done)."""
    client = redis.Redis.from_url(url, decode_responses=True)
    done = 0
    mine = working(name)
    print(f"scopa: bot worker {name} is taking jobs from {url}", flush=True)
    while jobs is None or done < jobs:
        now = float(client.time()[0])
        client.zadd(WORKERS, {name: now})
        requeue_dead(client, now)
        text = take(client, mine)
        if text is None:
            continue
        job = json.loads(text)
        reply = answer(job)
        client.publish(inbox(client, job["reply"]), json.dumps(reply, separators=(",", ":")))
        client.lrem(mine, 1, text)
        done += 1
    client.zrem(WORKERS, name)
    return 0


def worker_name() -> str:
    """A worker's default name: host and process id."""
    return f"bots@{socket.gethostname()}:{os.getpid()}"
