"""What the benchmarks share: the machine a figure was measured on, and the ``scopa serve``
processes a run starts and stops.

A sibling module, not a package: a benchmark run as ``python benchmarks/X.py`` has this folder
on its import path and imports it as ``harness``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import resource
import socket
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from types import TracebackType
from typing import Any

CHROMIUM = "/usr/bin/chromium"
"""Debian's Chromium, which the benchmarks that drive a browser launch (never Playwright's own)."""
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]  # fmt: skip
"""Its flags: headless, and nothing it would fetch on its own to disturb the figures."""


def machine() -> str:
    """The CPU's model, its cores and the load average: what a figure was measured on."""
    model = "unknown CPU"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    load = " ".join(f"{value:.2f}" for value in os.getloadavg())
    return f"machine: {model}, {os.cpu_count()} cores; load average before the run {load}"


@contextlib.asynccontextmanager
async def in_process(settings: Any) -> AsyncIterator[tuple[Any, str]]:
    """A card room served by this process's event loop on a free loopback port, for a
    benchmark that looks inside it: its app and URL, stopped at the block's end. Requests made
    before it has started wait in the bound socket's backlog."""
    import uvicorn  # the room's own packages only for the benchmarks that serve one

    from scopa.server import create_app

    app = create_app(settings)
    listener = socket.create_server(("127.0.0.1", 0), backlog=1024)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    serving = asyncio.create_task(server.serve(sockets=[listener]))
    try:
        yield app, f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        server.should_exit = True
        await asyncio.wait_for(serving, 60.0)
        listener.close()


def lift_open_files() -> None:
    """Thousands of sockets on each side: lift the soft limit on open files as far as the hard
    one allows, up to 65536 (the servers started afterwards inherit it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 65536)), hard))


class Servers:
    """The ``scopa serve`` processes of a run, each on a free loopback port; the ``with`` block
    stops them all at its end, however it ends."""

    def __init__(self) -> None:
        self.processes: list[subprocess.Popen[str]] = []

    @property
    def pids(self) -> list[int]:
        return [process.pid for process in self.processes]

    def start(self, arguments: list[str]) -> str:
        """Start ``scopa serve --port 0`` with ``arguments`` and return the URL it opened at.
        One that does not say it is open ends the run (status 2) with its first line."""
        process = subprocess.Popen(
            [sys.executable, "-m", "scopa", "serve", "--port", "0", *arguments],
            stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        self.processes.append(process)
        assert process.stdout is not None
        line = process.stdout.readline()
        if "card room is open at" not in line:
            print(f"the server did not start: {line!r}", file=sys.stderr)
            raise SystemExit(2)
        return line.split()[-1]

    def __enter__(self) -> Servers:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            if process.stdout is not None:
                process.stdout.close()
