"""Distilling the master's search: labels are its values for the seat to move, from a seed
on any number of processes, and the records hold only what that seat knows."""

from __future__ import annotations

import hashlib
import json
import random
import re
from pathlib import Path

import numpy as np
import pytest

from scopa import Rules
from scopa.env.engine import Match
from scopa.learning.__main__ import main
from scopa.learning.distil import SEARCH_TARGETS, label, label_matches
from scopa.learning.evaluation import (
    STANDING_INPUTS,
    Evaluation,
    WeightsError,
    standing_inputs,
    weights_path,
)
from scopa.learning.features import FEATURES, expand, record
from scopa.learning.learned import LearnedPlayer, _leaf_values
from scopa.learning.levels import level
from scopa.learning.selfplay import LearnedPolicy, Positions
from scopa.players.decision import Decision
from scopa.players.master import MasterPlayer
from scopa.players.sampling import Knowledge
from scopa.players.simulation import round_model
from scopa.round import Round, shuffled_deck
from scopa.tournament import run


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


def _labels() -> Positions:
    return label_matches(Rules.preset("scopa"), 2, seed=6, samples=4)


def test_the_net_learns_the_search_value_and_the_level_plays_with_it(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from scopa.learning.train import train

    rules = Rules.preset("scopa")
    positions = _labels()
    fit = train(positions, seed=2, hidden=8, epochs=2, meta={"rules": "scopa-2p"},
                target="search", rules=rules)
    again = train(positions, seed=2, hidden=8, epochs=2, meta={"rules": "scopa-2p"},
                  target="search", rules=rules)
    assert np.array_equal(fit.evaluation.w1, again.evaluation.w1)
    assert fit.evaluation.meta["target"] == "search"
    path = tmp_path / "search.npz"
    fit.evaluation.save(path)
    model = Evaluation.load(path)
    assert model.target == "search" and model.w2.shape == (8, 1)
    # One output: the network written out over the record and the standing.
    values = model.utilities(positions.records[:5], positions.standing[:5], rules)
    inputs = np.concatenate([expand(positions.records[:5]),
                             standing_inputs(positions.standing[:5], rules)], axis=1)
    expected = (np.maximum(inputs @ model.w1 + model.b1, 0) @ model.w2 + model.b2)[:, 0]
    assert np.allclose(values, expected, atol=1e-5)
    # A file of one target is never read as the other.
    with pytest.raises(ValueError, match="predicts the 'search' target, not round points"):
        model.points(positions.records[:1])
    with pytest.raises(ValueError, match="weighted guesses need an evaluation of round points"):
        LearnedPlayer(1, evaluation=model, weighting=2)
    # The cheap self-play policy reads it with the match standing, and needs that.
    policy = LearnedPolicy(rules, model)
    state = Round.deal(rules, 0, lambda: shuffled_deck(random.Random(1)))
    moves = state.legal()
    with pytest.raises(ValueError, match="needs the match standing"):
        policy.choose(state, moves, random.Random(1))
    assert policy.choose(state, moves, random.Random(1), [4, 7]) in moves
    # The learned level plays a whole match of legal moves with it, as a tournament level.
    result = run(level(path, samples=8), "greedy", rules, 1, 3)
    assert result.games == 2 and all(r.moves for r in result.results)


def test_the_leaf_reads_the_search_value_for_each_side(tmp_path: Path) -> None:
    rules = Rules.preset("scopa")
    rng = np.random.default_rng(1)
    hidden = 4
    model = Evaluation(
        rng.normal(size=(FEATURES + STANDING_INPUTS, hidden)).astype(np.float32),
        rng.normal(size=hidden).astype(np.float32),
        rng.normal(size=(hidden, 1)).astype(np.float32),
        rng.normal(size=1).astype(np.float32),
        meta={"target": "search"},
    )
    positions = _labels()
    leaves = [tuple(row) for row in positions.records[:2].tolist()]
    scores = [3, 8]
    values = _leaf_values(model, leaves, [True, False], scores, rules, lambda _: 0.0, 0)
    ours = model.utilities(leaves[:1], [(3, 8)], rules)[0]
    theirs = model.utilities(leaves[1:], [(8, 3)], rules)[0]
    assert values == pytest.approx([ours, 1 - theirs])


def test_a_file_with_an_unknown_target_fails_at_load_naming_it(tmp_path: Path) -> None:
    model = Evaluation.load(weights_path(Rules.preset("scopa")))
    path = tmp_path / "odd.npz"
    Evaluation(model.w1, model.b1, model.w2, model.b2, dict(model.meta)).save(path)
    with np.load(path) as data:
        arrays = {name: data[name] for name in ("w1", "b1", "w2", "b2")}
    meta = dict(model.meta, target="outcome")
    np.savez(path, **arrays, meta=np.array(json.dumps(meta)))
    with pytest.raises(WeightsError, match=(
            f"^the learned weights file {re.escape(str(path))} predicts the unknown target "
            r"'outcome'; the targets are \['points', 'search'\]$")):
        Evaluation.load(path)
    # A points file read as search weights is refused as misshapen, naming the file.
    meta = dict(model.meta, target="search")
    np.savez(path, **arrays, meta=np.array(json.dumps(meta)))
    with pytest.raises(WeightsError, match=f"^the learned weights file {re.escape(str(path))} "):
        Evaluation.load(path)


def test_the_pipeline_distils_with_its_seed_data_size_and_hashes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("torch")
    assert main(["--targets", "search", "--matches", "2", "--samples", "4", "--seed", "6",
                 "--hidden", "4", "--epochs", "1", "--seeds", "0", "--run", str(tmp_path)]) == 0
    printed = capsys.readouterr().out
    path = tmp_path / "scopa-2p-search-gen0.npz"
    meta = Evaluation.load(path).meta
    assert meta["target"] == "search" and meta["samples"] == 4 and meta["seed"] == 6
    labels = label(Rules.preset("scopa"), 2, seed=6, samples=4).positions
    assert meta["data_sha256"] == labels.digest() and meta["positions"] == len(labels)
    assert f"data sha256 {meta['data_sha256']}, seed 6" in printed
    assert f"{meta['positions']:,} positions" in printed
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    assert f"sha256 {digest}" in printed and "weights kept in" in printed


@pytest.mark.parametrize(
    ("arguments", "sentence"),
    [
        (["--targets", "outcome"], "unknown target 'outcome'; the targets are ['points', "
         "'search']"),
        (["--targets", "search", "--players", "3"], "the search target needs two sides; these "
         "rules have 3"),
        (["--targets", "search", "--generations", "2"], "generations must be 1; got 2"),
        (["--targets", "search", "--preset", "scopetta"], "unknown preset 'scopetta'"),
    ],
)
def test_the_distiller_refuses_bad_input_in_one_sentence(
    arguments: list[str], sentence: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main([*arguments, "--run", str(tmp_path / "run")]) == 2
    assert sentence in capsys.readouterr().err
    assert not (tmp_path / "run").exists()
