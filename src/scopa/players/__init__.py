"""Bots, from ``random`` to ``master``, behind one interface: ``choose(view) -> Move``.

>>> from scopa import Game, Rules
>>> from scopa.players import make_player
>>> game = Game.new(Rules.preset("scopa"), seed=3)
>>> bot = make_player("random", seed=1)
>>> move = bot.choose(game.view(game.to_move))
>>> move in game.legal_moves()
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from .base import Player
from .expert import ExpertPlayer
from .greedy import GreedyPlayer
from .hints import Reason, hint, suggest
from .inference import unseen_mask
from .master import MasterPlayer
from .random_player import RandomPlayer

_FACTORIES: Final[dict[str, Callable[[int | None], Player]]] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
    "expert": ExpertPlayer,
    "master": MasterPlayer,
}

LEVELS: Final = tuple(_FACTORIES)
"""The levels in order of strength, as shown to users."""

LEVEL_NAMES: Final[Mapping[str, str]] = {
    "random": "Beginner",
    "greedy": "Casual",
    "expert": "Expert",
    "master": "Master",
}
"""What people call each level, in English (the web client has them in its own languages)."""


def make_player(level: str, seed: int | None = None) -> Player:
    """A new bot of ``level``; ``seed`` makes its choices reproducible."""
    try:
        factory = _FACTORIES[level]
    except KeyError:
        raise ValueError(f"unknown level {level!r}; the levels are: {', '.join(LEVELS)}") from None
    return factory(seed)


__all__ = [
    "LEVELS",
    "LEVEL_NAMES",
    "ExpertPlayer",
    "GreedyPlayer",
    "MasterPlayer",
    "Player",
    "RandomPlayer",
    "Reason",
    "hint",
    "make_player",
    "suggest",
    "unseen_mask",
]
