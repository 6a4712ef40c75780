"""Moves: codes, canonical order of captured cards, trails and bad codes."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scopa import CARDS, Card, InvalidMoveError, Move
from scopa.cards import cards_of, mask_of
from scopa.moves import _codes_of

from ..conftest import card, cards


@pytest.mark.parametrize(
    ("code", "canonical"),
    [
        ("5Dx2C+3S", "5Dx2C+3S"),
        ("5Dx3S+2C", "5Dx2C+3S"),
        ("5dx3s+2c", "5Dx2C+3S"),
        ("KDx5C+5H", "KDx5H+5C"),
        ("KDx5H+5C", "KDx5H+5C"),
        ("kdX5c+5h", "KDx5H+5C"),
        ("7Cx6D+AD", "7CxAD+6D"),
        ("7Cx4C+2H+AD", "7CxAD+2H+4C"),
        ("KHxJC+2S", "KHx2S+JC"),
        ("5D", "5D"),
        (" 5d ", "5D"),
        ("5D x 2C + 3S", "5Dx2C+3S"),
    ],
)
def test_parse_and_canonical_code(code: str, canonical: str) -> None:
    move = Move.parse(code)
    assert str(move) == canonical
    assert Move.parse(canonical) is move


def test_captured_order_is_rank_first_then_suit_d_h_s_c() -> None:
    move = Move(card("KD"), frozenset(cards("5C 5S 5H")))
    assert str(move) == "KDx5H+5S+5C"  # not a legal capture, but a well-formed move
    move = Move(card("QS"), frozenset(cards("AC 2D 6H")))
    assert str(move) == "QSxAC+2D+6H"


def test_parts_of_a_capture() -> None:
    move = Move.parse("5Dx3S+2C")
    assert move.card is card("5D")
    assert isinstance(move.captured, frozenset)
    assert move.captured == frozenset(cards("2C 3S"))
    assert all(isinstance(c, Card) for c in move.captured)
    assert move.is_capture and not move.is_trail


def test_trail() -> None:
    move = Move.parse("5D")
    assert move.card is card("5D")
    assert move.captured == frozenset()
    assert isinstance(move.captured, frozenset)
    assert move.is_trail and not move.is_capture
    assert Move.trail(card("5D")) is move
    assert Move(card("5D")) == move
    assert str(Move.trail(card("KC"))) == "KC"


def test_moves_are_equal_by_content_and_hashable() -> None:
    a = Move.parse("5Dx2C+3S")
    b = Move(card("5D"), {card("3S"), card("2C")})
    c = Move(card("5D"), (card("2C"), card("3S")))
    assert a == b == c
    assert hash(a) == hash(b)
    assert len({a, b, c}) == 1
    assert a != Move.parse("5Dx2C")
    assert a != Move.parse("5D")
    assert copy.deepcopy(a) == a
    assert pickle.loads(pickle.dumps(a)) == a


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "x",
        "hello",
        "5Dx",
        "5Dx+",
        "5Dx2C+",
        "5Dx2C++3S",
        "x2C",
        "8D",
        "5Dx9C",
        "5Dx2C+2C",
        "5Dx5D",
        "5Dx2C+5D",
        "5D 2C",
        "5Dy2C",
        "5Dx2Cx3S",
    ],
)
def test_bad_codes_raise_invalid_move_error(bad: str) -> None:
    with pytest.raises(InvalidMoveError) as info:
        Move.parse(bad)
    assert isinstance(info.value, ValueError)
    assert str(info.value)


@pytest.mark.parametrize("bad", [None, 5, ["5D"], b"5D"])
def test_non_strings_raise_invalid_move_error(bad: object) -> None:
    with pytest.raises(InvalidMoveError):
        Move.parse(bad)  # type: ignore[arg-type]


def test_bad_code_message_names_the_code_and_the_format() -> None:
    with pytest.raises(InvalidMoveError, match="'5Dx'") as info:
        Move.parse("5Dx")
    assert "5Dx2C+3S" in str(info.value)


def test_a_card_cannot_capture_itself() -> None:
    with pytest.raises(InvalidMoveError, match="itself"):
        Move(card("5D"), frozenset(cards("5D")))


def test_invalid_move_error_is_a_value_error() -> None:
    assert issubclass(InvalidMoveError, ValueError)


@given(
    st.integers(0, 39),
    st.sets(st.integers(0, 39), max_size=6),
)
def test_any_move_round_trips_through_its_code(played: int, taken: set[int]) -> None:
    taken.discard(played)
    played_card = CARDS[played]
    captured = frozenset(CARDS[i] for i in taken)
    move = Move(played_card, captured)
    code = str(move)
    assert Move.parse(code) == move
    assert Move.parse(code.lower()) == move
    assert move.card is played_card
    assert move.captured == captured
    if captured:
        head, _, tail = code.partition("x")
        assert head == str(played_card)
        parts = [Card.parse(p) for p in tail.split("+")]
        assert parts == sorted(captured)
        assert [(c.rank_index, c.suit_index) for c in parts] == sorted(
            (c.rank_index, c.suit_index) for c in captured
        )
    else:
        assert code == str(played_card)


@given(st.sets(st.sampled_from(CARDS)))
def test_a_moves_code_lists_its_captures_as_cards_of_orders_them(taken: set[Card]) -> None:
    # A move reads its code's cards rank by rank (``_codes_of``) rather than sorting them.
    mask = mask_of(taken)
    assert _codes_of(mask) == [str(c) for c in cards_of(mask)]
