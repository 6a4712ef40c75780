"""What a seat knows of the hidden cards, and guesses at them that fit everything seen.

A view shows the seat's own hand, the table, the piles and every play of the
round; the unseen cards are in the other hands and the stock. A guess
(determinization) deals them out at random, uniformly among the deals that agree
with what was seen. Besides the counts, one thing seen narrows the deal down:
when trailing is allowed only with no capture in hand (``must_capture="hand"``,
both seed presets), a seat that trailed held no card able to capture on that
table, so none of its cards still in hand since then can be such a card.
"""

from __future__ import annotations

import random
from typing import Final

from ..capture import capture_masks
from ..cards import ids_of, mask_of
from ..view import View
from .base import unseen_mask
from .simulation import Deal

_BITS: Final = tuple(1 << i for i in range(40))


def _bits(mask: int) -> list[int]:
    return [_BITS[i] for i in ids_of(mask)]


class Knowledge:
    """One seat's information set at its turn, built from a :class:`View` alone."""

    def __init__(self, view: View) -> None:
        if view.seat is None or view.to_move != view.seat:
            raise ValueError("a guess at the hidden cards needs the view of the seat to move")
        rules = view.rules
        self.rules = rules
        self.seat = view.seat
        self.side = rules.side_of(view.seat)
        self.hand = mask_of(view.hand)
        self.table = mask_of(view.table)
        self.piles = [mask_of(pile) for pile in view.piles]
        self.sweeps = list(view.sweeps)
        self.scores = list(view.scores)
        self.hand_sizes = list(view.hand_sizes)
        self.stock_size = view.stock_size
        self.unseen = unseen_mask(view)
        hidden = sum(size for seat, size in enumerate(self.hand_sizes) if seat != self.seat)
        if hidden + self.stock_size != self.unseen.bit_count():
            raise ValueError(
                f"the view does not add up: {self.unseen.bit_count()} cards unseen but "
                f"{hidden} in other hands and {self.stock_size} in the stock"
            )
        self.last = _last_capturer(view)
        self.forbidden = _forbidden(view, self.table, self.unseen)
        # Most constrained seats draw first, so the free ones take what is left.
        others = [seat for seat in range(rules.players) if seat != self.seat]
        self._order = sorted(others, key=lambda seat: -self.forbidden[seat].bit_count())

    @property
    def open(self) -> bool:
        """Whether nothing is hidden from this seat: the stock is empty and only one other
        hand holds cards (two players on the last deal), so the unseen cards are its hand."""
        holders = [seat for seat, size in enumerate(self.hand_sizes) if size and seat != self.seat]
        return self.stock_size == 0 and len(holders) <= 1

    def sample(self, rng: random.Random) -> Deal:
        """A deal of the unseen cards that fits what was seen, at random."""
        hands = [0] * len(self.hand_sizes)
        hands[self.seat] = self.hand
        pool = self.unseen
        for seat in self._order:
            size = self.hand_sizes[seat]
            if not size:
                continue
            allowed = pool & ~self.forbidden[seat]
            if allowed.bit_count() >= size:
                chosen = rng.sample(_bits(allowed), size)
            else:  # the inference is short of cards (only after an odd view): relax it
                chosen = rng.sample(_bits(pool), size)
            hand = sum(chosen)
            hands[seat] = hand
            pool ^= hand
        stock = _bits(pool)
        rng.shuffle(stock)
        return Deal(
            hands, self.table, list(self.piles), list(self.sweeps), stock, self.seat, self.last
        )


def _last_capturer(view: View) -> int:
    """The side that captured last this round (-1: none), which takes the leftovers."""
    for play in reversed(view.plays):
        if play.move.captured_mask:
            return view.rules.side_of(play.seat)
    if view.dealer_bonus:
        return view.rules.side_of(view.dealer)
    return -1


def _forbidden(view: View, table: int, unseen: int) -> list[int]:
    """By seat, the unseen cards that seat cannot hold, from its trails this deal.

    The plays of this deal are the last ``sum(hand_size - size)`` of the round; the
    table before each is rebuilt backwards from the current one.
    """
    rules = view.rules
    forbidden = [0] * rules.players
    if rules.must_capture != "hand":
        return forbidden
    played = sum(rules.hand_size - size for size in view.hand_sizes)
    plays = view.plays[max(0, len(view.plays) - played) :] if played else ()
    candidates = _bits(unseen)
    for play in reversed(plays):
        move = play.move
        if move.captured_mask:
            table |= move.captured_mask
            continue
        table ^= move.card_bit
        if play.seat == view.seat:
            continue
        for bit in candidates:
            if not forbidden[play.seat] & bit and capture_masks(rules, table, bit.bit_length() - 1):
                forbidden[play.seat] |= bit
    return forbidden
