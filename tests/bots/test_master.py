"""The master level: legal moves everywhere, no reading of hidden cards, the exact last
deal, guesses that fit what was seen, and a simulator that keeps the engine's rules."""

from __future__ import annotations

import random

import pytest

from scopa import CARDS, Card, Game, Move, Rules
from scopa.cards import mask_of
from scopa.players import make_player
from scopa.players.master import MasterPlayer
from scopa.players.outlook import outlook
from scopa.players.sampling import Knowledge
from scopa.players.simulation import round_model
from scopa.players.solver import Solver
from scopa.round import Round
from scopa.scoring import score_piles

from ..conftest import deal, rules_variants, variant_id


@pytest.mark.parametrize("rules", rules_variants(), ids=variant_id)
def test_master_plays_only_legal_moves(rules: Rules) -> None:
    game = Game.new(rules, seed=11)
    players = [MasterPlayer(seed=seat, samples=6) for seat in range(rules.players)]
    rng = random.Random(3)
    for turn in range(40):
        if game.is_over:
            break
        seat = game.to_move
        assert seat is not None
        # Master's own moves where they are quick to check, random ones in between
        # so that the round reaches its later deals.
        if turn % 4 == 0 or game.stock_size == 0:
            move = players[seat].choose(game.view(seat))
            assert move in game.legal_moves()
        else:
            move = rng.choice(game.legal_moves())
        game.play(move)


def test_master_is_a_level() -> None:
    player = make_player("master", seed=1)
    assert player.name == "master"
    game = Game.new(Rules.preset("escoba"), seed=2)
    assert player.choose(game.view(game.to_move or 0)) in game.legal_moves()


def test_master_never_sees_hidden_cards() -> None:
    # Same hand and table for seat 0 and the same plays by seat 1, but different cards in
    # seat 1's hand and in the stock: seat 0's views agree, and so must its analysis.
    rules = Rules.preset("scopa", must_capture="none")
    first = deal(rules, ["AD 4H 7C", "KS QS JS"], "2D 3S 5H 6C")
    second = deal(rules, ["AD 4H 7C", "KS 7D 5C"], "2D 3S 5H 6C", then="JS QS")
    games = [Game.new(rules, seed=1, deck=deck) for deck in (first, second)]
    for game in games:
        game.play("AD")
        game.play("KS")
    views = [game.view(0) for game in games]
    assert views[0] == views[1]
    assert games[0].hands[1] != games[1].hands[1]
    # No time budget: a loaded machine must not cut one search shorter than the other.
    analyses = [
        MasterPlayer(seed=5, samples=30, time_budget=None).evaluate(view) for view in views
    ]
    assert analyses[0] == analyses[1]


def test_same_seed_same_move_whatever_came_before() -> None:
    game = Game.new(Rules.preset("escoba"), seed=9)
    view = game.view(game.to_move or 0)
    busy = MasterPlayer(seed=4, samples=20, time_budget=None)
    busy.choose(Game.new(Rules.preset("escoba"), seed=10).view(0))
    assert busy.choose(view) is MasterPlayer(seed=4, samples=20, time_budget=None).choose(view)


def test_master_refuses_bad_settings() -> None:
    with pytest.raises(ValueError, match="samples"):
        MasterPlayer(samples=0)
    with pytest.raises(ValueError, match="time_budget"):
        MasterPlayer(time_budget=0)


def test_time_budget_caps_the_search() -> None:
    game = Game.new(Rules.preset("escoba"), seed=4)
    view = game.view(game.to_move or 0)
    move = MasterPlayer(seed=1, samples=100_000, time_budget=0.05).choose(view)
    assert move in game.legal_moves()


