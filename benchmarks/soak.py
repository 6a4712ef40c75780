"""A room that strands no one: a soak of simulated people (issue 35).

Starts two ``scopa serve`` processes sharing a fresh PostgreSQL database and a Redis database
(``harness.Servers``, their output to a log file each), and lets ``--people`` simulated people
use the room for ``--minutes`` through its public interface only, as the browser does: the
lobby's HTTP routes and the WebSockets (``/ws/me``, ``/ws/pools``, ``/ws/tables/CODE``,
``/ws/tournaments/ID``), each person from a loopback address of their own (127.0.1.x), so the
room's limits per address apply to each as to a person at home. Their HTTP requests go to
either process at random (nginx's round robin), a table's sockets to one process by the hash
of its code (nginx's ``hash $uri``). Most people have an account (the session cookie, an
``Origin`` of the site on every write); some are guests.

Each person loops through random flows (docs/protocol.md documents every route and message):
play now against the computer; a pool (taking the computer's offer meanwhile, or paired with
another person); a challenge to another person (who accepts or declines from their ``/ws/me``);
chat at the table; a rematch; leaving a game and coming back (the socket dropped and opened
again with the match and version, or the seat left to a stand-in); puzzles; the daily deal;
a short tournament (an arena of 1 or 2 minutes, or a Swiss of 1 or 2 rounds), played to its
end; deleting the account and making a new one; correspondence seeks, moved on now and then
and resigned. Matches are short (targets of 1 to 3 where the flow may choose; the pools' and
tournaments' are their own), and the people play random legal moves from their view.

Invariants, checked all along, each breach counted and printed with what happened:

- every game asked for is dealt within ``--start-limit`` seconds (10): play now, a rematch, a
  challenge accepted, the daily deal, the computer's table from a pool's offer (counted from
  the offer); a pool that answers ``seated`` to a person who holds no seat in play is a breach;
- no table a person sits at (or a tournament's game) is in play with its version still for
  longer than the turn's clock allows: ``--turn-timeout`` (10 s, passed to the servers) plus
  the bots' pause plus ``--margin`` (10 s). Tables of one person against the computer have no
  clock (docs/protocol.md) and are not watched;
- every tournament made reaches its end (an arena by its end plus the margin, a Swiss within
  4 minutes a round);
- no answer of 500 or more, no ``server_error`` at a table, no socket closed with 1011, and no
  ``Traceback`` in either server's log.

At the end it prints the flows done by kind, the games finished, the times to a dealt game,
the breaches (the goal is 0) with their details, other oddities (refusals no flow expected,
the people's own failures), and each server process's CPU seconds, in all and a minute (from
/proc). It prints the machine, the date and the load average first.

    eval "$(bash scripts/postgres.sh)"; eval "$(bash scripts/redis.sh)"
    .venv/bin/python benchmarks/soak.py                       # 60 people, 20 minutes
    .venv/bin/python benchmarks/soak.py --people 6 --minutes 1 --seed 2      # a tiny run
    .venv/bin/python benchmarks/soak.py --people 6 --minutes 1 \\
        --weights "tournament=5,correspondence=3"     # more of some flows

``--db`` and ``--redis`` default to ``$SCOPA_TEST_POSTGRES`` and ``$SCOPA_TEST_REDIS``, as the
two scripts export them. Of the Redis server, the run takes one of its numbered databases (1 to
15) that no test holds (the tests' lock files), empties it, and empties it again at the end. A
new database is made on the PostgreSQL server and dropped after the run. After ``--minutes`` no
person starts a new flow; those under way finish (an unfinished tournament is played out),
for at most ``--drain`` seconds (300). The servers' logs are kept (``--logs DIR``, else a new
folder in /tmp, printed at the end). The seed draws the people's names and choices; the
timings of two processes sharing a machine make no two runs the same. Ends with status 1 if
any invariant was breached.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import fcntl
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import traceback
import zlib
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
from harness import Servers, lift_open_files, machine  # sibling modules, not a package
from server_load import cpu_seconds, fresh_database
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed
from websockets.typing import Origin

from scopa.server.client import Closed, TableConnection

PASSWORD = "a soak password of the simulated people"
PHRASES = ("good_luck", "well_played", "nice_sweep", "thanks", "good_game")
TEXTS = ("ben giocata!", "bella presa", "¡buena escoba!", "gg", "una scopa, evviva")
WAIT = 30.0
"""The longest the room may take to answer one thing (a welcome, a state) before the person
counts it as not answered."""


class NoAnswer(Exception):
    """The room did not answer in time: a breach, noted by the flow that waited."""


# -- the ledger -------------------------------------------------------------------------------


@dataclass
class Ledger:
    began: float = field(default_factory=time.monotonic)
    flows: Counter[str] = field(default_factory=Counter)
    outcomes: Counter[str] = field(default_factory=Counter)
    finished: set[tuple[str, int]] = field(default_factory=set)
    """(table, match) of every match seen over by a person."""
    starts: dict[str, list[float]] = field(default_factory=dict)
    breaches: list[tuple[str, str]] = field(default_factory=list)
    oddities: list[tuple[str, str]] = field(default_factory=list)
    requests: int = 0
    statuses: Counter[int] = field(default_factory=Counter)

    def at(self) -> str:
        return f"{time.monotonic() - self.began:7.1f}s"

    def breach(self, kind: str, what: str) -> None:
        self.breaches.append((kind, f"{self.at()} {what}"))
        print(f"  BREACH {kind}: {self.at()} {what}", flush=True)

    def odd(self, kind: str, what: str) -> None:
        self.oddities.append((kind, f"{self.at()} {what}"))

    def started(self, kind: str, seconds: float) -> None:
        self.starts.setdefault(kind, []).append(seconds)


# -- the servers ------------------------------------------------------------------------------


class LoggedServers(Servers):
    """harness.Servers whose processes write their stdout and stderr to a log file each, read
    for tracebacks at the end (nothing is left in a pipe to fill)."""

    def __init__(self, folder: Path) -> None:
        super().__init__()
        self.folder = folder
        self.logs: list[Path] = []

    def start(self, arguments: list[str]) -> str:
        log = self.folder / f"server{len(self.logs) + 1}.log"
        self.logs.append(log)
        with log.open("w") as stream:
            process = subprocess.Popen(
                [sys.executable, "-m", "scopa", "serve", "--port", "0", *arguments],
                stdout=stream, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
        self.processes.append(process)
        until = time.monotonic() + 120
        while time.monotonic() < until:
            for line in log.read_text(errors="replace").splitlines():
                if "card room is open at" in line:
                    return line.split()[-1]
            if process.poll() is not None:
                break
            time.sleep(0.1)
        print(f"the server did not start; {log}: {log.read_text()[-2000:]}", file=sys.stderr)
        raise SystemExit(2)

    def __enter__(self) -> LoggedServers:
        return self

    def other_lines(self) -> list[str]:
        """What the processes logged besides their opening line and tracebacks' insides:
        warnings and errors worth a look, even when no traceback came with them."""
        found = []
        for log in self.logs:
            for line in log.read_text(errors="replace").splitlines():
                if "card room is open at" not in line and not line.startswith((" ", "\t")):
                    found.append(f"{log.name}: {line}")
        return found

    def tracebacks(self) -> list[tuple[Path, str]]:
        """Each traceback logged, with the lines around it."""
        found = []
        for log in self.logs:
            lines = log.read_text(errors="replace").splitlines()
            for number, line in enumerate(lines):
                if "Traceback" in line:
                    found.append((log, "\n".join(lines[max(0, number - 2):number + 25])))
        return found


@contextlib.contextmanager
def redis_database(url: str) -> Iterator[str]:
    """One of the Redis server's numbered databases (1 to 15) that no test holds (the tests'
    lock files, tests/room/server_support.py), emptied before and after the run."""
    import redis

    folder = Path(os.environ.get("TMPDIR", "/tmp"))
    for number in random.sample(range(1, 16), 15):
        with open(folder / f"scopa-test-redis-{number}.lock", "w") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                continue
            chosen = url.rsplit("/", 1)[0] + f"/{number}" if url.count("/") > 2 else (
                url.rstrip("/") + f"/{number}")
            client = redis.Redis.from_url(chosen)
            client.flushdb()
            try:
                yield chosen
            finally:
                client.flushdb()
                client.close()
            return
    raise SystemExit("all 15 of the Redis server's numbered databases are held by tests")


# -- the room as the people reach it ----------------------------------------------------------


def ws(url: str) -> str:
    return url.replace("https://", "wss://", 1).replace("http://", "ws://", 1)


@dataclass
class Tournament:
    id: int
    kind: str
    starts_at: datetime
    deadline: float
    """time.monotonic() by which it must have ended."""
    ends_at: datetime | None = None
    finished: bool = False
    breached: bool = False


@dataclass
class Watched:
    code: str
    what: str
    match: int | None = None
    version: int | None = None
    since: float = field(default_factory=time.monotonic)
    polled: float = 0.0
    breached: tuple[int | None, int | None] | None = None


class Room:
    """What the people share: the servers' URLs, the ledger, who is in the room, the tables
    watched and the tournaments made."""

    def __init__(self, args: argparse.Namespace, urls: list[str]) -> None:
        self.args = args
        self.urls = urls
        self.ledger = Ledger()
        self.people: list[Person] = []
        self.watched: dict[str, Watched] = {}
        self.tournaments: dict[int, Tournament] = {}
        self.stop = asyncio.Event()
        self.still_limit = args.turn_timeout + args.bot_delay + args.margin
        self.watchers = [
            httpx.AsyncClient(transport=httpx.AsyncHTTPTransport(local_address=f"127.0.0.{k}"),
                              timeout=WAIT)
            for k in range(2, 10)
        ]
        self.turn = 0

    def table_url(self, code: str) -> str:
        """The process a table's sockets reach, by the hash of its code (nginx's ``hash``)."""
        return self.urls[zlib.crc32(code.upper().encode()) % len(self.urls)]

    def watch(self, code: str, what: str) -> None:
        if code not in self.watched:
            self.watched[code] = Watched(code, what)

    async def look(self, path: str) -> Any:
        """A GET by the watchers (addresses of their own, in turn), not the people's."""
        self.turn += 1
        client = self.watchers[self.turn % len(self.watchers)]
        url = self.urls[self.turn % len(self.urls)]
        answer = await client.get(url + path)
        self.ledger.requests += 1
        self.ledger.statuses[answer.status_code] += 1
        if answer.status_code >= 500:
            self.ledger.breach("5xx", f"watcher GET {path} -> {answer.status_code} "
                               f"{answer.text[:300]}")
            return None
        if answer.status_code != 200:
            return None
        return answer.json()

    async def watch_tables(self) -> None:
        """Every few seconds, each watched table's version: one that stays in play without a
        move for longer than its clock allows is a breach (once per version)."""
        while True:
            try:
                await self.look_at_tables()
            except Exception as error:  # the watch goes on, whatever one look met
                self.ledger.odd("watcher", f"the tables' watch: {error!r}")
            await asyncio.sleep(1.0)

    async def look_at_tables(self) -> None:
        now = time.monotonic()
        for item in list(self.watched.values()):
            if now - item.polled < 4.0:
                continue
            item.polled = now
            try:
                table = await self.look(f"/api/tables/{item.code}")
            except httpx.HTTPError as error:
                self.ledger.odd("watcher", f"GET /api/tables/{item.code}: {error!r}")
                continue
            if table is None:
                continue
            if table["status"] != "playing":
                self.watched.pop(item.code, None)
                continue
            if table.get("pace") == "correspondence":
                self.watched.pop(item.code, None)
                continue
            humans = [s for s in table["seats"] if s["kind"] == "human"]
            if len(humans) < 2:  # one person against the computer: no clock runs
                self.watched.pop(item.code, None)
                continue
            seen = (table["match"], table["version"])
            if seen != (item.match, item.version):
                item.match, item.version, item.since = seen[0], seen[1], time.monotonic()
                continue
            still = time.monotonic() - item.since
            if still > self.still_limit and item.breached != seen:
                item.breached = seen
                seats = ", ".join(
                    f"seat {s['seat']} {s['kind']} {s['name']!r} "
                    f"connected={s['connected']} stand_in={s['stand_in']}"
                    for s in table["seats"])
                self.ledger.breach(
                    "still table",
                    f"{item.code} ({item.what}) in play at match {seen[0]} version "
                    f"{seen[1]} with no move for {still:.0f} s (limit "
                    f"{self.still_limit:.0f} s); {seats}; continuing="
                    f"{table.get('continuing')}")

    async def watch_tournaments(self) -> None:
        """Each tournament made: its live games' tables are watched, and it must end by its
        deadline."""
        while True:
            try:
                await self.look_at_tournaments()
            except Exception as error:  # the watch goes on, whatever one look met
                self.ledger.odd("watcher", f"the tournaments' watch: {error!r}")
            await asyncio.sleep(3.0)

    async def look_at_tournaments(self) -> None:
        for item in list(self.tournaments.values()):
            if item.finished:
                continue
            try:
                seen = await self.look(f"/api/tournaments/{item.id}")
            except httpx.HTTPError as error:
                self.ledger.odd("watcher", f"GET /api/tournaments/{item.id}: {error!r}")
                continue
            if seen is None:
                continue
            for game in seen["games"]:
                if game.get("live") and game.get("table"):
                    self.watch(game["table"], f"tournament {item.id}'s game")
            if seen["status"] == "finished":
                item.finished = True
            elif time.monotonic() > item.deadline and not item.breached:
                item.breached = True
                live = [g["table"] for g in seen["games"] if g.get("live")]
                self.ledger.breach(
                    "tournament", f"{item.kind} {item.id} (starts {item.starts_at:%H:%M:%S}, "
                    f"ends {seen.get('ends_at')}) is still {seen['status']} past its "
                    f"deadline: round {seen['round']}, {seen['players']} players, games "
                    f"live at {live}")


