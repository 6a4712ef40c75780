"""Views: what one seat may know, and nothing more."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scopa import Card, Game, Rules, View

from ..conftest import play_random, rules_variants, variant_id

VARIANTS = rules_variants()


def test_a_view_holds_its_own_hand_only() -> None:
    game = Game.new(Rules.preset("scopa", players=4), seed=3)
    for seat in range(4):
        view = game.view(seat)
        assert view.seat == seat
        assert list(view.hand) == game.hand(seat)
        assert view.hand_sizes == (3, 3, 3, 3)
        assert view.side == seat % 2
        assert list(view.table) == game.table
        assert view.stock_size == game.stock_size
        assert view.to_move == 0
        assert view.dealer == 3
        assert view.round_number == 0
        assert view.my_turn is (seat == 0)
        data = view.to_dict()
        assert data["hand"] == [str(c) for c in game.hand(seat)]
        for other in range(4):
            if other != seat:
                for c in game.hand(other):
                    assert str(c) not in json.dumps(data)
        assert "seed" not in data
        assert "decks" not in data


def test_hand_sizes_follow_the_play() -> None:
    game = Game.new(Rules.preset("scopa", players=3), seed=5)
    rng = random.Random(5)
    expected = [3, 3, 3]
    for seat in (0, 1):
        game.play(rng.choice(game.legal_moves()))
        expected[seat] -= 1
        for viewer in (None, 0, 1, 2):
            assert list(game.view(viewer).hand_sizes) == expected


def test_spectators_have_no_hand() -> None:
    game = Game.new(Rules.preset("scopa"), seed=1)
    view = game.view(None)
    assert view.seat is None
    assert view.hand == ()
    assert view.side is None
    assert not view.my_turn
    assert view.legal_moves() == []
    assert view.hand_sizes == (3, 3)
    assert list(view.table) == game.table


@pytest.mark.parametrize("rules", VARIANTS, ids=variant_id)
def test_view_legal_moves_equal_the_games_for_the_seat_to_move(rules: Rules) -> None:
    game = Game.new(rules, seed=2)
    rng = random.Random(2)
    for _ in range(60):
        if game.is_over:
            break
        mover = game.to_move
        assert mover is not None
        for seat in range(rules.players):
            moves = game.view(seat).legal_moves()
            if seat == mover:
                assert sorted(moves, key=str) == sorted(game.legal_moves(), key=str)
            else:
                assert moves == []
        game.play(rng.choice(game.legal_moves()))


def test_views_once_the_match_is_over() -> None:
    game = Game.new(Rules.preset("escoba"), seed=8)
    play_random(game, random.Random(8))
    for seat in (None, 0, 1):
        view = game.view(seat)
        assert view.is_over
        assert view.winner == game.winner
        assert view.to_move is None
        assert view.legal_moves() == []
        assert list(view.scores) == game.scores
        assert len(view.round_scores) == len(game.round_scores)


def test_view_plays_are_this_rounds_moves() -> None:
    game = Game.new(Rules.preset("scopa", target=100), seed=4)
    rng = random.Random(4)
    played = []
    while game.round_number == 0:
        seat = game.to_move
        move = rng.choice(game.legal_moves())
        game.play(move)
        if game.round_number == 0:
            played.append((seat, move))
            view = game.view(1)
            assert [(p.seat, p.move) for p in view.plays] == played
            assert view.last_move == view.plays[-1]
    view = game.view(0)
    assert view.plays == ()
    assert view.last_move is not None  # the last move of round 0
    assert len(view.round_scores) == 1


def test_a_view_built_by_hand_gives_the_same_legal_moves() -> None:
    game = Game.new(Rules.preset("scopa"), seed=6)
    seat = game.to_move
    assert seat is not None
    mine = game.view(seat)
    rebuilt = View(
        rules=mine.rules,
        seat=seat,
        hand=mine.hand,
        table=mine.table,
        hand_sizes=mine.hand_sizes,
        stock_size=mine.stock_size,
        piles=mine.piles,
        sweeps=mine.sweeps,
        scores=mine.scores,
        to_move=mine.to_move,
        dealer=mine.dealer,
        round_number=mine.round_number,
    )
    assert rebuilt.legal_moves() == mine.legal_moves()


def visible_cards(view: View) -> set[Card]:
    seen = set(view.hand) | set(view.table) | set(view.dealer_bonus)
    for pile in view.piles:
        seen |= set(pile)
    for play in view.plays:
        seen |= {play.move.card, *play.move.captured}
    return seen


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(VARIANTS),
    st.integers(0, 2**32),
    st.integers(0, 2**32),
    st.integers(0, 120),
)
def test_a_view_never_shows_another_seats_hand(
    rules: Rules, seed: int, play_seed: int, moves: int
) -> None:
    game = Game.new(rules, seed=seed)
    rng = random.Random(play_seed)
    for _ in range(moves):
        if game.is_over:
            break
        game.play(rng.choice(game.legal_moves()))
    hands = [set(game.hand(seat)) for seat in range(rules.players)]
    for viewer in [None, *range(rules.players)]:
        view = game.view(viewer)
        others = set().union(*(hands[s] for s in range(rules.players) if s != viewer))
        assert not visible_cards(view) & others
        if viewer is not None:
            assert set(view.hand) == hands[viewer]
        assert list(view.hand_sizes) == [len(h) for h in hands]
