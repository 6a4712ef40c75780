"""Sign-ups from one address against ``/healthz``: does registering keep the event loop busy?

Each registration runs argon2id twice at 64 MiB (the password's hash and the seat key). This
starts the card room as its own process on a free loopback port with a fresh SQLite file, times
``/healthz`` for a few quiet seconds, then fires ``--signups`` registrations from one address at
``--rate`` a second while it keeps timing ``/healthz``, and prints both, with how the sign-ups
were answered (201, 429, ...) and how long the last one took to come back.

    .venv/bin/python benchmarks/registration_load.py                       # 60 at 20 a second
    .venv/bin/python benchmarks/registration_load.py --register-limit none # no limit: hashing alone

``--register-limit`` is the room's registrations per address (default: its own default; ``none``
lifts it, to see what the bound on hashes at once does alone). The server gets every other
setting at its default, the lobby's write limit included. On a version of the room without
that setting, it is left out, so the same script measures the room as it was.

Prints figures to compare; it never passes or fails on a time. Only the loopback address is
used, and the run is bounded: at most ``--signups`` requests (1000 at most), each with a time
limit, and a quiet phase of ``--quiet`` seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import httpx

REQUEST_TIMEOUT = 120.0
SERVER = """
import dataclasses, sys
from scopa.server.run import serve
from scopa.server.common.settings import Settings
known = {field.name for field in dataclasses.fields(Settings)}
wanted = {"db_url": sys.argv[1], "register_per_address": sys.argv[2]}
settings = Settings(**{name: value for name, value in wanted.items()
                       if name in known and value != "default"})
sys.exit(serve(settings, "127.0.0.1", 0))
"""


def start_server(db: Path, register_limit: str) -> tuple[subprocess.Popen[str], str]:
    limit = "1000000/second" if register_limit == "none" else register_limit
    process = subprocess.Popen(
        [sys.executable, "-c", SERVER, f"sqlite+aiosqlite:///{db}", limit],
        stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    if "card room is open at" not in line:
        process.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    return process, line.rsplit(" ", 1)[-1].strip().rstrip("/")


async def poll_health(url: str, every: float, stop: asyncio.Event) -> list[float]:
    """``/healthz`` one request at a time, every ``every`` seconds, until ``stop``: each one's
    time in milliseconds."""
    times = []
    async with httpx.AsyncClient(base_url=url, timeout=REQUEST_TIMEOUT) as http:
        while not stop.is_set():
            began = time.perf_counter()
            answer = await http.get("/healthz")
            answer.raise_for_status()
            times.append((time.perf_counter() - began) * 1000)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), every)
    return times


async def sign_up(http: httpx.AsyncClient, number: int) -> tuple[int, float]:
    began = time.perf_counter()
    answer = await http.post(
        "/api/account/register",
        json={"name": f"Load {number}", "password": "a long enough password"},
    )
    return answer.status_code, time.perf_counter() - began


def figures(label: str, times: list[float]) -> str:
    if not times:
        return f"{label}: no request"
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return (f"{label}: {len(times)} requests, median {statistics.median(times):.1f} ms, "
            f"p95 {p95:.1f} ms, max {max(times):.1f} ms")


async def run(url: str, signups: int, rate: float, quiet: float, every: float) -> None:
    stop = asyncio.Event()
    quiet_poll = asyncio.create_task(poll_health(url, every, stop))
    await asyncio.sleep(quiet)
    stop.set()
    print(figures("/healthz, quiet", await quiet_poll))

    stop = asyncio.Event()
    busy_poll = asyncio.create_task(poll_health(url, every, stop))
    began = time.perf_counter()
    limits = httpx.Limits(max_connections=signups)
    async with httpx.AsyncClient(base_url=url, timeout=REQUEST_TIMEOUT, limits=limits) as http:
        jobs = []
        for number in range(signups):
            jobs.append(asyncio.create_task(sign_up(http, number)))
            await asyncio.sleep(1 / rate)
        answers = await asyncio.gather(*jobs)
    took = time.perf_counter() - began
    stop.set()
    print(figures("/healthz, during the sign-ups", await busy_poll))
    statuses = Counter(status for status, _ in answers)
    made = [seconds for status, seconds in answers if status == 201]
    print(f"sign-ups: {signups} at {rate:g} a second, answered "
          f"{', '.join(f'{count} x {status}' for status, count in sorted(statuses.items()))}; "
          f"the last answer {took:.1f} s after the first request")
    if made:
        print(f"a 201 took: median {statistics.median(made):.2f} s, max {max(made):.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--signups", type=int, default=60, help="registrations to fire")
    parser.add_argument("--rate", type=float, default=20.0, help="registrations a second")
    parser.add_argument("--register-limit", default="default",
                        help="the room's registrations per address: 'default', 'none', or "
                        "limits such as '5/minute'")
    parser.add_argument("--quiet", type=float, default=3.0, help="seconds of /healthz alone")
    parser.add_argument("--every", type=float, default=0.05, help="seconds between /healthz")
    args = parser.parse_args()
    if not 1 <= args.signups <= 1000 or not 0 < args.rate <= 1000:
        parser.error("--signups must be 1 to 1000 and --rate more than 0, at most 1000")
    with tempfile.TemporaryDirectory(prefix="scopa-registration-") as folder:
        process, url = start_server(Path(folder) / "room.db", args.register_limit)
        try:
            print(f"the room at {url} (registrations per address: {args.register_limit})")
            asyncio.run(run(url, args.signups, args.rate, args.quiet, args.every))
        finally:
            process.terminate()
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


if __name__ == "__main__":
    main()
