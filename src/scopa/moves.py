"""Moves: one card played from hand, either trailed or capturing table cards."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from .cards import CARDS, Card, Mask, ids_of
from .errors import InvalidMoveError

_CODES: Final = tuple(str(card) for card in CARDS)
_SUITS_OF_ACE: Final = sum(1 << (suit * 10) for suit in range(4))
"""The four aces' bits: shifted up by a rank index, that rank's four cards."""


def _codes_of(mask: Mask) -> list[str]:
    """The codes of the cards of ``mask`` in canonical order (rank, then suit): what
    ``cards_of`` sorts, read rank by rank. The engine makes a move the first time it
    meets it, and escoba meets new ones for a long time (its captures are many)."""
    codes = []
    for rank in range(10):
        of_rank = mask >> rank & _SUITS_OF_ACE
        while of_rank:
            low = of_rank & -of_rank
            of_rank ^= low
            codes.append(_CODES[rank + low.bit_length() - 1])
    return codes


class Move:
    """Playing ``card``; ``captured`` is empty for a trail.

    The engine shares one object per move (:func:`move_of`), so its moves usually
    compare by identity; equality and hashing go by content all the same. The code
    is canonical: captured cards lowest rank first, then suit order D, H, S, C.

    >>> move = Move.parse("5dx3s+2c")
    >>> str(move), str(move.card), sorted(str(c) for c in move.captured)
    ('5Dx2C+3S', '5D', ['2C', '3S'])
    >>> Move.parse("5D").is_trail
    True
    """

    __slots__ = ("_code", "captured", "captured_mask", "card", "card_bit", "key")

    card: Card
    card_bit: Mask
    """``card.bit``, kept on the move for the engine's hot path."""
    captured: frozenset[Card]
    captured_mask: Mask
    """The captured cards as a mask (0 for a trail)."""
    key: int
    """A small int that identifies the move: ``captured_mask << 6 | card.id``."""
    _code: str

    def __init__(self, card: Card, captured: Iterable[Card] | int = ()) -> None:
        """Play ``card`` capturing ``captured`` (cards, or their mask; empty: a trail).

        :meth:`parse`, :meth:`trail` and the engine hand out shared moves; a move
        built here is equal to its shared twin all the same.
        """
        if isinstance(captured, int):
            mask = captured
        else:
            mask = 0
            for taken in captured:
                mask |= taken.bit
        if mask & card.bit:
            raise InvalidMoveError(f"{card} cannot capture itself")
        card_id = card.id
        self.card = CARDS[card_id]
        self.card_bit = 1 << card_id
        self.captured_mask = mask
        self.captured = frozenset([CARDS[i] for i in ids_of(mask)])
        self.key = mask << 6 | card_id
        code = _CODES[card_id]
        self._code = code + "x" + "+".join(_codes_of(mask)) if mask else code

    @classmethod
    def trail(cls, card: Card) -> Move:
        """Lay ``card`` on the table without capturing."""
        return move_of(card.id, 0)

    @classmethod
    def parse(cls, code: object) -> Move:
        """Parse a move code: ``"5D"`` (trail) or ``"5Dx2C+3S"`` (capture); case is ignored."""
        if not isinstance(code, str):
            raise InvalidMoveError(f"a move code must be a string, not {type(code).__name__}")
        text = code.strip().replace(" ", "")
        played, sep, rest = text.partition("x") if "x" in text else text.partition("X")
        try:
            card = Card.parse(played or text)
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

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Move) and other.key == self.key)

    def __hash__(self) -> int:
        return self.key

    def __repr__(self) -> str:
        return f"Move.parse({self._code!r})"

    def __reduce__(self) -> tuple[object, tuple[int, int]]:
        return (move_of, (self.card.id, self.captured_mask))

    def __copy__(self) -> Move:
        return move_of(self.card.id, self.captured_mask)

    def __deepcopy__(self, memo: object) -> Move:
        return move_of(self.card.id, self.captured_mask)


_MOVES: Final[dict[int, Move]] = {}


def move_of(card_id: int, captured_mask: Mask) -> Move:
    """The interned move playing card ``card_id`` and capturing ``captured_mask``."""
    key = captured_mask << 6 | card_id
    move = _MOVES.get(key)
    if move is None:
        move = _MOVES[key] = Move(CARDS[card_id], captured_mask)
    return move
