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
"""

from __future__ import annotations

import json
import zipfile
from functools import cache
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ..rules import PRESETS, Rules
from .features import FEATURES, check_features, expand

WEIGHTS_DIR: Final = Path(__file__).with_name("weights")
"""Where the shipped weights live."""

OUTPUTS: Final = 2
"""The model's outputs: this side's expected round points, the other sides' (mean)."""

_ARRAYS: Final = ("w1", "b1", "w2", "b2")


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
        hidden = b1.shape[0]
        width = w1.shape[0] if w1.ndim == 2 else -1
        if features == "determinized" and (width <= FEATURES or (width - FEATURES) % 40):
            raise ValueError(f"w1 has {width} input rows; a determinized model has "
                             f"{FEATURES} and 40 a hand more")
        inputs = width if features == "determinized" else FEATURES
        shapes = {"w1": (inputs, hidden), "b1": (hidden,), "w2": (hidden, OUTPUTS),
                  "b2": (OUTPUTS,)}
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
            evaluation = cls(arrays[0], arrays[1], arrays[2], arrays[3], meta)
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
        inputs = expand(records)
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


__all__ = ["Evaluation", "WeightsError", "evaluation_for", "rules_name", "weights_path"]