# -- a person ---------------------------------------------------------------------------------


class Person:
    """One simulated person: their address, account (or none), HTTP client with its cookies,
    their ``/ws/me`` and what it brought."""

    def __init__(self, room: Room, number: int, rng: random.Random) -> None:
        self.room = room
        self.ledger = room.ledger
        self.number = number
        self.rng = rng
        self.address = f"127.0.{1 + number // 250}.{1 + number % 250}"
        self.http = httpx.AsyncClient(
            transport=httpx.AsyncHTTPTransport(local_address=self.address), timeout=WAIT)
        self.generation = 0
        self.account: str | None = None
        self.guest_key = f"{rng.getrandbits(128):032x}"
        self.name = f"guest{number}x{rng.randrange(16**4):04x}"
        self.me: ClientConnection | None = None
        self.me_task: asyncio.Task[None] | None = None
        self.deleting = False
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.answers: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.idle = False
        self.flow = "start"
        self.correspondence_offer: str | None = None
        self.correspondence_tables: set[str] = set()
        self.history: dict[str, str] = {}
        self.last_paired: tuple[float, str] | None = None
        """Table code -> what this person last did there (for a breach's details)."""

    # HTTP, as the browser sends it: to either process, with the cookie and an Origin

    async def call(self, method: str, path: str, body: Any = None,
                   params: dict[str, Any] | None = None) -> tuple[int, Any]:
        url = self.rng.choice(self.room.urls)
        headers = {"Origin": url} if method != "GET" else {}
        try:
            answer = await self.http.request(method, url + path, json=body, params=params,
                                             headers=headers)
        except httpx.HTTPError as error:
            self.ledger.breach("no answer", f"{self.flow}: {self.who} {method} {path}: "
                               f"{error!r}")
            raise NoAnswer(f"{method} {path}") from error
        self.ledger.requests += 1
        self.ledger.statuses[answer.status_code] += 1
        try:
            data = answer.json() if answer.content else None
        except ValueError:
            data = answer.text
        if answer.status_code >= 500:
            self.ledger.breach("5xx", f"{self.flow}: {self.who} {method} {path} "
                               f"{json.dumps(body)[:200]} -> {answer.status_code} "
                               f"{answer.text[:300]}")
        elif answer.status_code == 429:
            self.ledger.odd("429", f"{self.flow}: {self.who} {method} {path}: {data}")
        return answer.status_code, data

    def refused(self, what: str, status: int, data: Any) -> None:
        """A refusal the flow did not expect: an oddity (a 5xx is a breach already)."""
        if status < 500:
            self.ledger.odd("refusal", f"{self.flow}: {self.who} {what} -> {status} {data}")

    @property
    def who(self) -> str:
        return f"{self.name} ({'account' if self.account else 'guest'}, {self.address})"

    @property
    def cookie(self) -> str | None:
        cookies = "; ".join(f"{c.name}={c.value}" for c in self.http.cookies.jar)
        return cookies or None

    async def open_socket(self, url: str) -> ClientConnection:
        """A WebSocket from this person's address, with their cookie and the site's Origin."""
        headers = {"Cookie": self.cookie} if self.cookie else None
        parts = urlsplit(url)
        try:
            return await connect(ws(url), open_timeout=WAIT, local_addr=(self.address, 0),
                                 additional_headers=headers,
                                 origin=Origin(f"{parts.scheme}://{parts.netloc}"),
                                 ping_interval=None, max_size=2**22)
        except (OSError, TimeoutError) as error:
            self.ledger.breach("no answer", f"{self.flow}: {self.who} cannot open {url}: "
                               f"{error!r}")
            raise NoAnswer(url) from error

    # the account and /ws/me

    async def register(self) -> bool:
        self.generation += 1
        name = f"P{self.number:03d}g{self.generation}{self.rng.randrange(16**4):04x}"
        status, data = await self.call("POST", "/api/account/register",
                                       {"name": name, "password": PASSWORD})
        if status != 201:
            self.refused("register", status, data)
            return False
        self.account = self.name = name
        await self.open_me()
        return True

    async def open_me(self) -> None:
        url = self.rng.choice(self.room.urls)
        self.me = await self.open_socket(url + "/ws/me")
        self.me_task = asyncio.create_task(self.read_me(self.me))

    async def read_me(self, socket: ClientConnection) -> None:
        try:
            async for text in socket:
                message = json.loads(text)
                kind = message.get("type")
                if kind == "challenge" and message.get("to") == self.account:
                    message["heard"] = time.monotonic()
                    await self.inbox.put(message)
                elif kind == "challenge_answer":
                    waiting = self.answers.get(message["id"])
                    if waiting is not None and not waiting.done():
                        waiting.set_result(message)
        except ConnectionClosed:
            pass
        code, reason = socket.close_code, socket.close_reason
        if code == 1011:
            self.ledger.breach("1011", f"{self.who}'s /ws/me closed with 1011 {reason}")
        elif not self.deleting and not self.room.stop.is_set() and self.me is socket:
            self.ledger.odd("me closed", f"{self.who}'s /ws/me closed: {code} {reason}")
            with contextlib.suppress(NoAnswer):
                await self.open_me()

    async def close_me(self) -> None:
        socket, self.me = self.me, None
        if socket is not None:
            await socket.close()
        if self.me_task is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(self.me_task, 5)

    # a table

    async def sit(self, code: str, token: str, match: int | None = None,
                  version: int | None = None) -> TableConnection:
        url = self.room.table_url(code)
        socket = await self.open_socket(f"{url}/ws/tables/{code}")
        connection = TableConnection(socket)
        await connection.send({"type": "hello", "token": token, "match": match,
                               "version": version})
        try:
            await connection.wait_for(lambda m: m["type"] == "welcome", WAIT)
        except TimeoutError:
            self.ledger.breach("no answer", f"{self.flow}: {self.who} no welcome at {code} in "
                               f"{WAIT:.0f} s")
            await connection.close()
            raise NoAnswer(code) from None
        return connection

    async def play(self, code: str, token: str, asked: float | None = None,
                   start_kind: str | None = None, resign_after: int | None = None,
                   chat: int = 0, away: bool = False, leave: bool = False,
                   watch: str | None = None) -> dict[str, Any] | None:
        """Play this seat at ``code`` with random legal moves until its match is over; the
        ``over`` message, or None when it was given up (``resign_after`` moves, ``leave``: the
        seat left to a stand-in). ``asked``: when the game was asked for, to time the deal.
        ``away``: drop the socket once in the match, and come back a little later with the
        match and version. ``chat``: messages to say at the table."""
        self.history[code] = f"{self.flow}: sat down"
        try:
            over = await self._play(code, token, asked, start_kind, resign_after, chat, away,
                                    leave, watch)
        except BaseException as error:
            self.history[code] = f"{self.flow}: stopped playing ({error!r})"
            raise
        if over is not None:
            self.history[code] = f"{self.flow}: played its match {over['match']} to the end"
            if self.rng.random() < 0.3:  # the match's page: its record and replay
                await self.look_back(over)
        elif self.history[code].endswith("sat down"):
            self.history[code] = f"{self.flow}: stopped playing, the match not over"
        return over

    async def _play(self, code: str, token: str, asked: float | None,
                    start_kind: str | None, resign_after: int | None, chat: int, away: bool,
                    leave: bool, watch: str | None) -> dict[str, Any] | None:
        if watch:
            self.room.watch(code, watch)
        connection = await self.sit(code, token)
        moves = 0
        drop_at = self.rng.randint(1, 12) if away else None
        leave_at = self.rng.randint(1, 8) if leave else None
        timed = asked is None
        try:
            while True:
                try:
                    message = await connection.recv(self.room.still_limit + WAIT)
                except TimeoutError:
                    self.ledger.breach(
                        "no answer", f"{self.flow}: {self.who} heard nothing at {code} for "
                        f"{self.room.still_limit + WAIT:.0f} s (match {connection.match} version "
                        f"{connection.version}, my turn {connection.my_turn})")
                    return None
                except Closed as closed:
                    if closed.code == 1012:  # the table moved: connect again, as documented
                        self.ledger.outcomes["reconnected after 1012"] += 1
                        connection = await self.sit(code, token, connection.match,
                                                    connection.version)
                        continue
                    if closed.code == 1011:
                        self.ledger.breach("1011", f"{self.flow}: {self.who} at {code}: "
                                           f"{closed}")
                    else:
                        self.ledger.odd("table closed", f"{self.flow}: {self.who} at {code}: "
                                        f"{closed} (match {connection.match} version "
                                        f"{connection.version})")
                    return None
                kind = message["type"]
                if kind == "table" and watch is None:
                    humans = [s for s in message["table"]["seats"] if s["kind"] == "human"]
                    if len(humans) >= 2 and message["table"].get("pace") != "correspondence":
                        watch = "two people's table"
                        self.room.watch(code, watch)
                elif kind == "error":
                    if message["code"] == "server_error":
                        self.ledger.breach("server_error", f"{self.flow}: {self.who} at {code}: "
                                           f"{message}")
                    elif message["code"] not in ("stale_version", "not_your_turn",
                                                  "phrases_only", "chat_too_fast", "no_match"):
                        self.ledger.odd("table error", f"{self.flow}: {self.who} at {code}: "
                                        f"{message}")
                elif kind == "over":
                    self.ledger.finished.add((code, message["match"]))
                    return message
                elif kind == "state":
                    if not timed and asked is not None and start_kind is not None:
                        timed = True
                        self.dealt(start_kind, asked, code)
                    if chat and self.rng.random() < 0.3:
                        chat -= 1
                        await self.say(connection)
                    view = connection.view
                    assert view is not None
                    if view["winner"] is not None or view.get("resigned") is not None:
                        continue  # the ``over`` follows
                    if resign_after is not None and moves >= resign_after:
                        await connection.resign()
                        self.ledger.outcomes["resigned"] += 1
                        self.history[code] = f"{self.flow}: resigned after {moves} moves"
                        await self.read_until_over(connection, code)
                        return None
                    if leave_at is not None and moves >= leave_at:
                        status, data = await self.call("POST", f"/api/tables/{code}/leave",
                                                       {"token": token})
                        if status != 200:
                            self.refused(f"leave {code}", status, data)
                        self.ledger.outcomes["left to a stand-in"] += 1
                        self.history[code] = (f"{self.flow}: left the seat to a stand-in "
                                              f"({status})")
                        return None
                    if drop_at is not None and moves >= drop_at:
                        drop_at = None
                        match, version = connection.match, connection.version
                        await connection.close()
                        away_for = 1.5 * self.room.args.turn_timeout
                        await asyncio.sleep(self.rng.uniform(0.5, away_for))
                        connection = await self.sit(code, token, match, version)
                        self.ledger.outcomes["came back"] += 1
                        continue
                    if connection.my_turn and view["legal_moves"]:
                        await asyncio.sleep(self.rng.uniform(0.3, 1.7) * self.room.args.think)
                        await connection.move(self.rng.choice(view["legal_moves"]))
                        moves += 1
        finally:
            await connection.close()

    async def look_back(self, over: dict[str, Any]) -> None:
        """Read a finished match as its page does: the record, the replay, a profile."""
        status, data = await self.call("GET", over["record"])
        if status not in (200, 403):  # 403: a daily deal's, until the day is over
            self.refused(f"GET {over['record']}", status, data)
        status, data = await self.call("GET", f"/api/replays/{over['match']}")
        if status not in (200, 403):
            self.refused(f"GET /api/replays/{over['match']}", status, data)
        if self.account:
            status, data = await self.call("GET", f"/api/profiles/{self.account}")
            if status != 200:
                self.refused("my profile", status, data)
        self.ledger.outcomes["a finished match looked at"] += 1

    async def read_until_over(self, connection: TableConnection, code: str) -> None:
        with contextlib.suppress(TimeoutError, Closed):
            message = await connection.wait_for(lambda m: m["type"] in ("over", "error"), WAIT)
            if message["type"] == "over":
                self.ledger.finished.add((code, message["match"]))

    async def say(self, connection: TableConnection) -> None:
        if self.account and self.rng.random() < 0.4:
            await connection.say(text=self.rng.choice(TEXTS))
        else:
            await connection.say(phrase=self.rng.choice(PHRASES))
        self.ledger.outcomes["said"] += 1

    def dealt(self, kind: str, asked: float, code: str) -> None:
        seconds = time.monotonic() - asked
        self.ledger.started(kind, seconds)
        if seconds > self.room.args.start_limit:
            self.ledger.breach("slow start", f"{self.flow}: {self.who} waited {seconds:.1f} s for "
                               f"{kind}'s game at {code} to be dealt")

    # the flows

    async def play_now(self, chat: int = 0, away: bool = False, leave: bool = False) -> None:
        asked = time.monotonic()
        level = self.rng.choice(("random", "random", "greedy", "expert"))
        choices = {"name": self.name, "level": level,
                   "preset": self.rng.choice(("scopa", "scopa", "escoba")),
                   "target": self.rng.randint(1, 3)}
        status, grant = await self.call("POST", "/api/play", choices)
        if status != 201:
            self.refused(f"POST /api/play {choices}", status, grant)
            return
        resign = self.rng.randint(2, 20) if self.rng.random() < 0.3 else None
        await self.play(grant["table"]["code"], grant["token"], asked, "play now", resign,
                        chat=chat, away=away, leave=leave)

    async def rematch(self) -> None:
        asked = time.monotonic()
        status, grant = await self.call("POST", "/api/play", {
            "name": self.name, "level": "random", "target": self.rng.randint(1, 3)})
        if status != 201:
            self.refused("POST /api/play", status, grant)
            return
        code, token = grant["table"]["code"], grant["token"]
        over = await self.play(code, token, asked, "play now")
        if over is None:
            return
        for _ in range(self.rng.randint(1, 2)):
            asked = time.monotonic()
            status, table = await self.call("POST", f"/api/tables/{code}/rematch",
                                            {"token": token})
            if status != 200:
                self.refused(f"rematch {code}", status, table)
                return
            self.ledger.outcomes["rematched"] += 1
            resign = self.rng.randint(2, 15) if self.rng.random() < 0.5 else None
            over = await self.play(code, token, asked, "rematch", resign)
            if over is None:
                return

    async def pool(self, away: bool = False) -> None:
        url = self.rng.choice(self.room.urls)
        socket = await self.open_socket(url + "/ws/pools")
        asked = time.monotonic()
        offered: float | None = None
        take_offer = self.rng.random() < 0.8
        bot: dict[str, Any] | None = None
        name = self.rng.choice(("scopa", "scopa", "escoba"))
        try:
            await socket.send(json.dumps({"type": "join", "pool": name, "rated": False,
                                          "name": self.name, "guest": self.guest_key}))
            until = time.monotonic() + self.room.args.pool_offer + 25
            while True:
                left = until - time.monotonic()
                if left <= 0:
                    await socket.send(json.dumps({"type": "leave"}))
                    self.ledger.outcomes["left the pool unpaired"] += 1
                    return
                try:
                    async with asyncio.timeout(left):
                        message = json.loads(await socket.recv())
                except TimeoutError:
                    continue
                except ConnectionClosed:
                    self.ledger.odd("pool closed", f"{self.who}: {socket.close_code} "
                                    f"{socket.close_reason}")
                    return
                kind = message["type"]
                if kind == "error":
                    await self.pool_refused(message, f"{self.flow}: {self.who} asked the "
                                            f"{name} pool for a game")
                    if message["code"] != "paired":
                        return
                elif kind == "offer" and take_offer and bot is None:
                    offered = time.monotonic()
                    await socket.send(json.dumps({"type": "play_bot"}))
                elif kind == "bot_table":
                    bot = message
                    await socket.send(json.dumps({"type": "leave"}))
                elif kind == "left" and bot is not None:
                    await socket.close()
                    assert offered is not None
                    self.ledger.outcomes["pool: the computer's table"] += 1
                    await self.play(bot["code"], bot["token"], offered, "pool's computer",
                                    self.rng.randint(3, 30))
                    return
                elif kind == "paired":
                    await socket.close()
                    if bot is not None:  # paired while the computer's table was made
                        with contextlib.suppress(Closed, NoAnswer):
                            resigning = await self.sit(bot["code"], bot["token"])
                            await resigning.resign()
                            await self.read_until_over(resigning, bot["code"])
                            await resigning.close()
                    self.ledger.outcomes["pool: paired with a person"] += 1
                    self.last_paired = (time.monotonic(), message["code"])
                    self.ledger.started("pool paired (wait)", time.monotonic() - asked)
                    resign = self.rng.randint(4, 40) if self.rng.random() < 0.4 else None
                    await self.play(message["code"], message["token"], resign_after=resign,
                                    away=away, watch="a pool's table")
                    return
        finally:
            await socket.close()

    def others_online(self) -> list[Person]:
        return [p for p in self.room.people
                if p is not self and p.account and p.me is not None and not p.deleting]

    async def challenge(self, away: bool = False) -> None:
        others = self.others_online()
        if not others or not self.account:
            self.ledger.outcomes["challenge: nobody online"] += 1
            return
        idle = [p for p in others if p.idle]
        them = self.rng.choice(idle or others)
        assert them.account is not None
        if self.rng.random() < 0.5:
            status, data = await self.call("POST", "/api/friends/follow", {"name": them.account})
            if status not in (200, 404):
                self.refused("follow", status, data)
            await self.call("GET", "/api/friends")
        choices = {"name": them.account, "preset": self.rng.choice(("scopa", "escoba")),
                   "target": self.rng.randint(1, 3), "rated": False}
        status, made = await self.call("POST", "/api/challenges", choices)
        if status != 201:
            if status not in (404, 409, 403):
                self.refused(f"challenge {choices}", status, made)
            self.ledger.outcomes[f"challenge refused {status}"] += 1
            return
        waiting: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.answers[made["id"]] = waiting
        try:
            answer = await asyncio.wait_for(waiting, 75)
        except TimeoutError:
            self.ledger.odd("challenge", f"{self.who}: no answer to challenge {made['id']} to "
                            f"{them.who} in 75 s (it waits 60)")
            return
        finally:
            self.answers.pop(made["id"], None)
        self.ledger.outcomes[f"challenge {answer['state']}"] += 1
        if answer["state"] == "accepted":
            resign = self.rng.randint(3, 30) if self.rng.random() < 0.3 else None
            await self.play(answer["table"], answer["token"], resign_after=resign, away=away,
                            watch="a challenge's table", chat=1)

    async def answer_challenges(self) -> None:
        while not self.inbox.empty():
            offer = self.inbox.get_nowait()
            left = offer.get("expires_in", 0) - (time.monotonic() - offer["heard"])
            if left < 3 or not self.account:
                continue
            if self.rng.random() < 0.2:
                status, data = await self.call("POST", f"/api/challenges/{offer['id']}/decline")
                if status not in (204, 410, 404):
                    self.refused("decline", status, data)
                continue
            self.flow = "challenged"
            self.ledger.flows["challenged (accepted)"] += 1
            asked = time.monotonic()
            status, grant = await self.call("POST", f"/api/challenges/{offer['id']}/accept")
            if status != 200 and status != 201:
                if status != 410:
                    self.refused("accept", status, grant)
                continue
            await self.play(grant["table"]["code"], grant["token"], asked, "challenge accepted",
                            watch="a challenge's table", chat=1)

    async def puzzles(self) -> None:
        preset = self.rng.choice(("scopa", "escoba"))
        path = f"/api/puzzles/{preset}/" + ("daily" if self.rng.random() < 0.3 else "next")
        status, puzzle = await self.call("GET", path, params={"near": "true"}
                                         if path.endswith("next") else None)
        if status != 200:
            self.refused(f"GET {path}", status, puzzle)
            return
        for _ in range(self.rng.randint(1, 3)):
            move = self.rng.choice(puzzle["legal_moves"])
            status, tried = await self.call("POST", f"/api/puzzles/{preset}/{puzzle['id']}/try",
                                            {"move": move})
            if status != 200:
                self.refused(f"try {puzzle['id']}", status, tried)
                return
            self.ledger.outcomes[f"puzzle {'right' if tried['right'] else 'wrong'}"] += 1
            status, puzzle = await self.call("GET", f"/api/puzzles/{preset}/next",
                                             params={"after": puzzle["id"]})
            if status != 200:
                self.refused("next puzzle", status, puzzle)
                return
        if self.account:
            status, mine = await self.call("GET", f"/api/puzzles/{preset}/mine")
            if status != 200:
                self.refused("mine", status, mine)

    async def daily(self) -> None:
        status, today = await self.call("GET", "/api/daily")
        if status != 200:
            self.refused("GET /api/daily", status, today)
            return
        asked = time.monotonic()
        status, grant = await self.call("POST", "/api/daily/play", {"name": self.name})
        if status == 409:
            self.ledger.outcomes["daily: played today already"] += 1
            return
        if status != 201:
            self.refused("POST /api/daily/play", status, grant)
            return
        code, token = grant["table"]["code"], grant["token"]
        # The master plays the other seat: a few moves, then most give up (its CPU is dear).
        resign = self.rng.randint(2, 8) if self.rng.random() < 0.8 else None
        await self.play(code, token, asked, "daily deal", resign)
        proof = {} if self.account else {"table": code, "token": token}
        status, compared = await self.call("POST", "/api/daily/comparison", proof)
        if status not in (200, 409):
            self.refused("comparison", status, compared)

    async def tournament(self) -> None:
        if not self.account:
            return
        now = datetime.now(UTC)
        moment = time.monotonic()
        joinable = [t for t in self.room.tournaments.values() if not t.finished and (
            (t.kind == "swiss" and t.starts_at - now > timedelta(seconds=3))
            or (t.kind == "arena" and t.ends_at is not None
                and t.ends_at - now > timedelta(seconds=20)))]
        if joinable and self.rng.random() < 0.8:
            chosen = self.rng.choice(joinable)
            status, data = await self.call("POST", f"/api/tournaments/{chosen.id}/join")
            if status != 200:
                self.refused(f"join tournament {chosen.id}", status, data)
                return
            self.ledger.outcomes["tournament joined"] += 1
        else:
            kind = self.rng.choice(("arena", "swiss"))
            starts = now + timedelta(seconds=self.rng.uniform(15, 30))
            body: dict[str, Any] = {"name": f"Soak {kind} {self.name}", "kind": kind,
                                    "preset": "scopa", "starts_at": starts.isoformat()}
            if kind == "arena":
                body["minutes"] = self.rng.randint(1, 2)
            else:
                body["rounds"] = self.rng.randint(1, 2)
            status, made = await self.call("POST", "/api/tournaments", body)
            if status != 201:
                self.refused(f"make tournament {body}", status, made)
                return
            ends = datetime.fromisoformat(made["ends_at"]) if made.get("ends_at") else None
            length = (ends - now).total_seconds() + self.room.args.margin if ends else (
                (starts - now).total_seconds() + 240 * body["rounds"])
            chosen = Tournament(made["id"], kind, starts, moment + length, ends)
            self.room.tournaments[chosen.id] = chosen
            self.ledger.outcomes[f"tournament made: {kind}"] += 1
            status, data = await self.call("POST", f"/api/tournaments/{chosen.id}/join")
            if status != 200:
                self.refused(f"join my tournament {chosen.id}", status, data)
                return
            if self.rng.random() < 0.3:  # its maker starts it early, now and then
                status, data = await self.call("POST", f"/api/tournaments/{chosen.id}/start")
                if status not in (200, 409):
                    self.refused("start tournament", status, data)
        await self.play_tournament(chosen)

    async def play_tournament(self, chosen: Tournament) -> None:
        """Play each game the tournament pairs this person in, until it is finished (heard on
        its socket, and asked now and then, as the page does)."""
        url = self.rng.choice(self.room.urls)
        feed = await self.open_socket(f"{url}/ws/tournaments/{chosen.id}")
        played: set[str] = set()
        quit_at = chosen.deadline + 120
        try:
            while time.monotonic() < quit_at:
                table: tuple[str, str] | None = None
                try:
                    async with asyncio.timeout(3.0):
                        message = json.loads(await feed.recv())
                    if message["type"] == "paired":
                        table = (message["table"], message["token"])
                    elif message["type"] == "tournament" and \
                            message["tournament"]["status"] == "finished":
                        status, view = await self.call("GET", f"/api/tournaments/{chosen.id}")
                        if status == 200 and view["me"]["table"] is None:
                            self.ledger.outcomes["tournament played to its end"] += 1
                            return
                except TimeoutError:
                    pass
                except ConnectionClosed:
                    self.ledger.odd("tournament feed", f"{self.who}: closed {feed.close_code} "
                                    f"{feed.close_reason}")
                    feed = await self.open_socket(f"{url}/ws/tournaments/{chosen.id}")
                if table is None:
                    status, view = await self.call("GET", f"/api/tournaments/{chosen.id}")
                    if status != 200:
                        continue
                    me = view["me"]
                    if me["table"] and me["table"] not in played:
                        table = (me["table"], me["token"])
                    elif view["status"] == "finished" and me["table"] is None:
                        self.ledger.outcomes["tournament played to its end"] += 1
                        return
                if table is not None and table[0] not in played:
                    played.add(table[0])
                    self.ledger.outcomes["tournament game"] += 1
                    resign = self.rng.randint(5, 40) if self.rng.random() < 0.3 else None
                    await self.play(table[0], table[1], resign_after=resign,
                                    watch=f"tournament {chosen.id}'s game")
            self.ledger.odd("tournament", f"{self.who} gave up waiting for tournament "
                            f"{chosen.id} to end")
        finally:
            await feed.close()

    async def delete_and_again(self) -> None:
        if not self.account:
            await self.register()
            return
        self.deleting = True
        me = self.me
        status, data = await self.call("DELETE", "/api/account", {"password": PASSWORD})
        if status != 204:
            self.refused("DELETE /api/account", status, data)
            self.deleting = False
            return
        if me is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(me.wait_closed(), 10)
            if me.close_code != 1008:
                self.ledger.odd("deletion", f"{self.who}'s /ws/me after the deletion: "
                                f"{me.close_code} {me.close_reason}")
        await self.close_me()
        self.account = None
        self.http.cookies.clear()
        self.deleting = False
        self.ledger.outcomes["account deleted"] += 1
        await self.register()

    async def correspondence(self) -> None:
        if not self.account:
            return
        status, mine = await self.call("GET", "/api/correspondence")
        if status != 200:
            self.refused("GET /api/correspondence", status, mine)
            return
        games = [g for g in mine["games"] if g["status"] == "playing"]
        self.correspondence_tables = {g["table"] for g in games}
        waiting = [o["id"] for o in mine["offers"]
                   if o.get("by") == self.account and o.get("state") == "open"]
        self.correspondence_offer = waiting[0] if waiting else None
        for game in games:
            if game["your_turn"] or self.rng.random() < 0.5:
                resign = 0 if self.rng.random() < 0.4 else None
                await self.move_by_post(game["table"], resign)
        if len(games) < 2 and self.correspondence_offer is None:
            status, made = await self.call("POST", "/api/correspondence/offers", {
                "kind": "seek", "preset": "scopa", "days": 1, "rated": False})
            if status != 201:
                if status != 409:
                    self.refused("seek", status, made)
                return
            if made["grant"] is not None:
                self.ledger.outcomes["correspondence paired"] += 1
                await self.move_by_post(made["grant"]["table"]["code"], None,
                                        made["grant"]["token"])
            else:
                self.correspondence_offer = made["offer"]["id"]
                self.ledger.outcomes["correspondence seek waits"] += 1

    async def move_by_post(self, code: str, resign: int | None, token: str | None = None
                           ) -> None:
        """One correspondence move (or a resignation), on the table's socket."""
        if token is None:
            status, seats = await self.call("GET", "/api/account/seats")
            if status != 200:
                return
            token = next((s["token"] for s in seats if s["code"] == code), None)
            if token is None:
                self.ledger.odd("seats", f"{self.who}: correspondence table {code} not in "
                                f"/api/account/seats")
                return
        connection = await self.sit(code, token)
        try:
            await connection.wait_for(lambda m: m["type"] == "state", WAIT)
            self.history[code] = f"{self.flow}: a correspondence match of theirs"
            if resign is not None:
                await connection.resign()
                await self.read_until_over(connection, code)
                self.history[code] = f"{self.flow}: resigned their correspondence match"
                self.ledger.outcomes["correspondence resigned"] += 1
            elif connection.my_turn and connection.view and connection.view["legal_moves"]:
                await connection.move(self.rng.choice(connection.view["legal_moves"]))
                await connection.wait_for(lambda m: m["type"] in ("state", "error"), WAIT)
                self.ledger.outcomes["correspondence move"] += 1
        except TimeoutError:
            self.ledger.breach("no answer", f"{self.flow}: {self.who} at correspondence table "
                               f"{code}: no state in {WAIT:.0f} s")
        finally:
            await connection.close()

    async def pool_refused(self, message: dict[str, Any], asked: str) -> None:
        """A pool's refusal: ``seated`` (this person plays no match in play that they know
        of: the refusal names the table) and ``already_waiting`` (this person has no other pool
        socket: the soak opens one at a time) strand them, and are breaches."""
        code = message["code"]
        if code == "seated":
            self.ledger.breach("stranded", f"{asked} and was refused: {message['message']} "
                               f"(params {message.get('params')}){await self.holding(message)}")
        elif code == "already_waiting":
            last = ""
            if self.last_paired is not None:
                ago = time.monotonic() - self.last_paired[0]
                last = (f"; their last pool pairing was {ago:.1f} s ago, at {self.last_paired[1]} "
                        f"({self.history.get(self.last_paired[1], '?')})")
            self.ledger.breach("stranded", f"{asked}, waiting in no pool (no other pool socket "
                               f"open), and was refused: {code} {message['message']!r}{last}")
        elif code not in ("paired", "not_waiting"):
            self.ledger.odd("pool error", f"{asked}: {message}")

    async def holding(self, message: dict[str, Any]) -> str:
        """What this person last did at the table a refusal names, and the table as the lobby
        shows it: for a breach's details."""
        code = (message.get("params") or {}).get("table")
        if not code:
            return ""
        said = f"; this person's last word at {code}: {self.history.get(code, 'never sat there')}"
        with contextlib.suppress(Exception):
            table = await self.room.look(f"/api/tables/{code}")
            if table is not None:
                seats = ", ".join(f"seat {s['seat']} {s['kind']} {s['name']!r} "
                                  f"connected={s['connected']} stand_in={s['stand_in']}"
                                  for s in table["seats"])
                said += (f"; the table: status {table['status']}, pace {table.get('pace')}, "
                         f"match {table['match']} version {table['version']}, {seats}")
        return said

    async def probe_pool(self) -> None:
        """Find a player, as the page's button: the pool must take this person (not refuse them
        as seated somewhere), then they leave it at once."""
        url = self.rng.choice(self.room.urls)
        socket = await self.open_socket(url + "/ws/pools")
        try:
            await socket.send(json.dumps({"type": "join", "pool": "scopa", "rated": False,
                                          "name": self.name, "guest": self.guest_key}))
            async with asyncio.timeout(WAIT):
                while True:
                    message = json.loads(await socket.recv())
                    if message["type"] == "waiting":
                        await socket.send(json.dumps({"type": "leave"}))
                        self.ledger.outcomes["probe: the pool takes them"] += 1
                    elif message["type"] in ("left", "paired"):
                        if message["type"] == "paired":  # paired at once: play it out quickly
                            await socket.close()
                            self.last_paired = (time.monotonic(), message["code"])
                            await self.play(message["code"], message["token"], resign_after=2,
                                            watch="a pool's table")
                        return
                    elif message["type"] == "error":
                        await self.pool_refused(message, f"after {self.flow}: {self.who} "
                                                "asked a pool for a game (Find a player)")
                        if message["code"] != "paired":
                            return
        except TimeoutError:
            self.ledger.breach("no answer", f"probe after {self.flow}: {self.who}: the pool "
                               f"did not answer in {WAIT:.0f} s")
        except ConnectionClosed:
            pass
        finally:
            await socket.close()

    async def live(self) -> None:
        """Flows one after another until the run's end."""
        flows: dict[str, tuple[float, Callable[[], Awaitable[None]]]] = {
            "play now": (3, self.play_now),
            "pool": (2, self.pool),
            "challenge": (2, self.challenge),
            "chat": (1, lambda: self.play_now(chat=3)),
            "rematch": (1, self.rematch),
            "leave and come back": (1, lambda: self.rng.choice((
                lambda: self.play_now(away=True), lambda: self.play_now(leave=True),
                lambda: self.pool(away=True), lambda: self.challenge(away=True)))()),
            "puzzles": (2, self.puzzles),
            "daily deal": (1, self.daily),
            "tournament": (1, self.tournament),
            "delete and a new account": (0.4, self.delete_and_again),
        }
        if self.room.args.correspondence:
            flows["correspondence"] = (0.6, self.correspondence)
        for name, weight in self.room.args.weights.items():
            flows[name] = (weight, flows[name][1])
        if self.rng.random() < self.room.args.accounts:
            await self.register()
        names = list(flows)
        weights = [flows[name][0] for name in names]
        while not self.room.stop.is_set():
            self.idle = True
            await asyncio.sleep(self.rng.uniform(0.5, 3.0))
            self.idle = False
            try:
                await self.answer_challenges()
                if self.room.stop.is_set():
                    break
                name = self.rng.choices(names, weights)[0]
                if not self.account and name in ("challenge", "tournament", "correspondence"):
                    name = "play now"
                self.flow = name
                await flows[name][1]()
                self.ledger.flows[name] += 1
                if name in ("tournament", "challenge", "leave and come back",
                            "delete and a new account", "correspondence") \
                        and self.rng.random() < 0.5:
                    await self.probe_pool()
            except NoAnswer:
                self.ledger.flows[f"{self.flow} (no answer)"] += 1
            except Exception as error:
                where = [line.strip() for line in traceback.format_exc().splitlines()
                         if line.strip().startswith("File ")]
                self.ledger.odd("client failure", f"{self.flow}: {self.who}: {error!r} at "
                                f"{where[-1] if where else '?'}")
        await self.wind_down()

    async def wind_down(self) -> None:
        """Give up what is still held: correspondence games and a seek waiting; then go."""
        with contextlib.suppress(Exception):
            if self.account and self.room.args.correspondence:
                if self.correspondence_offer is not None:
                    await self.call("POST", f"/api/correspondence/offers/"
                                    f"{self.correspondence_offer}/decline")
                status, mine = await self.call("GET", "/api/correspondence")
                if status == 200:
                    for game in mine["games"]:
                        if game["status"] == "playing":
                            await self.move_by_post(game["table"], 0)
        await self.close_me()
        await self.http.aclose()


