"""Shared by the card-room tests: a real server on a loopback port, and clients that play.

The in-process server is uvicorn on a socket bound to 127.0.0.1 port 0 before it starts, so a
client may connect at once (the kernel queues it until the app is ready): nothing waits on the
clock. Bots pause for 0 seconds. ``subprocess_server`` runs ``scopa serve`` as its own process
for the tests that kill it.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import io
import os
import random
import secrets
import signal
import socket
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
import redis.asyncio as redis
import sqlalchemy as sa
import uvicorn

from scopa.server import Settings, create_app
from scopa.server.client import Lobby, TableConnection
from scopa.server.run import uvicorn_config

TIMEOUT = 30.0
"""Seconds any single wait may take before a test fails (never a pause: an upper bound)."""

REVIEW_TIMEOUT = 180.0
"""Seconds a wait on the master's reviews may take. Reviews run at niceness 19
(``REVIEW_NICENESS``) so that they never slow live play; a process at niceness 19 gets 15/1039
of a core beside each busy one at normal priority, so a review of a short match that takes
0.4 s on a quiet machine (36 moves at 128 guesses each) takes about 30 s while two busy
processes hold both cores, and two reviews in one worker twice that. This is that with room
to spare, and still well under the per-test limit (pyproject's ``timeout``)."""


async def until(check: Callable[[], Awaitable[bool]], what: str) -> None:
    """Ask ``check`` again and again until it is true, failing with ``what`` after TIMEOUT s.

    For a state the servers offer no way to wait on (a table's owner, a Redis list's length):
    each ask is a round trip to them, and the short pause between asks only spares the CPU.
    """
    try:
        async with asyncio.timeout(TIMEOUT):
            while not await check():
                await asyncio.sleep(0.02)
    except TimeoutError:
        raise AssertionError(f"not within {TIMEOUT} s: {what}") from None


@pytest.fixture
def anyio_backend() -> tuple[str, dict[str, Any]]:
    """uvloop, as ``scopa serve`` uses: the plain asyncio loop sometimes holds a message to the
    second of two sockets for ~40 ms when client and server share the loop."""
    return "asyncio", {"use_uvloop": True}


@dataclass
class Server:
    url: str
    app: Any
    settings: Settings

    @property
    def room(self) -> Any:
        return self.app.state.room


def sqlite_url(path: Path) -> str:
    return f"sqlite+aiosqlite:///{path}"


@contextlib.asynccontextmanager
async def running_server(settings: Settings) -> AsyncIterator[Server]:
    """The card room in this event loop, listening on a free loopback port."""
    app = create_app(settings)
    listener = socket.create_server(("127.0.0.1", 0), backlog=1024)
    port = listener.getsockname()[1]
    server = uvicorn.Server(uvicorn_config(app))
    task = asyncio.create_task(server.serve(sockets=[listener]))
    try:
        yield Server(f"http://127.0.0.1:{port}", app, settings)
    finally:
        server.should_exit = True
        try:
            await asyncio.wait_for(asyncio.shield(task), TIMEOUT)
        except TimeoutError:
            stacks = _stacks()
            task.cancel()
            raise AssertionError(
                f"the server did not stop within {TIMEOUT} s; its tasks:\n{stacks}"
            ) from None
        finally:
            listener.close()


def _stacks() -> str:
    """Where each task of this loop is waiting: what a shutdown that hangs is stuck on."""
    out = io.StringIO()
    for each in asyncio.all_tasks():
        each.print_stack(limit=6, file=out)
    return out.getvalue()


def settings_for(tmp_path: Path, **changes: Any) -> Settings:
    """Settings for a test: a SQLite file in ``tmp_path``, bots that play at once, and lobby
    rate limits that one test's many tables from one address stay under."""
    base = Settings(
        db_url=sqlite_url(tmp_path / "room.db"),
        bot_delay=(0.0, 0.0),
        http_writes="1000/second",
        http_reads="1000/second",
    )
    return replace(base, **changes)


@dataclass
class Seated:
    """A person at a table: the seat, its token and the open connection."""

    seat: int
    token: str
    connection: TableConnection


async def seat_people(
    lobby: Lobby, url: str, players: int = 2, **choices: Any
) -> tuple[str, list[Seated]]:
    """A table of ``players`` people, each seated and connected, dealt and ready."""
    created = await lobby.create_table(players=players, name="Ada", **choices)
    code = created["table"]["code"]
    grants = [(created["seat"], created["token"])]
    for k in range(1, players):
        joined = await lobby.join(code, f"Guest {k}")
        grants.append((joined["seat"], joined["token"]))
    people = [
        Seated(seat, token, await TableConnection.open(url, code, token))
        for seat, token in grants
    ]
    await lobby.start(code, grants[0][1])
    for person in people:
        await person.connection.wait_for(lambda m: m["type"] == "state", TIMEOUT)
    return code, people


async def play_randomly(person: Seated, rng: random.Random) -> list[dict[str, Any]]:
    """Play random legal moves for ``person`` until the match is over; returns every message."""
    connection = person.connection
    seen: list[dict[str, Any]] = []
    sent_for = -1
    while connection.over is None:
        if connection.my_turn and connection.version != sent_for:
            assert connection.view is not None and connection.version is not None
            sent_for = connection.version
            await connection.move(rng.choice(connection.view["legal_moves"]))
        seen.append(await connection.recv(TIMEOUT))
    return seen


async def play_moves(
    person: Seated, moves: int, rng: random.Random,
    choose: Callable[[list[str]], str] | None = None,
) -> None:
    """Play ``moves`` legal moves for ``person`` (random, or as ``choose`` picks from the
    legal ones), each on their turn, and return once the last one is stored (its ``state``
    has come back): a match's result counts only once each side has made 2 moves of its own
    (docs/ratings.md), so a test that gives a match up at once plays these first."""
    connection = person.connection
    sent_for = -1
    for _ in range(moves):
        while not (connection.my_turn and connection.version != sent_for):
            assert connection.over is None, "the match ended before these moves"
            await connection.recv(TIMEOUT)
        assert connection.view is not None and connection.version is not None
        sent_for = connection.version
        legal = connection.view["legal_moves"]
        await connection.move(rng.choice(legal) if choose is None else choose(legal))
    await connection.wait_for(
        lambda m: m["type"] == "state" and m["version"] > sent_for, TIMEOUT)


POSTGRES = os.environ.get("SCOPA_TEST_POSTGRES")
NO_POSTGRES = os.environ.get(
    "SCOPA_TEST_POSTGRES_MISSING",
    "no PostgreSQL server: scripts/test.sh starts one and sets SCOPA_TEST_POSTGRES",
)
REDIS = os.environ.get("SCOPA_TEST_REDIS")
NO_REDIS = os.environ.get(
    "SCOPA_TEST_REDIS_MISSING",
    "no Redis server: scripts/test.sh starts one and sets SCOPA_TEST_REDIS",
)


@contextlib.asynccontextmanager
async def fresh_postgres() -> AsyncIterator[str]:
    """A fresh, empty PostgreSQL database, dropped afterwards."""
    if not POSTGRES:
        pytest.skip(NO_POSTGRES)
    import asyncpg  # type: ignore[import-untyped]

    name = f"scopa_test_{secrets.token_hex(6)}"
    admin = await asyncpg.connect(POSTGRES)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield sa.make_url(POSTGRES).set(database=name).render_as_string(hide_password=False)
        finally:
            await admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
    finally:
        await admin.close()


@contextlib.asynccontextmanager
async def fresh_redis() -> AsyncIterator[str]:
    """An empty Redis database (one of the test server's numbered ones), emptied afterwards."""
    if not REDIS:
        pytest.skip(NO_REDIS)
    import redis.asyncio as redis

    with _free_redis_database() as number:
        url = REDIS.rsplit("/", 1)[0] + f"/{number}"
        client = redis.Redis.from_url(url)
        await client.flushdb()
        try:
            yield url
        finally:
            await client.flushdb()
            await client.aclose()


@contextlib.contextmanager
def _free_redis_database() -> Iterator[int]:
    """A database number (1 to 15) that no other test holds, in this run or another one beside
    it (a lock file per number): two tests on one database would empty each other's keys."""
    folder = Path(os.environ.get("TMPDIR", "/tmp"))
    for number in random.sample(range(1, 16), 15):
        with open(folder / f"scopa-test-redis-{number}.lock", "w") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                continue
            yield number
            return
    raise RuntimeError("all 15 of the test Redis server's databases are in use")


@dataclass
class ServerProcess:
    process: subprocess.Popen[str]
    url: str

    def kill(self) -> None:
        """``kill -9``: no shutdown, no flush, nothing but what was already committed."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(TIMEOUT)


def _spawn(db: str, *options: str) -> subprocess.Popen[str]:
    """``scopa serve`` started in its own process on a free loopback port, not yet waited for."""
    command = [sys.executable, "-m", "scopa", "serve", "--port", "0", "--db", db, *options]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen(
        command, stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True, env=env
    )


def _ready(process: subprocess.Popen[str]) -> ServerProcess:
    """The process once it has said where it listens (its first line is the URL)."""
    assert process.stdout is not None
    line = process.stdout.readline()
    assert "card room is open at" in line, f"scopa serve said {line!r}"
    return ServerProcess(process, line.split()[-1])


def _stop(process: subprocess.Popen[str]) -> None:
    """``kill -9``, at once and for certain: a test's server has nothing to flush that the test
    still reads, and a graceful stop only waits (uvicorn's for its sockets, the bots' queue
    for its workers)."""
    if process.poll() is None:
        process.send_signal(signal.SIGKILL)
    process.wait(TIMEOUT)
    if process.stdout is not None:
        process.stdout.close()


@contextlib.contextmanager
def subprocess_server(db: str, *options: str) -> Iterator[ServerProcess]:
    """``scopa serve`` in its own process on a free loopback port; its first line is the URL."""
    process = _spawn(db, *options)
    try:
        yield _ready(process)
    finally:
        _stop(process)


@dataclass
class RoomProcesses:
    """The processes of one room, as deployed: each a ``scopa serve`` on one fresh PostgreSQL
    database and one fresh Redis database, known by the name the test gave it.

    Each process's ``--name`` is that name and a token of this room's own, so a name read back
    (a lease's holder) is never another test's process on the same Redis server;
    :meth:`known_as` gives the test's name back."""

    db: str
    redis: str
    options: tuple[str, ...]
    run: str
    servers: dict[str, ServerProcess]
    stack: contextlib.ExitStack

    def start(self, *names: str, options: Callable[[str], Sequence[str]] | None = None
              ) -> list[ServerProcess]:
        """More processes of the room (a restart after a kill, say), started all at once and
        stopped with the others; ``options`` gives each name's own options, after the room's."""
        spawned = []
        for name in names:
            own = tuple(options(name)) if options is not None else ()
            process = _spawn(self.db, "--redis", self.redis, "--name", f"{name}-{self.run}",
                             *self.options, *own)
            self.stack.callback(_stop, process)
            spawned.append((name, process))
        for name, process in spawned:
            self.servers[name] = _ready(process)
        return [self.servers[name] for name in names]

    def known_as(self, process: str) -> str:
        """The test's name for the process whose ``--name`` is ``process`` (a lease's holder)."""
        return process.removesuffix(f"-{self.run}")

    def stop(self) -> None:
        """Every process killed now, before the room's databases go at its end."""
        self.stack.close()


@contextlib.asynccontextmanager
async def room_processes(
    names: Iterable[str],
    *options: str,
    options_of: Callable[[str], Sequence[str]] | None = None,
) -> AsyncIterator[RoomProcesses]:
    """A fresh PostgreSQL database, a fresh Redis database and a ``scopa serve`` for each name
    on both, with ``options`` (and ``options_of(name)`` after them), all started at once and
    all killed at the end. Skips, saying why, where PostgreSQL or Redis cannot be had."""
    async with fresh_postgres() as db, fresh_redis() as redis_url:
        with contextlib.ExitStack() as stack:
            room = RoomProcesses(db, redis_url, options, secrets.token_hex(3), {}, stack)
            room.start(*names, options=options_of)
            yield room


NGINX = os.environ.get("SCOPA_TEST_NGINX")
NO_NGINX = os.environ.get(
    "SCOPA_TEST_NGINX_MISSING", "no nginx: scripts/test.sh installs it and sets SCOPA_TEST_NGINX"
)
LOCATIONS = Path(__file__).resolve().parents[2] / "deploy" / "nginx" / "scopa-locations.conf"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextlib.contextmanager
def nginx_in_front(urls: list[str], folder: Path) -> Iterator[str]:
    """Debian's nginx on a loopback port in front of the card room processes at ``urls``,
    with the repository's deploy/nginx/scopa-locations.conf; yields its URL once it answers."""
    if not NGINX:
        pytest.skip(NO_NGINX)
    port = free_port()
    upstreams = "\n".join(
        f"        server {url.split('//')[1].rstrip('/')} max_fails=1 fail_timeout=5s;"
        for url in urls
    )
    folder.mkdir(parents=True, exist_ok=True)
    config = folder / "nginx.conf"
    config.write_text(
        f"""{"user root;" if os.geteuid() == 0 else ""}
worker_processes 1;
daemon off;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    upstream scopa {{
{upstreams}
        keepalive 32;
    }}
    upstream scopa_sockets {{
        hash $uri consistent;
{upstreams}
    }}
    server {{
        listen 127.0.0.1:{port};
        include {LOCATIONS};
    }}
}}
"""
    )
    process = subprocess.Popen(
        [NGINX, "-c", str(config), "-p", str(folder), "-e", str(folder / "error.log")],
        stdin=subprocess.DEVNULL,
    )
    try:
        with contextlib.ExitStack() as stack:
            stack.callback(process.wait, TIMEOUT)
            stack.callback(process.send_signal, signal.SIGTERM)
            # nginx says nothing when it is ready: wait (at most TIMEOUT) until it accepts.
            deadline = TIMEOUT
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    if process.poll() is not None or deadline <= 0:
                        raise AssertionError((folder / "error.log").read_text()) from None
                    deadline -= 0.05
                    process_wait(process, 0.05)
            yield f"http://127.0.0.1:{port}"
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(TIMEOUT)


def process_wait(process: subprocess.Popen[Any], seconds: float) -> None:
    """Wait up to ``seconds`` for ``process`` to end (a bounded wait between two tries)."""
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(seconds)


class KeptLoop:
    """One event loop kept open across a property test's examples (a module's fixture outlives
    them, and hypothesis runs each example as a plain call), with, for ``kind`` "redis", a
    client on a fresh database of the test Redis server; "memory" has none."""

    def __init__(self, kind: str) -> None:
        self.runner = asyncio.Runner()
        self._redis: contextlib.AbstractAsyncContextManager[str] | None = None
        self.client: redis.Redis | None = None
        if kind == "redis":
            if not REDIS:
                pytest.skip(NO_REDIS)
            self._redis = fresh_redis()
            url = self.runner.run(self._redis.__aenter__())
            self.client = redis.Redis.from_url(url, decode_responses=True)

    def emptied(self) -> redis.Redis | None:
        """The Redis client with its database emptied, for a new example (None: in memory)."""
        client = self.client
        if client is not None:

            async def empty() -> None:
                await client.flushdb()

            self.runner.run(empty())
        return client

    def run(self, work: Any) -> Any:
        return self.runner.run(work)

    def close(self) -> None:
        if self.client is not None:
            self.runner.run(self.client.aclose())
        if self._redis is not None:
            self.runner.run(self._redis.__aexit__(None, None, None))
        self.runner.close()
