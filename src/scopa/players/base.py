"""The player interface: a bot turns what one seat may know into a move.

A bot is handed a :class:`~scopa.view.View`, the same picture a person at that
seat gets, and nothing else; it cannot reach another hand, the stock or the
seed because they are not in the view. Bots work on masks internally for
speed, and these helpers give them the masks of what the view holds; what a seat
can infer beyond that is in :mod:`.inference`.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ..cards import mask_of
from ..moves import Move
from ..view import View


@runtime_checkable
class Player(Protocol):
    """Anything that picks a move for the seat a view belongs to."""

    name: str
    """The level's name as shown to users (``random``, ``greedy``, ``expert``, ``master``)."""

    def choose(self, view: View) -> Move:
        """A legal move for ``view.seat``; only called when it is that seat's turn."""
        ...


def hand_mask(view: View) -> int:
    return mask_of(view.hand)


def table_mask(view: View) -> int:
    return mask_of(view.table)


def check_turn(view: View) -> list[Move]:
    """The legal moves of ``view``; a ``ValueError`` if it is not this seat's turn."""
    moves = view.legal_moves()
    if not moves:
        raise ValueError("it is not this seat's turn: there is no move to choose")
    return moves
