"""Correspondence play at scale: many matches stored, moves on tables that are not in memory.

On PostgreSQL, with two ``scopa serve`` processes sharing it and Redis (the room as a cluster
runs), it stores ``--first`` correspondence matches (10,000), measures, grows them to
``--matches`` (100,000) and measures again. The matches are written straight into the
database (COPY), each a real dealt match the room loads as it would its own: a table of pace
``correspondence`` playing a match (its rules and seed; no move yet), two seats whose tokens'
hashes this script keeps the tokens of, and its clock (``correspondence_matches``: version 0,
the dealt game's mover, three days a move). The schema is made first by opening the database
as ``scopa serve`` does (it migrates).

Each measure drives ``--rate`` moves a minute (1,000) for ``--minutes`` (2) over matches
picked at random among all those stored, each moved at most once (so its table is in no
process's memory): open the table's WebSocket at one process or the other in turn, hello with
the mover's token, wait for the state, send a legal move, wait for its state, close. It prints
the time from sending the move to its state (p50, p99: the goal is at most 50 ms at p99) and
the whole open, hello and move; the web processes' memory (VmRSS, just after the moves and
once the room's sweeps have let every table go), which must not grow with the matches stored;
the CPU of the web processes, PostgreSQL and Redis a move (their CPU with no moves, measured
for 10 s before, taken off).

Pushes: unless ``--no-push``, a real RFC 8030 push service runs in this process
(tests/room/push_receiver.py: it checks each push's VAPID signature and decrypts it), and
``--push-accounts`` accounts (1,000) each have one subscription to it. Half the matches are
seated to those accounts, half to nobody; each measure moves on the matches of nobody first,
then on the accounts' (each move pushes the next mover their turn, 2 s later, as they are not
at the table). It prints the pushes that arrived a minute, and their CPU each: the web
processes' CPU a move with pushes less that without, over the pushes sent. The room sends at
most 600 pushes a minute (``PushSettings.per_room``, no flag of ``scopa serve``): the pushes
dropped past it are counted from the servers' logs.

Alarms: ``--alarms`` (200) matches of each batch are stored with 80% of their time used
already (the alarm due, the deadline hours away), and are never moved. After each measure it
counts those whose alarm was rung (``alarm_at`` set to nothing by a process's sweep, once
among processes) against those due, waiting for at most a few more sweeps (every 30 s,
``CorrespondenceSettings.sweep_every``, no flag), and any alarm rung that was not due.

    eval "$(bash scripts/postgres.sh)"; eval "$(bash scripts/redis.sh)"
    .venv/bin/python benchmarks/correspondence.py --db "$SCOPA_TEST_POSTGRES" \\
        --redis "$SCOPA_TEST_REDIS"                     # 10,000 then 100,000; 2 min each
    .venv/bin/python benchmarks/correspondence.py --db "$SCOPA_TEST_POSTGRES" \\
        --redis "$SCOPA_TEST_REDIS" --first 1000 --matches 2000 --rate 200 --minutes 0.5

It prints the machine first (CPU model, cores, load average) and the date. It prints figures
to compare and passes or fails on none of the times; it ends with status 1 if a move failed,
or the alarms rung differ from those due. A new database is made for the run on the given
server and dropped after it; only loopback addresses are used.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import hashlib
import hmac
import json
import os
import random
import re
import secrets
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import uvloop
from harness import Servers, lift_open_files, machine  # sibling modules, not a package
from server_load import cpu_by_pid, cpu_seconds, fresh_database, percentile, pids_named

from scopa import Game
from scopa.rules import Rules
from scopa.server.client import TableConnection
from scopa.server.common.tokens import CODE_ALPHABET, hash_token

ROOT = Path(__file__).resolve().parent.parent
DAYS = 3
"""Days a move of every stored match."""
WAIT_SECONDS = 20.0
"""The longest one step of a move (open, a state) may take before it counts as failed."""
LET_GO_SECONDS = 65.0
"""How long a measure waits at its end for the processes to let every table go (the room's sweep
is every 30 s, ``Settings.sweep_every``), before it reads their memory."""
IDLE_SECONDS = 10.0
"""How long the room's CPU is measured with no moves, before each measure."""
ALARM_WAIT = 95.0
"""How long to wait for the alarms due after a measure: three of the room's sweeps."""
DROPPED = re.compile(r"push: \w+ to account \d+ dropped: past the rate")


