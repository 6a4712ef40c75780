"""How cards look and are named in each deck style: french, italian, spanish.

A look changes only the printing, never the rules: ``D`` is coins for scoring
whatever the deck. Each look is a small table of rank and suit words plus two
patterns, one for the short label and one for the full name.

>>> from scopa import Card
>>> seven = Card.parse("7D")
>>> [card_label(seven, look) for look in LOOKS]
['7♦', '7 denari', '7 oros']
>>> [card_name(seven, look) for look in LOOKS]
['Seven of Diamonds', 'Sette di denari', 'Siete de oros']
>>> card_label("JC", "spanish"), card_name("JC", "spanish")
('10 bastos', 'Sota de bastos')
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from .cards import CARDS, Card


@dataclass(frozen=True)
class Look:
    """The words of one deck style, by rank index (A..K) and suit index (D, H, S, C)."""

    rank_labels: tuple[str, ...]
    rank_names: tuple[str, ...]
    suit_labels: tuple[str, ...]
    suit_names: tuple[str, ...]
    label: str
    """Pattern of the short label, with ``{rank}`` and ``{suit}``."""
    name: str
    """Pattern of the full name, with ``{rank}`` and ``{suit}``."""


_LOOK_DATA: Final[dict[str, Look]] = {
    "french": Look(
        rank_labels=("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"),
        rank_names=("Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Jack", "Queen", "King"),
        suit_labels=("♦", "♥", "♠", "♣"),
        suit_names=("Diamonds", "Hearts", "Spades", "Clubs"),
        label="{rank}{suit}",
        name="{rank} of {suit}",
    ),
    "italian": Look(
        # Asso, Fante, Cavallo and Re by their initials; the pips as printed.
        rank_labels=("A", "2", "3", "4", "5", "6", "7", "F", "C", "R"),
        rank_names=(
            "Asso",
            "Due",
            "Tre",
            "Quattro",
            "Cinque",
            "Sei",
            "Sette",
            "Fante",
            "Cavallo",
            "Re",
        ),
        suit_labels=("denari", "coppe", "spade", "bastoni"),
        suit_names=("denari", "coppe", "spade", "bastoni"),
        label="{rank} {suit}",
        name="{rank} di {suit}",
    ),
    "spanish": Look(
        # Spanish cards print their index: the As is 1, Sota, Caballo and Rey are 10, 11, 12.
        rank_labels=("1", "2", "3", "4", "5", "6", "7", "10", "11", "12"),
        rank_names=(
            "As",
            "Dos",
            "Tres",
            "Cuatro",
            "Cinco",
            "Seis",
            "Siete",
            "Sota",
            "Caballo",
            "Rey",
        ),
        suit_labels=("oros", "copas", "espadas", "bastos"),
        suit_names=("oros", "copas", "espadas", "bastos"),
        label="{rank} {suit}",
        name="{rank} de {suit}",
    ),
}

LOOKS: Final = ("french", "italian", "spanish")
"""The deck looks, the default first."""


def _table(pattern: str, ranks: tuple[str, ...], suits: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(
        pattern.format(rank=ranks[card.rank_index], suit=suits[card.suit_index]) for card in CARDS
    )


_LABELS: Final = {
    name: _table(look.label, look.rank_labels, look.suit_labels)
    for name, look in _LOOK_DATA.items()
}
_NAMES: Final = {
    name: _table(look.name, look.rank_names, look.suit_names) for name, look in _LOOK_DATA.items()
}


def deck_look(name: str) -> Look:
    """The words of the look ``name``; ``ValueError`` names the looks for any other name."""
    try:
        return _LOOK_DATA[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown deck look {name!r}; the looks are: {', '.join(LOOKS)}") from None


def _card_id(card: Card | str) -> int:
    return card.id if isinstance(card, Card) else Card.parse(card).id


def card_label(card: Card | str, look: str = "french") -> str:
    """The short label of ``card`` (a card or its code) in a look, such as ``7♦`` or ``7 oros``."""
    deck_look(look)
    return _LABELS[look][_card_id(card)]


def card_name(card: Card | str, look: str = "french") -> str:
    """The full name of ``card`` in a look, such as ``Seven of Diamonds`` or ``Sette di denari``."""
    deck_look(look)
    return _NAMES[look][_card_id(card)]


def cards_label(cards: Iterable[Card | str], look: str = "french", sep: str = "  ") -> str:
    """Short labels of several cards joined by ``sep`` (``-`` for none).

    >>> cards_label(["AD", "KS"], "italian", ", ")
    'A denari, R spade'
    """
    labels = [card_label(card, look) for card in cards]
    return sep.join(labels) if labels else "-"
