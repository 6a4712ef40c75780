"""The round state against the referee: every preset and player count, move by move."""

from __future__ import annotations

import itertools
import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scopa import CARDS, Card, Game, Move, Rules
from scopa.cards import mask_of, value_of
from scopa.round import (
    Round,
    _deck_by_bytes,
    _deck_by_floats,
    _deck_groups,
    _swaps,
    _worth,
    bonus_sweeps,
    random_deck,
    shuffled_deck,
)

from ..conftest import cards, deck_starting, rules_variants, variant_id
from .referee import RoundReferee

VARIANTS = rules_variants()


def dealt_round(rules: Rules, leader: int, seed: int) -> tuple[Round, list[list[Card]]]:
    """A round dealt from seeded shuffles, with every deck it asked for."""
    rng = random.Random(seed)
    decks: list[list[Card]] = []

    def next_deck() -> list[int]:
        deck = shuffled_deck(rng)
        decks.append([CARDS[bit.bit_length() - 1] for bit in deck])
        return deck

    return Round.deal(rules, leader, next_deck), decks


@pytest.mark.parametrize("rules", VARIANTS, ids=variant_id)
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), play_seed=st.integers(0, 2**32), leader=st.integers(0, 5))
def test_the_round_agrees_with_the_referee_move_by_move(
    rules: Rules, seed: int, play_seed: int, leader: int
) -> None:
    leader %= rules.players
    state, decks = dealt_round(rules, leader, seed)
    referee = RoundReferee(state, leader, decks)
    rng = random.Random(play_seed)
    while not state.over:
        referee.play(rng.choice(state.legal()))
    assert state.legal() == []
    # The playouts' fast totals are the referee-checked breakdown's totals.
    assert state.points() == [score.total for score in state.scores()]


@pytest.mark.parametrize("rules", VARIANTS, ids=variant_id)
def test_copies_play_on_alone_and_keys_name_positions(rules: Rules) -> None:
    state, _ = dealt_round(rules, 0, 7)
    rng = random.Random(7)
    for _ in range(5):
        state.apply(rng.choice(state.legal()))
    copy = state.copy()
    assert copy.key() == state.key()
    before = (state.key(), list(state.hands), list(state.piles), list(state.sweeps))
    while not copy.over:
        copy.apply(rng.choice(copy.legal()))
    assert (state.key(), state.hands, state.piles, state.sweeps) == before
    assert copy.key() != state.key()


def test_a_round_in_game_is_the_round_dealt_from_the_same_deck() -> None:
    rules = Rules.preset("escoba")
    game = Game.new(rules, seed=3)
    deck = [Card.parse(code).bit for code in game.record()["decks"][0]]
    state = Round.deal(rules, 0, lambda: deck)
    assert state.hands == [mask_of(hand) for hand in game.hands]
    assert state.table == mask_of(game.table)


def test_three_kings_on_the_first_table_deal_again_in_scopa_classic() -> None:
    rules = Rules.preset("scopa-classic")
    kings = [deck_starting(["AD", "2D", "3D", "4D", "5D", "6D", "KD", "KH", "KS", "7D"])]
    fine = deck_starting(["AD", "2D", "3D", "4D", "5D", "6D", "KD", "KH", "7S", "7D"])
    decks = iter([kings[0], fine])
    state = Round.deal(rules, 0, lambda: [card.bit for card in next(decks)])
    assert state.table == mask_of(cards("KD KH 7S 7D"))
    plain = Round.deal(Rules.preset("scopa"), 0, lambda: [card.bit for card in kings[0]])
    assert plain.table == mask_of(cards("KD KH KS 7D"))


@given(st.lists(st.sampled_from(CARDS), max_size=40, unique=True))
def test_the_bonus_reads_a_tables_worth_as_value_of_does(table: list[Card]) -> None:
    assert _worth(mask_of(table)) == value_of(mask_of(table))


@pytest.mark.parametrize(
    ("preset", "table", "sweeps"),
    [
        ("escoba", "AD 2H 5S 7D", 1),
        ("escoba", "AD 2H 7S KD", 2),  # seed: 20 -> 2
        ("escoba-classic", "AD 2H 7S KD", 0),  # 20 is no bonus in the classic table
        ("escoba-classic", "5D KH 7S JD", 2),  # 30 in two fifteens: 5+K, 7+J
        ("escoba-classic", "KD KH 3S 7D", 0),  # 30 that splits into no two fifteens
        ("scopa", "AD 2H 5S 7D", 0),
    ],
)
def test_the_dealer_bonus_follows_its_exact_conditions(
    preset: str, table: str, sweeps: int
) -> None:
    rules = Rules.preset(preset)
    assert bonus_sweeps(rules, mask_of(cards(table))) == sweeps
    deck = deck_starting(["AC", "2C", "3C", "4C", "5C", "6C", *table.split()])
    state = Round.deal(rules, 1, lambda: [card.bit for card in deck])
    dealer_side = 0
    assert state.sweeps[dealer_side] == sweeps
    assert (state.table == 0) == bool(sweeps)
    assert state.last == (dealer_side if sweeps else -1)


