"""A live expert bot's reply while the master's reviews are flooded (issue 21, item 1).

Reviews used to share the bots' workers in one first-in-first-out line: 63 reviews asked at
once took the expert's reply at a live table from 1.0 s to 6.2 s at most. This starts a real
card room (its own process pool, a SQLite file in a temporary folder), plays ``--matches``
finished matches to review, then times the expert's replies to a person playing random moves:
first quiet, then right after ``--reviews`` reviews are asked at once (by the seats of those
matches, with their tokens). It prints the replies' median, p99 and max both ways, and what the
room answered to the reviews (202 started, 503 full, 429 limited).

    .venv/bin/python benchmarks/review_flood.py [--reviews 50] [--replies 60] [--queue 4]
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import functools
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from harness import in_process

from scopa.server import Settings
from scopa.server.client import Lobby, TableConnection

TIMEOUT = 60.0


async def play_out(url: str, lobby: Lobby, rng: random.Random) -> dict[str, Any]:
    """A match of a person (random moves) against the random bot, to its end; its grant."""
    grant = await lobby.play_computer(name="Ada", level="random", target=1)
    async with await TableConnection.open(url, grant["table"]["code"], grant["token"]) as table:
        sent = -1
        while table.over is None:
            if table.my_turn and table.version != sent:
                assert table.view is not None and table.version is not None
                sent = table.version
                await table.move(rng.choice(table.view["legal_moves"]))
            await table.recv(TIMEOUT)
    return grant


def replied(table: TableConnection, seen: list[int], message: dict[str, Any]) -> bool:
    """The match is over, or it is the person's turn again (``seen`` gathers who played since
    the person's move: at a new round the person may play twice, with no bot between)."""
    if message["type"] == "state" and message.get("play"):
        seen.append(message["play"]["seat"])
    return table.over is not None or (message["type"] == "state" and table.my_turn)


async def expert_replies(url: str, lobby: Lobby, count: int, rng: random.Random) -> list[float]:
    """Seconds from a person's move to their next turn (the expert's reply between), ``count``
    times, over as many matches against the expert as that takes."""
    replies: list[float] = []
    while len(replies) < count:
        grant = await lobby.play_computer(name="Bea", level="expert")
        async with await TableConnection.open(
            url, grant["table"]["code"], grant["token"]
        ) as table:
            await table.wait_for(lambda m: m["type"] == "state" and table.my_turn, TIMEOUT)
            while table.over is None and len(replies) < count:
                assert table.view is not None and table.version is not None
                started = time.perf_counter()
                await table.move(rng.choice(table.view["legal_moves"]))
                seen: list[int] = []
                await table.wait_for(functools.partial(replied, table, seen), TIMEOUT)
                if table.over is None and any(seat != grant["seat"] for seat in seen):
                    replies.append(time.perf_counter() - started)
    return replies


def p99(replies: list[float]) -> float:
    ordered = sorted(replies)
    return ordered[round(0.99 * (len(ordered) - 1))]


def figures(replies: list[float]) -> str:
    return (f"median {statistics.median(replies):.3f} s, p99 {p99(replies):.3f} s, "
            f"max {max(replies):.3f} s over {len(replies)} replies")


async def main(args: argparse.Namespace) -> None:
    folder = Path(tempfile.mkdtemp(prefix="scopa-flood-"))
    settings = Settings(
        db_url=f"sqlite+aiosqlite:///{folder / 'room.db'}", bot_delay=(0.0, 0.0),
        http_writes="1000/second", http_reads="1000/second", review_queue=args.queue,
        review_per_address="1000/minute", review_per_account="1000/minute",
    )
    rng = random.Random(1)
    async with in_process(settings) as (app, url):
        async with Lobby(url) as lobby:
            asks: list[tuple[Any, int, Any]] = []
            while len(asks) < args.reviews:
                grant = await play_out(url, lobby, rng)
                match = grant["table"]["match"]
                asks += [(match, seat, grant["token"]) for seat in (0, 1)]
            asks = asks[: args.reviews]
            await expert_replies(url, lobby, 3, rng)  # the workers started, the bots loaded
            quiet = await expert_replies(url, lobby, args.replies, rng)
            answers = await asyncio.gather(*(
                lobby.http.post(f"/api/replays/{match}/reviews",
                                json={"seat": seat, "token": token})
                for match, seat, token in asks
            ))
            counted = collections.Counter(answer.status_code for answer in answers)
            flooded = await expert_replies(url, lobby, args.replies, rng)
            reviews = getattr(app.state, "reviews", None)
            still = len(reviews.running) if reviews is not None else 0
        print(f"{args.reviews} reviews asked at once (review queue {args.queue}): "
              + ", ".join(f"{count} x {status}" for status, count in sorted(counted.items()))
              + f"; {still} still running after the flooded replies")
        print(f"expert reply, quiet:   {figures(quiet)}")
        print(f"expert reply, flooded: {figures(flooded)}")
        print(f"p99 flooded / quiet: {p99(flooded) / p99(quiet):.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reviews", type=int, default=50, help="reviews asked at once")
    parser.add_argument("--replies", type=int, default=60, help="expert replies timed each way")
    parser.add_argument("--queue", type=int, default=4,
                        help="reviews one process works out at once (Settings.review_queue)")
    asyncio.run(main(parser.parse_args()))
