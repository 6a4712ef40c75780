"""Cards of the 40-card Italian/Spanish deck, and card sets as 40-bit masks.

A card is one of 40 interned objects, so identity, equality and hashing are the
same thing and a card id doubles as a bit position: the rules engine keeps hands,
the table and the captured piles as plain ``int`` masks (python-chess's
bitboards), and only turns them into ``Card`` objects at the public surface.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final, TypeAlias

Mask: TypeAlias = int
"""A set of cards as a 40-bit int: bit ``card.id`` is set for each card in it (python-chess's
``Bitboard``). Sets of cards are unions, intersections and differences of masks."""

RANKS: Final = ("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K")
"""Rank letters in canonical order (index 0..9)."""

SUITS: Final = ("D", "H", "S", "C")
"""Suit letters in canonical order: D is coins (denari, oros) in every deck look."""

CAPTURE_VALUES: Final = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
"""Capture value by rank index: A=1 .. 7=7, J=8, Q=9, K=10."""

PRIMIERA_VALUES: Final = (16, 12, 13, 14, 15, 18, 21, 10, 10, 10)
"""Primiera value by rank index."""

COINS: Final = 0
"""Suit index of coins (D)."""

ALL_CARDS_MASK: Final = (1 << 40) - 1


class Card:
    """One card, such as ``7D`` (the settebello).

    Cards are shared: ``Card.parse("7d") is Card.parse("7D")``, and equality and
    hashing go by the card's id. They order by rank first and then suit (D, H, S,
    C), the order used to print captures. No ``__new__`` tricks: the class compiles
    with mypyc (see ``setup.py``).

    >>> card = Card.parse("7d")
    >>> str(card), card.rank, card.suit, card.value, card.id
    ('7D', '7', 'D', 7, 6)
    """

    __slots__ = ("bit", "id", "primiera", "rank", "rank_index", "suit", "suit_index", "value")

    id: int
    """0..39: ``suit_index * 10 + rank_index``."""
    bit: Mask
    """``1 << id``, the card as a one-card mask."""
    rank: str
    suit: str
    rank_index: int
    suit_index: int
    value: int
    """Capture value: A=1 .. 7=7, J=8, Q=9, K=10."""
    primiera: int
    """Primiera value (7=21, 6=18, A=16, 5=15, 4=14, 3=13, 2=12, figures 10)."""

    def __init__(self, rank: str, suit: str) -> None:
        """The card of ``rank`` (``"A"``..``"K"``) and ``suit`` (``"D"``..``"C"``).

        Prefer :meth:`parse` or :data:`CARDS`, which hand out the 40 shared objects;
        a card built here is equal to its shared twin all the same.
        """
        rank_u, suit_u = rank.upper(), suit.upper()
        if rank_u not in RANKS:
            raise ValueError(f"unknown rank {rank!r}: expected one of {' '.join(RANKS)}")
        if suit_u not in SUITS:
            raise ValueError(f"unknown suit {suit!r}: expected one of {' '.join(SUITS)}")
        rank_index, suit_index = RANKS.index(rank_u), SUITS.index(suit_u)
        self.id = suit_index * 10 + rank_index
        self.bit = 1 << self.id
        self.rank = rank_u
        self.suit = suit_u
        self.rank_index = rank_index
        self.suit_index = suit_index
        self.value = CAPTURE_VALUES[rank_index]
        self.primiera = PRIMIERA_VALUES[rank_index]

    @classmethod
    def from_id(cls, card_id: int) -> Card:
        """Return the card with id ``card_id`` (0..39)."""
        if not 0 <= card_id < 40:
            raise ValueError(f"card id {card_id} is out of range 0..39")
        return CARDS[card_id]

    @classmethod
    def parse(cls, code: object) -> Card:
        """Parse a card code such as ``"7D"`` or ``"kh"`` (case is ignored)."""
        card = _BY_CODE.get(code.strip().upper()) if isinstance(code, str) else None
        if card is None:
            raise ValueError(
                f"not a card: {code!r} (a card is a rank A 2 3 4 5 6 7 J Q K "
                "then a suit D H S C, such as 7D)"
            )
        return card

    def __str__(self) -> str:
        return self.rank + self.suit

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Card) and other.id == self.id)

    def __hash__(self) -> int:
        return self.id

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Card.from_id, (self.id,))

    def __copy__(self) -> Card:
        return CARDS[self.id]

    def __deepcopy__(self, memo: object) -> Card:
        return CARDS[self.id]

    def __lt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return (self.rank_index, self.suit_index) < (other.rank_index, other.suit_index)

    def __le__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return (self.rank_index, self.suit_index) <= (other.rank_index, other.suit_index)

    def __gt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return other < self

    def __ge__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return other <= self


CARDS: Final[tuple[Card, ...]] = tuple(Card(RANKS[i % 10], SUITS[i // 10]) for i in range(40))
"""All 40 cards, indexed by id."""

_BY_CODE: Final = {str(card): card for card in CARDS}

SETTEBELLO: Final = Card.parse("7D")
RE_BELLO: Final = Card.parse("KD")

VALUE_MASKS: Final = tuple(
    sum(card.bit for card in CARDS if card.value == value) for value in range(11)
)
"""``VALUE_MASKS[v]``: the four cards of capture value ``v`` (index 0 is empty)."""

SUIT_MASKS: Final = tuple(sum(CARDS[s * 10 + r].bit for r in range(10)) for s in range(4))
"""``SUIT_MASKS[s]``: the ten cards of suit index ``s``."""

SEVENS_MASK: Final = VALUE_MASKS[7]
COINS_MASK: Final = SUIT_MASKS[COINS]


def mask_of(cards: Iterable[Card]) -> Mask:
    """The mask of a collection of cards."""
    mask = 0
    for card in cards:
        mask |= card.bit
    return mask


def ids_of(mask: Mask) -> Iterator[int]:
    """Card ids in ``mask``, lowest id first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


_CANONICAL_PLACE: Final = tuple((i % 10) * 4 + i // 10 for i in range(40))
"""Each card id's place in the canonical order (rank, then suit): cards are sorted by it, since
sorting by ``Card.__lt__`` (a Python call per comparison) was most of a view's cost."""


def cards_of(mask: Mask) -> list[Card]:
    """The cards of ``mask`` in canonical order (rank, then suit).

    >>> [str(card) for card in cards_of(Card.parse("KD").bit | Card.parse("2C").bit | 1)]
    ['AD', '2C', 'KD']
    """
    return [CARDS[i] for i in sorted(ids_of(mask), key=_CANONICAL_PLACE.__getitem__)]


def count(mask: Mask) -> int:
    """Number of cards in ``mask``."""
    return mask.bit_count()


def value_of(mask: Mask) -> int:
    """Sum of the capture values of the cards in ``mask``."""
    return sum(CAPTURE_VALUES[i % 10] for i in ids_of(mask))
