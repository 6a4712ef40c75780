"""What a seat knows of the hidden cards, and guesses at them that fit everything seen.

A view shows the seat's own hand, the table, the piles and every play of the
round; the unseen cards are in the other hands and the stock. A guess
(determinization) deals them out at random, uniformly among the deals that agree
with what was seen: the counts, and what each seat's trails rule out
(:mod:`.inference`). A guess is a :class:`~scopa.round.Round` to play on.
"""

from __future__ import annotations

import random
from typing import Final

from ..cards import ids_of, mask_of
from ..round import Round
from ..view import View
from .inference import last_capturer, ruled_out, unseen_mask

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
        self.last = last_capturer(view)
        self.forbidden = [
            0 if seat == self.seat else cards & self.unseen
            for seat, cards in enumerate(ruled_out(view))
        ]
        """By seat, the unseen cards that seat cannot hold, from its trails this deal."""
        # Most constrained seats draw first, so the free ones take what is left.
        others = [seat for seat in range(rules.players) if seat != self.seat]
        self._order = sorted(others, key=lambda seat: -self.forbidden[seat].bit_count())

    @property
    def open(self) -> bool:
        """Whether nothing is hidden from this seat: the stock is empty and only one other
        hand holds cards (two players on the last deal), so the unseen cards are its hand."""
        holders = [seat for seat, size in enumerate(self.hand_sizes) if size and seat != self.seat]
        return self.stock_size == 0 and len(holders) <= 1

    def sample(self, rng: random.Random) -> Round:
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
        return Round.position(
            self.rules, hands, self.table, self.piles, self.sweeps, stock, self.seat, self.last
        )

