"""The pools there are: one per game and format, each rated or casual.

A pool's name is its format and its mode, such as ``scopa-rated``; its rating pool (whose
ratings pair it) is the one the table's rules rate in (:func:`..accounts.ratings.pool_of`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ...rules import Rules
from ..accounts.ratings import ANCHORS, pool_of


@dataclass(frozen=True)
class Format:
    """A game and format people queue for: the rules preset, its seats and its deck look."""

    name: str
    preset: str
    players: int
    look: str

    def rules(self) -> Rules:
        return Rules.preset(self.preset)

    @property
    def rating_pool(self) -> str:
        return pool_of(self.rules())


FORMATS: Final = {
    "scopa": Format("scopa", "scopa", 2, "italian"),
    "escoba": Format("escoba", "escoba", 2, "spanish"),
    "scopone": Format("scopone", "scopone", 4, "italian"),
}
"""Scopa and escoba for two, scopone for four in two teams."""


def pool_name(format_name: str, rated: bool) -> str:
    """
    >>> pool_name("scopone", True), pool_name("scopa", False)
    ('scopone-rated', 'scopa-casual')
    """
    return f"{format_name}-{'rated' if rated else 'casual'}"


POOLS: Final = tuple(pool_name(name, rated) for name in FORMATS for rated in (False, True))


def level_for(rating: float) -> str:
    """The computer's level closest to a rating: the bot a waiting person may play meanwhile.

    >>> level_for(25.0), level_for(12.0), level_for(40.0)
    ('expert', 'random', 'master')
    """
    return min(ANCHORS, key=lambda level: abs(ANCHORS[level] - rating))