def push_receiver() -> Any:
    """tests/room/push_receiver.py's Receiver (a real push service), from the repository."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from tests.room.push_receiver import Receiver

    return Receiver


@dataclass
class Match:
    code: str
    mover: int
    version: int = 0
    pushed: bool = False
    """Seated to accounts that take pushes."""
    alarmed: bool = False
    moved: int = 0


@dataclass
class Moves:
    """One measure's moves."""

    move_ms: list[float] = field(default_factory=list)
    """Sending the move to its state arriving, on a table in no process's memory."""
    whole_ms: list[float] = field(default_factory=list)
    """Opening the socket to the move's state: open, hello, the state, the move."""
    again_ms: list[float] = field(default_factory=list)
    """Moves on a match moved earlier in the run (its table maybe still in memory)."""
    errors: list[str] = field(default_factory=list)

    @property
    def done(self) -> int:
        return len(self.move_ms) + len(self.again_ms)


class LoggedServers(Servers):
    """harness.Servers whose processes' logs go to a file each (read for the pushes dropped),
    not to this terminal."""

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
                stdout=subprocess.PIPE, stderr=stream, stdin=subprocess.DEVNULL, text=True,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
        self.processes.append(process)
        assert process.stdout is not None
        line = process.stdout.readline()
        if "card room is open at" not in line:
            print(f"the server did not start: {line!r}; {log}: {log.read_text()[-2000:]}",
                  file=sys.stderr)
            raise SystemExit(2)
        return line.split()[-1]

    def __enter__(self) -> LoggedServers:
        return self

    def dropped(self) -> int:
        """Pushes the processes dropped past the room's rate, so far."""
        return sum(len(DROPPED.findall(log.read_text(errors="replace"))) for log in self.logs)

    def failures(self) -> int:
        """Tracebacks the processes logged, so far."""
        return sum(log.read_text(errors="replace").count("Traceback") for log in self.logs)


# -- the stored matches ------------------------------------------------------------------------


