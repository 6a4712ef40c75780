"""The ``greedy`` level: the capture worth most right now, else the least harmful trail.

It looks one move ahead and no further, and it does not count cards: a baseline
that plays sensibly card by card, which the ``expert`` must beat. Captures are
ranked the way a beginner weighs them, one category after another: a sweep
first, then the settebello, coins, sevens and sixes, the number of cards, and
the primiera value of the cards taken. A trail is chosen to leave no table that
some card could sweep, and then to give away the least. In team games its
captures score for its side; looking no further than its own move, it treats
partners and opponents alike.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..cards import COINS_MASK, PRIMIERA_VALUES, SETTEBELLO, VALUE_MASKS, ids_of, value_of
from ..moves import Move
from ..round import sweep_scores, sweepers
from ..rules import Rules
from ..view import View
from .base import check_turn, table_mask
from .inference import is_last_play

_SEVENS_AND_SIXES = VALUE_MASKS[7] | VALUE_MASKS[6]
_SETTEBELLO = SETTEBELLO.bit


def _primiera_sum(mask: int) -> int:
    return sum(PRIMIERA_VALUES[card_id % 10] for card_id in ids_of(mask))


def _gain(mask: int) -> tuple[int, int, int, int, int]:
    """What taking the cards of ``mask`` wins, most important first."""
    return (
        1 if mask & _SETTEBELLO else 0,
        (mask & COINS_MASK).bit_count(),
        (mask & _SEVENS_AND_SIXES).bit_count(),
        mask.bit_count(),
        _primiera_sum(mask),
    )


def sweepable(rules: Rules, table: int) -> bool:
    """Whether some card, whoever holds it, could sweep ``table`` (no card counting)."""
    return bool(table) and bool(sweepers(rules, value_of(table)))


class GreedyPlayer:
    """Takes the best capture on offer; trails the card whose loss hurts least.

    Ties between equally good moves are broken by a seeded random choice, so
    two greedy bots do not mirror each other and tournaments are reproducible.
    """

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: View) -> Move:
        moves = check_turn(view)
        if len(moves) == 1:
            return moves[0]
        rules = view.rules
        table = table_mask(view)
        captures = [move for move in moves if move.is_capture]
        if captures:
            last_play = is_last_play(view)

            def capture_key(move: Move) -> tuple[int, ...]:
                sweep = move.captured_mask == table and sweep_scores(rules, move, last_play)
                return (int(sweep), *_gain(move.captured_mask | move.card_bit))

            return self._best(captures, capture_key)

        def trail_key(move: Move) -> tuple[int, ...]:
            # Negated: the best trail leaves no sweep and gives away the least.
            harm = (int(sweepable(rules, table | move.card_bit)), *_gain(move.card_bit))
            return tuple(-part for part in harm)

        return self._best(moves, trail_key)

    def _best(self, moves: list[Move], key: Callable[[Move], tuple[int, ...]]) -> Move:
        keyed = [(key(move), move) for move in moves]
        top = max(k for k, _ in keyed)
        return self._rng.choice([move for k, move in keyed if k == top])
