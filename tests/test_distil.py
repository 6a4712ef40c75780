"""Distilling the master's search: labels are its values for the seat to move, from a seed
on any number of processes, and the records hold only what that seat knows."""

from __future__ import annotations

import random

import numpy as np
import pytest

from scopa import Rules
from scopa.env.engine import Match
from scopa.learning.distil import SEARCH_TARGETS, label, label_matches
from scopa.players.features import record
from scopa.players.master import Decision, MasterPlayer
from scopa.players.sampling import Knowledge
from scopa.players.simulation import round_model


def test_labels_are_the_masters_best_value_for_the_seat_to_move() -> None:
    rules = Rules.preset("scopa")
    positions = label_matches(rules, 1, seed=4, epsilon=0.0, samples=8)
    assert positions.targets.shape[1] == len(SEARCH_TARGETS)
    # The same match walked by hand: a master seeded as the run seeds it, then the match.
    rng = random.Random(4)
    master = MasterPlayer(rng.randrange(1 << 62), time_budget=None, samples=8)
    match = Match(rules, rng.randrange(1 << 62))
    model = round_model(rules)
    guesses = random.Random(0)
    for k in range(40):  # the first round and into the second
        seat = match.state.to_move
        view = match.view(seat)
        ranked = master.evaluate(view)
        best, value = ranked[0]  # the move it plays (moves dropped early may read higher)
        decision = Decision.of(view, master.seed)
        prior = (0.0 if decision.exact is not None
                 else decision.foresight(model)[decision.moves.index(best)])
        assert positions.targets[k, 0] == pytest.approx(value, abs=1e-6)
        assert positions.targets[k, 1] == pytest.approx(prior, abs=1e-6)
        # The record is the seat's knowledge: a guess dealt from its view alone gives it.
        guess = Knowledge(view).sample(guesses)
        assert tuple(positions.records[k]) == record(guess) == record(match.state)
        scores = view.scores
        assert tuple(positions.standing[k]) == (scores[seat % 2], scores[1 - seat % 2])
        match.play(best)
    # The last deal of a two-player round is open and small: solved exactly, no prior.
    assert positions.targets[30:36, 1].tolist() == [0.0] * 6
    won = positions.targets[:, SEARCH_TARGETS.index("match_won")]
    assert set(np.unique(won)) == {0.0, 1.0}


def test_a_seed_gives_the_same_labels_on_one_process_or_two() -> None:
    rules = Rules.preset("scopa")
    alone = label(rules, 6, seed=3, jobs=1, samples=4).positions
    shared = label(rules, 6, seed=3, jobs=2, samples=4).positions
    assert len(alone) > 6 * 36
    assert alone.digest() == shared.digest()
    assert label(rules, 6, seed=5, jobs=1, samples=4).positions.digest() != alone.digest()


def test_the_search_target_needs_two_sides() -> None:
    with pytest.raises(ValueError, match=r"^the search target needs two sides; these rules "
                       r"have 3$"):
        label(Rules.preset("scopa", players=3), 1, seed=1)
