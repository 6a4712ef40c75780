"""What the test suite's fixtures cost, each started and stopped a few times: a ``scopa serve``
on SQLite (every web test module and many room ones start one), a fresh PostgreSQL database, a
fresh Redis database, a room of two processes (tests/room/server_support.room_processes), and
Playwright with Debian's Chromium (each web test module starts one).

Run from the repository root, with the services scripts/test.sh starts:

    eval "$(bash scripts/postgres.sh)"; eval "$(bash scripts/redis.sh)"
    .venv/bin/python -m benchmarks.suite_fixtures [--times 5]

Prints the median and every time, in seconds, after the machine and its load.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import sync_playwright

from tests.room.server_support import (
    fresh_postgres,
    fresh_redis,
    room_processes,
    sqlite_url,
    subprocess_server,
)
from tests.web.web_support import CHROMIUM, CHROMIUM_ARGS

from .harness import machine


def timed(work: Callable[[], object], times: int) -> str:
    seconds = []
    for _ in range(times):
        start = time.monotonic()
        work()
        seconds.append(time.monotonic() - start)
    every = ", ".join(f"{value:.2f}" for value in seconds)
    return f"median {statistics.median(seconds):.2f} s ({every})"


def serve() -> None:
    with tempfile.TemporaryDirectory() as folder, subprocess_server(
        sqlite_url(Path(folder) / "room.db"), "--bot-delay", "0"
    ):
        pass


async def postgres() -> None:
    async with fresh_postgres():
        pass


async def redis() -> None:
    async with fresh_redis():
        pass


async def room() -> None:
    async with room_processes(("p1", "p2"), "--bot-delay", "0"):
        pass


def chromium() -> None:
    with sync_playwright() as playwright:
        playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS).close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--times", type=int, default=5)
    times = parser.parse_args().times
    print(machine())
    print("scopa serve on SQLite, started and killed:", timed(serve, times))
    print("a fresh PostgreSQL database, made and dropped:",
          timed(lambda: asyncio.run(postgres()), times))
    print("a fresh Redis database, taken and emptied:", timed(lambda: asyncio.run(redis()), times))
    print("a room of 2 processes on both:", timed(lambda: asyncio.run(room()), times))
    print("Playwright and Chromium, started and closed:", timed(chromium, times))


if __name__ == "__main__":
    main()
