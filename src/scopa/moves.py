"""Moves: one card played from hand, either trailed or capturing table cards."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from .cards import CARDS, Card, cards_of, ids_of
from .errors import InvalidMoveError


class Move:
    """Playing ``card``; ``captured`` is empty for a trail.

    Moves are interned by content, so equal moves are the same object and the
    engine can compare them by identity. The code is canonical: captured cards
    lowest rank first, then suit order D, H, S, C.

    >>> move = Move.parse("5dx3s+2c")
    >>> str(move), str(move.card), sorted(str(c) for c in move.captured)
    ('5Dx2C+3S', '5D', ['2C', '3S'])
    >>> Move.parse("5D").is_trail
    True
    """

    __slots__ = ("_code", "captured", "captured_mask", "card", "card_bit", "key")

    card: Card
    card_bit: int
    """``card.bit``, kept on the move for the engine's hot path."""
    captured: frozenset[Card]
    captured_mask: int
    """The captured cards as a mask (0 for a trail)."""
    key: int
    """A small int that identifies the move: ``captured_mask << 6 | card.id``."""
    _code: str

    def __new__(cls, card: Card, captured: Iterable[Card] = ()) -> Move:
        mask = 0
        for taken in captured:
            mask |= taken.bit
        if mask & card.bit:
            raise InvalidMoveError(f"{card} cannot capture itself")
        return move_of(card.id, mask)

    @classmethod
    def _make(cls, card_id: int, captured_mask: int) -> Move:
        move = object.__new__(cls)
        move.card = CARDS[card_id]
        move.card_bit = 1 << card_id
        move.captured_mask = captured_mask
        move.captured = frozenset(CARDS[i] for i in ids_of(captured_mask))
        move.key = captured_mask << 6 | card_id
        code = str(move.card)
        if captured_mask:
            code += "x" + "+".join(str(c) for c in cards_of(captured_mask))
        move._code = code
        return move

    @classmethod
    def trail(cls, card: Card) -> Move:
        """Lay ``card`` on the table without capturing."""
        return move_of(card.id, 0)

    @classmethod
    def parse(cls, code: str) -> Move:
        """Parse a move code: ``"5D"`` (trail) or ``"5Dx2C+3S"`` (capture); case is ignored."""
        if not isinstance(code, str):
            raise InvalidMoveError(f"a move code must be a string, not {type(code).__name__}")
        text = code.strip().replace(" ", "")
        played, sep, rest = text.partition("x") if "x" in text else text.partition("X")
        try:
            card = Card.parse(played)
            if not sep:
                return move_of(card.id, 0)
            if not rest:
                raise ValueError("nothing after 'x'")
            mask = 0
            for part in rest.split("+"):
                taken = Card.parse(part)
                if mask & taken.bit:
                    raise ValueError(f"{taken} is named twice")
                mask |= taken.bit
        except ValueError as error:
            raise InvalidMoveError(
                f"cannot read move {code!r}: {error}. A move is a card (5D) or a card, 'x' "
                "and the captured cards joined by '+' (5Dx2C+3S)"
            ) from None
        if mask & card.bit:
            raise InvalidMoveError(f"cannot read move {code!r}: {card} cannot capture itself")
        return move_of(card.id, mask)

    @property
    def is_trail(self) -> bool:
        return not self.captured_mask

    @property
    def is_capture(self) -> bool:
        return bool(self.captured_mask)

    def __str__(self) -> str:
        return self._code

    def __repr__(self) -> str:
        return f"Move.parse({self._code!r})"

    def __reduce__(self) -> tuple[object, tuple[int, int]]:
        return (move_of, (self.card.id, self.captured_mask))

    def __copy__(self) -> Move:
        return self

    def __deepcopy__(self, memo: object) -> Move:
        return self


_MOVES: Final[dict[int, Move]] = {}


def move_of(card_id: int, captured_mask: int) -> Move:
    """The interned move playing card ``card_id`` and capturing ``captured_mask``."""
    key = captured_mask << 6 | card_id
    move = _MOVES.get(key)
    if move is None:
        move = _MOVES[key] = Move._make(card_id, captured_mask)
    return move
