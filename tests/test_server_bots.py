"""The bots' worker processes: moves come from another process, and a job whose worker dies
is run again on a new one."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from scopa import Game, Rules
from scopa.server.bots import BotPool, choose

from .server_support import anyio_backend

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]


def worker_pid() -> int:
    return os.getpid()


def die_once(marker: str) -> int:
    """Kills its worker the first time (as ``kill -9`` would), answers the second."""
    if not os.path.exists(marker):
        Path(marker).touch()
        os._exit(9)
    return os.getpid()


async def test_a_bot_moves_in_a_worker_process() -> None:
    game = Game.new(Rules.preset("escoba"), seed=5)
    view = game.view(game.to_move)
    pool = BotPool(1)
    try:
        move = await pool.run(choose, "master", view)
        assert move in view.legal_moves()
        assert await pool.run(worker_pid) != os.getpid()
    finally:
        pool.close()


async def test_a_job_whose_worker_dies_runs_again(tmp_path: Path) -> None:
    pool = BotPool(1)
    try:
        first = await pool.run(worker_pid)
        second = await pool.run(die_once, str(tmp_path / "died"))
        assert second not in (first, os.getpid())  # a new worker answered
        assert (tmp_path / "died").exists()
    finally:
        pool.close()
