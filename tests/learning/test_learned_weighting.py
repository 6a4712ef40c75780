"""Guesses weighted by the opponent's plays: the positions weighed are the ones we saw, a
flat model weighs a guess by its hand's choices, and a play makes the hands that would
have played otherwise less likely."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from scopa import Game, Rules
from scopa.capture import move_generator
from scopa.cards import mask_of
from scopa.learning.evaluation import Evaluation, evaluation_for
from scopa.learning.features import FEATURES, Record, record
from scopa.learning.learned import LearnedPlayer
from scopa.learning.weighting import PlayLikelihood
from scopa.players.sampling import Knowledge
from scopa.round import Round

from ..conftest import deal, play_match


class Flat(Evaluation):
    """Every position worth nothing to anyone; keeps the records it was asked about."""

    def __init__(self) -> None:
        hidden = 4
        super().__init__(np.zeros((FEATURES, hidden), np.float32), np.zeros(hidden, np.float32),
                         np.zeros((hidden, 2), np.float32), np.zeros(2, np.float32), {})
        self.asked: list[tuple[int, ...]] = []

    def points(self, records: Any) -> npt.NDArray[np.float32]:
        self.asked += [tuple(int(x) for x in row) for row in records]
        return super().points(records)


def _guess_with_true_hands(game: Game, view_seat: int) -> Round:
    """A round whose hands are the game's true hands (all a weight reads)."""
    rules = game.rules
    return Round.position(rules, [mask_of(hand) for hand in game.hands], 0, [0] * rules.sides,
                          [0] * rules.sides, [], view_seat, -1)


@pytest.mark.parametrize(("preset", "players"), [("scopa", 2), ("escoba", 2), ("scopa", 4)])
def test_the_positions_weighed_are_those_we_saw_and_a_flat_model_counts_choices(
    preset: str, players: int
) -> None:
    rules = Rules.preset(preset, players=players)
    generator = move_generator(rules)
    checked = 0
    for seed in range(6):
        game = Game.new(rules, seed=seed)
        rng = random.Random(seed)
        # Per round: the record we saw at each of seat 0's turns, and the choices the seat
        # before it had at each of its turns (its true hand on the table then).
        seen_records: list[Record] = []
        choices: list[int] = []
        before = (0 - 1) % players
        round_number = game.round_number
        while not game.is_over:
            seat = game.to_move
            assert seat is not None
            if game.round_number != round_number:
                round_number, seen_records, choices = game.round_number, [], []
            view = game.view(seat)
            if seat == before:
                choices.append(len(generator.moves(mask_of(view.hand), mask_of(view.table))))
            if seat == 0:
                knowledge = Knowledge(view)
                seen_records.append(record(knowledge.sample(rng)))
                flat = Flat()
                likelihood = PlayLikelihood.of(view, knowledge, flat, sharpness=2.0)
                played = sum(rules.hand_size - size for size in view.hand_sizes)
                theirs = [p for p in view.plays[len(view.plays) - played :] if p.seat == before]
                if not played or not theirs:
                    assert likelihood is None
                else:
                    assert likelihood is not None and len(likelihood.seen) == len(theirs)
                    # After each of their plays this deal, we were to move: that position
                    # is among those the model was asked about.
                    for back in range(len(theirs)):
                        assert seen_records[-1 - back] in flat.asked
                    # All moves alike: a guess weighs as one over the choices each hand had.
                    expected = 1.0
                    for count in choices[-len(theirs) :]:
                        expected /= count
                    truth = _guess_with_true_hands(game, seat)
                    assert likelihood.weight(truth) == pytest.approx(expected)
                    checked += 1
            game.play(rng.choice(game.legal_moves()))
    assert checked >= 20


def test_a_small_capture_beside_the_settebello_makes_holding_a_seven_unlikely() -> None:
    # Seat 1 takes the ace with its ace while the 7 of coins lies on the table: had it held
    # a seven, it would have taken the settebello. Guesses that give it a seven weigh less.
    rules = Rules.preset("scopa")
    game = Game.new(rules, deck=deal(rules, ["2C 3C 4C", "AH 5S 6S"], "7D AS 2H 4S"))
    game.play(next(m for m in game.legal_moves() if str(m.card) == "2C" and m.captured_mask))
    game.play(next(m for m in game.legal_moves() if str(m.card) == "AH"))
    view = game.view(0)
    knowledge = Knowledge(view)
    likelihood = PlayLikelihood.of(view, knowledge, evaluation_for(rules), sharpness=3.0)
    assert likelihood is not None
    sevens = sum(1 << (suit * 10 + 6) for suit in range(4))  # card id: suit * 10 + value - 1
    rng = random.Random(5)
    with_seven, without = [], []
    for _ in range(400):
        guess = knowledge.sample(rng)
        (with_seven if guess.hands[1] & sevens else without).append(likelihood.weight(guess))
    assert with_seven and without
    assert sum(with_seven) / len(with_seven) < 0.5 * sum(without) / len(without)


def test_weighting_settings_are_checked_and_off_by_default() -> None:
    assert LearnedPlayer().weighting == 0.0
    with pytest.raises(ValueError, match="weighting must be from 0 to 100; got -1"):
        LearnedPlayer(weighting=-1)


def test_a_weighted_search_plays_a_whole_match_of_legal_moves() -> None:
    rules = Rules.preset("escoba")
    game = Game.new(rules, seed=2)
    players = [LearnedPlayer(seed=seat, samples=8, time_budget=None, weighting=2.0)
               for seat in range(2)]
    play_match(game, players)
