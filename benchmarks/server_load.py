"""Load on the card room: N tables of two simulated people each, over real WebSockets.

Starts ``scopa serve`` as a separate process on a free loopback port with a fresh SQLite file
(or ``--processes N`` of them sharing ``--db postgresql://...`` and ``--redis redis://...``),
seats two people at each of N tables, and lets them play. With several processes,
``--routing nginx`` (the default) puts Debian's nginx in front of them with the repository's
deploy/nginx/scopa-locations.conf, as deployed: lobby requests round-robin, each table's
sockets to one process by the hash of their path, which the table then moves to (a table is
made at whichever process nginx picks for the request); ``--routing split`` connects each
table's two people straight to two different processes, so half the sockets are relayed to the
table's owner. The share of moves relayed is printed (from each process's ``/healthz``).
Each person thinks for a while (``--think`` seconds on average) and plays a random legal
move. Every move is timed from its sending to the arrival of its broadcast, at the mover and at
the other seat. When the time is up, nobody starts a new move; the run waits for the moves in
flight, then checks that every acknowledged move is stored (the server's version of each table)
and none was lost.

    .venv/bin/python benchmarks/server_load.py                      # 500 tables, 60 s
    .venv/bin/python benchmarks/server_load.py --tables 50 --seconds 10
    eval "$(bash scripts/postgres.sh)"; eval "$(bash scripts/redis.sh)"
    eval "$(bash scripts/nginx.sh)"          # --routing nginx, the default for 2+ processes
    .venv/bin/python benchmarks/server_load.py --tables 1000 --processes 2 \
        --db "$SCOPA_TEST_POSTGRES" --redis "$SCOPA_TEST_REDIS"

With Redis and PostgreSQL it also prints the CPU they used (their processes on this machine),
and nginx's when it is in front. The simulated people's garbage collector is off while they
play, so that its pauses are not counted as the room's latency (``--keep-collector``: on, as
before 2026-12-02). Their sockets send no keepalive pings, as a browser's cannot; they
answer the room's (``--people-ping 20``: every 20 s, as before 2026-12-02's last runs). It
prints the machine first (CPU model, cores, load average), so that a
figure read later says what it was measured on. ``--profile FILE`` samples the first
web process with py-spy (``pip install py-spy``) while the people play, writes the collapsed
stacks to FILE (for flamegraph.pl or speedscope) and prints the functions that took the most
samples, by their own time and with what they call.

Prints figures to compare; it never passes or fails on a time. Only loopback addresses are
used, and the run is bounded by ``--seconds`` (plus setup and a drain of at most 30 s).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
import uvloop
from harness import Servers, lift_open_files, machine  # a sibling module, not a package
from websockets.exceptions import ConnectionClosed

from scopa.server.client import Lobby, TableConnection

SETUP_CONCURRENCY = 32
DRAIN_SECONDS = 30.0
LOCATIONS = Path(__file__).resolve().parent.parent / "deploy" / "nginx" / "scopa-locations.conf"


@dataclass
class Stats:
    ack_ms: list[float] = field(default_factory=list)
    """Mover: sending a move to receiving its own broadcast."""
    broadcast_ms: list[float] = field(default_factory=list)
    """The other seat: the mover's sending to this seat receiving the broadcast."""
    sent: int = 0
    acked: int = 0
    errors: list[str] = field(default_factory=list)
    gaps: int = 0
    again: int = 0
    """States at the version a person already had: sent again when a table moved."""
    matches_finished: int = 0


@dataclass
class TableRun:
    code: str
    tokens: list[str]
    sent_at: dict[tuple[int, int], float] = field(default_factory=dict)
    """(match, version after the move) -> when the move was sent."""
    acked_version: dict[int, int] = field(default_factory=dict)
    """match -> last version acknowledged to its mover."""


