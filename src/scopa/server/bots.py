"""Bots at the card room's tables: who plays a bot seat, who stands in for an absent person,
how a bot thinks without stalling everyone else's table, and the master's hints for people.

Searches run in a pool of worker processes, not in threads: a thread shares the interpreter
lock with the event loop, and two master searches in threads pushed the loop's lag from 1.4 ms
to 42 ms at p99 (``benchmarks/bot_pool.py`` measures it with processes). A worker gets the level
and the seat's ``View`` (a few hundred bytes pickled) and answers with the move; it keeps one
player per level, so nothing but the view crosses over per move.
"""

from __future__ import annotations

import asyncio
import functools
import multiprocessing
import os
import random
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

from ..moves import Move
from ..players import LEVELS, Player, Reason, hint, make_player
from ..view import View

T = TypeVar("T")

WORKER_NICENESS = 10
"""How much lower the workers' CPU priority is than the web process's: a search can wait a few
milliseconds more, a table's messages should not (on a busy machine the kernel then runs the
event loop first)."""


def stand_in_level() -> str:
    """The level that plays for a person who left or ran out of time: the expert when there is
    one, else the strongest level there is (``LEVELS`` runs from weakest to strongest)."""
    return "expert" if "expert" in LEVELS else LEVELS[-1]


def default_level() -> str:
    """The opponent of "play against the computer" when the caller names no level."""
    return stand_in_level()


def known_level(level: str | None) -> str:
    """``level`` if this server knows it; a level it no longer knows gets the stand-in's, so a
    table stored by an older version still resumes."""
    return level if level in LEVELS else stand_in_level()


def _lower_priority() -> None:
    os.nice(WORKER_NICENESS)


@functools.cache
def _player(level: str) -> Player:
    """One player per level in each worker process, made on its first move."""
    return make_player(level)


def choose(level: str, view: View) -> Move:
    """A bot's move (runs in a worker process)."""
    return _player(level).choose(view)


async def pause(delay: tuple[float, float]) -> None:
    """A person-like wait before a bot plays, so people can follow the game."""
    low, high = delay
    if high > 0:
        await asyncio.sleep(random.uniform(low, high))


async def think(pool: BotPool, level: str, view: View) -> Move:
    """The move of a bot of ``level`` for ``view``, chosen in one of ``pool``'s workers."""
    return await pool.run(choose, known_level(level), view)


class BotPool:
    """Worker processes for searches, started on the first one and replaced when one dies.

    The workers are forked from a clean server process (``forkserver``) that has imported the
    bots once, never from the web process, whose threads (the database driver's) could hold a
    lock at the fork. A pool whose worker was killed is broken for every job; the pool is then
    made again and the job tried once more.
    """

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._context = multiprocessing.get_context("forkserver")
        self._context.set_forkserver_preload(["scopa.players", "scopa.server.bots"])
        self._executor: ProcessPoolExecutor | None = None

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                self.workers, mp_context=self._context, initializer=_lower_priority
            )
        return self._executor

    async def run(self, function: Callable[..., T], *args: object) -> T:
        loop = asyncio.get_running_loop()
        pool = self._pool()
        try:
            return await loop.run_in_executor(pool, function, *args)
        except BrokenProcessPool:
            if self._executor is pool:  # the first job to see it makes a new pool
                self._executor = None
                pool.shutdown(wait=False, cancel_futures=True)
        return await loop.run_in_executor(self._pool(), function, *args)

    async def advise(self, view: View) -> tuple[Move, Reason]:
        """The master's hint for a person's own ``view``, in a worker for the same reason."""
        return await self.run(hint, view)

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
