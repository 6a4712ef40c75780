"""The learned level: legal and reproducible moves, the exact ending, and no weights no play."""

from __future__ import annotations

import random

import pytest

from scopa import Game, Rules
from scopa.learning.evaluation import WeightsError, weights_path
from scopa.learning.learned import LearnedPlayer
from scopa.tournament import make_bot

from ..conftest import deal, play_match


def test_a_whole_match_of_legal_moves() -> None:
    rules = Rules.preset("scopa")
    game = Game.new(rules, seed=5)
    players = [LearnedPlayer(seed=seat, samples=8, time_budget=None) for seat in range(2)]
    play_match(game, players)
    assert game.winner is not None


def test_the_same_seed_and_view_give_the_same_values() -> None:
    game = Game.new(Rules.preset("scopa"), seed=8)
    rng = random.Random(2)
    for _ in range(7):
        game.play(rng.choice(game.legal_moves()))
    view = game.view(game.to_move)
    first = LearnedPlayer(seed=4, samples=16, time_budget=None).evaluate(view)
    again = LearnedPlayer(seed=4, samples=16, time_budget=None).evaluate(view)
    assert first == again
    assert sorted(str(move) for move, _ in first) == sorted(str(m) for m in view.legal_moves())
    assert [value for _, value in first] == sorted((value for _, value in first), reverse=True)


def test_it_sweeps_with_the_settebello() -> None:
    # The seven of coins takes 1 + 2 + 3 + A, the whole table: a sweep and the settebello.
    rules = Rules.preset("scopa")
    game = Game.new(rules, deck=deal(rules, ["7D 3S QC", "2H 4H 5C"], "AH 2S 3C AS"))
    view = game.view(0)
    assert len(view.legal_moves()) > 1
    best, value = LearnedPlayer(seed=1, samples=32, time_budget=None).evaluate(view)[0]
    assert str(best.card) == "7D" and best.captured_mask.bit_count() == 4
    assert 0.0 <= value <= 1.5


def test_rules_without_weights_fail_at_the_first_move_naming_the_file() -> None:
    rules = Rules.preset("scopa-classic")
    assert not weights_path(rules).exists()
    game = Game.new(rules, seed=1)
    with pytest.raises(WeightsError, match=f"the learned weights file {weights_path(rules)}"):
        LearnedPlayer(seed=1).choose(game.view(game.to_move))


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="samples must be 1 or more; got 0"):
        LearnedPlayer(samples=0)
    with pytest.raises(ValueError, match="plies must be 0 or more; got -1"):
        LearnedPlayer(plies=-1)


def test_tournaments_can_field_it() -> None:
    bot = make_bot("learned", seed=3)
    assert isinstance(bot, LearnedPlayer) and bot.seed == 3
    # The level is not among the card room's levels until it wins.
    from scopa.players import LEVELS

    assert "learned" not in LEVELS


def test_the_shipped_team_weights_record_their_making() -> None:
    from scopa.learning.evaluation import evaluation_for

    rules = Rules.preset("scopa", players=4)
    path = weights_path(rules)
    assert path.name == "scopa-4p.npz" and path.stat().st_size < 5_000_000
    meta = evaluation_for(rules).meta
    assert meta["rules"] == "scopa-4p" and meta["seed"] == 15 and meta["generation"] == 0
    assert meta["positions"] > 500_000 and len(meta["data_sha256"]) == 64
    assert meta["held_out_loss"] < meta["baseline_loss"]


def test_a_learned_pair_plays_a_whole_team_match_against_an_expert_pair() -> None:
    from scopa.players.expert import ExpertPlayer

    rules = Rules.preset("scopa", players=4)
    game = Game.new(rules, seed=3)
    players = [LearnedPlayer(seed=seat, samples=8, time_budget=None) if seat % 2 == 0
               else ExpertPlayer(seed=seat) for seat in range(4)]
    play_match(game, players)
    assert game.winner in (0, 1)
