"""Reviews cannot be flooded (issue 21, item 1): a guest with no seat in a match is refused;
asks are limited per address and per account; a process works out a bounded number of reviews
and refuses one more with 503 and Retry-After, queueing nothing; and a bot's move never waits
in line behind reviews, in this machine's pool or through the Redis queue."""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import random
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis.asyncio as aredis
import sqlalchemy as sa

from scopa import Game, Rules
from scopa.players import make_player
from scopa.review import jobs
from scopa.server.client import Lobby, TableConnection
from scopa.server.cluster.workers import JOBS, REVIEWS
from scopa.server.common.settings import Settings
from scopa.server.store.schema import review_jobs
from scopa.server.table.bots import BotPool, position

from .server_support import (
    REVIEW_TIMEOUT,
    TIMEOUT,
    Seated,
    Server,
    anyio_backend,
    fresh_redis,
    play_randomly,
    running_server,
    settings_for,
    until,
)
from .worker_jobs import hold_until

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]

PASSWORD = "a good password"


async def _finished(server: Server, lobby: Lobby, seed: int) -> dict[str, Any]:
    """A match against the random bot played to its end; its grant (match id, seat token)."""
    grant = await lobby.play_computer(name="Ada", level="random", target=1)
    connection = await TableConnection.open(server.url, grant["table"]["code"], grant["token"])
    try:
        await play_randomly(Seated(0, grant["token"], connection), random.Random(seed))
    finally:
        await connection.close()
    return grant


async def _claims(server: Server) -> int:
    async with server.room.storage.engine.connect() as connection:
        return int(await connection.scalar(sa.select(sa.func.count()).select_from(review_jobs)))


async def _logged_in(url: str, name: str) -> httpx.AsyncClient:
    http = httpx.AsyncClient(base_url=url)
    answer = await http.post("/api/account/register", json={"name": name, "password": PASSWORD})
    assert answer.status_code in (200, 201), answer.text
    return http


def _finished_record(seed: int) -> dict[str, Any]:
    """A whole match of two random players, as its record."""
    game = Game.new(Rules.preset("scopa", target=1), seed=seed)
    players = [make_player("random", seed=seed), make_player("random", seed=seed + 1)]
    while not game.is_over:
        game.play(players[game.to_move].choose(game.view(game.to_move)))
    return game.record()



async def test_only_a_seat_of_the_match_or_an_account_may_ask(server: Server) -> None:
    async with Lobby(server.url) as lobby, httpx.AsyncClient(base_url=server.url) as stranger:
        grant = await _finished(server, lobby, seed=1)
        other = await _finished(server, lobby, seed=2)
        match = grant["table"]["match"]
        url = f"/api/replays/{match}/reviews"
        refused = f"only a seat of match {match} (with its token) or a logged-in account may " \
            "ask for its review"
        for body in ({"seat": 0}, {"seat": 1, "token": other["token"]},
                     {"seat": 0, "token": "not a token"}):
            answer = await stranger.post(url, json=body)
            assert (answer.status_code, answer.json()["detail"]) == (403, refused), body
        assert await _claims(server) == 0
        assert not server.app.state.reviews.running  # nothing was even started

        mine = await stranger.post(url, json={"seat": 1, "token": grant["token"]})
        assert mine.status_code == 202  # the seat's token asks, for any seat of its match
        account = await _logged_in(server.url, "Bruno")
        try:
            theirs = await account.post(f"/api/replays/{other['table']['match']}/reviews",
                                        json={"seat": 0})
            assert theirs.status_code == 202  # a logged-in account asks without a token
        finally:
            await account.aclose()


async def test_asks_are_limited_per_address_and_per_account(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, review_per_address="4/minute", review_per_account="2/minute")
    async with running_server(settings) as server, Lobby(server.url) as lobby:
        grant = await _finished(server, lobby, seed=3)
        match = grant["table"]["match"]
        url = f"/api/replays/{match}/reviews"
        anna, bruno = await _logged_in(server.url, "Anna"), await _logged_in(server.url, "Bruno")
        try:
            assert (await anna.post(url, json={"seat": 0})).status_code == 202
            assert (await anna.post(url, json={"seat": 0})).status_code == 202  # running
            third = await anna.post(url, json={"seat": 1})
            assert (third.status_code, third.json()["detail"]) == (429,
                "too many reviews asked for by your account (at most 2 per 1 minute):"
                          " wait a little and ask again")
            # Bruno, from the same address, has the address's last ask; then none is left.
            assert (await bruno.post(url, json={"seat": 0})).status_code == 202
            fourth = await lobby.http.post(url, json={"seat": 1, "token": grant["token"]})
            assert (fourth.status_code, fourth.json()["detail"]) == (429,
                "too many reviews asked for from your address (at most 4 per 1 "
                          "minute): wait a little and ask again")
            assert set(server.app.state.reviews.running) == {(match, 0)}  # seat 1: nothing
        finally:
            await anna.aclose()
            await bruno.aclose()


