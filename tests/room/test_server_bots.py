"""The bots' workers: this machine's pool of processes, and ``scopa bots`` workers that take
jobs from Redis; moves come from another process, and a job whose worker dies is run again."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis.asyncio as aredis

from scopa import Game, Rules
from scopa.server.client import Lobby, TableConnection
from scopa.server.cluster.hub import inbox
from scopa.server.cluster.workers import REVIEWS, WORKERS, working
from scopa.server.table.bots import BotPool, position

from .server_support import (
    TIMEOUT,
    Seated,
    anyio_backend,
    fresh_redis,
    play_randomly,
    running_server,
    settings_for,
)
from .worker_jobs import die_once, worker_pid

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]


async def test_a_bot_moves_in_a_worker_process() -> None:
    game = Game.new(Rules.preset("escoba"), seed=5)
    for _ in range(3):
        game.play(game.legal_moves()[0])
    seat = game.to_move
    assert seat is not None
    plays = []  # the public plays so far, as the table keeps them
    replayed = Game.new(game.rules, seed=5)
    for move in game.record()["moves"]:
        replayed.play(move)
        assert replayed.last_move is not None
        plays.append(replayed.last_move)
    pool = BotPool(1)
    try:
        move = await pool.think("master", position(game.rules, 5, None, plays, seat))
        assert move in game.view(seat).legal_moves()
        hinted, why = await pool.advise(position(game.rules, 5, None, plays, seat))
        assert hinted in game.view(seat).legal_moves() and str(why)
        assert await pool.run(worker_pid) != os.getpid()
    finally:
        await pool.close()


async def test_a_job_whose_worker_dies_runs_again(tmp_path: Path) -> None:
    pool = BotPool(1)
    try:
        first = await pool.run(worker_pid)
        second = await pool.run(die_once, str(tmp_path / "died"))
        assert second not in (first, os.getpid())  # a new worker answered
        assert (tmp_path / "died").exists()
    finally:
        await pool.close()


@contextlib.contextmanager
def bot_worker(redis: str, name: str) -> Iterator[subprocess.Popen[str]]:
    """``scopa bots`` in its own process; its first line says it is taking jobs."""
    process = subprocess.Popen(
        [sys.executable, "-m", "scopa", "bots", "--redis", redis, "--name", name],
        stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        assert process.stdout is not None
        assert "taking jobs" in process.stdout.readline()
        yield process
    finally:
        process.kill()
        process.wait(TIMEOUT)
        if process.stdout is not None:
            process.stdout.close()


async def test_bot_workers_play_and_hint_through_redis(tmp_path: Path) -> None:
    async with fresh_redis() as redis:
        settings = settings_for(tmp_path, redis_url=redis, bot_queue=True, process_name="web")
        with bot_worker(redis, "w1"), bot_worker(redis, "w2"):
            async with running_server(settings) as server, Lobby(server.url) as lobby:
                grant = await lobby.play_computer(name="Ada", level="expert")
                person = await TableConnection.open(
                    server.url, grant["table"]["code"], grant["token"]
                )
                await person.wait_for(lambda m: m["type"] == "state" and person.my_turn, TIMEOUT)
                await person.hint(ref="h")
                hinted = await person.wait_for(lambda m: m["type"] == "hint", TIMEOUT)
                assert person.view is not None and hinted["move"] in person.view["legal_moves"]
                await play_randomly(Seated(0, grant["token"], person), random.Random(3))
                assert person.over is not None


async def test_a_job_whose_worker_died_is_run_again() -> None:
    async with fresh_redis() as redis:
        client = aredis.Redis.from_url(redis, decode_responses=True)
        replies = client.pubsub()
        await replies.subscribe(inbox(client, "tester"))
        game = Game.new(Rules.preset("scopa"), seed=8)
        job = {"id": "tester/1", "reply": "tester", "kind": "move", "level": "greedy",
               "position": position(game.rules, 8, None, [], 0)}
        # A worker that took the job and died long ago, without answering.
        await client.rpush(working("ghost"), json.dumps(job))
        await client.zadd(WORKERS, {"ghost": 0})
        with bot_worker(redis, "w1"):
            async with asyncio.timeout(TIMEOUT):
                async for message in replies.listen():
                    if message["type"] == "message":
                        reply = json.loads(message["data"])
                        break
        assert reply["id"] == "tester/1"
        assert reply["result"] in [str(move) for move in game.view(0).legal_moves()]
        assert await client.llen(working("ghost")) == 0
        await replies.aclose()
        await client.aclose()


async def test_reviews_go_through_the_bot_queue_as_json(tmp_path: Path) -> None:
    """With ``--bot-queue`` the master's review is worked out by ``scopa bots`` workers: each
    move to review waits on the Redis queue as a JSON job until a worker takes it."""
    async with fresh_redis() as redis:
        settings = settings_for(tmp_path, redis_url=redis, bot_queue=True, process_name="web")
        client = aredis.Redis.from_url(redis, decode_responses=True)
        async with running_server(settings) as server, Lobby(server.url) as lobby:
            with bot_worker(redis, "w1"):
                grant = await lobby.play_computer(name="Ada", level="random", target=1)
                person = await TableConnection.open(
                    server.url, grant["table"]["code"], grant["token"]
                )
                await play_randomly(Seated(0, grant["token"], person), random.Random(4))
                await person.close()
            match = grant["table"]["match"]
            started = await lobby.http.post(f"/api/replays/{match}/reviews",
                                            json={"seat": 0, "token": grant["token"]})
            assert started.status_code == 202
            # No worker now: the first move to review is on the reviews' queue, in the jobs'
            # format.
            text = await client.blmove(REVIEWS, working("tester"), TIMEOUT, "RIGHT", "LEFT")
            job = json.loads(text)
            assert (job["kind"], job["reply"], job["position"]["seat"]) == ("review", "web", 0)
            assert {"rules", "seed", "deck", "moves", "seat", "played"} <= set(job["position"])
            await client.rpush(REVIEWS, text)
            await client.delete(working("tester"))
            with bot_worker(redis, "w2"):
                await server.app.state.reviews.running[(match, 0)]
                done = (await lobby.http.get(f"/api/replays/{match}/reviews/0")).json()
            assert (done["status"], done["done"]) == ("done", started.json()["total"])
            assert len(done["review"]["moves"]) == done["total"]
        await client.aclose()
