"""``scopa serve``: the card room on uvicorn, on one socket bound before the app starts.

Binding first lets ``--port 0`` pick a free port and still print the real URL, and clients that
connect while the database is being migrated wait in the listen queue instead of being refused.
"""

from __future__ import annotations

import gc
import socket
import sys

import sqlalchemy as sa
import uvicorn
from fastapi import FastAPI
from limits import parse_many

from .app import create_app
from .common.settings import DEFAULT_DB, Settings

BACKLOG = 4096
"""Connections the kernel queues while the server is busy: a load test opens a thousand."""
GC_YOUNG_THRESHOLD = 20_000
MAX_FRAME_BYTES = 64 * 1024
"""uvicorn drops frames over this (close 1009); between the protocol's 4 KiB and this, the
client gets a readable ``too_large`` error instead."""


def settings_from(
    db: str | None,
    bot_delay: float | None,
    turn_timeout: float | None,
    redis: str | None = None,
    name: str | None = None,
    bot_queue: bool = False,
    lobby_writes: str | None = None,
    lobby_reads: str | None = None,
    provisional_matches: int | None = None,
    login_per_address: str | None = None,
    login_per_account: str | None = None,
    register_per_address: str | None = None,
    review_workers: int | None = None,
    review_queue: int | None = None,
    review_per_address: str | None = None,
    review_per_account: str | None = None,
    table_sockets_per_address: int | None = None,
    sections: tuple[object, ...] = (),
) -> Settings:
    """Settings from the command line; a bot delay of ``d`` pauses between ``d/2`` and ``d``.
    ``sections``: the features' own, each made from its flags by its part (:mod:`.feature`)."""
    if bot_delay is not None and not bot_delay >= 0:
        raise ValueError(f"--bot-delay must be 0 or more seconds; got {bot_delay}")
    if turn_timeout is not None and not turn_timeout > 0:
        raise ValueError(f"--turn-timeout must be more than 0 seconds; got {turn_timeout}")
    delay = Settings.bot_delay if bot_delay is None else (bot_delay / 2, bot_delay)
    timeout = Settings.turn_timeout if turn_timeout is None else turn_timeout
    if redis is not None and not redis.startswith(("redis://", "rediss://", "unix://")):
        raise ValueError(f"--redis must be a redis:// URL; got {redis!r}")
    if provisional_matches is not None and provisional_matches < 0:
        raise ValueError(f"--provisional-matches must be 0 or more; got {provisional_matches}")
    for option, count in (("--review-workers", review_workers), ("--review-queue", review_queue),
                          ("--table-sockets-per-address", table_sockets_per_address)):
        if count is not None and count < 1:
            raise ValueError(f"{option} must be 1 or more; got {count}")
    for option, limits in (("--lobby-writes", lobby_writes), ("--lobby-reads", lobby_reads),
                           ("--login-per-address", login_per_address),
                           ("--login-per-account", login_per_account),
                           ("--register-per-address", register_per_address),
                           ("--review-per-address", review_per_address),
                           ("--review-per-account", review_per_account)):
        if limits is not None:
            try:
                parse_many(limits)
            except ValueError:
                raise ValueError(
                    f"{option} must be limits such as '20/second;300/minute'; got {limits!r}"
                ) from None
    if bot_queue and redis is None:
        raise ValueError("--bot-queue needs --redis: the queue is in Redis")
    return Settings(
        db_url=db or DEFAULT_DB,
        bot_delay=delay,
        turn_timeout=timeout,
        redis_url=redis,
        process_name=name,
        bot_queue=bot_queue,
        http_writes=lobby_writes or Settings.http_writes,
        http_reads=lobby_reads or Settings.http_reads,
        provisional_matches=(Settings.provisional_matches if provisional_matches is None
                             else provisional_matches),
        login_per_address=login_per_address or Settings.login_per_address,
        login_per_account=login_per_account or Settings.login_per_account,
        register_per_address=register_per_address or Settings.register_per_address,
        review_workers=Settings.review_workers if review_workers is None else review_workers,
        review_queue=Settings.review_queue if review_queue is None else review_queue,
        review_per_address=review_per_address or Settings.review_per_address,
        review_per_account=review_per_account or Settings.review_per_account,
        table_sockets_per_address=(Settings.table_sockets_per_address
                                   if table_sockets_per_address is None
                                   else table_sockets_per_address),
        sections=sections,
    )


def serve(settings: Settings, host: str, port: int) -> int:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        listener = socket.create_server((host, port), family=family, backlog=BACKLOG)
    except OSError as error:
        print(f"scopa: error: cannot listen on {host}:{port}: {error.strerror}", file=sys.stderr)
        return 2
    bound = listener.getsockname()[1]
    shown = f"[{host}]" if family == socket.AF_INET6 else host
    url = f"http://{shown}:{bound}/"

    def opened() -> None:
        print(f"scopa: the card room is open at {url}", flush=True)
        # What is loaded by now (modules, the app, the tables brought back) lives as long as the
        # process: leave it out of every garbage collection from here on.
        gc.freeze()

    try:
        app = create_app(settings, on_open=opened)
    except (sa.exc.ArgumentError, sa.exc.NoSuchModuleError) as error:
        listener.close()
        print(f"scopa: error: --db {settings.db_url}: {error}", file=sys.stderr)
        return 2
    # Per move, the server makes thousands of short-lived objects that reference counting frees;
    # collecting every 700 allocations (the default) paused every table for tens of ms, and a
    # full collection over a thousand connections' objects for 200 ms or more (benchmarks/
    # server_load.py: p99 over 100 ms from these pauses alone).
    gc.set_threshold(GC_YOUNG_THRESHOLD, 10, 10)
    # When the database cannot be opened, uvicorn logs why and exits with status 3.
    uvicorn.Server(uvicorn_config(app)).run(sockets=[listener])
    return 0


def uvicorn_config(app: FastAPI) -> uvicorn.Config:
    """How the card room runs on uvicorn (the tests run it the same way)."""
    return uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        ws_max_size=MAX_FRAME_BYTES,
        # Views are a few KiB: compressing each one cost more server time than it saved.
        ws_per_message_deflate=False,
        timeout_graceful_shutdown=5,
    )
