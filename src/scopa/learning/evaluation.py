"""A learned evaluation of round positions, run in numpy: playing never needs torch.

The model is a small network trained by self-play (``scopa.learning``): the
:mod:`.features` of what the seat to move knows, one hidden layer of rectified units,
and two outputs, the round points its side and the other sides (their mean) are
expected to end the round with. It is trained with PyTorch, but its weights are saved
as plain arrays in an ``.npz`` file with the figures that made them (seed, data size,
data hash), and inference is two matrix products here.

Weights ship in the package, one file per rule set (``weights/<preset>-<players>p.npz``).
A file that is missing, unreadable or of the wrong shape fails at load with a sentence
naming it: there is never a silent fallback to a weaker player.

The feature set a model reads (``meta["features"]``: ``"seat"``, the default and what
the shipped files hold, or ``"determinized"``, which also sees a guess's other hands) is
part of the file; :meth:`Evaluation.load` refuses a file whose set is not the one asked
for, and determinized weights go by ``<preset>-<players>p-determinized.npz``.

What the model predicts is part of the file too (``meta["target"]``): ``"points"`` (the
default, and what a file without the key holds) is the two round-point outputs above;
``"search"`` is one output, the master's search value of the position (about the
match-win chance of the mover's side, :mod:`scopa.learning.distil`), read from the seat's
record *and* the match standing (:func:`standing_inputs`), since a win chance depends on
the score. Each kind has its own method (:meth:`Evaluation.points`,
:meth:`Evaluation.utilities`) and refuses to answer as the other, so a file of one target
is never silently read as the other; an unknown target fails at load naming the file.
"""

from __future__ import annotations

import json
import zipfile
from functools import cache
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ..players.outlook import outlook
from ..rules import PRESETS, Rules
from .features import FEATURES, check_features, expand

WEIGHTS_DIR: Final = Path(__file__).with_name("weights")
"""Where the shipped weights live."""

OUTPUTS: Final = 2
"""The model's outputs: this side's expected round points, the other sides' (mean)."""

TARGETS: Final = ("points", "search")
"""What a model predicts: round points (two outputs), or the search's value (one)."""

NEED_BUCKETS: Final = 12
"""Points still needed to reach the target, one-hot per side: 1 to 11, then 12 or more."""

STANDING_INPUTS: Final = 3 + 2 * NEED_BUCKETS
"""Inputs a search-target model reads past the seat's features (:func:`standing_inputs`)."""

_ARRAYS: Final = ("w1", "b1", "w2", "b2")


def check_target(target: object) -> None:
    """A ``ValueError`` unless ``target`` is one of :data:`TARGETS`."""
    if target not in TARGETS:
        raise ValueError(f"unknown target {target!r}; the targets are {list(TARGETS)}")


def standing_inputs(standing: npt.ArrayLike, rules: Rules) -> npt.NDArray[np.float32]:
    """The match standing as a search-target model reads it, one row per ``(mine,
    theirs)`` pair of match points (the mover's side first): the two-sided match-win
    chance of that standing before the round (:mod:`.outlook`), both scores over the
    target, and the points each side still needs, one-hot in :data:`NEED_BUCKETS`."""
    if rules.sides != 2:
        raise ValueError(f"the search target needs two sides; these rules have {rules.sides}")
    rows = np.asarray(standing, dtype=np.int64).reshape(-1, 2)
    target = rules.target
    pairs, inverse = np.unique(rows, axis=0, return_inverse=True)
    table = np.zeros((len(pairs), STANDING_INPUTS), dtype=np.float32)
    for row, (mine, theirs) in zip(table, pairs.tolist(), strict=True):
        row[0] = outlook(rules).utility(0, (mine, theirs))((0, 0))
        row[1], row[2] = mine / target, theirs / target
        for block, score in enumerate((mine, theirs)):
            need = min(max(target - score, 1), NEED_BUCKETS)
            row[3 + block * NEED_BUCKETS + need - 1] = 1.0
    out: npt.NDArray[np.float32] = table[inverse.reshape(-1)]
    return out


class WeightsError(ValueError):
    """A weights file that cannot serve: missing, unreadable or of the wrong shape."""


