"""Puzzles from the exact solver: last-deal positions where one move is strictly best.

>>> from scopa.puzzles import make
>>> [puzzle] = make("scopa", count=1, seed=1)
>>> best = str(puzzle.best)
>>> puzzle.values[best] >= 1 + max(v for move, v in puzzle.values.items() if move != best)
True
>>> from scopa.puzzles.sets import shipped
>>> len(shipped("escoba"))
2000
"""

from __future__ import annotations

from .finder import make
from .puzzle import THEMES, Position, Puzzle

__all__ = ["THEMES", "Position", "Puzzle", "make"]