async def test_a_full_review_queue_refuses_with_retry_after_and_queues_nothing(
    tmp_path: Path,
) -> None:
    async with (
        running_server(settings_for(tmp_path, review_queue=1)) as server,
        Lobby(server.url) as lobby,
    ):
        grant = await _finished(server, lobby, seed=4)
        match = grant["table"]["match"]
        url = f"/api/replays/{match}/reviews"
        manager = multiprocessing.Manager()
        gate = manager.Event()
        held = asyncio.create_task(server.room.pool.run(hold_until, gate, reviews=True))
        try:
            first = await lobby.http.post(url, json={"seat": 0, "token": grant["token"]})
            assert first.status_code == 202
            running = server.app.state.reviews.running[(match, 0)]
            full = await lobby.http.post(url, json={"seat": 1, "token": grant["token"]})
            assert not running.done()  # its first move waits behind the held worker
            assert (full.status_code, full.json()) == (503, {
                "detail": "the master is busy with as many reviews as he takes at once (1): "
                          "ask again in 30 seconds", "code": "reviews_busy",
                "params": {"most": 1, "seconds": 30}})
            assert full.headers["retry-after"] == "30"
            assert await _claims(server) == 1
            assert set(server.app.state.reviews.running) == {(match, 0)}
            nobody = await lobby.http.get(f"{url}/1")
            assert nobody.status_code == 404  # nothing was queued for seat 1
        finally:
            gate.set()
            await asyncio.wait_for(held, REVIEW_TIMEOUT)  # a niced worker
            manager.shutdown()
        await asyncio.wait_for(running, REVIEW_TIMEOUT)
        again = await lobby.http.post(url, json={"seat": 1, "token": grant["token"]})
        assert again.status_code == 202  # room again once the first is done
        await asyncio.wait_for(server.app.state.reviews.running[(match, 1)], REVIEW_TIMEOUT)


def _moves_to_review(count: int) -> list[dict[str, Any]]:
    todo: list[dict[str, Any]] = []
    seed = 10
    while len(todo) < count:
        todo += jobs(_finished_record(seed), 0)
        seed += 1
    return todo[:count]


def _opening(seed: int) -> dict[str, Any]:
    rules = Rules.preset("scopa")
    return position(rules, seed, None, [], 0)


async def test_a_bot_move_does_not_wait_behind_reviews_in_the_pool() -> None:
    """One bots' worker and one reviews' worker: twelve moves to review asked first, then a
    bot's move, which is answered while most of the reviews still wait."""
    pool = BotPool(1, review_workers=1)
    reviews = [asyncio.create_task(pool.review(job)) for job in _moves_to_review(12)]
    try:
        move = await asyncio.wait_for(pool.think("random", _opening(7)), TIMEOUT)
        assert move in Game.new(Rules.preset("scopa"), seed=7).view(0).legal_moves()
        assert sum(task.done() for task in reviews) <= 2
        judged = await asyncio.wait_for(reviews[0], REVIEW_TIMEOUT)
        assert judged["mark"] in {"good", "inaccuracy", "mistake", "blunder"}
    finally:
        for task in reviews:
            task.cancel()
        await asyncio.gather(*reviews, return_exceptions=True)
        await pool.close()


async def _at_least(client: aredis.Redis, key: str, length: int) -> bool:
    return bool(await client.llen(key) >= length)


@contextlib.asynccontextmanager
async def _bot_worker(redis: str, name: str) -> AsyncIterator[None]:
    """``scopa bots`` in its own process, started without blocking the event loop (the server
    in this loop keeps reading its inbox meanwhile); its first line says it takes jobs."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "scopa", "bots", "--redis", redis, "--name", name,
        stdout=asyncio.subprocess.PIPE, stdin=asyncio.subprocess.DEVNULL,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        assert process.stdout is not None
        line = await asyncio.wait_for(process.stdout.readline(), TIMEOUT)
        assert b"taking jobs" in line, line
        yield
    finally:
        process.kill()
        await asyncio.wait_for(process.wait(), TIMEOUT)


async def test_a_bot_move_does_not_wait_behind_reviews_through_redis(tmp_path: Path) -> None:
    """With ``--bot-queue`` and one ``scopa bots`` worker: twelve moves to review on the queue,
    then a bot's move, which the worker takes before the reviews that wait."""
    async with fresh_redis() as redis:
        settings: Settings = settings_for(tmp_path, redis_url=redis, bot_queue=True,
                                          process_name="web")
        client = aredis.Redis.from_url(redis, decode_responses=True)
        async with running_server(settings) as server:
            pool = server.room.pool
            reviews = [asyncio.create_task(pool.review(job)) for job in _moves_to_review(12)]
            try:
                await until(lambda: _at_least(client, REVIEWS, 12), "twelve reviews queued")
                # The bot's move is on its queue before the worker starts, so what the worker
                # takes first says which queue it serves first (a worker started before the
                # move would rightly take reviews while there is nothing else to do).
                thinking = asyncio.create_task(pool.think("random", _opening(8)))
                await until(lambda: _at_least(client, JOBS, 1), "the bot's move queued")
                async with _bot_worker(redis, "w1"):
                    move = await asyncio.wait_for(thinking, TIMEOUT)
                    assert move in Game.new(Rules.preset("scopa"), seed=8).view(0).legal_moves()
                    assert sum(task.done() for task in reviews) == 0
                    assert await client.llen(JOBS) == 0
                    await asyncio.wait_for(reviews[0], REVIEW_TIMEOUT)
            finally:
                for task in reviews:
                    task.cancel()
                await asyncio.gather(*reviews, return_exceptions=True)
                await client.aclose()