class Evaluation:
    """Expected round points from records of what the seat to move knows."""

    def __init__(
        self,
        w1: npt.NDArray[np.float32],
        b1: npt.NDArray[np.float32],
        w2: npt.NDArray[np.float32],
        b2: npt.NDArray[np.float32],
        meta: dict[str, Any],
    ) -> None:
        features = meta.get("features", "seat")
        check_features(features)
        target = meta.get("target", "points")
        check_target(target)
        if target == "search" and features != "seat":
            raise ValueError(f"a search-target model reads the 'seat' feature set, not "
                             f"{features!r}")
        hidden = b1.shape[0]
        width = w1.shape[0] if w1.ndim == 2 else -1
        if features == "determinized" and (width <= FEATURES or (width - FEATURES) % 40):
            raise ValueError(f"w1 has {width} input rows; a determinized model has "
                             f"{FEATURES} and 40 a hand more")
        inputs = (width if features == "determinized"
                  else FEATURES + STANDING_INPUTS if target == "search" else FEATURES)
        outputs = 1 if target == "search" else OUTPUTS
        shapes = {"w1": (inputs, hidden), "b1": (hidden,), "w2": (hidden, outputs),
                  "b2": (outputs,)}
        for name, array in zip(_ARRAYS, (w1, b1, w2, b2), strict=True):
            if array.shape != shapes[name]:
                raise ValueError(f"{name} has shape {array.shape}; expected {shapes[name]}")
            if not np.all(np.isfinite(array)):
                raise ValueError(f"{name} holds values that are not finite numbers")
        self.w1 = w1.astype(np.float32)
        self.b1 = b1.astype(np.float32)
        self.w2 = w2.astype(np.float32)
        self.b2 = b2.astype(np.float32)
        self.meta = meta
        """How the weights were made: rules, seed, positions, data hash, losses."""
        self.features: str = features
        """The feature set the model reads (:data:`~.features.FEATURE_SETS`)."""
        self.target: str = target
        """What the model predicts (:data:`TARGETS`)."""
        self.hands = (width - FEATURES) // 40
        """The other hands a determinized record holds (players - 1); 0 for the seat set."""

    @classmethod
    def load(cls, path: Path | str, features: str | None = "seat") -> Evaluation:
        """The evaluation saved at ``path``; a :class:`WeightsError` naming it otherwise,
        also when it reads another feature set than ``features`` (``None``: any)."""
        if features is not None:
            check_features(features)
        path = Path(path)
        if not path.is_file():
            raise WeightsError(f"the learned weights file {path} does not exist")
        try:
            with np.load(path, allow_pickle=False) as data:
                arrays = [np.asarray(data[name], dtype=np.float32) for name in _ARRAYS]
                meta = json.loads(str(data["meta"]))
            if not isinstance(meta, dict):
                raise ValueError("its meta is not a JSON object")
            target = meta.get("target", "points")
            if target not in TARGETS:
                raise WeightsError(f"the learned weights file {path} predicts the unknown "
                                   f"target {target!r}; the targets are {list(TARGETS)}")
            evaluation = cls(arrays[0], arrays[1], arrays[2], arrays[3], meta)
        except WeightsError:
            raise
        except (OSError, KeyError, ValueError, zipfile.BadZipFile, EOFError) as error:
            raise WeightsError(
                f"the learned weights file {path} is corrupt or not a scopa model: {error}"
            ) from None
        if features is not None and evaluation.features != features:
            raise WeightsError(
                f"the learned weights file {path} reads the {evaluation.features!r} feature "
                f"set, not the {features!r} one asked for"
            )
        return evaluation

    def check_players(self, players: int) -> None:
        """A ``ValueError`` when a determinized model was made for another player count."""
        if self.features == "determinized" and self.hands != players - 1:
            raise ValueError(f"this determinized evaluation reads {self.hands} other hands; "
                             f"{players} players have {players - 1}")

    def save(self, path: Path | str) -> None:
        """Write the weights and their ``meta`` as an ``.npz`` file at ``path``."""
        with open(path, "wb") as out:
            np.savez(
                out, w1=self.w1, b1=self.b1, w2=self.w2, b2=self.b2,
                meta=np.array(json.dumps(self.meta, sort_keys=True)),
            )

    def points(self, records: npt.ArrayLike) -> npt.NDArray[np.float32]:
        """By record (rows of :data:`~.features.RECORD_FIELDS` ints): ``(n, 2)`` expected
        round points of the mover's side and of the others."""
        if self.target != "points":
            raise ValueError(f"this evaluation predicts the {self.target!r} target, "
                             "not round points")
        return self._forward(expand(records))

    def utilities(self, records: npt.ArrayLike, standing: npt.ArrayLike,
                  rules: Rules) -> npt.NDArray[np.float32]:
        """By record and match standing (``(mine, theirs)`` match points, the mover's side
        first; :func:`standing_inputs`): ``(n,)`` the search's value for the mover's side,
        about its match-win chance."""
        if self.target != "search":
            raise ValueError(f"this evaluation predicts the {self.target!r} target, "
                             "not the search's value")
        inputs = np.concatenate([expand(records), standing_inputs(standing, rules)], axis=1)
        return self._forward(inputs)[:, 0]

    def _forward(self, inputs: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        hidden = np.maximum(inputs @ self.w1 + self.b1, 0.0)
        out: npt.NDArray[np.float32] = hidden @ self.w2 + self.b2
        return out


def rules_name(rules: Rules) -> str:
    """The name weights for ``rules`` go by, ``<preset>-<players>p``; a ``ValueError``
    when the rules are no preset (with its player count) the pipeline can train for."""
    for name in PRESETS:
        try:
            candidate = Rules.preset(name, players=rules.players)
        except ValueError:
            continue
        if candidate == rules:
            return f"{name}-{rules.players}p"
    raise ValueError(
        "the learned level plays the presets' rules only (with their player counts); "
        "these rules are none of them"
    )


def weights_path(rules: Rules, features: str = "seat") -> Path:
    """The shipped weights file for ``rules`` and the feature set ``features``."""
    check_features(features)
    suffix = "" if features == "seat" else f"-{features}"
    return WEIGHTS_DIR / f"{rules_name(rules)}{suffix}.npz"


@cache
def evaluation_for(rules: Rules, features: str = "seat") -> Evaluation:
    """The shipped evaluation of ``rules`` reading ``features``, loaded once."""
    return Evaluation.load(weights_path(rules, features), features)


__all__ = ["Evaluation", "WeightsError", "check_target", "evaluation_for", "rules_name",
           "standing_inputs", "weights_path"]
