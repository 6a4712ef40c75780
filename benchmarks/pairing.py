"""The pools under load: N simulated people asking to play over ``/ws/pools`` on several
``scopa serve`` processes sharing PostgreSQL and Redis.

People arrive at random (a Poisson process) over ``--seconds``, each at one of the processes in
turn, as guests of the scopa pool: all newcomers, so a partner within the first window always
exists once a second person waits. Each one's time is measured from sending ``join`` to
receiving ``paired`` (their table made, dealt, and their seat and token told): p50, p99 and
the longest. CPU per pairing is the web processes' CPU time during the run (and Redis's and
PostgreSQL's, their processes on this machine) divided by the pairings made. Then every seat of
every table is read from the database: a person seated twice, or told a seat the database does
not give them, is counted (both must be 0).

The simulated people connect from many loopback addresses (127.0.1.1 to 127.0.1.250), as
people come from many homes: one address may keep 20 pool sockets per process.

    eval "$(bash scripts/postgres.sh)"; eval "$(bash scripts/redis.sh)"
    .venv/bin/python benchmarks/pairing.py --db "$SCOPA_TEST_POSTGRES" --redis "$SCOPA_TEST_REDIS"
    .venv/bin/python benchmarks/pairing.py --people 200 --seconds 10 --db ... --redis ...

It prints the machine first (CPU model, cores, load average before the run). Prints figures to
compare; it never passes or fails on a time. Bounded by ``--seconds`` plus a drain of 30 s.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import secrets
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field

import orjson
import sqlalchemy as sa
import uvloop
from harness import Servers, lift_open_files, machine  # sibling modules, not a package
from server_load import cpu_by_pid, fresh_database, percentile, pids_named
from sqlalchemy.ext.asyncio import create_async_engine
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from scopa.server.store.schema import seats
from scopa.server.store.storage import async_url

DRAIN_SECONDS = 30.0
ADDRESSES = [f"127.0.1.{k}" for k in range(1, 251)]


@dataclass
class Run:
    seconds_to_seat: list[float] = field(default_factory=list)
    told: dict[str, tuple[str, int]] = field(default_factory=dict)
    """name -> (table, seat) each person was told."""
    paired_messages: Counter[str] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)
    waiting: int = 0


async def person(url: str, name: str, address: str, run: Run, stop: asyncio.Event) -> None:
    """Join the scopa pool and wait to be paired (or for the drain's end)."""
    socket_url = url.rstrip("/").replace("http://", "ws://") + "/ws/pools"
    try:
        async with connect(socket_url, open_timeout=30, local_addr=(address, 0),
                           ping_interval=None) as socket:
            asked = time.perf_counter()
            await socket.send(orjson.dumps({"type": "join", "pool": "scopa", "name": name,
                                            "guest": secrets.token_urlsafe(16)}).decode())
            run.waiting += 1
            try:
                async for text in socket:
                    message = orjson.loads(text)
                    if message["type"] == "paired":
                        run.seconds_to_seat.append(time.perf_counter() - asked)
                        run.paired_messages[name] += 1
                        run.told[name] = (message["code"], message["seat"])
                    elif message["type"] == "error":
                        run.errors.append(message["message"])
                    if stop.is_set():
                        break
            finally:
                run.waiting -= 1
    except (ConnectionClosed, OSError, TimeoutError) as error:
        run.errors.append(f"{name}: {error!r}")


async def main_async(args: argparse.Namespace, urls: list[str], pids: list[int]) -> int:
    rng = random.Random(args.seed)
    run = Run()
    stop = asyncio.Event()
    services = {"Redis": "redis-server", "PostgreSQL": "postgres"}
    web_before = cpu_by_pid(pids)
    services_before = {name: cpu_by_pid(pids_named(word)) for name, word in services.items()}
    started = time.perf_counter()
    tasks = []
    moment = 0.0
    for k in range(args.people):
        moment += rng.expovariate(args.people / args.seconds)
        delay = started + moment - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        tasks.append(asyncio.create_task(person(
            urls[k % len(urls)], f"p{k:05d}", ADDRESSES[k % len(ADDRESSES)], run, stop)))
    arrived = time.perf_counter() - started
    # The drain: those still waiting get at most DRAIN_SECONDS to be paired (an odd one out
    # waits for ever).
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(DRAIN_SECONDS):
            while len(run.told) < args.people - 1:
                await asyncio.sleep(0.1)
    elapsed = time.perf_counter() - started
    web = sum(cpu_by_pid(pids).values()) - sum(web_before.values())
    # Each process's CPU since the start (a PostgreSQL backend that began during the run counts
    # whole; one that ended during it is lost, so these are at least what was used).
    service_cpu = {}
    for name, word in services.items():
        after = cpu_by_pid(pids_named(word))
        service_cpu[name] = sum(cpu - services_before[name].get(pid, 0.0)
                                for pid, cpu in after.items())
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)

    engine = create_async_engine(async_url(args.db_used))
    try:
        async with engine.connect() as connection:
            rows = (await connection.execute(
                sa.select(seats.c.table_code, seats.c.seat, seats.c.name))).all()
    finally:
        await engine.dispose()
    seated = Counter(row.name for row in rows)
    where = {row.name: (row.table_code, row.seat) for row in rows}
    twice = sum(1 for count in seated.values() if count > 1)
    twice += sum(1 for count in run.paired_messages.values() if count > 1)
    wrong = sum(1 for name, place in run.told.items() if where.get(name) != place)
    tables = len({row.table_code for row in rows})
    times = run.seconds_to_seat
    print(f"people: {args.people} arriving over {arrived:.1f} s on {len(urls)} processes; "
          f"paired {len(run.told)} into {tables} tables; still waiting at the end "
          f"{args.people - len(run.told)}")
    print(f"asking to seated: p50 {1000 * statistics.median(times):.0f} ms, "
          f"p99 {1000 * percentile(times, 0.99):.0f} ms, longest {1000 * max(times):.0f} ms"
          if times else "asking to seated: nobody was seated")
    pairings = max(1, tables)
    print(f"CPU per pairing: web processes {1000 * web / pairings:.1f} ms "
          f"({web:.1f} s over {elapsed:.0f} s), "
          + ", ".join(f"{name} {1000 * cpu / pairings:.1f} ms"
                      for name, cpu in service_cpu.items()))
    print(f"people seated twice: {twice}; told a seat the database does not give them: {wrong}")
    if run.errors:
        print(f"errors: {len(run.errors)}, such as {run.errors[:3]}")
    return 0 if twice == 0 and wrong == 0 else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--people", type=int, default=2000)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--db", required=True, help="a PostgreSQL URL (a fresh database is made)")
    parser.add_argument("--redis", required=True, help="a redis:// URL (emptied first)")
    parser.add_argument("--seed", type=int, default=23)
    args = parser.parse_args()
    if not 2 <= args.people <= 20000 or not 0 < args.seconds <= 600:
        parser.error("keep it bounded: 2..20000 people, at most 600 seconds")
    print(machine(), flush=True)
    lift_open_files()
    import redis

    redis.Redis.from_url(args.redis).flushdb()
    with fresh_database(args.db) as db:
        assert db is not None
        args.db_used = db
        with Servers() as servers:
            urls = []
            for k in range(args.processes):
                # Turns never time out during the run: the tables made wait for their people,
                # and no stand-in's search is counted as the pools' CPU. Everyone joins from
                # loopback, one address: far past the pools' join limit for one.
                urls.append(servers.start(
                    ["--db", db, "--redis", args.redis, "--name", f"pairing{k + 1}",
                     "--turn-timeout", "3600", "--pool-joins", "1000000/minute"]))
                print(f"server: pid {servers.pids[-1]} at {urls[-1]}")
            return uvloop.run(main_async(args, urls, servers.pids))


if __name__ == "__main__":
    sys.exit(main())
