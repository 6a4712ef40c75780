"""Bots at the card room's tables: who plays a bot seat, who stands in for an absent person,
how a bot thinks without stalling everyone else's table, and the master's hints for people.

Searches run in worker processes, not in threads: a thread shares the interpreter lock with
the event loop, and two master searches in threads pushed the loop's lag from 1.4 ms to 42 ms
at p99 (``benchmarks/bot_lag.py`` measures it with processes). A job is a **position**, plain
JSON: the match's rules, seed, first deck and moves, and the seat to play. The worker plays the
moves again and asks its player (one per level, kept) for that seat's view, so the same job runs
in this machine's :class:`BotPool` or in a ``scopa bots`` worker anywhere (:mod:`.workers`).

The master's reviews of finished matches are jobs too, but never in the bots' line: a flood of
reviews once took an expert's reply at a live table from 1.0 s to 6.2 s. :class:`BotPool` runs
them in processes of their own, at a lower CPU priority; the workers take them only when no
bot's move waits.
"""

from __future__ import annotations

import asyncio
import functools
import json
import multiprocessing
import os
import random
import select
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol, TypeVar

from ...game import Game
from ...moves import Move
from ...players import LEVELS, Player, Reason, hint, make_player
from ...review import review_move
from ...rules import Rules
from ...view import Play, View

T = TypeVar("T")
Position = dict[str, Any]
"""A seat's position as a job: ``rules`` (a dict), ``seed``, ``deck``, ``moves``, ``seat``."""

WORKER_NICENESS = 10
"""How much lower the workers' CPU priority is than the web process's: a search can wait a few
milliseconds more, a table's messages should not (on a busy machine the kernel then runs the
event loop first)."""
REVIEW_NICENESS = 19
"""The reviews' workers' CPU priority, the lowest: a review may take longer, a bot's move at a
live table should not wait for one (when the machine's cores are all busy, the kernel gives the
bots' workers the CPU first)."""


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


def position(
    rules: Rules, seed: int, deck: list[str] | None, plays: Sequence[Play], seat: int
) -> Position:
    """The job for ``seat`` in a match dealt from ``seed`` (or ``deck``) after ``plays``."""
    return {
        "rules": rules.to_dict(),
        "seed": seed,
        "deck": deck,
        "moves": [str(play.move) for play in plays],
        "seat": seat,
    }


@functools.cache
def _rules(text: str) -> Rules:
    return Rules.from_dict(json.loads(text))


def _view(job: Position) -> View:
    rules = _rules(json.dumps(job["rules"], sort_keys=True))
    game = Game.new(rules, seed=job["seed"], deck=job["deck"])
    for move in job["moves"]:
        game.play(move)
    return game.view(job["seat"])


@functools.cache
def _player(level: str) -> Player:
    """One player per level in each worker process, made on its first move."""
    return make_player(level)


def move_at(level: str, job: Position) -> str:
    """A bot's move for ``job``, as its code (runs in a worker)."""
    return str(_player(level).choose(_view(job)))


def hint_at(job: Position) -> dict[str, Any]:
    """The master's hint for ``job``: the move's code and the reason (runs in a worker)."""
    move, why = hint(_view(job))
    return {"move": str(move), "key": why.key, "params": dict(why.params)}


def read_hint(answer: dict[str, Any]) -> tuple[Move, Reason]:
    return Move.parse(answer["move"]), Reason(answer["key"], answer["params"])


async def pause(delay: tuple[float, float]) -> None:
    """A person-like wait before a bot plays, so people can follow the game."""
    low, high = delay
    if high > 0:
        await asyncio.sleep(random.uniform(low, high))


class Bots(Protocol):
    """Where searches run: this machine's worker processes, or ``scopa bots`` workers."""

    async def think(self, level: str, job: Position) -> Move: ...

    async def advise(self, job: Position) -> tuple[Move, Reason]: ...

    async def review(self, job: dict[str, Any]) -> dict[str, Any]:
        """The master's judgement of one move of a finished match (a :func:`scopa.review.jobs`
        job, plain JSON like a position)."""
        ...

    async def close(self) -> None: ...


async def think(bots: Bots, level: str, job: Position) -> Move:
    """The move of a bot of ``level`` for ``job``, chosen by one of the workers."""
    return await bots.think(known_level(level), job)


def _start_worker(server: int, niceness: int) -> None:
    """A worker's start: a lower CPU priority, and an end of its own when the server ends."""
    os.nice(niceness)
    threading.Thread(target=_end_with, args=(server,), name="scopa-server-watch",
                     daemon=True).start()  # fmt: skip


def _end_with(server: int) -> None:
    """End this worker when process ``server`` ends. A server killed with ``kill -9`` runs no
    shutdown, and its workers (children of the forkserver, not of the server) would wait for
    jobs for ever, holding the server's output open and keeping the forkserver alive. The
    wait is on a pidfd, woken by the exit itself (Linux; elsewhere workers are not watched)."""
    if not hasattr(os, "pidfd_open"):
        return
    try:
        watched = os.pidfd_open(server)
    except ProcessLookupError:
        os._exit(0)
    select.select([watched], [], [])
    os._exit(0)


class BotPool:
    """Worker processes on this machine, started on the first job and replaced when one dies:
    ``workers`` for the bots' moves and hints, and ``review_workers`` apart for the master's
    reviews, so that a bot's move never waits in line behind a review's.

    The workers are forked from a clean server process (``forkserver``) that has imported the
    bots once, never from the web process, whose threads (the database driver's) could hold a
    lock at the fork. A pool whose worker was killed is broken for every job; the pool is then
    made again and the job tried once more.
    """

    def __init__(self, workers: int, review_workers: int = 1) -> None:
        self.workers = workers
        self.review_workers = review_workers
        self._context = multiprocessing.get_context("forkserver")
        self._context.set_forkserver_preload(["scopa.players", "scopa.server.table.bots"])
        self._executors: dict[bool, ProcessPoolExecutor] = {}
        """The bots' pool (``False``) and the reviews' (``True``), each made on its first job."""

    def _pool(self, reviews: bool) -> ProcessPoolExecutor:
        found = self._executors.get(reviews)
        if found is None:
            found = self._executors[reviews] = ProcessPoolExecutor(
                self.review_workers if reviews else self.workers, mp_context=self._context,
                initializer=_start_worker,
                initargs=(os.getpid(), REVIEW_NICENESS if reviews else WORKER_NICENESS),
            )
        return found

    async def run(self, function: Callable[..., T], *args: object, reviews: bool = False) -> T:
        """``function(*args)`` in a bots' worker, or with ``reviews`` in a reviews' worker."""
        loop = asyncio.get_running_loop()
        pool = self._pool(reviews)
        try:
            return await loop.run_in_executor(pool, function, *args)
        except BrokenProcessPool:
            if self._executors.get(reviews) is pool:  # the first job to see it makes a new pool
                del self._executors[reviews]
                pool.shutdown(wait=False, cancel_futures=True)
        return await loop.run_in_executor(self._pool(reviews), function, *args)

    async def think(self, level: str, job: Position) -> Move:
        return Move.parse(await self.run(move_at, level, job))

    async def advise(self, job: Position) -> tuple[Move, Reason]:
        """The master's hint for a person's own position, in a worker for the same reason."""
        return read_hint(await self.run(hint_at, job))

    async def review(self, job: dict[str, Any]) -> dict[str, Any]:
        """One move of a review, in the reviews' own workers."""
        return await self.run(review_move, job, reviews=True)

    async def close(self) -> None:
        for executor in self._executors.values():
            executor.shutdown(wait=False, cancel_futures=True)
        self._executors.clear()
