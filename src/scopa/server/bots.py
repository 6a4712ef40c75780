"""Bots at the card room's tables: who plays a bot seat, who stands in for an absent person,
how a bot thinks without stalling everyone else's table, and the master's hints for people.
"""

from __future__ import annotations

import asyncio
import random
from concurrent.futures import Executor

from ..moves import Move
from ..players import LEVELS, Player, Reason, hint, make_player
from ..view import View


def stand_in_level() -> str:
    """The level that plays for a person who left or ran out of time: the expert when there is
    one, else the strongest level there is (``LEVELS`` runs from weakest to strongest)."""
    return "expert" if "expert" in LEVELS else LEVELS[-1]


def default_level() -> str:
    """The opponent of "play against the computer" when the caller names no level."""
    return stand_in_level()


def bot_for(level: str | None) -> Player:
    """A bot of ``level``; a level this server no longer knows gets the stand-in instead, so a
    table stored by an older version still resumes."""
    if level in LEVELS:
        return make_player(level)
    return make_player(stand_in_level())


async def pause(delay: tuple[float, float]) -> None:
    """A person-like wait before a bot plays, so people can follow the game."""
    low, high = delay
    if high > 0:
        await asyncio.sleep(random.uniform(low, high))


async def think(player: Player, view: View, executor: Executor) -> Move:
    """The bot's move, chosen in a worker thread: a search may take a while, and the event loop
    must keep serving every other table meanwhile."""
    return await asyncio.get_running_loop().run_in_executor(executor, player.choose, view)


async def advise(view: View, executor: Executor) -> tuple[Move, Reason]:
    """The master's hint for a person's own ``view``, worked out in the bots' threads for the
    same reason as :func:`think`: its search must not hold up the event loop."""
    return await asyncio.get_running_loop().run_in_executor(executor, hint, view)
