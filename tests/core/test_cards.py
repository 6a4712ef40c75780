"""Cards: codes, ids, values, interning and ordering (RULES.md, "Cards and notation")."""

from __future__ import annotations

import copy
import pickle

import pytest

from scopa import CARDS, RANKS, SUITS, Card

RANK_LETTERS = ("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K")
ALL_CODES = [rank + suit for suit in "DHSC" for rank in RANK_LETTERS]

VALUES = dict(zip(RANK_LETTERS, (1, 2, 3, 4, 5, 6, 7, 8, 9, 10), strict=True))
PRIMIERA = dict(zip(RANK_LETTERS, (16, 12, 13, 14, 15, 18, 21, 10, 10, 10), strict=True))


def test_forty_distinct_cards_in_canonical_order() -> None:
    assert len(CARDS) == 40
    assert len(set(CARDS)) == 40
    assert [str(c) for c in CARDS] == ALL_CODES
    assert RANKS == RANK_LETTERS
    assert SUITS == ("D", "H", "S", "C")


@pytest.mark.parametrize("code", ALL_CODES)
def test_parse_str_round_trip(code: str) -> None:
    c = Card.parse(code)
    assert str(c) == code
    assert Card.parse(str(c)) is c
    assert c.rank == code[0]
    assert c.suit == code[1]


@pytest.mark.parametrize("code", ALL_CODES)
def test_parse_ignores_case(code: str) -> None:
    assert Card.parse(code.lower()) is Card.parse(code)
    assert Card.parse(code[0].lower() + code[1]) is Card.parse(code)
    assert Card.parse(code[0] + code[1].lower()) is Card.parse(code)
    assert str(Card.parse(code.lower())) == code  # printing is upper case


@pytest.mark.parametrize("code", ALL_CODES)
def test_id_is_suit_index_times_ten_plus_rank_index(code: str) -> None:
    c = Card.parse(code)
    suit_index = "DHSC".index(code[1])
    rank_index = RANKS.index(code[0])
    assert c.id == suit_index * 10 + rank_index
    assert c.suit_index == suit_index
    assert c.rank_index == rank_index
    assert CARDS[c.id] is c
    assert Card.from_id(c.id) is c


def test_some_ids_by_hand() -> None:
    assert Card.parse("AD").id == 0
    assert Card.parse("7D").id == 6
    assert Card.parse("KD").id == 9
    assert Card.parse("AH").id == 10
    assert Card.parse("5S").id == 24
    assert Card.parse("KC").id == 39


@pytest.mark.parametrize("rank", RANKS)
def test_capture_and_primiera_values_per_rank(rank: str) -> None:
    for suit in SUITS:
        c = Card.parse(rank + suit)
        assert c.value == VALUES[rank]
        assert c.primiera == PRIMIERA[rank]


def test_constructor_gives_a_card_equal_to_the_shared_one() -> None:
    built = Card("k", "h")
    assert built == Card.parse("KH") and hash(built) == hash(Card.parse("KH"))
    assert str(built) == "KH" and built.id == Card.parse("KH").id
    assert built != Card.parse("KD")
    assert {built, Card.parse("KH")} == {Card.parse("KH")}


@pytest.mark.parametrize("code", ALL_CODES)
def test_equality_hash_and_interning(code: str) -> None:
    a = Card.parse(code)
    b = Card.parse(code.lower())
    assert a is b
    assert a == b
    assert hash(a) == hash(b)
    assert copy.copy(a) is a
    assert copy.deepcopy(a) is a
    assert pickle.loads(pickle.dumps(a)) is a
    assert len({a, b, Card.from_id(a.id)}) == 1


def test_different_cards_are_unequal() -> None:
    assert Card.parse("7D") != Card.parse("7H")
    assert Card.parse("7D") != Card.parse("6D")
    assert Card.parse("7D") != "7D"


def test_ordering_is_rank_then_suit() -> None:
    shuffled = [CARDS[(i * 17) % 40] for i in range(40)]
    ordered = sorted(shuffled)
    expected = [rank + suit for rank in RANKS for suit in SUITS]
    assert [str(c) for c in ordered] == expected
    assert Card.parse("AC") < Card.parse("2D")
    assert Card.parse("5D") < Card.parse("5H") < Card.parse("5S") < Card.parse("5C")
    assert Card.parse("7C") < Card.parse("JD")
    assert Card.parse("KD") > Card.parse("QC")
    assert Card.parse("KD") >= Card.parse("KD")
    assert Card.parse("KD") <= Card.parse("KD")
    assert not Card.parse("KD") < Card.parse("KD")


def test_ordering_against_other_types_is_refused() -> None:
    with pytest.raises(TypeError):
        _ = Card.parse("7D") < 7  # type: ignore[operator]


@pytest.mark.parametrize(
    "bad", ["", "7", "D", "8D", "10D", "1D", "7X", "7DD", "KDx", "hello", "7 D", "0D"]
)
def test_bad_codes_raise_value_error_with_a_clear_message(bad: str) -> None:
    with pytest.raises(ValueError) as info:
        Card.parse(bad)
    message = str(info.value)
    assert repr(bad) in message
    assert "rank" in message and "suit" in message


@pytest.mark.parametrize("bad", [None, 7, b"7D", ("7", "D")])
def test_non_strings_raise_value_error(bad: object) -> None:
    with pytest.raises(ValueError, match="not a card"):
        Card.parse(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [-1, 40, 100])
def test_bad_ids_raise_value_error(bad: int) -> None:
    with pytest.raises(ValueError, match=r"0\.\.39"):
        Card.from_id(bad)


def test_bad_rank_or_suit_in_constructor() -> None:
    with pytest.raises(ValueError, match="rank"):
        Card("8", "D")
    with pytest.raises(ValueError, match="suit"):
        Card("7", "X")
