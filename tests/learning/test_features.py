"""The learned evaluation's input: what the seat to move knows, and nothing it cannot see."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scopa import Rules
from scopa.cards import ALL_CARDS_MASK, ids_of
from scopa.learning.features import (
    FEATURES,
    RECORD_FIELDS,
    determinized_record,
    expand,
    inputs,
    record,
    recorder,
)
from scopa.round import Round, shuffled_deck


def _played(rules: Rules, seed: int, moves: int) -> Round:
    """A round after ``moves`` random moves (fewer if it ends)."""
    rng = random.Random(seed)
    state = Round.deal(rules, 0, lambda: shuffled_deck(rng))
    for _ in range(moves):
        if state.over:
            break
        legal = state.legal()
        state.apply(legal[rng.randrange(len(legal))])
    return state


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), moves=st.integers(0, 30), players=st.sampled_from([2, 3, 4]))
def test_a_record_does_not_change_when_only_hidden_cards_do(
    seed: int, moves: int, players: int
) -> None:
    rules = Rules.preset("scopa", players=players)
    state = _played(rules, seed, moves)
    if state.over:
        return
    seat = state.to_move
    # Deal the cards hidden from the seat to move out again: other hands and stock.
    hidden = [seat_ for seat_ in range(players) if seat_ != seat]
    pool = 0
    for other in hidden:
        pool |= state.hands[other]
    for bit in state.stock[state.dealt :]:
        pool |= bit
    cards = [1 << i for i in ids_of(pool)]
    random.Random(seed + 1).shuffle(cards)
    hands = list(state.hands)
    for other in hidden:
        size = state.hands[other].bit_count()
        hands[other] = sum(cards[:size])
        cards = cards[size:]
    guess = Round.position(rules, hands, state.table, state.piles, state.sweeps, cards, seat,
                           state.last)
    assert record(guess) == record(state)


def test_a_record_holds_the_seats_own_cards_and_the_public_ones() -> None:
    rules = Rules.preset("scopa")
    state = _played(rules, 4, 9)
    seat = state.to_move
    hand, table, own, others, own_sweeps, other_sweeps, stock_left, last, hidden = record(state)
    assert hand == state.hands[seat]
    assert table == state.table
    assert own == state.piles[seat % 2] and others == state.piles[1 - seat % 2]
    assert (own_sweeps, other_sweeps) == (state.sweeps[seat % 2], state.sweeps[1 - seat % 2])
    assert stock_left == state.stock_left
    assert last == (0 if state.last < 0 else 1 if state.last == seat % 2 else 2)
    assert hidden == state.hands[1 - seat].bit_count()
    # Every card is in exactly one place the seat knows of, or unseen.
    assert hand & table == 0 and (hand | table) & (own | others) == 0
    assert (hand | table | own | others) != ALL_CARDS_MASK


def test_expand_sets_one_bit_per_card_and_scales_the_counts() -> None:
    row = (0b101, 1 << 39, 1 << 10, (1 << 20) | (1 << 21), 2, 1, 24, 2, 7)
    out = expand([row, row])
    assert out.shape == (2, FEATURES) and out.dtype.name == "float32"
    assert len(row) == len(RECORD_FIELDS)
    ones = [int(i) for i in out[0].nonzero()[0]]
    assert ones == [0, 2, 40 + 39, 80 + 10, 120 + 20, 120 + 21, 160, 161, 162, 164, 165]
    assert out[0, 160] == 2 and out[0, 161] == 1
    assert abs(out[0, 162] - 0.8) < 1e-6 and abs(out[0, 165] - 0.7) < 1e-6
    assert out[0, 163] == 0 and out[0, 164] == 1


def _dealt_again(state: Round, seed: int, stock_only: bool) -> Round:
    """``state`` with its hidden cards dealt out again: only the stock's order
    (``stock_only``), or the other hands and the stock together."""
    rules = state.rules
    seat = state.to_move
    others = [] if stock_only else [s for s in range(rules.players) if s != seat]
    pool = [bit for bit in state.stock[state.dealt :]]
    for other in others:
        pool += [1 << i for i in ids_of(state.hands[other])]
    random.Random(seed).shuffle(pool)
    hands = list(state.hands)
    for other in others:
        size = state.hands[other].bit_count()
        hands[other] = sum(pool[:size])
        pool = pool[size:]
    return Round.position(rules, hands, state.table, state.piles, state.sweeps, pool, seat,
                          state.last)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), moves=st.integers(0, 30), players=st.sampled_from([2, 3, 4]))
def test_a_determinized_record_sees_the_other_hands_but_not_the_stocks_order(
    seed: int, moves: int, players: int
) -> None:
    rules = Rules.preset("scopa", players=players)
    state = _played(rules, seed, moves)
    if state.over:
        return
    seat = state.to_move
    full = determinized_record(state)
    assert full[: len(RECORD_FIELDS)] == record(state)
    assert list(full[len(RECORD_FIELDS) :]) == [
        state.hands[(seat + k) % players] for k in range(1, players)
    ]
    assert determinized_record(_dealt_again(state, seed, stock_only=True)) == full
    other = _dealt_again(state, seed + 1, stock_only=False)
    if any(other.hands[s] != state.hands[s] for s in range(players)):
        assert determinized_record(other) != full
        assert record(other) == record(state)
    assert expand([full]).shape == (1, inputs("determinized", players))


def test_a_determinized_record_expands_each_hand_to_its_own_block() -> None:
    rules = Rules.preset("scopa")
    state = _played(rules, 6, 3)
    full = determinized_record(state)
    seat_part, hand = expand([full[: len(RECORD_FIELDS)]])[0], full[-1]
    out = expand([full, full])
    assert out.shape == (2, FEATURES + 40)
    assert np.array_equal(out[0, :FEATURES], seat_part)
    assert [int(i) for i in out[1, FEATURES:].nonzero()[0]] == list(ids_of(hand))
    assert recorder("seat") is record and recorder("determinized") is determinized_record
    assert inputs("seat", 4) == FEATURES and inputs("determinized", 4) == FEATURES + 120


def test_unknown_feature_sets_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown feature set 'open'; the sets are"):
        recorder("open")
