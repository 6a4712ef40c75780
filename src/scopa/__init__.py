"""Scopa and Escoba: the rules core.

A typed, dependency-free library: cards, moves, house rules as data, capture
enumeration, scoring with a full breakdown, a match state machine with per-seat
views, and records that replay.

>>> from scopa import Game, Rules
>>> game = Game.new(Rules.preset("escoba"), seed=1)
>>> while not game.is_over:
...     game.play(game.legal_moves()[0])
>>> game.winner in (0, 1)
True
"""

from .capture import capture_options
from .cards import CARDS, RANKS, SUITS, Card, Mask
from .errors import IllegalMoveError, InvalidMoveError
from .game import Game
from .moves import Move
from .rules import PRESETS, Rules, preset_names
from .scoring import RoundScore, match_winner, score_round
from .view import Play, View

__all__ = [
    "CARDS",
    "PRESETS",
    "RANKS",
    "SUITS",
    "Card",
    "Game",
    "IllegalMoveError",
    "InvalidMoveError",
    "Mask",
    "Move",
    "Play",
    "RoundScore",
    "Rules",
    "View",
    "capture_options",
    "match_winner",
    "preset_names",
    "score_round",
]

__version__ = "0.1.0"
