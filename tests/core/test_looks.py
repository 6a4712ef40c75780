"""Deck looks: every card has a label and a name in every look, and looks change only printing."""

from __future__ import annotations

import pytest

from scopa import CARDS, Card
from scopa.looks import LOOKS, card_label, card_name, cards_label, deck_look


def test_the_three_looks_default_first() -> None:
    assert LOOKS == ("french", "italian", "spanish")
    assert card_label("7D") == "7♦"
    assert card_name("7D") == "Seven of Diamonds"


@pytest.mark.parametrize("look", LOOKS)
def test_every_card_has_a_distinct_label_and_name(look: str) -> None:
    labels = [card_label(card, look) for card in CARDS]
    names = [card_name(card, look) for card in CARDS]
    assert all(label.strip() == label and label for label in labels)
    assert all(name.strip() == name and name for name in names)
    assert len(set(labels)) == 40
    assert len(set(names)) == 40


EXPECTED = [
    # code, look, label, name
    ("7D", "french", "7♦", "Seven of Diamonds"),
    ("7D", "italian", "7 denari", "Sette di denari"),
    ("7D", "spanish", "7 oros", "Siete de oros"),
    ("AH", "french", "A♥", "Ace of Hearts"),
    ("AH", "italian", "A coppe", "Asso di coppe"),
    ("AH", "spanish", "1 copas", "As de copas"),
    ("JS", "french", "J♠", "Jack of Spades"),
    ("JS", "italian", "F spade", "Fante di spade"),
    ("JS", "spanish", "10 espadas", "Sota de espadas"),
    ("QC", "french", "Q♣", "Queen of Clubs"),
    ("QC", "italian", "C bastoni", "Cavallo di bastoni"),
    ("QC", "spanish", "11 bastos", "Caballo de bastos"),
    ("KD", "french", "K♦", "King of Diamonds"),
    ("KD", "italian", "R denari", "Re di denari"),
    ("KD", "spanish", "12 oros", "Rey de oros"),
    ("5C", "french", "5♣", "Five of Clubs"),
    ("5C", "italian", "5 bastoni", "Cinque di bastoni"),
    ("5C", "spanish", "5 bastos", "Cinco de bastos"),
]


@pytest.mark.parametrize(("code", "look", "label", "name"), EXPECTED)
def test_labels_and_names_follow_the_rules_tables(
    code: str, look: str, label: str, name: str
) -> None:
    assert card_label(Card.parse(code), look) == label
    assert card_name(Card.parse(code), look) == name
    assert card_label(code.lower(), look) == label  # a code works as well as a card


def test_spanish_figures_print_ten_eleven_twelve() -> None:
    for suit, word in zip("DHSC", ("oros", "copas", "espadas", "bastos"), strict=True):
        assert card_label("J" + suit, "spanish") == f"10 {word}"
        assert card_label("Q" + suit, "spanish") == f"11 {word}"
        assert card_label("K" + suit, "spanish") == f"12 {word}"
    # No pip card of the Spanish look is printed 8 or 9: the deck has none.
    assert not any(card_label(card, "spanish").split()[0] in ("8", "9") for card in CARDS)


def test_suit_words_per_look() -> None:
    for look, words in {
        "french": ("Diamonds", "Hearts", "Spades", "Clubs"),
        "italian": ("denari", "coppe", "spade", "bastoni"),
        "spanish": ("oros", "copas", "espadas", "bastos"),
    }.items():
        for suit, word in zip("DHSC", words, strict=True):
            assert card_name("2" + suit, look).endswith(" " + word)
        assert deck_look(look).suit_names == words


def test_cards_label_joins_or_shows_a_dash() -> None:
    assert cards_label([Card.parse("AD"), Card.parse("KS")], "spanish") == "1 oros  12 espadas"
    assert cards_label([], "italian") == "-"


@pytest.mark.parametrize("bad", ["german", "French", "", "piacentine"])
def test_unknown_look_names_the_allowed_looks(bad: str) -> None:
    for function in (card_label, card_name):
        with pytest.raises(ValueError, match="french, italian, spanish") as error:
            function("7D", bad)
        assert repr(bad) in str(error.value)


def test_a_bad_card_is_refused() -> None:
    with pytest.raises(ValueError, match="not a card"):
        card_label("8D", "spanish")
