"""Self-play data and the training pipeline: positions with their outcomes, the same from a
seed on any number of processes, and the trainer's refusals in the core's words."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from scopa import Rules
from scopa.learning.__main__ import main
from scopa.learning.features import RECORD_FIELDS
from scopa.learning.selfplay import TARGETS, Positions, generate, play_matches


def test_every_decision_is_a_position_with_its_rounds_outcome() -> None:
    rules = Rules.preset("scopa")
    positions = play_matches(rules, 3, seed=7)
    records, targets = positions.records, positions.targets
    assert records.shape[1] == len(RECORD_FIELDS) and targets.shape[1] == len(TARGETS)
    # Two players, 36 cards dealt a round less the 4 on the table: 36 decisions a round.
    assert len(positions) % 36 == 0 and len(positions) >= 3 * 36
    own = targets[:, TARGETS.index("own_points")]
    categories = [name for name in TARGETS if name.startswith("own_") and name != "own_points"]
    by_category = sum(targets[:, TARGETS.index(name)] for name in categories)
    assert np.array_equal(own, by_category)
    # Within a round both sides' positions see the same points from opposite sides.
    first_round = targets[:36]
    movers = {(float(row[0]), float(row[1])) for row in first_round}
    assert len(movers) <= 2 and all((b, a) in movers for a, b in movers)
    won = targets[:, TARGETS.index("match_won")]
    assert set(np.unique(won)) <= {0.0, 1.0}
    # The match result is the same for every position of one side in one match.
    assert float(won[0]) + float(won[1]) == 1.0


def test_a_seed_gives_the_same_data_on_one_process_or_two() -> None:
    rules = Rules.preset("escoba")
    alone = generate(rules, 60, seed=2, jobs=1).positions
    shared = generate(rules, 60, seed=2, jobs=2).positions
    assert alone.digest() == shared.digest()
    assert generate(rules, 60, seed=3, jobs=1).positions.digest() != alone.digest()


def test_positions_save_and_load(tmp_path: Path) -> None:
    positions = play_matches(Rules.preset("scopa", players=4), 1, seed=1)
    path = tmp_path / "data.npz"
    positions.save(path, {"seed": 1})
    assert Positions.load(path).digest() == positions.digest()


@pytest.mark.parametrize(
    ("arguments", "sentence"),
    [
        (["--preset", "scopetta"], "unknown preset 'scopetta'; the presets are: scopa"),
        (["--players", "5"], "players must be one of 2, 3, 4, 6; got 5"),
    ],
)
def test_the_trainer_refuses_unknown_presets_and_player_counts(
    arguments: list[str], sentence: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "never.npz"
    assert main([*arguments, "--out", str(out)]) == 2
    assert sentence in capsys.readouterr().err
    assert not out.exists()


def test_training_repeats_from_its_seed_and_beats_the_mean(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from scopa.learning.train import train

    positions = play_matches(Rules.preset("scopa"), 40, seed=5)
    first = train(positions, seed=9, hidden=8, epochs=2)
    again = train(positions, seed=9, hidden=8, epochs=2)
    assert np.array_equal(first.evaluation.w1, again.evaluation.w1)
    assert first.held_out_loss < first.baseline_loss
    assert first.evaluation.meta["positions"] == len(positions)


def test_the_pipeline_writes_weights_that_record_their_making(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("torch")
    from scopa.learning.evaluation import Evaluation

    out = tmp_path / "model.npz"
    assert main(["--matches", "3", "--seed", "4", "--hidden", "4", "--epochs", "1",
                 "--seeds", "0", "--run", str(tmp_path), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    meta = Evaluation.load(out).meta
    assert meta["seed"] == 4 and meta["matches"] == 3 and meta["rules"] == "scopa-2p"
    assert f"data sha256 {meta['data_sha256']}" in printed
    assert meta["data_sha256"] == play_and_hash(3, 4)


def play_and_hash(matches: int, seed: int) -> str:
    return generate(Rules.preset("scopa"), matches, seed).positions.digest()