class Seeder:
    """Writes correspondence matches straight into the database, as the room stores a match it
    dealt (``Games.start``): the table, its seats, the match, its clock, and for a match
    between accounts its seats' holders."""

    def __init__(self, url: str, accounts: int) -> None:
        self.url = url
        self.secret = secrets.token_bytes(16)
        self.rules = Rules.preset("scopa", players=2)
        self.rules_json = json.dumps(self.rules.to_dict())
        self.accounts = accounts
        self.offset = secrets.randbelow(len(CODE_ALPHABET) ** 6 // 2)
        self.matches: list[Match] = []
        self.pushed = 0

    def code(self, number: int) -> str:
        value, letters = self.offset + number, []
        for _ in range(6):
            value, digit = divmod(value, len(CODE_ALPHABET))
            letters.append(CODE_ALPHABET[digit])
        return "".join(letters)

    def token(self, code: str, seat: int) -> str:
        """Seat ``seat``'s token at ``code``: derived, so that 200,000 need not be kept."""
        digest = hmac.new(self.secret, f"{code}:{seat}".encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest[:24]).decode()

    async def connect(self) -> Any:
        import asyncpg  # type: ignore[import-untyped]

        return await asyncpg.connect(self.url.replace("postgresql+asyncpg://", "postgresql://"))

    async def add_accounts(self, endpoints: list[tuple[str, str, str]]) -> None:
        """The accounts matches are seated to, each with one push subscription
        (``endpoints``: endpoint, p256dh, auth), or none if ``endpoints`` is empty."""
        moment = datetime.now(UTC)
        connection = await self.connect()
        try:
            await connection.copy_records_to_table(
                "accounts", columns=["id", "name", "name_key", "password_hash", "created_at"],
                records=[(n + 1, f"Corr{n + 1}", f"corr{n + 1}", "!", moment)
                         for n in range(self.accounts)])
            await connection.copy_records_to_table(
                "push_subscriptions",
                columns=["id", "account_id", "endpoint", "p256dh", "auth", "created_at",
                         "seen_at"],
                records=[(n + 1, n + 1, endpoint, p256dh, auth, moment, moment)
                         for n, (endpoint, p256dh, auth) in enumerate(endpoints)])
            for table in ("accounts", "push_subscriptions"):
                await connection.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                    f"(SELECT coalesce(max(id), 0) + 1 FROM {table}), false)")
        finally:
            await connection.close()

    async def add(self, count: int, alarms: int) -> float:
        """``count`` more matches, the first ``alarms`` of them with their alarm due; every
        other one seated to accounts (when there are any). The seconds it took."""
        started = time.perf_counter()
        moment = datetime.now(UTC)
        first = len(self.matches)
        table_rows, seat_rows, match_rows, clock_rows, holder_rows = [], [], [], [], []
        for number in range(first, first + count):
            code = self.code(number)
            seed = secrets.randbits(63)
            mover = Game.new(self.rules, seed=seed).to_move
            assert mover is not None
            alarmed = number - first < alarms
            pushed = self.accounts > 0 and not alarmed and number % 2 == 1
            match = Match(code, mover, pushed=pushed, alarmed=alarmed)
            self.matches.append(match)
            match_id = number + 1
            holders = None
            if pushed:
                pair = 2 * self.pushed
                holders = (pair % self.accounts + 1, (pair + 1) % self.accounts + 1)
                self.pushed += 1
            names = [f"Corr{holders[s]}" if holders else ("Ada", "Bea")[s] for s in (0, 1)]
            table_rows.append((code, self.rules_json, "french", "playing", match_id, moment,
                               moment, 0, "correspondence"))
            for seat in (0, 1):
                seat_rows.append((code, seat, "human", names[seat], None,
                                  hash_token(self.token(code, seat)), False))
                if holders:
                    holder_rows.append((code, seat, holders[seat]))
            players = json.dumps([{"seat": s, "kind": "human", "name": names[s], "level": None}
                                  for s in (0, 1)])
            match_rows.append((match_id, code, self.rules_json, seed, None, players, "playing",
                               moment))
            # An alarm due: 82% of the three days used (the alarm rings at 80%), 13 hours left.
            turn_at = moment - timedelta(days=DAYS * 0.82) if alarmed else moment
            clock_rows.append((code, DAYS, False, "playing", 0, mover, turn_at,
                               turn_at + timedelta(days=DAYS),
                               turn_at + timedelta(days=DAYS * 0.8), 0, "[]", False, moment))
        connection = await self.connect()
        try:
            async with connection.transaction():
                await connection.copy_records_to_table(
                    "tables", columns=["code", "rules", "look", "status", "match_id",
                                       "created_at", "touched_at", "epoch", "pace"],
                    records=table_rows)
                await connection.copy_records_to_table(
                    "seats", columns=["table_code", "seat", "kind", "name", "level",
                                      "token_hash", "stand_in"], records=seat_rows)
                await connection.copy_records_to_table(
                    "matches", columns=["id", "table_code", "rules", "seed", "deck", "players",
                                        "status", "started_at"], records=match_rows)
                await connection.copy_records_to_table(
                    "correspondence_matches",
                    columns=["table_code", "days", "rated", "status", "version", "mover",
                             "turn_at", "deadline", "alarm_at", "vacation", "patient",
                             "overdue", "created_at"], records=clock_rows)
                if holder_rows:
                    await connection.copy_records_to_table(
                        "seat_accounts", columns=["table_code", "seat", "account_id"],
                        records=holder_rows)
                await connection.execute(
                    "SELECT setval(pg_get_serial_sequence('matches', 'id'), "
                    "(SELECT max(id) + 1 FROM matches), false)")
            await connection.execute("ANALYZE")
        finally:
            await connection.close()
        return time.perf_counter() - started

    async def alarms(self) -> tuple[int, int, int]:
        """The alarms stored due, those of them rung, and alarms rung on any other match (none
        should be: every other clock's alarm is days away)."""
        alarmed = [m.code for m in self.matches if m.alarmed]
        connection = await self.connect()
        try:
            rung = await connection.fetchval(
                "SELECT count(*) FROM correspondence_matches "
                "WHERE alarm_at IS NULL AND table_code = ANY($1::varchar[])", alarmed)
            everywhere = await connection.fetchval(
                "SELECT count(*) FROM correspondence_matches WHERE alarm_at IS NULL")
        finally:
            await connection.close()
        return len(alarmed), int(rung), int(everywhere) - int(rung)


