"""Jobs the tests hand to the bots' and the reviews' worker processes.

A worker unpickles a job's function by importing its module. A test module imports the
room, httpx, pytest and SQLAlchemy: about 1.3 s of CPU, which a reviews' worker at niceness 19
on a machine whose cores are busy gets at a few hundredths of a core, minutes of waiting
(issue 33's stressed runs timed out on it). Here a worker imports only the standard library.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

HOLD_SECONDS = 60.0
"""The longest a held worker waits for its gate: a test that never opens it ends anyway."""


def hold_until(gate: threading.Event) -> None:
    """Keeps a reviews' worker busy until ``gate`` is set (at most :data:`HOLD_SECONDS`), so
    that a review asked for meanwhile is still running when the test looks. ``gate`` is a
    manager's event: the worker is another process."""
    gate.wait(HOLD_SECONDS)


def worker_pid() -> int:
    return os.getpid()


def die_once(marker: str) -> int:
    """Kills its worker the first time (as ``kill -9`` would), answers the second."""
    if not os.path.exists(marker):
        Path(marker).touch()
        os._exit(9)
    return os.getpid()
