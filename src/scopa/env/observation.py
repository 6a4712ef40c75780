"""What a seat observes, as one flat vector of ``float32``: only what that seat may know.

Seats and sides are counted from the observer: its own seat first, then the next
to play, and so on; its own side first, then the others in seat order. Cards are
40 slots by card id (``suit * 10 + rank``, as :data:`scopa.cards.CARDS`), 1 for a
card in the set. In order (``S`` sides, ``N`` players):

======================  ========  ==============================================
part                    length    value
======================  ========  ==============================================
hand                    40        the observer's own hand
table                   40        the cards on the table
captured                40 x S    this round's captured cards, by side
played                  40        the cards played this round, by anyone
sweeps                  S         this round's sweeps (dealer bonus included)
scores                  S         the match points before this round
stock                   1         cards left in the stock
hand sizes              N         cards in each hand
to move                 N         1 for the seat to play
dealer                  N         1 for this round's dealer
======================  ========  ==============================================

The other hands and the stock are never in it. :func:`layout` gives the parts'
offsets for a rule set.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..round import Round
from ..rules import Rules


def layout(rules: Rules) -> dict[str, tuple[int, int]]:
    """``part -> (start, length)`` for ``rules``."""
    sides, players = rules.sides, rules.players
    sizes = [
        ("hand", 40),
        ("table", 40),
        ("captured", 40 * sides),
        ("played", 40),
        ("sweeps", sides),
        ("scores", sides),
        ("stock", 1),
        ("hand sizes", players),
        ("to move", players),
        ("dealer", players),
    ]
    parts = {}
    start = 0
    for name, length in sizes:
        parts[name] = (start, length)
        start += length
    return parts


def size(rules: Rules) -> int:
    start, length = layout(rules)["dealer"]
    return start + length


def high(rules: Rules) -> npt.NDArray[np.float32]:
    """The upper bound of each slot: 1 for cards, the most the rules allow for counts.

    A round has at most 40 plays, each at most one sweep, plus the dealer bonus.
    Scores have no bound: a tie for the lead at the target means another round.
    """
    sweeps = 40 + max((count for _, count in rules.dealer_bonus), default=0)
    bounds = np.ones(size(rules), dtype=np.float32)
    parts = layout(rules)
    for name, bound in (("sweeps", sweeps), ("scores", np.inf),
                        ("stock", 40), ("hand sizes", 40)):
        start, length = parts[name]
        bounds[start : start + length] = bound
    return bounds


def _bits(masks: list[int]) -> npt.NDArray[np.uint8]:
    """The 40 bits of each mask, in card id order, end to end."""
    raw = b"".join(mask.to_bytes(5, "little") for mask in masks)
    return np.unpackbits(np.frombuffer(raw, dtype=np.uint8), bitorder="little")


def observe(
    rules: Rules,
    seat: int,
    state: Round,
    played: int,
    scores: list[int],
    dealer: int,
    to_move: int | None,
) -> npt.NDArray[np.float32]:
    """``seat``'s observation of round ``state`` (see the module's table): ``played`` is the
    cards played this round, ``scores`` the match points by side, ``to_move`` the seat to
    play (``None`` once the match is over)."""
    players, sides = rules.players, rules.sides
    side = rules.side_of(seat)
    side_order = [(side + k) % sides for k in range(sides)]
    seat_order = [(seat + k) % players for k in range(players)]
    piles, sweeps, hands = state.piles, state.sweeps, state.hands
    cards = _bits([hands[seat], state.table, *(piles[s] for s in side_order), played])
    counts = [sweeps[s] for s in side_order] + [scores[s] for s in side_order]
    counts.append(state.stock_left)
    counts += [hands[s].bit_count() for s in seat_order]
    counts += [1 if s == to_move else 0 for s in seat_order]
    counts += [1 if s == dealer else 0 for s in seat_order]
    return np.concatenate((cards.astype(np.float32), np.array(counts, dtype=np.float32)))
