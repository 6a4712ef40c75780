"""The fixed action space of every environment: one number for each move that can ever be legal.

The numbering is the same for every preset, player count and state, so a capture
choice is an action of its own (``7CxAD+6D`` and ``7Cx3S+4C`` are two actions):

- ``0..39``: trail card ``id`` (ids as in :data:`scopa.cards.CARDS`: ``suit * 10 + rank``);
- ``40..43``: the Ace of suit ``0..3`` takes the whole table (asso piglia tutto,
  ``ace_takes_all``: what it takes is the table of the moment);
- ``44..16203``: the ``sum`` captures (scopa): a card and a set of other cards
  whose values add up to its value, by card id, then by the captured mask as a
  number (the lowest first);
- ``16204..100651``: the ``fifteen`` captures (escoba): a card and a set of other
  cards worth ``15`` with it, in the same order.

A preset with ``capture="sum"`` only ever allows actions below
:data:`FIFTEEN_START`; an escoba preset only trails and actions from there on.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Final

import numpy as np
import numpy.typing as npt

from ..cards import CAPTURE_VALUES
from ..errors import IllegalMoveError
from ..moves import Move, move_of
from ..rules import Rules

ACE_TAKES_ALL: Final = 40
SUM_START: Final = 44

_VALUES: Final = tuple(CAPTURE_VALUES[i % 10] for i in range(40))


def _subsets_worth(cards: list[int], total: int) -> list[int]:
    """Every set of the card ids ``cards`` whose values add up to ``total``, as masks."""
    found: list[int] = []

    def grow(start: int, mask: int, left: int) -> None:
        for k in range(start, len(cards)):
            value = _VALUES[cards[k]]
            if value == left:
                found.append(mask | 1 << cards[k])
            elif value < left:
                grow(k + 1, mask | 1 << cards[k], left - value)

    grow(0, 0, total)
    return sorted(found)


class Catalogue:
    """Every action, both ways: ``(card id, captured mask)`` by number and number by move key."""

    def __init__(self) -> None:
        pairs: list[tuple[int, int]] = [(card, 0) for card in range(40)]
        pairs += [(suit * 10, -1) for suit in range(4)]
        for fifteen in (False, True):
            if fifteen:
                self.fifteen_start = len(pairs)
            for card in range(40):
                others = [other for other in range(40) if other != card]
                total = 15 - _VALUES[card] if fifteen else _VALUES[card]
                pairs += [(card, mask) for mask in _subsets_worth(others, total)]
        self.pairs: Final = tuple(pairs)
        self.size: Final = len(pairs)
        self.index: Final = {
            mask << 6 | card: n for n, (card, mask) in enumerate(pairs) if mask >= 0
        }


@functools.cache
def catalogue() -> Catalogue:
    """The catalogue, built once (about 100,000 actions, a fraction of a second)."""
    return Catalogue()


SIZE: Final = 100_652
"""The number of actions (checked against the catalogue by the tests)."""
FIFTEEN_START: Final = 16_204


def action_of(rules: Rules, move: Move) -> int:
    """The number of ``move`` under ``rules``."""
    if rules.ace_takes_all and move.captured_mask and move.card.rank_index == 0:
        return ACE_TAKES_ALL + move.card.suit_index
    return catalogue().index[move.key]


def move_for(rules: Rules, action: object, table: int) -> Move:
    """The move action number ``action`` stands for under ``rules``, with ``table`` on the table.

    A number outside the space, or one these rules number otherwise (an Ace's capture
    with and without asso piglia tutto), raises :class:`~scopa.errors.IllegalMoveError`;
    whether the move is legal now is the core's to say when it is played.
    """
    if not isinstance(action, int | np.integer) or isinstance(action, bool):
        raise IllegalMoveError(f"an action is a whole number 0..{SIZE - 1}; got {action!r}")
    number = int(action)
    if not 0 <= number < SIZE:
        raise IllegalMoveError(f"action {number} is out of range: actions are 0..{SIZE - 1}")
    card, mask = catalogue().pairs[number]
    move = move_of(card, table if mask < 0 else mask)
    if (mask < 0) != (rules.ace_takes_all and card % 10 == 0 and bool(move.captured_mask)):
        raise IllegalMoveError(
            f"action {number} is not a legal move now: an Ace's capture is action 40 + its suit "
            "with ace_takes_all, and its catalogued number without"
        )
    return move


def action_mask(rules: Rules, moves: Iterable[Move]) -> npt.NDArray[np.int8]:
    """A 0/1 vector over the whole action space: 1 for each of ``moves``."""
    mask = np.zeros(SIZE, dtype=np.int8)
    mask[[action_of(rules, move) for move in moves]] = 1
    return mask
