"""The learned evaluation: numpy inference, the shipped weights, load errors naming the file."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from scopa import Rules
from scopa.learning.evaluation import (
    OUTPUTS,
    Evaluation,
    WeightsError,
    evaluation_for,
    rules_name,
    weights_path,
)
from scopa.learning.features import FEATURES, RECORD_FIELDS

ROWS = [
    (0b111, 0b111000, 0, 0, 0, 0, 30, 0, 3),
    (1 << 5, 1 << 7, (1 << 20) - 1 - (1 << 5) - (1 << 7), 0, 3, 0, 0, 1, 1),
]


def _small(seed: int = 0, hidden: int = 8) -> Evaluation:
    rng = np.random.default_rng(seed)
    return Evaluation(
        rng.normal(size=(FEATURES, hidden)).astype(np.float32),
        rng.normal(size=hidden).astype(np.float32),
        rng.normal(size=(hidden, OUTPUTS)).astype(np.float32),
        rng.normal(size=OUTPUTS).astype(np.float32),
        meta={"seed": seed},
    )


def test_points_are_the_network_written_out() -> None:
    model = _small()
    from scopa.learning.features import expand

    inputs = expand(ROWS)
    expected = np.maximum(inputs @ model.w1 + model.b1, 0) @ model.w2 + model.b2
    out = model.points(ROWS)
    assert out.shape == (len(ROWS), OUTPUTS)
    assert np.allclose(out, expected)
    # One row alone gets what it got in the batch.
    assert np.allclose(model.points([ROWS[1]])[0], out[1])


def test_saved_weights_load_back_the_same(tmp_path: Path) -> None:
    model = _small(3)
    path = tmp_path / "model.npz"
    model.save(path)
    loaded = Evaluation.load(path)
    assert loaded.meta == {"seed": 3}
    assert np.array_equal(loaded.points(ROWS), model.points(ROWS))


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.npz"
    with pytest.raises(WeightsError, match=f"the learned weights file {path} does not exist"):
        Evaluation.load(path)


def test_a_corrupt_file_is_named(tmp_path: Path) -> None:
    path = tmp_path / "broken.npz"
    path.write_bytes(b"not a zip file at all")
    with pytest.raises(WeightsError, match=f"the learned weights file {path} is corrupt"):
        Evaluation.load(path)


def test_a_truncated_file_is_named(tmp_path: Path) -> None:
    path = tmp_path / "cut.npz"
    _small().save(path)
    path.write_bytes(path.read_bytes()[:500])
    with pytest.raises(WeightsError, match=f"the learned weights file {path} is corrupt"):
        Evaluation.load(path)


def test_weights_of_the_wrong_shape_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.npz"
    model = _small()
    np.savez(path, w1=model.w1[:10], b1=model.b1, w2=model.w2, b2=model.b2,
             meta=np.array(json.dumps({})))
    with pytest.raises(WeightsError, match=r"other.npz is corrupt .*w1 has shape \(10, 8\)"):
        Evaluation.load(path)


def test_weights_that_are_not_numbers_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "nan.npz"
    model = _small()
    model.b2[0] = np.nan
    np.savez(path, w1=model.w1, b1=model.b1, w2=model.w2, b2=model.b2,
             meta=np.array(json.dumps({})))
    with pytest.raises(WeightsError, match=r"nan.npz is corrupt .*b2 holds values that are not"):
        Evaluation.load(path)


def test_rules_are_named_by_preset_and_players() -> None:
    assert rules_name(Rules.preset("scopa")) == "scopa-2p"
    assert rules_name(Rules.preset("escoba", players=4)) == "escoba-4p"
    assert rules_name(Rules.preset("scopone")) == "scopone-4p"
    with pytest.raises(ValueError, match="presets' rules only"):
        rules_name(Rules.preset("scopa").replace(target=21))


@pytest.mark.parametrize("preset", ["scopa", "escoba"])
def test_the_shipped_weights_load_small_with_their_provenance(preset: str) -> None:
    rules = Rules.preset(preset)
    path = weights_path(rules)
    assert path.stat().st_size < 5_000_000
    model = evaluation_for(rules)
    for key in ("seed", "positions", "data_sha256", "matches", "rules", "held_out_loss"):
        assert key in model.meta
    assert model.meta["rules"] == f"{preset}-2p" and model.meta["seed"] == 15
    assert model.meta["held_out_loss"] < model.meta["baseline_loss"]
    out = model.points(ROWS)
    assert out.shape == (2, OUTPUTS)
    assert len(ROWS[0]) == len(RECORD_FIELDS)
    # A fresh deal is worth about the same to both sides, and the points add up to ~5-6.
    assert abs(float(out[0, 0] - out[0, 1])) < 1.5
    # A side that holds almost all the cards and three sweeps expects most of the round.
    assert out[1, 0] > out[1, 1] + 3


def _determinized(hands: int = 1, hidden: int = 8) -> Evaluation:
    rng = np.random.default_rng(1)
    return Evaluation(
        rng.normal(size=(FEATURES + 40 * hands, hidden)).astype(np.float32),
        rng.normal(size=hidden).astype(np.float32),
        rng.normal(size=(hidden, OUTPUTS)).astype(np.float32),
        rng.normal(size=OUTPUTS).astype(np.float32),
        meta={"features": "determinized"},
    )


def test_a_determinized_model_reads_the_other_hand(tmp_path: Path) -> None:
    model = _determinized()
    assert model.features == "determinized" and model.hands == 1
    rows = [(*ROWS[0], 1 << 30), (*ROWS[0], 1 << 31)]
    out = model.points(rows)
    assert out.shape == (2, OUTPUTS) and not np.allclose(out[0], out[1])
    path = tmp_path / "determinized.npz"
    model.save(path)
    assert np.array_equal(Evaluation.load(path, "determinized").points(rows), out)
    assert Evaluation.load(path, None).features == "determinized"
    model.check_players(2)
    with pytest.raises(ValueError, match="reads 1 other hands; 4 players have 3"):
        model.check_players(4)


def test_a_file_of_the_other_feature_set_is_refused_naming_it(tmp_path: Path) -> None:
    seat, determinized = tmp_path / "seat.npz", tmp_path / "determinized.npz"
    _small().save(seat)
    _determinized().save(determinized)
    with pytest.raises(WeightsError, match=f"the learned weights file {determinized} reads "
                       "the 'determinized' feature set, not the 'seat' one asked for"):
        Evaluation.load(determinized)
    with pytest.raises(WeightsError, match=f"the learned weights file {seat} reads the 'seat' "
                       "feature set, not the 'determinized' one"):
        Evaluation.load(seat, "determinized")
    with pytest.raises(ValueError, match="unknown feature set 'open'"):
        Evaluation.load(seat, "open")
    assert weights_path(Rules.preset("escoba"), "determinized").name == (
        "escoba-2p-determinized.npz")


def test_a_determinized_file_without_hand_blocks_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "narrow.npz"
    model = _small()
    np.savez(path, w1=model.w1, b1=model.b1, w2=model.w2, b2=model.b2,
             meta=np.array(json.dumps({"features": "determinized"})))
    with pytest.raises(WeightsError, match=r"narrow.npz is corrupt .*a determinized model has"):
        Evaluation.load(path, "determinized")
