"""Closing what a process holds in bounded time: a stop that waits forever on one socket's
goodbye is a process that never stops, and a room whose processes cannot be stopped surely
cannot be restarted or deployed."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Final

log = logging.getLogger(__name__)

CLOSE_SECONDS: Final = 2.0
"""How long one close may take before it is given up."""


async def within(what: str, closing: Awaitable[object], seconds: float = CLOSE_SECONDS) -> None:
    """Await ``closing``, giving it up (logged once, naming ``what``) after ``seconds``.

    redis-py's asyncio client can wait forever for a connection's close to be acknowledged
    (``StreamWriter.wait_closed`` in ``Connection.disconnect``: redis/redis-py#3941, open), in
    a pub/sub's ``aclose`` as in a pool's. What is left open then, the process's exit closes.
    """
    try:
        async with asyncio.timeout(seconds):
            await closing
    except TimeoutError:
        log.warning("%s did not close within %g s: left for the process's exit to close",
                    what, seconds)


async def every(
    seconds: Callable[[], float], stop: asyncio.Event, work: Callable[[], Awaitable[object]],
    what: str,
) -> None:
    """Run ``work`` every ``seconds()`` until ``stop`` is set: a loop stopped by a flag, not
    by cancelling it. On Python 3.11 ``asyncio.wait_for`` can lose a cancellation that meets
    a call as it finishes (gh-86296), and a close waiting for a loop that lost it hangs. A
    failed ``work`` is logged (naming ``what``) and tried again next time."""
    while not stop.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), seconds())
        if stop.is_set():
            return
        try:
            await work()
        except Exception:
            log.exception("%s failed; the next one will try again", what)