# -- the moves ---------------------------------------------------------------------------------


async def one_move(url: str, match: Match, token: str, rng: random.Random,
                   moves: Moves) -> None:
    began = time.perf_counter()
    cold = match.moved == 0
    try:
        connection = await TableConnection.open(url, match.code, token, timeout=WAIT_SECONDS,
                                                ping_interval=None)
        try:
            await connection.wait_for(lambda m: m["type"] == "state", WAIT_SECONDS)
            view, version = connection.view, connection.version
            assert view is not None and version is not None
            if view["to_move"] != connection.seat or not view["legal_moves"]:
                raise RuntimeError(f"not this seat's turn (seat {connection.seat}, "
                                   f"{view['to_move']} to move)")
            sent = time.perf_counter()
            await connection.move(rng.choice(view["legal_moves"]))
            await connection.wait_for(
                lambda m: m["type"] == "state" and m["version"] == version + 1, WAIT_SECONDS)
            arrived = time.perf_counter()
            assert connection.view is not None
            match.version, match.mover = version + 1, connection.view["to_move"]
        finally:
            await connection.close()
    except Exception as error:
        moves.errors.append(f"{match.code}: {error!r}")
        return
    match.moved += 1
    if cold:
        moves.move_ms.append(1000 * (arrived - sent))
        moves.whole_ms.append(1000 * (arrived - began))
    else:
        moves.again_ms.append(1000 * (arrived - sent))


async def drive(urls: list[str], seeder: Seeder, picks: list[Match], rate: float,
                seconds: float, rng: random.Random, moves: Moves) -> float:
    """``rate`` moves a minute for ``seconds``, on ``picks`` in turn, the processes in turn;
    the seconds until the last move ended."""
    began = time.perf_counter()
    gap = 60.0 / rate
    tasks: set[asyncio.Task[None]] = set()
    number = 0
    while picks and (at := began + number * gap) < began + seconds:
        await asyncio.sleep(max(0.0, at - time.perf_counter()))
        match = picks[number % len(picks)]
        token = seeder.token(match.code, match.mover)
        task = asyncio.create_task(one_move(urls[number % len(urls)], match, token,
                                            random.Random(rng.random()), moves))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
        number += 1
    if tasks:
        await asyncio.wait(tasks)
    return time.perf_counter() - began


# -- the figures -------------------------------------------------------------------------------


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def in_memory(urls: list[str]) -> list[int]:
    """The tables each process holds now."""
    held = []
    async with httpx.AsyncClient(timeout=30) as client:
        for url in urls:
            held.append(int((await client.get(f"{url}/healthz")).json()["tables"]))
    return held


async def print_memory(label: str, pids: list[int], urls: list[str]) -> list[float]:
    sizes = [rss_mb(pid) for pid in pids]
    held = await in_memory(urls)
    print(f"memory, {label}: " + ", ".join(
        f"process {n + 1} {size:.1f} MB RSS ({tables} tables in memory)"
        for n, (size, tables) in enumerate(zip(sizes, held, strict=True))), flush=True)
    return sizes


