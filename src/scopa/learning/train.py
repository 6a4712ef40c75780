"""Fitting the evaluation to self-play positions with PyTorch's CPU build (the ``train`` extra).

The network is :class:`~scopa.learning.evaluation.Evaluation`'s: the features of a
record (the seat's, or the determinized set's when the records hold the other hands),
one hidden layer of rectified units, two outputs (the round points of the mover's side
and of the others), fitted by mean squared error with Adam. With the ``"search"`` target
(positions labelled by :mod:`.distil`) the inputs also hold the match standing and the
one output is the master's search value less its foresight prior (a utility, about the
match-win chance), and the weights' meta says ``target: search``. A share of
the positions, whole matches apart from the rest, is held out to measure the fit. The
result is handed back as numpy arrays, so nothing that plays needs torch.

Runs repeat exactly for a seed: torch's and numpy's generators are seeded from it,
torch runs on one thread, and the data's order is a seeded permutation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import numpy as np

from ..rules import Rules
from .evaluation import OUTPUTS, STANDING_INPUTS, Evaluation, check_target, standing_inputs
from .features import FEATURES, RECORD_FIELDS, expand
from .selfplay import Positions

DEFAULT_HIDDEN: Final = 64
DEFAULT_EPOCHS: Final = 4
_BATCH: Final = 512
_RATE: Final = 2e-3
_HELD_OUT: Final = 0.05


@dataclass
class Fit:
    evaluation: Evaluation
    train_loss: float
    """Mean squared error per output on the positions trained on, last epoch."""
    held_out_loss: float
    """The same on the held-out positions (never trained on)."""
    baseline_loss: float
    """The held-out error of always answering the training data's mean: the bar to beat."""


def train(positions: Positions, seed: int, hidden: int = DEFAULT_HIDDEN,
          epochs: int = DEFAULT_EPOCHS, meta: dict[str, object] | None = None,
          target: str = "points", rules: Rules | None = None) -> Fit:
    """A network fitted to ``positions``: with the ``"points"`` target their first two
    targets (own and others' points); with ``"search"`` (labels of :mod:`.distil`, and
    then ``rules`` are needed to read the standing) the search's value less its prior."""
    check_target(target)
    try:
        import torch
    except ImportError as error:
        raise RuntimeError(
            f"training needs PyTorch ({error.name or error}): pip install -e '.[train]'"
        ) from None
    if len(positions) < 100:
        raise ValueError(f"training needs 100 positions or more; got {len(positions)}")
    torch.manual_seed(seed)
    torch.set_num_threads(1)
    rng = np.random.default_rng(seed)
    records = positions.records
    hands = records.shape[1] - len(RECORD_FIELDS)
    search = target == "search"
    if search:
        if rules is None:
            raise ValueError("the search target needs the rules, to read the match standing")
        if hands:
            raise ValueError("the search target reads the seat's records, not determinized ones")
        labels = positions.targets[:, :1] - positions.targets[:, 1:2]
        standing = standing_inputs(positions.standing, rules)
    else:
        labels = positions.targets[:, :OUTPUTS]
    outputs = labels.shape[1]
    targets = torch.from_numpy(np.ascontiguousarray(labels))

    def inputs(rows: slice | np.ndarray) -> torch.Tensor:
        features = expand(records[rows])
        if search:
            features = np.concatenate([features, standing[rows]], axis=1)
        return torch.from_numpy(features)

    count = len(positions)
    # The held-out positions are the last ones: whole matches, apart from what is trained on.
    split = count - max(1, int(count * _HELD_OUT))
    width = FEATURES + (STANDING_INPUTS if search else 40 * hands)
    first_layer = torch.nn.Linear(width, hidden)
    second_layer = torch.nn.Linear(hidden, outputs)
    net = torch.nn.Sequential(first_layer, torch.nn.ReLU(), second_layer)
    with torch.no_grad():
        second_layer.bias.copy_(targets[:split].mean(0))
    optimiser = torch.optim.Adam(net.parameters(), lr=_RATE)
    loss_of = torch.nn.MSELoss()
    train_loss = 0.0
    for epoch in range(epochs):
        order = torch.from_numpy(rng.permutation(split))
        total = 0.0
        for first in range(0, split, _BATCH):
            batch = order[first : first + _BATCH]
            optimiser.zero_grad()
            loss = loss_of(net(inputs(batch.numpy())), targets[batch])
            loss.backward()
            optimiser.step()
            total += loss.item() * len(batch)
        train_loss = total / split
        for group in optimiser.param_groups:
            group["lr"] = _RATE * 0.5 ** (epoch + 1)
    with torch.no_grad():
        # Expanded a batch at a time: millions of positions at once would not fit in memory.
        squared = sum(
            float(((net(inputs(slice(first, first + 4096)))
                    - targets[first : first + 4096]) ** 2).sum())
            for first in range(split, count, 4096)
        )
        held_out = squared / ((count - split) * outputs)
        baseline = float(loss_of(targets[:split].mean(0).expand(count - split, outputs),
                                 targets[split:]))
    evaluation = Evaluation(
        first_layer.weight.detach().numpy().T.copy(),
        first_layer.bias.detach().numpy().copy(),
        second_layer.weight.detach().numpy().T.copy(),
        second_layer.bias.detach().numpy().copy(),
        meta={
            **(meta or {}),
            # Only the determinized set is written: a seat model's file stays byte for
            # byte what this made before the sets existed (no key reads as "seat").
            **({"features": "determinized"} if hands else {}),
            # Likewise only the search target is written (no key reads as "points").
            **({"target": "search"} if search else {}),
            "seed": seed, "hidden": hidden, "epochs": epochs, "positions": count,
            "train_loss": round(train_loss, 4), "held_out_loss": round(held_out, 4),
            "baseline_loss": round(baseline, 4), "torch": torch.__version__,
        },
    )
    return Fit(evaluation, train_loss, held_out, baseline)
