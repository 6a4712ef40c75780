"""Properties over random matches of every preset: conservation, legality, replay, determinism."""

from __future__ import annotations

import random
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from scopa import CARDS, Card, Game, IllegalMoveError, Move, Rules

from ..conftest import rules_variants, state

VARIANTS = rules_variants()

games = st.tuples(
    st.sampled_from(VARIANTS),
    st.integers(0, 2**32),
    st.integers(0, 2**32),
)


def stock_of(game: Game) -> list[Card]:
    deck = [Card.parse(code) for code in game.record()["decks"][-1]]
    return deck[40 - game.stock_size :]


def check_conservation(game: Game) -> None:
    parts = [*game.hands, game.table, *game.piles, stock_of(game)]
    everything = [c for part in parts for c in part]
    if game.is_over and not any(game.piles):
        # the last round ended with nobody capturing: its cards went to nobody
        assert everything == []
        return
    assert len(everything) == 40
    assert len(set(everything)) == 40


def advance(game: Game, rng: random.Random, moves: int, check: bool = False) -> None:
    for _ in range(moves):
        if game.is_over:
            return
        game.play(rng.choice(game.legal_moves()))
        if check:
            check_conservation(game)


@settings(max_examples=25, deadline=None)
@given(games)
def test_forty_cards_are_conserved_at_every_step(case: tuple[Rules, int, int]) -> None:
    rules, seed, play_seed = case
    game = Game.new(rules, seed=seed)
    check_conservation(game)
    advance(game, random.Random(play_seed), 10_000, check=True)
    assert game.is_over
    check_conservation(game)


def candidate_moves(game: Game, rng: random.Random, count: int) -> list[Move]:
    """Well-formed moves: any card from any hand (or elsewhere) with small sets of table cards."""
    table = game.table
    in_hands = [c for hand in game.hands for c in hand]
    elsewhere = [c for pile in game.piles for c in pile] + table
    subsets: list[tuple[Card, ...]] = [
        s for k in range(min(3, len(table)) + 1) for s in combinations(table, k)
    ]
    found: list[Move] = list(game.legal_moves())
    for _ in range(count):
        pool = in_hands if in_hands and (rng.random() < 0.85 or not elsewhere) else elsewhere
        pool = pool or list(CARDS)  # the match is over and nobody took the last cards
        played = rng.choice(pool)
        taken = set(rng.choice(subsets))
        if rng.random() < 0.1 and elsewhere:
            taken.add(rng.choice(elsewhere))
        taken.discard(played)
        found.append(Move(played, frozenset(taken)))
    return found


@settings(max_examples=30, deadline=None)
@given(games, st.integers(0, 150))
def test_legal_moves_are_accepted_and_all_others_refused(
    case: tuple[Rules, int, int], moves: int
) -> None:
    rules, seed, play_seed = case
    game = Game.new(rules, seed=seed)
    rng = random.Random(play_seed)
    advance(game, rng, moves)
    legal = game.legal_moves()
    if game.is_over:
        assert legal == []
    else:
        assert legal
        assert len(set(legal)) == len(legal)
    before = state(game)
    for move in candidate_moves(game, rng, 40):
        if move in legal:
            copy = Game.replay(game.record())
            seat = copy.to_move
            copy.play(move, seat=seat)
            assert copy.moves[-1] == move
            assert copy.last_move is not None and copy.last_move.seat == seat
        else:
            try:
                game.play(move)
            except IllegalMoveError as error:
                assert str(error)
            else:
                raise AssertionError(f"{move} was accepted but is not among the legal moves")
            try:
                game.play(str(move))
            except IllegalMoveError:
                pass
            else:
                raise AssertionError(f"{move} was accepted by code")
            assert state(game) == before
    if not game.is_over:
        seat = game.to_move
        assert seat is not None
        for other in range(rules.players):
            if other != seat:
                try:
                    game.play(legal[0], seat=other)
                except IllegalMoveError as error:
                    assert "not your turn" in str(error)
                else:
                    raise AssertionError("a move was accepted out of turn")
        assert state(game) == before


@settings(max_examples=25, deadline=None)
@given(games, st.integers(0, 400))
def test_record_and_replay_give_the_same_state(case: tuple[Rules, int, int], moves: int) -> None:
    rules, seed, play_seed = case
    game = Game.new(rules, seed=seed)
    advance(game, random.Random(play_seed), moves)
    record = game.record()
    again = Game.replay(record)
    assert again.record() == record
    assert again.table == game.table
    assert again.hands == game.hands
    assert again.piles == game.piles
    assert again.sweeps == game.sweeps
    assert again.scores == game.scores
    assert again.round_scores == game.round_scores
    assert again.to_move == game.to_move
    assert again.winner == game.winner
    assert again.legal_moves() == game.legal_moves()
    for seat in [None, *range(rules.players)]:
        assert again.view(seat) == game.view(seat)
        assert again.view(seat).to_dict() == game.view(seat).to_dict()
    assert state(again) == state(game)


@settings(max_examples=15, deadline=None)
@given(games)
def test_replay_of_a_record_with_a_given_deck(case: tuple[Rules, int, int]) -> None:
    rules, seed, play_seed = case
    deck = list(range(40))
    random.Random(seed ^ 0x5EED).shuffle(deck)
    game = Game.new(rules, seed=seed, deck=deck)
    advance(game, random.Random(play_seed), 10_000)
    again = Game.replay(game.record())
    assert state(again) == state(game)


@settings(max_examples=15, deadline=None)
@given(games)
def test_the_same_seed_deals_and_plays_the_same_match(case: tuple[Rules, int, int]) -> None:
    rules, seed, play_seed = case
    first = Game.new(rules, seed=seed)
    second = Game.new(rules, seed=seed)
    assert state(first) == state(second)
    advance(first, random.Random(play_seed), 10_000)
    advance(second, random.Random(play_seed), 10_000)
    assert state(first) == state(second)
    assert first.is_over and second.is_over


def test_different_seeds_deal_differently() -> None:
    rules = Rules.preset("scopa")
    deals = {tuple(str(c) for c in Game.new(rules, seed=s).hand(0)) for s in range(20)}
    assert len(deals) > 10
