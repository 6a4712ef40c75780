"""Scoring a round and deciding the match (RULES.md, "Scoring a round", "End of the match")."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scopa import CARDS, Card, RoundScore, Rules, match_winner, score_round
from scopa.scoring import _count_bits, round_points, score_piles

from ..conftest import cards, codes, rules_variants

SCOPA = Rules.preset("scopa")
CLASSIC = Rules.preset("scopa-classic")
ESCOBA = Rules.preset("escoba")


def score(rules: Rules, *piles: str, sweeps: list[int] | None = None) -> list[RoundScore]:
    return score_round(rules, [cards(p) for p in piles], sweeps or [0] * len(piles))


def rest_of(*piles: str) -> list[Card]:
    taken = {c for p in piles for c in cards(p)}
    return [c for c in CARDS if c not in taken]


# -- primiera ------------------------------------------------------------------------


@pytest.mark.parametrize("rules", [SCOPA, CLASSIC], ids=["suits-first", "all-suits"])
def test_primiera_73_loses_to_75(rules: Rules) -> None:
    a, b = score(rules, "7D 7H 7C KS", "7S 6D 6H 6C")
    assert (a.primiera_total, b.primiera_total) == (73, 75)
    assert (a.primiera_suits, b.primiera_suits) == (4, 4)
    assert (a.primiera, b.primiera) == (0, 1)
    assert codes(a.primiera_cards) == ["7D", "7H", "KS", "7C"]
    assert codes(b.primiera_cards) == ["6D", "6H", "7S", "6C"]


def test_primiera_suits_first_more_suits_beat_a_higher_total() -> None:
    a, b = score(SCOPA, "7D 7H 7C", "7S 2D 2H 2C")
    assert (a.primiera_total, a.primiera_suits) == (63, 3)
    assert (b.primiera_total, b.primiera_suits) == (57, 4)
    assert (a.primiera, b.primiera) == (0, 1)


def test_primiera_all_suits_side_missing_a_suit_cannot_win() -> None:
    a, b = score(CLASSIC, "7D 7H 7C", "7S 2D 2H 2C")
    assert (a.primiera, b.primiera) == (0, 1)
    # Neither side holds all four suits: nobody wins, whatever the totals.
    a, b = score(CLASSIC, "7D 7H 7C 6D 6H", "2D 2H 2C AD")
    assert (a.primiera_suits, b.primiera_suits) == (3, 3)
    assert a.primiera_total > b.primiera_total
    assert (a.primiera, b.primiera) == (0, 0)
    # Suits-first compares the totals on equal suit counts.
    a, b = score(SCOPA, "7D 7H 7C 6D 6H", "2D 2H 2C AD")
    assert (a.primiera, b.primiera) == (1, 0)


def test_primiera_suits_first_three_suits_beat_two() -> None:
    a, b = score(SCOPA, "7D 7H", "2D 2H 2C")
    assert (a.primiera, b.primiera) == (0, 1)


def test_primiera_tie_gives_nobody_the_point() -> None:
    for rules in (SCOPA, CLASSIC):
        a, b = score(rules, "7D 7H 7S 7C", "6D 6H 6S 6C AD AH AS AC")
        assert (a.primiera_total, b.primiera_total) == (84, 72)
        a, b = score(rules, "7D 6H 5S 4C", "7H 6S 5C 4D")
        assert a.primiera_total == b.primiera_total == 68
        assert (a.primiera, b.primiera) == (0, 0)


def test_primiera_values_use_the_best_card_of_each_suit() -> None:
    (a,) = score(SCOPA, "KD QD JD AD 2H 3H 4S 5S 6C")
    assert codes(a.primiera_cards) == ["AD", "3H", "5S", "6C"]
    assert a.primiera_total == 16 + 13 + 15 + 18


def test_no_primiera_with_empty_piles() -> None:
    a, b = score(SCOPA, "", "")
    assert (a.primiera, b.primiera) == (0, 0)
    assert a.total == b.total == 0


# -- the other categories ------------------------------------------------------------


def test_cards_coins_settebello() -> None:
    a_codes = "7D AD 2D 3H 4H 5H 6H JH QH KH AS 2S 3S 4S 5S 6S 7S JS QS KS 5C"
    b = rest_of(a_codes)
    a_score, b_score = score_round(SCOPA, [cards(a_codes), b], [0, 0])
    assert (a_score.card_count, b_score.card_count) == (21, 19)
    assert (a_score.cards, b_score.cards) == (1, 0)
    assert (a_score.coin_count, b_score.coin_count) == (3, 7)
    assert (a_score.coins, b_score.coins) == (0, 1)
    assert (a_score.settebello, b_score.settebello) == (1, 0)


def test_ties_for_cards_and_coins_give_nobody_the_point() -> None:
    a_codes = "AD 2D 3D 4D 5D AH 2H 3H 4H 5H AS 2S 3S 4S 5S AC 2C 3C 4C 5C"
    a, b = score_round(SCOPA, [cards(a_codes), rest_of(a_codes)], [0, 0])
    assert a.card_count == b.card_count == 20
    assert a.coin_count == b.coin_count == 5
    assert (a.cards, b.cards, a.coins, b.coins) == (0, 0, 0, 0)
    assert (a.settebello, b.settebello) == (0, 1)


def test_sweeps_score_one_each() -> None:
    a, b = score(SCOPA, "AD", "AH", sweeps=[3, 1])
    assert (a.sweeps, b.sweeps) == (3, 1)
    assert (a.sweep_count, b.sweep_count) == (3, 1)


def test_full_breakdown_and_total() -> None:
    a_codes = "7D 7H 7S 6D 6C AD 2D KD QD JD KH QH JH AC 2C 3C 4C 5C 6H 6S 5D"
    a, b = score_round(SCOPA, [cards(a_codes), rest_of(a_codes)], [2, 1])
    assert a.card_count == 21 and a.cards == 1
    assert a.coin_count == 8 and a.coins == 1
    assert a.settebello == 1
    assert a.primiera == 1 and b.primiera == 0
    assert a.sweeps == 2 and b.sweeps == 1
    assert a.re_bello == 0 and a.napola == 0 and a.sevens == 0
    assert a.total == 1 + 1 + 1 + 1 + 2
    assert b.total == 1
    data = a.to_dict()
    assert data["total"] == a.total
    assert data["primiera_cards"] == codes(a.primiera_cards)
    assert set(data) >= {"cards", "coins", "settebello", "primiera", "sweeps", "total"}


def test_re_bello() -> None:
    rules = Rules.preset("scopa", re_bello=True)
    a, b = score(rules, "KD", "KH")
    assert (a.re_bello, b.re_bello) == (1, 0)
    a_off, _ = score(SCOPA, "KD", "KH")
    assert a_off.re_bello == 0
    assert a.total == a_off.total + 1


@pytest.mark.parametrize(
    ("pile", "length", "points"),
    [
        ("AD 2D", 2, 0),
        ("AD 2D 4D 5D", 2, 0),
        ("2D 3D 4D 5D", 0, 0),
        ("AD 2D 3D", 3, 3),
        ("AD 2D 3D 5D", 3, 3),
        ("AD 2D 3D 4D", 4, 4),
        ("AD 2D 3D 4D 5D 6D", 6, 6),
        ("AD 2D 3D 4D 5D 6D 7D JD QD KD", 10, 10),
        ("AH 2H 3H", 0, 0),
    ],
)
def test_napola(pile: str, length: int, points: int) -> None:
    rules = Rules.preset("scopa", napola=True)
    (a,) = score(rules, pile)
    assert a.napola_length == length
    assert a.napola == points
    (off,) = score(SCOPA, pile)
    assert off.napola == 0


def test_sevens_replace_primiera() -> None:
    rules = Rules.preset("escoba", sevens=True)
    # Side b has the better primiera (more suits) but fewer sevens.
    a, b = score(rules, "7D 7H 7C", "7S 2D 2H 2C")
    assert (a.seven_count, b.seven_count) == (3, 1)
    assert (a.sevens, b.sevens) == (1, 0)
    assert (a.primiera, b.primiera) == (0, 0)
    a, b = score(ESCOBA, "7D 7H 7C", "7S 2D 2H 2C")
    assert (a.sevens, b.sevens) == (0, 0)
    assert (a.primiera, b.primiera) == (0, 1)
    # A tie in sevens gives nobody the point.
    a, b = score(rules, "7D 7H", "7S 7C")
    assert (a.sevens, b.sevens) == (0, 0)


def test_three_sides() -> None:
    rules = Rules.preset("scopa", players=3)
    a, b, c = score(rules, "7D 7H 7S 7C AD", "6D 6H 6S 6C 2D 3D", "KD KH", sweeps=[0, 0, 2])
    assert (a.cards, b.cards, c.cards) == (0, 1, 0)
    assert (a.coins, b.coins, c.coins) == (0, 1, 0)
    assert (a.settebello, b.settebello, c.settebello) == (1, 0, 0)
    assert (a.primiera, b.primiera, c.primiera) == (1, 0, 0)
    assert (a.total, b.total, c.total) == (2, 2, 2)
    # Two sides tied for the best: nobody scores the category.
    a, b, c = score(rules, "AD AH", "2D 2H", "3S")
    assert (a.cards, b.cards, c.cards) == (0, 0, 0)
    assert (a.coins, b.coins, c.coins) == (0, 0, 0)


def test_score_round_refuses_shared_cards_and_mismatched_lengths() -> None:
    with pytest.raises(ValueError):
        score(SCOPA, "7D", "7D")
    with pytest.raises(ValueError):
        score_round(SCOPA, [cards("7D"), cards("7H")], [0])


# -- the match -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("totals", "winner"),
    [
        ([12, 11], 0),
        ([11, 12], 1),
        ([11, 11], None),
        ([10, 10], None),
        ([10, 3], None),
        ([11, 0], 0),
        ([0, 11], 1),
        ([15, 15], None),
        ([3, 9, 11], 2),
        ([11, 11, 4], None),
        ([12, 11, 12], None),
        ([13, 11, 12], 0),
    ],
)
def test_match_winner_scopa(totals: list[int], winner: int | None) -> None:
    assert match_winner(SCOPA, totals) == winner


def test_match_winner_uses_the_target() -> None:
    assert match_winner(ESCOBA, [20, 12]) is None
    assert match_winner(ESCOBA, [21, 20]) == 0
    assert match_winner(ESCOBA, [21, 21]) is None
    assert match_winner(ESCOBA, [22, 21]) == 0
    rules = Rules.preset("scopa", target=3)
    assert match_winner(rules, [3, 1]) == 0
    assert match_winner(rules, [2, 2]) is None


@settings(max_examples=200, deadline=None)
@given(
    st.builds(
        lambda rules, re_bello, napola, sevens: rules.replace(
            re_bello=re_bello, napola=napola, sevens=sevens
        ),
        st.sampled_from(rules_variants()),
        st.booleans(),
        st.booleans(),
        st.booleans(),
    ).flatmap(
        lambda rules: st.tuples(
            st.just(rules),
            st.lists(st.integers(0, rules.sides), min_size=40, max_size=40),
            st.lists(st.integers(0, 3), min_size=rules.sides, max_size=rules.sides),
        )
    )
)
def test_round_points_are_the_totals_of_the_breakdown(
    case: tuple[Rules, list[int], list[int]],
) -> None:
    # Each card goes to a side's pile, or to nobody (index ``sides``).
    rules, owners, sweeps = case
    piles = [0] * rules.sides
    for card_id, owner in enumerate(owners):
        if owner < rules.sides:
            piles[owner] |= 1 << card_id
    expected = [score.total for score in score_piles(rules, piles, sweeps)]
    assert round_points(rules, piles, sweeps) == expected


@given(st.integers(0, (1 << 40) - 1))
def test_cards_counted_in_parallel_are_the_bits_of_the_mask(mask: int) -> None:
    assert _count_bits(mask) == mask.bit_count()
    assert _count_bits((1 << 40) - 1) == 40
