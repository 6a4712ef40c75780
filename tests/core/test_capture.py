"""Captures: the worked examples of RULES.md, priorities, house options and obligations."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scopa import CARDS, Card, Game, IllegalMoveError, Rules, capture_options
from scopa.capture import (
    _collect,
    _grow_subsets,
    _subsets_worth,
    capture_masks,
    move_generator,
)
from scopa.cards import mask_of, value_of
from scopa.moves import move_of

from ..conftest import card, cards, codes, deal
from .referee import expected_captures

SCOPA = Rules.preset("scopa")
ESCOBA = Rules.preset("escoba")


def options(rules: Rules, table: str, played: str) -> list[set[str]]:
    return [set(codes(option)) for option in capture_options(rules, cards(table), card(played))]


def as_sets(*groups: str) -> list[set[str]]:
    return [set(group.split()) for group in groups]


def same(found: list[set[str]], expected: list[set[str]]) -> bool:
    return sorted(sorted(s) for s in found) == sorted(sorted(s) for s in expected)


# -- the worked examples --------------------------------------------------------------


def test_scopa_table_2_3_j_k_hand_a_5() -> None:
    table = "2D 3H JS KC"
    assert options(SCOPA, table, "5D") == as_sets("2D 3H")
    assert options(SCOPA, table, "AD") == []


def test_scopa_table_2_3_j_k_hand_a_5_in_a_game() -> None:
    # The 5 takes 2+3; the A cannot capture, and is trailed when the 5 has been used.
    game = Game.new(SCOPA, seed=1, deck=deal(SCOPA, ["5D AD 6C", "4S 4H 4C"], "2D 3H JS KC"))
    assert codes(game.legal_moves()) == ["5Dx2D+3H"]
    game.play("5Dx2D+3H")
    assert sorted(codes(game.legal_moves())) == ["4C", "4H", "4S"]


def test_scopa_equal_card_must_be_taken_alone() -> None:
    assert options(SCOPA, "2D 3H 5S KC", "5D") == as_sets("5S")


def test_scopa_two_equal_cards_take_either_never_both() -> None:
    found = options(SCOPA, "5C 5H 4D", "5D")
    assert same(found, as_sets("5C", "5H"))
    assert {"5C", "5H"} not in found


def test_scopa_seven_on_a_2_3_4_6() -> None:
    found = options(SCOPA, "AD 2H 3S 4C 6D", "7C")
    assert same(found, as_sets("AD 6D", "3S 4C", "AD 2H 4C"))
    # Listed fewest cards first, then by cards in canonical order.
    assert found == as_sets("AD 6D", "3S 4C", "AD 2H 4C")


def test_escoba_table_2_3_j_k() -> None:
    table = "2D 3H JS KC"
    assert same(options(ESCOBA, table, "5D"), as_sets("KC", "2D JS"))
    assert options(ESCOBA, table, "AD") == []


def test_escoba_table_a_2_3_4_5_play_king() -> None:
    found = options(ESCOBA, "AD 2H 3S 4C 5D", "KC")
    assert same(found, as_sets("5D", "AD 4C", "2H 3S"))


def test_escoba_has_no_equal_card_priority() -> None:
    # A 5 on the table does not stop a 5 from making 15 in another way.
    found = options(ESCOBA, "5S 2D 3H KC", "5D")
    assert same(found, as_sets("KC", "5S 2D 3H"))


def test_escoba_can_take_many_cards() -> None:
    assert options(ESCOBA, "AD 2D 3D 4D 5D", "AH") == as_sets("2D 3D 4D 5D")
    found = options(ESCOBA, "AD 2D 3D 4D 6D", "3H")
    assert same(found, as_sets("2D 4D 6D", "AD 2D 3D 6D"))


def test_no_capture_on_an_empty_table() -> None:
    for rules in (SCOPA, ESCOBA, Rules.preset("scopa-assi")):
        for c in CARDS:
            assert capture_options(rules, [], c) == []


# -- house options -------------------------------------------------------------------


def test_fewest_cards_restricts_to_the_smallest_captures() -> None:
    rules = Rules.preset("scopa", fewest_cards=True)
    found = options(rules, "AD 2H 3S 4C 6D", "7C")
    assert same(found, as_sets("AD 6D", "3S 4C"))
    assert options(rules, "AD 2H 4C", "7C") == as_sets("AD 2H 4C")
    escoba = Rules.preset("escoba", fewest_cards=True)
    assert options(escoba, "AD 2H 3S 4C 5D", "KC") == as_sets("5D")


def test_ace_takes_all_takes_the_whole_table() -> None:
    rules = Rules.preset("scopa-assi")
    assert options(rules, "2D 3H JS KC", "AD") == as_sets("2D 3H JS KC")
    # Even with an Ace on the table, the Ace takes everything.
    assert options(rules, "AH 3H JS", "AD") == as_sets("AH 3H JS")
    assert options(rules, "5C", "AD") == as_sets("5C")
    # Other cards capture as usual.
    assert options(rules, "2D 3H JS KC", "5D") == as_sets("2D 3H")
    # Without the option, the Ace takes an Ace.
    assert options(SCOPA, "AH 3H JS", "AD") == as_sets("AH")


def test_ace_takes_all_scores_no_sweep_but_other_sweeps_count() -> None:
    rules = Rules.preset("scopa-assi")
    deck = deal(rules, ["AD 4S 6S", "KH 6H 5H"], "2D 3H JS KC")
    game = Game.new(rules, seed=1, deck=deck)
    # must_capture=card: the Ace must take the table; 4S and 6S cannot capture.
    assert sorted(codes(game.legal_moves())) == ["4S", "6S", "ADx2D+3H+JS+KC"]
    game.play("ADx2D+3H+JS+KC")
    assert game.table == []
    assert game.sweeps == [0, 0]
    assert game.last_move is not None and not game.last_move.sweep
    assert set(codes(game.piles[0])) == {"AD", "2D", "3H", "JS", "KC"}
    game.play("6H")
    assert sorted(codes(game.legal_moves())) == ["4S", "6Sx6H"]
    game.play("6Sx6H")  # a plain sweep counts
    assert game.sweeps == [1, 0]
    assert game.last_move is not None and game.last_move.sweep


def test_ace_on_a_lone_card_scores_no_sweep() -> None:
    rules = Rules.preset("scopa-assi")
    deck = deal(rules, ["5S 6S AD", "5H 6H 7H"], "5D 4C 3C 2C")
    game = Game.new(rules, seed=1, deck=deck)
    game.play("5Sx5D")  # must_capture card: 5S must capture, table 4C 3C 2C
    game.play("5Hx2C+3C")  # table 4C
    game.play("ADx4C")  # the Ace takes the whole (one-card) table: no sweep
    assert game.sweeps == [0, 0]
    assert game.table == []
    game.play("6H")
    game.play("6Sx6H")  # a plain sweep does count
    assert game.sweeps == [1, 0]


# -- the obligation to capture -------------------------------------------------------

HAND = "5D AS 4C"  # 5D takes 2C+3S; AS and 4C cannot capture
TABLE = "2C 3S JH QH"
OTHER = "KS KH KC"


@pytest.mark.parametrize(
    ("must_capture", "legal"),
    [
        ("hand", ["5Dx2C+3S"]),
        ("card", ["5Dx2C+3S", "4C", "AS"]),
        ("none", ["5Dx2C+3S", "4C", "5D", "AS"]),
    ],
)
def test_must_capture_modes(must_capture: str, legal: list[str]) -> None:
    rules = Rules.preset("scopa", must_capture=must_capture)
    game = Game.new(rules, seed=1, deck=deal(rules, [HAND, OTHER], TABLE))
    assert sorted(codes(game.legal_moves())) == sorted(legal)
    for code in ["5D", "AS", "4C"]:
        if code in legal:
            game_copy = Game.replay(game.record())
            game_copy.play(code)
            assert card(code) in game_copy.table
        else:
            with pytest.raises(IllegalMoveError):
                game.play(code)


def test_must_capture_hand_allows_any_trail_when_nothing_captures() -> None:
    game = Game.new(SCOPA, seed=1, deck=deal(SCOPA, ["AS 4C 6D", OTHER], TABLE))
    assert sorted(codes(game.legal_moves())) == ["4C", "6D", "AS"]


@pytest.mark.parametrize("name", ["escoba", "escoba-classic"])
def test_escoba_captures_in_a_game(name: str) -> None:
    rules = Rules.preset(name)
    # Table 2D 3H JS KC totals 23: no dealer bonus.
    game = Game.new(rules, seed=1, deck=deal(rules, ["5D AS 6C", "4S 4H 4C"], "2D 3H JS KC"))
    captures = sorted(m for m in codes(game.legal_moves()) if "x" in m)
    assert captures == ["5Dx2D+JS", "5DxKC"]
    trails = sorted(m for m in codes(game.legal_moves()) if "x" not in m)
    # escoba: must_capture=hand, no trail; escoba-classic: every card may be trailed
    assert trails == ([] if name == "escoba" else ["5D", "6C", "AS"])
    game.play("5Dx2D+JS")
    assert codes(game.table) == ["3H", "KC"]
    assert set(codes(game.piles[0])) == {"5D", "2D", "JS"}


# -- against a direct reading of the rules --------------------------------------------


@settings(max_examples=300)
@given(
    st.lists(st.sampled_from(CARDS), min_size=0, max_size=9, unique=True),
    st.sampled_from(CARDS),
    st.sampled_from(["sum", "fifteen"]),
    st.booleans(),
    st.booleans(),
)
def test_capture_options_match_the_rules_text(
    table: list[Card], played: Card, capture: str, fewest: bool, aces: bool
) -> None:
    if played in table:
        table.remove(played)
    rules = Rules.preset("scopa", capture=capture, fewest_cards=fewest, ace_takes_all=aces)
    found = capture_options(rules, table, played)
    assert len(found) == len(set(found))
    assert set(found) == expected_captures(rules, table, played)
    assert [len(o) for o in found] == sorted(len(o) for o in found)


def test_capture_options_refuses_impossible_tables() -> None:
    with pytest.raises(ValueError):
        capture_options(SCOPA, cards("2D 2D"), card("4C"))
    with pytest.raises(ValueError):
        capture_options(SCOPA, cards("2D 4C"), card("4C"))


@settings(max_examples=400)
@given(
    st.lists(st.sampled_from(CARDS), min_size=1, max_size=19, unique=True),
    st.integers(min_value=1, max_value=10),
    st.sampled_from(["sum", "fifteen"]),
    st.sampled_from(["hand", "card", "none"]),
    st.booleans(),
    st.booleans(),
    st.floats(min_value=0.0, max_value=1.0, exclude_max=True),
)
def test_a_random_pick_is_the_move_at_that_fraction_of_the_legal_moves(
    dealt: list[Card], hand_size: int, capture: str, must: str, fewest: bool, aces: bool,
    fraction: float,
) -> None:
    rules = Rules.preset(
        "scopa", capture=capture, must_capture=must, fewest_cards=fewest, ace_takes_all=aces
    )
    hand = mask_of(dealt[:hand_size])
    table = mask_of(dealt[hand_size:])
    generator = move_generator(rules)
    moves = generator.moves(hand, table)
    assert generator.pick(hand, table, fraction) is moves[int(fraction * len(moves))]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(CARDS), max_size=10, unique=True), st.integers(1, 15))
def test_the_subsets_worth_a_total_are_all_of_them_in_increasing_mask_order(
    chosen: list[Card], total: int
) -> None:
    bits = [card.bit for card in chosen]
    every = [
        sum(bit for k, bit in enumerate(bits) if pick >> k & 1) for pick in range(1 << len(bits))
    ]
    worth = sorted(mask for mask in every if value_of(mask) == total)
    assert _subsets_worth(mask_of(chosen), total) == tuple(worth)
    assert _grow_subsets(mask_of(chosen), total) == tuple(worth)
    found: list[int] = []
    _collect(mask_of(chosen), total, 0, found)
    assert found == worth


@pytest.mark.parametrize("preset", ["scopa", "escoba"])
@pytest.mark.parametrize("aces", [False, True])
def test_every_card_on_every_table_of_two_cards_or_fewer_captures_as_the_rules_say(
    preset: str, aces: bool
) -> None:
    # The generator answers two deciding table cards or fewer by arithmetic
    # (``_CardMoves.by_few``), not by the search: every such case against the referee.
    rules = Rules.preset(preset, ace_takes_all=aces, fewest_cards=aces)
    generator = move_generator(rules)
    for played in CARDS:
        others = [other for other in CARDS if other != played]
        tables: list[list[Card]] = [[]] + [[a] for a in others]
        tables += [[a, b] for i, a in enumerate(others) for b in others[i + 1 :]]
        for table in tables:
            expected = expected_captures(rules, table, played)
            moves = generator.moves(played.bit, mask_of(table))
            assert {frozenset(move.captured) for move in moves if move.captured} == expected
            card_moves = generator._cards[played.id]  # what ``pick`` reads, in both forms
            if card_moves.few and not mask_of(table) & card_moves.first:
                shortcut = card_moves.by_few(mask_of(table) & card_moves.second)
                assert shortcut is not None
                assert {frozenset(move.captured) for move in shortcut} == expected


@settings(max_examples=800, deadline=None)
@given(
    st.one_of(
        # Three to six deciding cards (weighed subset by subset) or seven, and any table.
        st.lists(st.sampled_from(CARDS), min_size=4, max_size=8, unique=True),
        st.lists(st.sampled_from(CARDS), min_size=1, max_size=16, unique=True),
    ),
    st.sampled_from(["scopa", "escoba"]),
    st.booleans(),
)
def test_the_search_without_a_memo_finds_the_memos_moves_in_its_order(
    dealt: list[Card], preset: str, fewest: bool
) -> None:
    # Compiled, the moves onto three deciding table cards or more are found by
    # ``_CardMoves.by_search`` (for the random rollout's step without a memo): the same
    # moves, in the same order, as the captures' own search makes them (``capture_masks``),
    # and the captures the referee allows.
    rules = Rules.preset(preset, fewest_cards=fewest)
    generator = move_generator(rules)
    played, table = dealt[0], dealt[1:]
    card_moves = generator._cards[played.id]
    assume(card_moves.few and not mask_of(table) & card_moves.first)
    seen = mask_of(table) & card_moves.second
    searched = card_moves.by_search(seen)
    masks = capture_masks(rules, seen, played.id)
    assert searched == tuple(move_of(played.id, mask) for mask in masks)
    assert {frozenset(move.captured) for move in searched} == expected_captures(
        rules, table, played
    )