async def person(
    lobby: Lobby,
    table: TableRun,
    seat: int,
    connection: TableConnection,
    stats: Stats,
    think: float,
    stop: asyncio.Event,
    seed: float,
) -> None:
    """Play until ``stop``, then read on until the socket is closed (once every move sent is
    acknowledged). Lean, since the simulated people share the machine with the servers: one
    timer and one send per move, messages read straight off the socket with orjson."""
    rng = random.Random(seed)
    socket = connection.socket
    loop = asyncio.get_running_loop()
    match, version = connection.match, connection.version
    sending: set[asyncio.Task[None]] = set()

    def send(for_match: int, for_version: int, move: str) -> None:
        if stop.is_set() or (match, version) != (for_match, for_version):
            return
        table.sent_at[(for_match, for_version + 1)] = time.perf_counter()
        stats.sent += 1
        text = orjson.dumps({"type": "move", "move": move, "version": for_version}).decode()
        task = asyncio.create_task(socket.send(text))
        sending.add(task)
        task.add_done_callback(sending.discard)

    def consider(view: dict[str, Any]) -> None:
        if view["to_move"] == seat and view["legal_moves"] and not stop.is_set():
            assert match is not None and version is not None
            delay = think * rng.uniform(0.5, 1.5)
            loop.call_later(delay, send, match, version, rng.choice(view["legal_moves"]))

    assert connection.view is not None
    consider(connection.view)
    with contextlib.suppress(ConnectionClosed):
        async for text in socket:
            now = time.perf_counter()
            message = orjson.loads(text)
            kind = message["type"]
            if kind == "error":
                stats.errors.append(
                    f"{table.code} seat {seat}: {message['code']} {message['message']}"
                )
            elif kind == "state":
                if message["match"] == match and message["version"] == version:
                    stats.again += 1  # its table moved to this socket's process: nothing new
                    continue
                if message["match"] == match and message["version"] != (version or 0) + 1:
                    stats.gaps += 1
                match, version = message["match"], message["version"]
                sent = table.sent_at.get((match, version))
                play = message["play"]
                if sent is not None and play is not None:
                    if play["seat"] == seat:
                        stats.ack_ms.append((now - sent) * 1000)
                        stats.acked += 1
                        table.acked_version[match] = version
                    else:
                        stats.broadcast_ms.append((now - sent) * 1000)
                consider(message["view"])
            elif kind == "over" and seat == 0:
                stats.matches_finished += 1
                if not stop.is_set():
                    await lobby.rematch(table.code, table.tokens[0])
    if not stop.is_set():
        stats.errors.append(
            f"{table.code} seat {seat}: the server closed the connection "
            f"({socket.close_code} {socket.close_reason})"
        )