def timing(name: str, values: list[float]) -> str:
    if not values:
        return f"{name}: none"
    return (f"{name}: p50 {percentile(values, 0.5):.1f} ms, p99 {percentile(values, 0.99):.1f} "
            f"ms, max {max(values):.1f} ms ({len(values)} moves)")


class Cpu:
    """CPU seconds of the web processes, PostgreSQL's and Redis's processes since a start."""

    def __init__(self, pids: list[int]) -> None:
        self.pids = pids
        self.others = {"PostgreSQL": "postgres", "Redis": "redis-server"}
        self.began = time.perf_counter()
        self.web = sum(cpu_by_pid(pids).values())
        self.before = {name: cpu_by_pid(pids_named(word)) for name, word in self.others.items()}

    def used(self) -> dict[str, float]:
        found = {"web processes": sum(cpu_by_pid(self.pids).values()) - self.web}
        for name, word in self.others.items():
            found[name] = sum(seconds - self.before[name].get(pid, 0.0)
                              for pid, seconds in cpu_by_pid(pids_named(word)).items())
        return found


@dataclass
class Phase:
    moves: Moves
    seconds: float
    cpu: dict[str, float]


async def measure(args: argparse.Namespace, urls: list[str],
                  servers: LoggedServers, seeder: Seeder, receiver: Any,
                  rng: random.Random) -> int:
    """One measure at the matches stored now: moves on matches of nobody, then (with pushes)
    on the accounts'; the alarms; the memory. The problems found."""
    stored = len(seeder.matches)
    print(f"-- {stored:,} correspondence matches stored: {args.rate:g} moves a minute for "
          f"{args.minutes:g} min", flush=True)
    fresh = [m for m in seeder.matches if not m.alarmed and m.moved == 0]
    rng.shuffle(fresh)
    seconds = 60 * args.minutes
    halves = [("without pushes", [m for m in fresh if not m.pushed], seconds)]
    if receiver is not None:
        halves = [("without pushes", halves[0][1], seconds / 2),
                  ("with pushes", [m for m in fresh if m.pushed], seconds / 2)]
    still = Cpu(servers.pids)
    await asyncio.sleep(IDLE_SECONDS)
    idle = {who: seconds / IDLE_SECONDS for who, seconds in still.used().items()}
    print("CPU with no moves, a second: " + ", ".join(
        f"{who} {1000 * rate:.1f} ms" for who, rate in idle.items())
        + " (taken off each move's below)", flush=True)
    phases: dict[str, Phase] = {}
    arrived_before = len(receiver.arrived) if receiver is not None else 0
    dropped_before = servers.dropped()
    mine_before = cpu_seconds(os.getpid())
    for name, picks, length in halves:
        moves = Moves()
        cpu = Cpu(servers.pids)
        played = await drive(urls, seeder, picks, args.rate, length, rng, moves)
        if name == "with pushes":
            await asyncio.sleep(3.0)  # a move's push waits 2 s: let the last ones go out
        phases[name] = Phase(moves, played, {
            who: max(0.0, seconds - idle[who] * (time.perf_counter() - cpu.began))
            for who, seconds in cpu.used().items()})
    mine = cpu_seconds(os.getpid()) - mine_before
    problems = 0
    every = Moves()
    for phase in phases.values():
        every.move_ms += phase.moves.move_ms
        every.whole_ms += phase.moves.whole_ms
        every.again_ms += phase.moves.again_ms
        every.errors += phase.moves.errors
    played = sum(p.seconds for p in phases.values())
    print(f"moves: {every.done} of {len(every.errors) + every.done} made in {played:.1f} s "
          f"({60 * every.done / played:.0f} a minute), failed: {len(every.errors)}")
    for line in every.errors[:5]:
        print(f"  {line}")
    problems += len(every.errors)
    print(timing("a move on a match not in memory, sending it to its state", every.move_ms)
          + "  (goal: p99 at most 50 ms)")
    print(timing("the same moves whole: open, hello, state, move, its state", every.whole_ms))
    if every.again_ms:
        print(timing("moves on matches moved earlier in the run", every.again_ms))
    for name, phase in phases.items():
        made = phase.moves.done or 1
        print(f"CPU a move, {name} ({phase.moves.done} moves): " + ", ".join(
            f"{who} {1000 * seconds / made:.2f} ms" for who, seconds in phase.cpu.items()))
    print(f"CPU of this script (the people, the push service): {mine:.1f} s in {played:.1f} s")
    if receiver is not None:
        pushed = phases["with pushes"]
        quiet = phases["without pushes"]
        sent = len(receiver.arrived) - arrived_before
        dropped = servers.dropped() - dropped_before
        minutes = pushed.seconds / 60
        per_push = float("nan")
        if sent and quiet.moves.done and pushed.moves.done:
            extra = (pushed.cpu["web processes"] / pushed.moves.done
                     - quiet.cpu["web processes"] / quiet.moves.done) * pushed.moves.done
            per_push = 1000 * extra / sent
        print(f"pushes: {sent} arrived at the push service in {pushed.seconds:.1f} s "
              f"({sent / minutes:.0f} a minute) for {pushed.moves.done} moves; dropped past the "
              f"room's 600 a minute: {dropped}; refused by the push service: "
              f"{len(receiver.refused)}")
        print(f"CPU a push sent, web processes: {per_push:.2f} ms (CPU a move with pushes "
              "less without, over the pushes sent)")
        problems += len(receiver.refused)
    due, rung, early = await seeder.alarms()
    waited = 0.0
    while rung < due and waited < ALARM_WAIT:
        await asyncio.sleep(5.0)
        waited += 5.0
        due, rung, early = await seeder.alarms()
    print(f"alarms: {due} due, {rung} rung (after {waited:.0f} s more), rung while not due: "
          f"{early}")
    problems += (due != rung) + early
    await print_memory(f"at {stored:,} stored, just after the moves", servers.pids, urls)
    waited = 0.0
    while sum(await in_memory(urls)) and waited < LET_GO_SECONDS:
        await asyncio.sleep(5.0)
        waited += 5.0
    await print_memory(f"at {stored:,} stored, {waited:.0f} s later (the tables let go)",
                       servers.pids, urls)
    return problems


