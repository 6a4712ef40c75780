"""What the seat to move knows of a round, as the fixed vector a learned evaluation reads.

A position is first written down as a short *record* of ints (:func:`record`): the
seat's own hand, the table, its side's pile and the other sides' piles, the sweeps,
the cards left to deal, who captured last and how many cards the other hands hold.
Those are exactly the facts of the seat's view that matter to the rest of the round;
the other hands' cards are never read, only counted, so a record made on a guessed
deal inside a search says no more than the seat could see (the tests check that two
deals differing only in the hidden cards give the same record). Records are cheap to
make one at a time in the search loop; :func:`expand` turns a batch of them into the
model's input in one numpy step.

The input (``FEATURES`` floats): four blocks of 40 card bits (hand, table, own pile,
others' piles, in card id order; the unseen cards are what is in none of them), then
the side's sweeps, the others' sweeps, the cards left to deal over 30, whether this
side or another captured last (the leftovers go to it), and the cards in the other
hands over 10.

That is the ``"seat"`` feature set, what a seat may know and what the shipped weights
read. The ``"determinized"`` set (:func:`determinized_record`) adds the other hands'
cards, seat by seat in turn order after the mover, one 40-bit block each: it is only for
a leaf *inside* a guess of a determinized search, where those hands are the guess's, and
for self-play data made on the round state, which never leaves the process. The stock's
order is never an input: the stock is what no block holds, as in the seat set.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

import numpy as np
import numpy.typing as npt

from ..round import Round

RECORD_FIELDS: Final = (
    "hand",
    "table",
    "own_pile",
    "other_piles",
    "own_sweeps",
    "other_sweeps",
    "stock_left",
    "last",
    "hidden_held",
)
"""The ints of a record, in order; ``last`` is 0 (nobody), 1 (this side) or 2 (another)."""

_MASKS: Final = 4
"""The first four fields are card masks, expanded to 40 bits each."""

FEATURES: Final = 40 * _MASKS + 6
"""The length of the model's input vector."""

FEATURE_SETS: Final = ("seat", "determinized")
"""The feature sets: what the seat knows, or that and the other hands of a guess."""

_SHIFTS: Final = np.arange(40, dtype=np.int64)

Record = tuple[int, ...]
"""A record's ints: :data:`RECORD_FIELDS`, then (determinized) the other hands' masks."""


def record(state: Round) -> Record:
    """The record of what the seat to move in ``state`` knows (see the module notes)."""
    seat = state.to_move
    sides = state.sides
    side = seat % sides
    hands = state.hands
    piles = state.piles
    sweeps = state.sweeps
    others = 0
    other_sweeps = 0
    for other in range(sides):
        if other != side:
            others |= piles[other]
            other_sweeps += sweeps[other]
    hidden = 0
    for other, hand in enumerate(hands):
        if other != seat:
            hidden += hand.bit_count()
    last = state.last
    return (
        hands[seat],
        state.table,
        piles[side],
        others,
        sweeps[side],
        other_sweeps,
        state.stock_left,
        0 if last < 0 else 1 if last == side else 2,
        hidden,
    )


def determinized_record(state: Round) -> Record:
    """:func:`record` and then the other hands' cards, seat by seat in turn order after
    the mover (``players - 1`` masks): for a guessed deal inside a search, never a view."""
    hands = state.hands
    seat = state.to_move
    players = len(hands)
    return (*record(state), *(hands[(seat + k) % players] for k in range(1, players)))


def recorder(features: str) -> Callable[[Round], Record]:
    """The record function of the feature set named ``features``."""
    check_features(features)
    return record if features == "seat" else determinized_record


def inputs(features: str, players: int) -> int:
    """The length of the model's input for ``features`` with ``players`` players."""
    check_features(features)
    return FEATURES + (40 * (players - 1) if features == "determinized" else 0)


def record_length(features: str, players: int) -> int:
    """The ints in a record of ``features`` with ``players`` players."""
    check_features(features)
    return len(RECORD_FIELDS) + (players - 1 if features == "determinized" else 0)


def check_features(features: str) -> None:
    """A ``ValueError`` when ``features`` names no feature set."""
    if features not in FEATURE_SETS:
        raise ValueError(f"unknown feature set {features!r}; the sets are {list(FEATURE_SETS)}")


def expand(records: npt.ArrayLike) -> npt.NDArray[np.float32]:
    """The model's inputs, one row per record: ``(n, FEATURES)`` float32, and 40 bits more
    for each hand a determinized record holds past :data:`RECORD_FIELDS`."""
    rows = np.asarray(records, dtype=np.int64)
    rows = rows.reshape(-1, rows.shape[-1] if rows.ndim == 2 else len(RECORD_FIELDS))
    extra = rows.shape[1] - len(RECORD_FIELDS)
    bits = (rows[:, :_MASKS, None] >> _SHIFTS) & 1
    out = np.empty((rows.shape[0], FEATURES + 40 * extra), dtype=np.float32)
    out[:, : 40 * _MASKS] = bits.reshape(rows.shape[0], 40 * _MASKS)
    out[:, 160] = rows[:, 4]
    out[:, 161] = rows[:, 5]
    out[:, 162] = rows[:, 6] / 30.0
    out[:, 163] = rows[:, 7] == 1
    out[:, 164] = rows[:, 7] == 2
    out[:, 165] = rows[:, 8] / 10.0
    if extra:
        hands = (rows[:, len(RECORD_FIELDS) :, None] >> _SHIFTS) & 1
        out[:, FEATURES:] = hands.reshape(rows.shape[0], 40 * extra)
    return out
