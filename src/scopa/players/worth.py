"""What a card is worth to a bot, in round points, given what is already decided.

A round's points come from categories: most cards, most coins, the settebello,
primiera (sevens, then sixes and aces), sweeps, and the house extras. A bot
that weighs a capture needs each card's share of those points. The shares are
weights tuned by tournament, and a category already won or lost (one side has
more cards than any other side can still reach) stops counting, so the bot does
not chase a point that is settled.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..cards import CARDS, COINS_MASK, RE_BELLO, SETTEBELLO
from ..rules import Rules


@dataclass(frozen=True)
class Weights:
    """Round points per card taken, by what the card is; a sweep's worth."""

    card: float = 0.08
    """Any card, while the point for most cards is open."""
    coin: float = 0.22
    """A coin, while the point for most coins is open."""
    settebello: float = 1.0
    seven: float = 0.3
    """A seven: primiera (or the sevens point) hangs on them."""
    six: float = 0.15
    ace: float = 0.07
    napola: float = 0.4
    """A coin of the A-2-3 run, when napola scores."""
    sweep: float = 1.0


def _settled(counts: Sequence[int], total: int) -> bool:
    """Whether the side leading ``counts`` has won (or all have drawn) whatever remains."""
    remaining = total - sum(counts)
    ordered = sorted(counts, reverse=True)
    return ordered[0] > ordered[1] + remaining or (remaining == 0)


def card_worths(rules: Rules, piles: Sequence[int], weights: Weights) -> tuple[float, ...]:
    """Each card's worth (by card id) to whichever side takes it, given the piles so far."""
    cards_open = not _settled([pile.bit_count() for pile in piles], 40)
    coins_open = not _settled([(pile & COINS_MASK).bit_count() for pile in piles], 10)
    worths = []
    for card in CARDS:
        worth = weights.card if cards_open else 0.0
        if card.suit_index == 0 and coins_open:
            worth += weights.coin
        if card.value == 7:
            worth += weights.seven
        elif card.value == 6:
            worth += weights.six
        elif card.value == 1:
            worth += weights.ace
        if card is SETTEBELLO:
            worth += weights.settebello
        if rules.re_bello and card is RE_BELLO:
            worth += weights.settebello
        if rules.napola and card.suit_index == 0 and card.value <= 3:
            worth += weights.napola
        worths.append(worth)
    return tuple(worths)