async def run(args: argparse.Namespace, db: str, folder: Path) -> int:
    from scopa.server.store.storage import Storage

    storage = Storage(db)  # the schema, made as scopa serve makes it (migrations)
    await storage.open()
    await storage.close()
    seeder = Seeder(db, 0 if args.no_push else args.push_accounts)
    rng = random.Random(args.seed)
    async with contextlib.AsyncExitStack() as stack:
        receiver = None
        endpoints: list[tuple[str, str, str]] = []
        if not args.no_push:
            receiver = await stack.enter_async_context(push_receiver()(folder).running())
            for n in range(args.push_accounts):
                keys = receiver.browser(f"corr{n + 1}").subscription()
                endpoints.append((keys["endpoint"], keys["keys"]["p256dh"],
                                  keys["keys"]["auth"]))
        if seeder.accounts:
            await seeder.add_accounts(endpoints)
        took = await seeder.add(args.first, args.alarms)
        holders = (f"{seeder.accounts} accounts with a push subscription each, seated at half "
                   "the others" if seeder.accounts else "no accounts (--no-push)")
        print(f"stored {args.first:,} matches ({args.alarms} with their alarm due) and "
              f"{holders}, in {took:.1f} s", flush=True)
        servers = stack.enter_context(LoggedServers(folder))
        urls = []
        for k in range(args.processes):
            arguments = ["--db", db, "--redis", args.redis, "--name", f"corr{os.getpid()}-{k + 1}",
                         "--lobby-writes", "100000/minute", "--lobby-reads", "100000/minute",
                         "--table-sockets-per-address", "100000"]
            if receiver is not None:
                arguments += ["--push-allow-hosts", "127.0.0.1", "--push-ca", str(receiver.cert)]
            urls.append(servers.start(arguments).rstrip("/"))
            print(f"server: pid {servers.pids[-1]} at {urls[-1]} (log {servers.logs[-1]})")
        if receiver is not None:
            async with httpx.AsyncClient(timeout=30) as client:
                receiver.room_key = (await client.get(f"{urls[0]}/api/push/key")).json()["key"]
        first = await print_memory(f"at {args.first:,} stored, started", servers.pids, urls)
        problems = await measure(args, urls, servers, seeder, receiver, rng)
        middle = [rss_mb(pid) for pid in servers.pids]
        if args.matches > args.first:
            took = await seeder.add(args.matches - args.first, args.alarms)
            print(f"stored {args.matches - args.first:,} matches more ({args.alarms} with their "
                  f"alarm due) in {took:.1f} s: {args.matches:,} in all", flush=True)
            await print_memory(f"at {args.matches:,} stored, before the moves", servers.pids,
                               urls)
            problems += await measure(args, urls, servers, seeder, receiver, rng)
            last = [rss_mb(pid) for pid in servers.pids]
            print(f"memory growth from {args.first:,} to {args.matches:,} stored (each once "
                  "its tables were let go): " + ", ".join(
                f"process {n + 1} {b - a:+.1f} MB" for n, (a, b) in
                enumerate(zip(middle, last, strict=True))) + "; from the start: " + ", ".join(
                f"{b - a:+.1f} MB" for a, b in zip(first, last, strict=True)))
        print(f"tracebacks in the servers' logs: {servers.failures()}")
        problems += servers.failures()
    print(f"problems: {problems}")
    return 1 if problems else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", required=True, help="a PostgreSQL server's URL (a database is "
                        "made on it for the run, and dropped)")
    parser.add_argument("--redis", required=True, help="Redis URL, shared by the processes")
    parser.add_argument("--matches", type=int, default=100_000,
                        help="correspondence matches stored at the second measure (100,000)")
    parser.add_argument("--first", type=int, default=10_000,
                        help="matches stored at the first measure (10,000)")
    parser.add_argument("--rate", type=float, default=1000.0, help="moves a minute (1,000)")
    parser.add_argument("--minutes", type=float, default=2.0,
                        help="minutes of moves at each measure (2)")
    parser.add_argument("--alarms", type=int, default=200,
                        help="matches of each batch stored with their alarm due (200)")
    parser.add_argument("--push-accounts", type=int, default=1000,
                        help="accounts with a push subscription, half the matches seated to "
                        "them (1,000)")
    parser.add_argument("--no-push", action="store_true",
                        help="no push service, no accounts: moves and alarms only")
    parser.add_argument("--processes", type=int, default=2, help="scopa serve processes (2)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(machine(), flush=True)
    print(f"date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC", flush=True)
    if not args.db.startswith("postgres"):
        parser.error("--db must be a PostgreSQL server's URL")
    if not 1 <= args.first <= args.matches <= 1_000_000 or args.alarms * 2 > args.first:
        parser.error("keep it bounded: 1 <= --first <= --matches <= 1,000,000, and at most "
                     "half of --first alarmed")
    if not 0 < args.minutes <= 10 or not 0 < args.rate <= 6000 or args.processes < 1:
        parser.error("keep it bounded: at most 10 minutes, 6,000 moves a minute")
    if not args.no_push and args.push_accounts < 2:
        parser.error("--push-accounts must be 2 or more (or --no-push)")
    lift_open_files()
    import redis

    redis.Redis.from_url(args.redis).flushdb()  # no leases or push rates of an earlier run
    with tempfile.TemporaryDirectory(prefix="scopa-corr-") as folder, fresh_database(
        args.db
    ) as given:
        assert given is not None
        return uvloop.run(run(args, given, Path(folder)))


if __name__ == "__main__":
    sys.exit(main())
