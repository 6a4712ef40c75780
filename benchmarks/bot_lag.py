"""The card room's event loop while bots think: its lag with 8 master searches always running.

A web process serves every table from one event loop; a bot's search that holds the interpreter
lock delays every other table's messages. This keeps ``--searches`` master searches (random
positions of two-player scopa, as the room's ``hint`` and master bots ask for them) running for
``--seconds``, through the room's own ``BotPool`` (worker processes) or, with ``--threads``,
through a thread pool as the room did before; meanwhile a ticker asks the loop for a wake-up
every millisecond and records how late each comes. It prints the lag's percentiles and the
searches done.

    .venv/bin/python benchmarks/bot_lag.py                  # the worker processes
    .venv/bin/python benchmarks/bot_lag.py --threads        # the threads, for comparison
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor

from scopa import Game, Rules
from scopa.server.table.bots import BotPool, Position, move_at, position


def positions(count: int, seed: int) -> list[Position]:
    """Jobs for the player to move, a few plays into random matches."""
    rng = random.Random(seed)
    jobs = []
    while len(jobs) < count:
        match_seed = rng.randrange(2**32)
        game = Game.new(Rules.preset("scopa"), seed=match_seed)
        plays = []
        for _ in range(rng.randrange(0, 12)):
            game.play(rng.choice(game.legal_moves()))
            assert game.last_move is not None
            plays.append(game.last_move)
        assert game.to_move is not None
        jobs.append(position(game.rules, match_seed, None, plays, game.to_move))
    return jobs


async def ticker(stop: asyncio.Event, lags: list[float], period: float = 0.001) -> None:
    while not stop.is_set():
        wanted = time.perf_counter() + period
        await asyncio.sleep(period)
        lags.append(max(0.0, time.perf_counter() - wanted))


async def measure(
    search: Callable[[Position], Awaitable[object]], searches: int, seconds: float
) -> tuple[list[float], int]:
    views = positions(200, seed=1)
    stop = asyncio.Event()
    done = 0

    async def searcher(k: int) -> None:
        nonlocal done
        while not stop.is_set():
            await search(views[(done + k) % len(views)])
            done += 1

    # Warm up: the workers start and import the bots before the clock runs.
    await asyncio.gather(*(search(view) for view in views[:searches]))
    lags: list[float] = []
    tasks = [asyncio.create_task(searcher(k)) for k in range(searches)]
    tick = asyncio.create_task(ticker(stop, lags))
    await asyncio.sleep(seconds)
    stop.set()
    await asyncio.gather(tick, *tasks)
    return lags, done


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--searches", type=int, default=8, help="master searches at once")
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--threads", action="store_true", help="a thread pool instead")
    args = parser.parse_args()

    async def run() -> tuple[list[float], int]:
        loop = asyncio.get_running_loop()
        if args.threads:
            with ThreadPoolExecutor(args.workers) as threads:
                return await measure(
                    lambda job: loop.run_in_executor(threads, move_at, "master", job),
                    args.searches,
                    args.seconds,
                )
        pool = BotPool(args.workers)
        try:
            return await measure(
                lambda job: pool.think("master", job), args.searches, args.seconds
            )
        finally:
            await pool.close()

    lags, done = asyncio.run(run())
    where = f"{args.workers} threads" if args.threads else f"{args.workers} worker processes"
    ms = [lag * 1000 for lag in lags]
    print(f"{args.searches} master searches at once in {where}, {args.seconds:g} s")
    print(f"  searches done: {done} ({done / args.seconds:.0f}/s)")
    print(
        f"  event loop lag: p50 {percentile(ms, 0.5):.2f} ms, p99 {percentile(ms, 0.99):.2f} ms,"
        f" max {max(ms):.2f} ms, mean {statistics.fmean(ms):.2f} ms over {len(ms)} ticks"
    )
    print(f"  load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