def test_a_position_plays_to_the_end_with_leftovers_to_the_last_capturer() -> None:
    rules = Rules.preset("scopa")
    # Seat 0 takes 5C with 5D; seat 1 trails; seat 0 trails; nobody else captures.
    hands = [mask_of(cards("5D 2H")), mask_of(cards("KS QS"))]
    state = Round.position(rules, hands, mask_of(cards("5C 7H")), [0, 0], [0, 0], [], 0, -1)
    assert state.apply(Move.parse("5Dx5C")) is False
    state.apply(Move.parse("KS"))
    state.apply(Move.parse("2H"))
    state.apply(Move.parse("QS"))
    assert state.over and state.table == 0
    assert state.piles == [mask_of(cards("5D 5C 7H KS 2H QS")), 0]


@pytest.mark.parametrize("rules", VARIANTS, ids=variant_id)
def test_a_random_rollout_is_the_random_moves_played_one_by_one(rules: Rules) -> None:
    state, _ = dealt_round(rules, 0, 11)
    by_hand = state.copy()
    state.play_randomly(random.Random(5))
    random_fraction = random.Random(5).random
    while not by_hand.over:
        moves = by_hand.legal()
        by_hand.apply(moves[int(random_fraction() * len(moves))])
    assert state.over
    assert state.key() == by_hand.key()
    assert state.scores() == by_hand.scores()


@pytest.mark.parametrize("seeds", [range(2000), [60070, 80365, 94450]])
def test_a_seed_deals_the_decks_it_always_dealt_both_ways(seeds: range | list[int]) -> None:
    # The decks have always been the cards sorted by one rng.random() each, in card order.
    # Seeds 60070, 80365 and 94450 deal first decks where two keys share their top bits.
    bits = [card.bit for card in CARDS]
    for seed in seeds:
        reference, by_floats, by_bytes, dealt = (random.Random(seed) for _ in range(4))
        for _ in range(3):
            keys = [reference.random() for _ in bits]
            expected = [bits[i] for i in sorted(range(40), key=keys.__getitem__)]
            assert _deck_by_floats(by_floats) == expected
            assert _deck_by_bytes(by_bytes) == expected
            assert shuffled_deck(dealt) == expected
        assert reference.random() == by_floats.random() == by_bytes.random() == dealt.random()


def test_the_cheap_shuffle_is_fisher_yates_read_from_four_words() -> None:
    # An independent reading of the same draws: 39 choices as one mixed-radix number per
    # run of steps, each run's word drawn again while it is at or above its limit.
    for seed in range(300):
        rng, reference = random.Random(seed), random.Random(seed)
        deck = [card.bit for card in CARDS]
        top = 39
        for bottom in (32, 24, 15, 1):
            product = math.prod(range(bottom + 1, top + 2))
            word = reference.getrandbits(62)
            while word >= (1 << 62) - (1 << 62) % product:
                word = reference.getrandbits(62)
            word %= product
            for i in range(top, bottom - 1, -1):
                word, j = divmod(word, i + 1)
                deck[i], deck[j] = deck[j], deck[i]
            top = bottom - 1
        assert random_deck(rng) == deck
        assert rng.random() == reference.random()


def test_the_cheap_shuffle_puts_every_card_everywhere_once_a_deck() -> None:
    rng = random.Random(1)
    seen = [0] * 40  # by position: the cards that have been there
    for _ in range(2000):
        deck = random_deck(rng)
        assert sorted(deck) == sorted(card.bit for card in CARDS)
        for position, bit in enumerate(deck):
            seen[position] |= bit
    assert seen == [(1 << 40) - 1] * 40


def test_the_cheap_shuffles_runs_are_exact_and_each_value_one_permutation() -> None:
    # A deck's runs: steps 39 down to 1 without gaps, choices below 2**42, and limits the
    # largest multiple of each product up to 2**62 (so a word mod the product is uniform).
    groups = _deck_groups(40, 42)
    runs = [(top, bottom) for top, bottom, _, _ in groups]
    assert runs == [(39, 32), (31, 24), (23, 15), (14, 1)]
    for top, bottom, product, limit in groups:
        assert product == math.prod(range(bottom + 1, top + 2)) < 1 << 42
        assert limit % product == 0 and (1 << 62) - product < limit <= 1 << 62
    # The same algorithm on 6 items in two runs (30 and 24 choices): all 720 pairs of
    # values give the 720 permutations, each once, so uniform words give uniform decks.
    small = _deck_groups(6, 5)
    assert [group[:3] for group in small] == [(5, 4, 30), (3, 1, 24)]
    shuffles = set()
    for values in itertools.product(*(range(product) for _, _, product, _ in small)):
        items: list[object] = list(range(6))
        for (top, bottom, _, _), value in zip(small, values, strict=True):
            _swaps(items, top, bottom, value)
        shuffles.add(tuple(items))
    assert len(shuffles) == math.factorial(6)