def test_last_deal_of_two_is_solved_exactly() -> None:
    rules = Rules.preset("scopa")
    rng = random.Random(8)
    checked = 0
    for seed in range(30):
        game = Game.new(rules, seed=seed)
        while game.stock_size or len(game.legal_moves()) < 2:
            game.play(rng.choice(game.legal_moves()))
            if game.round_number:
                break
        if game.round_number:
            continue
        seat = game.to_move
        assert seat is not None
        view = game.view(seat)
        knowledge = Knowledge(view)
        assert knowledge.open
        truth = Round.position(
            rules,
            [mask_of(hand) for hand in game.hands],
            mask_of(game.table),
            [mask_of(pile) for pile in game.piles],
            list(game.sweeps),
            [],
            seat,
            knowledge.last,
        )
        utility = outlook(rules).utility(rules.side_of(seat), game.scores)
        exact = dict(Solver(rules, rules.side_of(seat), utility).move_values(truth))
        found = MasterPlayer(seed=1).evaluate(view)
        assert dict(found) == exact
        assert found[0][1] == max(exact.values())
        checked += 1
    assert checked >= 10


@pytest.mark.parametrize(
    "rules",
    [Rules.preset("scopa"), Rules.preset("escoba", players=4), Rules.preset("scopa", players=3)],
    ids=variant_id,
)
def test_guesses_fit_what_was_seen(rules: Rules) -> None:
    rng = random.Random(2)
    for seed in range(15):
        game = Game.new(rules, seed=seed)
        for _ in range(rng.randrange(1, 25)):
            game.play(rng.choice(game.legal_moves()))
            if game.round_number:
                break
        if game.round_number:
            continue
        seat = game.to_move
        assert seat is not None
        knowledge = Knowledge(game.view(seat))
        truth = [mask_of(hand) for hand in game.hands]
        for other in range(rules.players):
            # What the trails rule out is never in the real hand.
            assert not truth[other] & knowledge.forbidden[other]
        for _ in range(5):
            guess = knowledge.sample(rng)
            assert guess.hands[seat] == truth[seat]
            assert [hand.bit_count() for hand in guess.hands] == [h.bit_count() for h in truth]
            assert len(guess.stock) == game.stock_size
            hidden = sum(guess.stock) | sum(h for k, h in enumerate(guess.hands) if k != seat)
            assert hidden == knowledge.unseen
            for other in range(rules.players):
                assert not guess.hands[other] & knowledge.forbidden[other]


def test_a_trail_rules_out_the_cards_that_would_have_captured() -> None:
    # must_capture="hand": seat 1 trails 2S on 5H 6C 7S 7C QD, so no card it held could
    # capture there: no 5, 6, 7 or Queen (equal cards), and nothing else makes a sum.
    rules = Rules.preset("scopa")
    deck = deal(rules, ["QD KD 4D", "JS AH 2S"], "5H 6C 7S 7C")
    game = Game.new(rules, seed=1, deck=deck)
    game.play("QD")
    game.play("2S")
    knowledge = Knowledge(game.view(0))
    capturing = mask_of(
        card for card in CARDS if card.value in (5, 6, 7, 9) and card.bit & knowledge.unseen
    )
    assert knowledge.forbidden[1] == capturing
    assert not knowledge.forbidden[0]


@pytest.mark.parametrize("rules", rules_variants(), ids=variant_id)
def test_playouts_keep_the_engine_rules(rules: Rules) -> None:
    # Play a round part way at random, let the simulator's policy finish it from the
    # true hands and stock, then make the same moves in the engine: same score.
    model = round_model(rules)
    rng = random.Random(6)
    for seed in range(4):
        game = Game.new(rules, seed=seed)
        for _ in range(rng.randrange(0, 12)):
            game.play(rng.choice(game.legal_moves()))
            if game.round_number:
                break
        seat = game.to_move
        if game.round_number or seat is None:
            continue
        deck = [Card.parse(code).bit for code in game.record()["decks"][-1]]
        line = Round.position(
            rules,
            [mask_of(hand) for hand in game.hands],
            mask_of(game.table),
            [mask_of(pile) for pile in game.piles],
            list(game.sweeps),
            deck[40 - game.stock_size :],
            seat,
            Knowledge(game.view(seat)).last,
        )
        trace: list[Move] = []
        model.play_out(line, trace)
        for move in trace:
            game.play(move)
        assert game.round_number == 1 or game.is_over
        expected = [score.total for score in game.round_scores[0]]
        assert [score.total for score in score_piles(rules, line.piles, line.sweeps)] == expected