# -- the run ----------------------------------------------------------------------------------


async def run(args: argparse.Namespace, urls: list[str], servers: LoggedServers) -> int:
    room = Room(args, urls)
    rng = random.Random(args.seed)
    room.people = [Person(room, number, random.Random(rng.random()))
                   for number in range(args.people)]
    cpu_before = {pid: cpu_seconds(pid) for pid in servers.pids}
    mine_before = cpu_seconds(os.getpid())
    began = time.monotonic()
    watchers = [asyncio.create_task(room.watch_tables()),
                asyncio.create_task(room.watch_tournaments())]
    lives = []
    for person in room.people:  # arriving over the first seconds, not all at once
        lives.append(asyncio.create_task(person.live()))
        await asyncio.sleep(min(0.5, 10.0 / max(1, args.people)))
    progress = began
    reported = 0

    def look_at_logs() -> None:
        """Each traceback the processes logged since the last look: a breach, at once."""
        nonlocal reported
        found = servers.tracebacks()
        for log, excerpt in found[reported:]:
            room.ledger.breach("traceback", f"in {log.name}:\n{excerpt}")
        reported = len(found)

    while time.monotonic() - began < args.minutes * 60:
        await asyncio.sleep(1.0)
        if int(time.monotonic() - began) % 10 == 0:
            look_at_logs()
        if time.monotonic() - progress >= 60:
            progress = time.monotonic()
            print(f"  {room.ledger.at()}: {sum(room.ledger.flows.values())} flows, "
                  f"{len(room.ledger.finished)} games finished, "
                  f"{len(room.ledger.breaches)} breaches", flush=True)
    room.stop.set()
    played = time.monotonic() - began
    print(f"  {room.ledger.at()}: time is up; the flows under way finish (at most "
          f"{args.drain:.0f} s)", flush=True)
    _, late = await asyncio.wait(lives, timeout=args.drain)
    for task in late:
        task.cancel()
    # Every tournament made must end: wait for those still running, up to their deadlines.
    while any(not t.finished and not t.breached for t in room.tournaments.values()):
        await asyncio.sleep(2.0)
    await asyncio.sleep(5.0)  # a last look at the tables watched
    for task in watchers:
        task.cancel()
    whole = time.monotonic() - began
    cpu = {pid: cpu_seconds(pid) - before for pid, before in cpu_before.items()}
    mine = cpu_seconds(os.getpid()) - mine_before
    for client in room.watchers:
        await client.aclose()
    ledger = room.ledger
    look_at_logs()
    # -- the report
    print(f"played: {played:.0f} s with {args.people} people, then {whole - played:.0f} s "
          f"finishing (stragglers cancelled: {len(late)})")
    print(f"flows done: {sum(ledger.flows.values())}")
    for name, count in sorted(ledger.flows.items(), key=lambda item: -item[1]):
        print(f"  {name}: {count}")
    print("what happened in them:")
    for name, count in sorted(ledger.outcomes.items()):
        print(f"  {name}: {count}")
    print(f"games finished: {len(ledger.finished)} (matches seen over, each once)")
    print(f"tournaments made: {len(room.tournaments)}, ended: "
          f"{sum(t.finished for t in room.tournaments.values())}")
    print("time to a dealt game (s):")
    for kind, values in sorted(ledger.starts.items()):
        ordered = sorted(values)
        print(f"  {kind}: {len(values)}, p50 {ordered[len(ordered) // 2]:.2f}, p99 "
              f"{ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]:.2f}, max "
              f"{ordered[-1]:.2f}")
    statuses = ", ".join(f"{status}: {count}" for status, count in sorted(ledger.statuses.items()))
    print(f"HTTP answers: {ledger.requests} ({statuses})")
    kinds = Counter(kind for kind, _ in ledger.breaches)
    print(f"invariant breaches: {len(ledger.breaches)} (goal 0)"
          + (f": {dict(kinds)}" if kinds else ""))
    for kind, what in ledger.breaches:
        print(f"  [{kind}] {what}")
    odd = Counter(kind for kind, _ in ledger.oddities)
    print(f"oddities (not breaches): {len(ledger.oddities)}" + (f": {dict(odd)}" if odd else ""))
    shown: Counter[str] = Counter()
    for kind, what in ledger.oddities:
        shown[kind] += 1
        if shown[kind] <= 8:
            print(f"  [{kind}] {what}")
    for number, (pid, seconds) in enumerate(cpu.items(), 1):
        print(f"CPU of server {number} (pid {pid}): {seconds:.1f} s, "
              f"{60 * seconds / whole:.1f} s a minute ({100 * seconds / whole:.0f}% of a core)")
    print(f"CPU of these simulated people: {mine:.1f} s, {60 * mine / whole:.1f} s a minute")
    lines = servers.other_lines()
    print(f"log lines besides the opening ones: {len(lines)}")
    for line in lines[:10]:
        print(f"  {line[:300]}")
    print(f"logs: {', '.join(str(log) for log in servers.logs)}")
    return 1 if ledger.breaches else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--people", type=int, default=60, help="simulated people (default 60)")
    parser.add_argument("--minutes", type=float, default=20.0,
                        help="how long they come and go (default 20)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", default=os.environ.get("SCOPA_TEST_POSTGRES"),
                        help="a PostgreSQL server's URL (a database is made on it for the run "
                        "and dropped afterwards; default $SCOPA_TEST_POSTGRES)")
    parser.add_argument("--redis", default=os.environ.get("SCOPA_TEST_REDIS"),
                        help="the Redis server's URL (default $SCOPA_TEST_REDIS)")
    parser.add_argument("--turn-timeout", type=float, default=10.0,
                        help="the servers' turn clock, seconds (default 10)")
    parser.add_argument("--bot-delay", type=float, default=0.3,
                        help="the bots' pause, seconds (default 0.3)")
    parser.add_argument("--pool-offer", type=float, default=5.0,
                        help="seconds in a pool before the computer is offered (default 5)")
    parser.add_argument("--think", type=float, default=0.4,
                        help="the people's mean think time a move, seconds (default 0.4)")
    parser.add_argument("--start-limit", type=float, default=10.0,
                        help="seconds a game may take to be dealt (default 10)")
    parser.add_argument("--margin", type=float, default=10.0,
                        help="seconds past a clock before a still table is a breach (10)")
    parser.add_argument("--accounts", type=float, default=0.8,
                        help="the share of people with an account (default 0.8)")
    parser.add_argument("--no-correspondence", dest="correspondence", action="store_false",
                        help="no correspondence seeks")
    parser.add_argument("--logs", metavar="DIR",
                        help="where the servers' logs go (default: a new folder in /tmp, kept)")
    parser.add_argument("--drain", type=float, default=300.0,
                        help="seconds the flows under way may take to finish at the end")
    parser.add_argument("--weights", dest="weights_text", default="", metavar="FLOW=W,...",
                        help="other weights for some flows (their names as the report prints "
                        "them), such as 'tournament=5,pool=3' (default: play now 3, pool 2, "
                        "challenge 2, puzzles 2, chat, rematch, leave and come back, daily deal "
                        "and tournament 1, correspondence 0.6, delete and a new account 0.4)")
    args = parser.parse_args()
    known = {"play now", "pool", "challenge", "chat", "rematch", "leave and come back",
             "puzzles", "daily deal", "tournament", "delete and a new account",
             "correspondence"}
    args.weights = {}
    for item in filter(None, (part.strip() for part in args.weights_text.split(","))):
        name, _, weight = item.rpartition("=")
        if name not in known or (name == "correspondence" and not args.correspondence):
            parser.error(f"--weights: no flow {name!r}; the flows: {', '.join(sorted(known))}")
        args.weights[name] = float(weight)
    if not args.db or not args.db.startswith("postgres") or not args.redis:
        parser.error("--db (PostgreSQL) and --redis are needed: eval \"$(bash "
                     "scripts/postgres.sh)\"; eval \"$(bash scripts/redis.sh)\"")
    if not 1 <= args.people <= 2000 or not 0 < args.minutes <= 600:
        parser.error("keep it bounded: 1..2000 people, at most 600 minutes")
    print(machine(), flush=True)
    print(f"date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC; {args.people} people for "
          f"{args.minutes:g} minutes, seed {args.seed}", flush=True)
    lift_open_files()
    logs = Path(args.logs) if args.logs else Path(tempfile.mkdtemp(prefix="scopa-soak-"))
    logs.mkdir(parents=True, exist_ok=True)
    with redis_database(args.redis) as redis_url, fresh_database(args.db) as db:
        assert db is not None
        with LoggedServers(logs) as servers:
            urls = []
            for k in range(2):
                arguments = ["--db", db, "--redis", redis_url, "--name", f"soak{k + 1}",
                             "--turn-timeout", str(args.turn_timeout),
                             "--bot-delay", str(args.bot_delay),
                             "--pool-bot-offer", str(args.pool_offer)]
                urls.append(servers.start(arguments).rstrip("/"))
                print(f"server {k + 1}: pid {servers.pids[-1]} at {urls[-1]}", flush=True)
            return asyncio.run(run(args, urls, servers))


if __name__ == "__main__":
    sys.exit(main())
