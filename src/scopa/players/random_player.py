"""The ``random`` level: any legal move, uniformly."""

from __future__ import annotations

import random

from ..moves import Move
from ..view import View
from .base import check_turn


class RandomPlayer:
    """Plays a uniformly random legal move; seeded for reproducible tournaments."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: View) -> Move:
        return self._rng.choice(check_turn(view))
