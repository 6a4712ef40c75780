"""How long a table's lock is held per move, and at a match's end (issue 32, item 5).

Every move takes its table's lock while it is checked, stored and sent. A match's last move
told every match-end subscriber (ratings, social, tournaments, the daily deal) before the lock
was let go, so a slow subscriber held up the next thing done at that table; since 2026-12-07
they are told after it, in a task of the table's, and the last move's hold no longer counts
them (docs/benchmarks.md has both figures). This starts a real card room in this process (a
SQLite file in a temporary folder, instant bots), registers an account, and plays
``--matches`` rated matches of one round against the random bot with a person who plays random
moves. Each table's lock is timed from its acquiring to its release;
the holds are split into those that ended the match and the others, and each kind's median,
p99 and max are printed, after the machine and its load.

    .venv/bin/python benchmarks/table_lock.py [--matches 40]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path
from types import TracebackType
from typing import Any

from harness import in_process, machine

from scopa.server import Settings
from scopa.server.client import Lobby, TableConnection
from scopa.server.table.tables import Table

TIMEOUT = 60.0


class TimedLock(asyncio.Lock):
    """A table's lock that notes how long each hold lasted, and whether the match ended during
    it (the hold of the match's last move, with its subscribers). Holds of a table already
    over (a seat's goodbye) are not counted."""

    def __init__(self, table: Table, moves: list[float], ends: list[float]) -> None:
        super().__init__()
        self.table, self.moves, self.ends = table, moves, ends
        self.since = 0.0
        self.was_over = False

    async def __aenter__(self) -> None:
        await super().__aenter__()
        self.was_over = self.table.status == "over"
        self.since = time.perf_counter()

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        held = time.perf_counter() - self.since
        if not self.was_over:
            (self.ends if self.table.status == "over" else self.moves).append(held)
        await super().__aexit__(kind, error, trace)


def figures(seconds: list[float]) -> str:
    ms = sorted(value * 1000 for value in seconds)
    p99 = ms[min(len(ms) - 1, round(0.99 * (len(ms) - 1)))]
    return (f"{len(ms)} holds: median {statistics.median(ms):.2f} ms, p99 {p99:.2f} ms, "
            f"max {ms[-1]:.2f} ms")


async def play_out(url: str, lobby: Lobby, tables: dict[str, Table], moves: list[float],
                   ends: list[float], rng: random.Random) -> None:
    """One rated match of a person (random moves) against the random bot, to its end, with its
    table's lock timed from before the first move."""
    grant: dict[str, Any] = await lobby.play_computer(name="Ada", level="random", target=1,
                                                      rated=True)
    code = grant["table"]["code"]
    table = tables[code]
    table.lock = TimedLock(table, moves, ends)
    async with await TableConnection.open(url, code, grant["token"]) as connection:
        sent = -1
        while connection.over is None:
            if connection.my_turn and connection.version != sent:
                assert connection.view is not None and connection.version is not None
                sent = connection.version
                await connection.move(rng.choice(connection.view["legal_moves"]))
            await connection.recv(TIMEOUT)


async def main(args: argparse.Namespace) -> None:
    print(machine())
    folder = Path(tempfile.mkdtemp(prefix="scopa-lock-"))
    settings = Settings(db_url=f"sqlite+aiosqlite:///{folder / 'room.db'}", bot_delay=(0.0, 0.0),
                        http_writes="1000/second", http_reads="1000/second")
    rng = random.Random(1)
    moves: list[float] = []
    ends: list[float] = []
    async with in_process(settings) as (app, url), Lobby(url) as lobby:
        answer = await lobby.http.post("/api/account/register",
                                       json={"name": "Ada", "password": "a good password"})
        answer.raise_for_status()
        tables = app.state.room.tables
        for _ in range(args.matches):
            await play_out(url, lobby, tables, moves, ends, rng)
    print(f"{args.matches} rated matches of one round, a person against the random bot "
          "(instant), SQLite")
    print(f"lock, other holds (moves): {figures(moves)}")
    print(f"lock at the match's end:   {figures(ends)}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=40, help="matches played one by one")
    asyncio.run(main(parser.parse_args()))