async def seat_table(
    urls: list[str], number: int, lobbies: list[Lobby], gate: asyncio.Semaphore,
    people_ping: float | None,
) -> tuple[TableRun, list[TableConnection]]:
    # Split: each table is made at one process (its owner), one of its people plays from there
    # and the other from the next process. Behind nginx, ``urls`` and ``lobbies`` are nginx.
    lobby = lobbies[number % len(lobbies)]
    async with gate:
        created = await lobby.create_table(name="Ada")
        code = created["table"]["code"]
        joined = await lobby.join(code, "Bruno")
        table = TableRun(code, [created["token"], joined["token"]])
        # Like a browser's, the people's sockets send no keepalive pings of their own (a
        # browser cannot): they answer the room's. Before 2026-12-02 they pinged every 20 s
        # (--people-ping 20), and the room's pongs to 2,000 sockets were 3% of a web
        # process's samples.
        connections = [
            await TableConnection.open(
                urls[(number + seat) % len(urls)], code, token, ping_interval=people_ping
            )
            for seat, token in enumerate(table.tokens)
        ]
        await lobby.start(code, table.tokens[0])
        for connection in connections:
            await connection.wait_for(lambda m: m["type"] == "state")
        return table, connections


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process, from /proc (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pids_named(word: str) -> list[int]:
    """The processes whose command line has ``word`` (Redis's, PostgreSQL's server and its
    backends), leaving out Python's (these, and the servers, name the database's URL)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                command = (entry / "cmdline").read_bytes().decode(errors="replace")
            except OSError:
                continue
            if word in command and "python" not in command:
                found.append(int(entry.name))
    return found


def total_cpu(pids: list[int]) -> float:
    return sum(cpu_by_pid(pids).values())


def cpu_by_pid(pids: list[int]) -> dict[int, float]:
    found = {}
    for pid in pids:
        with contextlib.suppress(OSError):
            found[pid] = cpu_seconds(pid)
    return found


async def relayed(urls: list[str]) -> int:
    """Commands the processes at ``urls`` relayed to other processes' tables so far."""
    total = 0
    for url in urls:
        async with Lobby(url) as lobby:
            total += int((await lobby.health()).get("relayed", 0))
    return total


async def run(
    args: argparse.Namespace, urls: list[str], pids: list[int], front: str | None
) -> int:
    stats = Stats()
    stop = asyncio.Event()
    reached = [front] if front else urls
    async with contextlib.AsyncExitStack() as stack:
        lobbies = [await stack.enter_async_context(Lobby(url, timeout=60)) for url in reached]
        lobby = lobbies[0]
        started = time.perf_counter()
        gate = asyncio.Semaphore(SETUP_CONCURRENCY)
        seated = await asyncio.gather(
            *(seat_table(reached, number, lobbies, gate, args.people_ping)
              for number in range(args.tables))
        )
        setup = time.perf_counter() - started
        print(f"setup: {args.tables} tables, {2 * args.tables} sockets in {setup:.1f} s")
        rng = random.Random(args.seed)
        others = {
            name: word
            for name, word in (("Redis", "redis-server"), ("PostgreSQL", "postgres"),
                               ("nginx", "nginx"))
            if args.redis and (front or name != "nginx")
        }
        relayed_before = await relayed(urls) if len(urls) > 1 else 0
        profiler = start_profile(args.profile, pids[0], args.seconds) if args.profile else None
        # The simulated people's own collector stays off while they play: with 2,000 sockets
        # in this one process, its full collections paused the loop for up to a quarter of a
        # second, nine times a run, and every message that arrived meanwhile was timed late,
        # so the room's p99 was this process's pauses. What is set up now is frozen (never
        # traversed again); what the people make while playing is freed by reference counts.
        if not args.keep_collector:
            gc.collect()
            gc.freeze()
            gc.disable()
        # By process: PostgreSQL's backends that start during the run (a web process's writer
        # connects at its first move) count whole, as all their work is in the run.
        others_before = {name: cpu_by_pid(pids_named(word)) for name, word in others.items()}
        cpu_before = total_cpu(pids)
        mine_before = cpu_seconds(os.getpid())
        began = time.perf_counter()
        people = [
            asyncio.create_task(
                person(lobby, table, seat, connection, stats, args.think, stop, rng.random())
            )
            for table, connections in seated
            for seat, connection in enumerate(connections)
        ]
        await asyncio.sleep(args.seconds)
        stop.set()
        played = time.perf_counter() - began
        if profiler is not None:
            await asyncio.to_thread(profiler.wait)
        cpu = total_cpu(pids) - cpu_before
        mine = cpu_seconds(os.getpid()) - mine_before
        used = {
            name: sum(
                seconds - others_before[name].get(pid, 0.0)
                for pid, seconds in cpu_by_pid(pids_named(word)).items()
            )
            for name, word in others.items()
        }
        relayed_moves = await relayed(urls) - relayed_before if len(urls) > 1 else 0
        # The moves in flight: wait for their acknowledgements, then let everyone go.
        drained = time.perf_counter() + DRAIN_SECONDS
        while stats.acked < stats.sent and time.perf_counter() < drained:
            await asyncio.sleep(0.1)
        gc.enable()
        for connection in (c for _, connections in seated for c in connections):
            await connection.close()
        _, late = await asyncio.wait(people, timeout=DRAIN_SECONDS)
        for task in late:
            task.cancel()
        failures = [task.exception() for task in people if task.done() and not task.cancelled()]
        failures = [f for f in failures if f is not None]
        # Every acknowledged move is stored: each table's version on the server is the last
        # version acknowledged in its current match.
        lost = 0
        for table, _ in seated:
            info = await lobby.table(table.code)
            acked = table.acked_version.get(info["match"], 0)
            if info["version"] < acked:
                lost += acked - info["version"]
    moves = stats.acked
    print(f"played: {played:.1f} s, think time {args.think:g} s on average")
    if len(urls) > 1:
        print(f"routing: {'through nginx' if front else 'split, straight to the processes'}; "
              f"moves relayed to another process: {relayed_moves} of {stats.sent} sent "
              f"({100 * relayed_moves / max(1, stats.sent):.1f}%)")
    print(f"moves: {moves} acknowledged of {stats.sent} sent, {moves / played:.0f} moves/s, "
          f"{stats.matches_finished} matches finished")
    both = stats.ack_ms + stats.broadcast_ms
    for name, values in (
        ("the mover", stats.ack_ms),
        ("the other seat", stats.broadcast_ms),
        ("both seats", both),
    ):
        print(
            f"latency to {name}: p50 {percentile(values, 0.5):.1f} ms, "
            f"p99 {percentile(values, 0.99):.1f} ms, max {max(values, default=0):.1f} ms, "
            f"mean {statistics.fmean(values) if values else 0:.1f} ms ({len(values)} receipts)"
        )
    print(
        f"CPU: server{'s' if len(pids) > 1 else ''} {cpu:.1f} s, these simulated people "
        f"{mine:.1f} s, in {played:.1f} s ({100 * cpu / played:.0f}% and "
        f"{100 * mine / played:.0f}% of one core)"
    )
    for name, seconds in {"web processes": cpu, **used}.items():
        per_move = 1000 * seconds / moves if moves else float("nan")
        print(f"CPU per move, {name}: {per_move:.3f} ms ({seconds:.2f} s)")
    unacknowledged = stats.sent - stats.acked
    problems = len(stats.errors) + stats.gaps + lost + len(failures) + len(late) + unacknowledged
    print(f"errors: {len(stats.errors)}, version gaps: {stats.gaps} (states sent again at the "
          f"same version: {stats.again}), lost moves: {lost}, "
          f"unacknowledged: {unacknowledged}, client failures: {len(failures)}, "
          f"stuck: {len(late)}")
    for line in stats.errors[:5]:
        print(f"  {line}")
    for failure in failures[:5]:
        print(f"  {failure!r}")
    if args.profile:
        print_profile(Path(args.profile))
    return 1 if problems else 0


def start_profile(path: str, pid: int, seconds: float) -> subprocess.Popen[bytes]:
    """py-spy sampling ``pid`` for ``seconds``, writing collapsed stacks to ``path``: only the
    samples that hold the interpreter lock, so that threads waiting (the database driver's,
    the thread pool's) and the idle event loop do not bury the work."""
    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    if not Path(spy).exists():
        raise SystemExit("--profile needs py-spy: pip install py-spy")
    return subprocess.Popen(
        [spy, "record", "--pid", str(pid), "--duration", str(int(seconds)), "--rate", "200",
         "--format", "raw", "--gil", "--output", path],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )


def print_profile(path: Path, top: int = 25) -> None:
    """The functions with the most samples: alone (their own code) and with what they call."""
    own: dict[str, int] = {}
    inclusive: dict[str, int] = {}
    total = 0
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack:
            continue
        samples = int(count)
        frames = [frame.split(" (", 1)[0] + " " + frame.rsplit("/", 1)[-1].rstrip(")")
                  for frame in stack.split(";")]
        total += samples
        own[frames[-1]] = own.get(frames[-1], 0) + samples
        for frame in set(frames):
            inclusive[frame] = inclusive.get(frame, 0) + samples
    print(f"profile of the first web process: {total} samples, in {path}")
    for title, counts in (("own time", own), ("with what they call", inclusive)):
        print(f"  by {title}:")
        for frame, samples in sorted(counts.items(), key=lambda item: -item[1])[:top]:
            print(f"    {100 * samples / max(1, total):5.1f}%  {frame}")


@contextlib.contextmanager
def fresh_database(url: str | None) -> Iterator[str | None]:
    """On a PostgreSQL server, a new empty database for this run (dropped afterwards), so that
    no table of an earlier run is brought back; any other URL as it is."""
    if url is None or not url.startswith("postgres"):
        yield url
        return
    import asyncpg  # type: ignore[import-untyped]
    import sqlalchemy as sa

    name = f"scopa_load_{os.getpid()}"

    async def admin(statement: str) -> None:
        connection = await asyncpg.connect(url)
        try:
            await connection.execute(statement)
        finally:
            await connection.close()

    asyncio.run(admin(f'CREATE DATABASE "{name}"'))
    try:
        yield sa.make_url(url).set(database=name).render_as_string(hide_password=False)
    finally:
        asyncio.run(admin(f'DROP DATABASE "{name}" WITH (FORCE)'))


@contextlib.contextmanager
def nginx_in_front(urls: list[str], folder: Path) -> Iterator[str]:
    """Debian's nginx (``scripts/nginx.sh``) on a free loopback port, in front of ``urls`` with
    deploy/nginx/scopa-locations.conf; yields its URL once it accepts connections."""
    binary = os.environ.get("SCOPA_TEST_NGINX") or shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(binary).exists():
        raise SystemExit("no nginx: run `eval \"$(bash scripts/nginx.sh)\"`, or --routing split")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    servers = "\n".join(f"        server {url.split('//')[1].rstrip('/')};" for url in urls)
    (folder / "nginx.conf").write_text(f"""{"user root;" if os.geteuid() == 0 else ""}
worker_processes 1;
daemon off;
pid {folder}/nginx.pid;
events {{ worker_connections 8192; }}
worker_rlimit_nofile 65536;
http {{
    access_log off;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    upstream scopa {{
{servers}
        keepalive 32;
    }}
    upstream scopa_sockets {{
        hash $uri consistent;
{servers}
    }}
    server {{
        listen 127.0.0.1:{port} backlog=4096;
        include {LOCATIONS};
    }}
}}
""")
    process = subprocess.Popen(
        [binary, "-c", str(folder / "nginx.conf"), "-p", str(folder), "-e",
         str(folder / "error.log")], stdin=subprocess.DEVNULL,
    )
    try:
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if process.poll() is not None:
                    raise SystemExit((folder / "error.log").read_text()) from None
                time.sleep(0.05)
        print(f"nginx: pid {process.pid} at http://127.0.0.1:{port}")
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(10)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=500, help="tables of two (default 500)")
    parser.add_argument("--seconds", type=float, default=60.0, help="playing time (default 60)")
    parser.add_argument("--think", type=float, default=1.0, help="mean think time (default 1 s)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", help="database URL (default: a SQLite file in a temporary folder)")
    parser.add_argument("--processes", type=int, default=1, help="scopa serve processes")
    parser.add_argument("--redis", help="Redis URL, shared by the processes (needed for 2+)")
    parser.add_argument(
        "--routing", choices=("nginx", "split"),
        help="with 2+ processes: nginx (the default) in front, as deployed, each table's "
        "sockets to one process; or split, each table's people on two processes",
    )
    parser.add_argument("--keep-collector", action="store_true",
                        help="leave the simulated people's garbage collector on while they play")
    parser.add_argument("--people-ping", type=float, metavar="SECONDS",
                        help="the simulated people ping the room this often (default: never, "
                        "as browsers; 20 until 2026-12-02)")
    parser.add_argument("--profile", metavar="FILE",
                        help="sample the first web process with py-spy into FILE (collapsed)")
    args = parser.parse_args()
    print(machine(), flush=True)
    if args.routing is None:
        args.routing = "nginx" if args.processes > 1 else "split"
    if args.processes > 1 and (args.redis is None or args.db is None):
        parser.error("--processes 2 or more need --redis and a shared --db (PostgreSQL)")
    if not 1 <= args.tables <= 2000 or not 0 < args.seconds <= 600:
        parser.error("keep it bounded: 1..2000 tables, at most 600 seconds")
    lift_open_files()
    if args.redis:
        import redis

        redis.Redis.from_url(args.redis).flushdb()  # no leases or limits of an earlier run
    with tempfile.TemporaryDirectory(prefix="scopa-load-") as folder, fresh_database(
        args.db
    ) as given:
        db = given or f"sqlite+aiosqlite:///{folder}/load.db"
        with Servers() as servers:
            urls = []
            for k in range(args.processes):
                # One loopback address is all the people: the caps per address go up.
                arguments = ["--db", db, "--bot-delay", "0", "--lobby-writes", "100000/minute",
                             "--lobby-reads", "100000/minute",
                             "--table-sockets-per-address", "100000"]
                if args.redis:
                    arguments += ["--redis", args.redis, "--name", f"load{k + 1}"]
                urls.append(servers.start(arguments))
                print(f"server: pid {servers.pids[-1]} at {urls[-1]} on {db}")
            with contextlib.ExitStack() as stack:
                front = (
                    stack.enter_context(nginx_in_front(urls, Path(folder)))
                    if args.processes > 1 and args.routing == "nginx"
                    else None
                )
                return uvloop.run(run(args, urls, servers.pids, front))


if __name__ == "__main__":
    sys.exit(main())
