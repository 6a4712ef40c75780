"""What a seat can infer from its view: the one place the bots read hidden facts from.

A view shows the seat's own hand, the table, the piles and every play of the
round. From these alone follow the cards still unseen (in other hands or the
stock), the side that captured last (it takes the leftovers, and the dealer's
bonus counts as a capture), whether the seat to move makes the round's last
play (which scores no sweep unless the rules say so), and what each seat's
trails rule out: where a player may trail only when no card in hand captures
(``must_capture="hand"``, both seed presets), a seat that trailed held no card
able to capture on that table, so none of the cards it still holds from that
deal is such a card. What a card captures depends on its value alone, so a trail
rules out whole values.
"""

from __future__ import annotations

from typing import Final

from ..capture import capture_masks
from ..cards import ALL_CARDS_MASK, VALUE_MASKS, mask_of
from ..view import View

_ONE_OF_VALUE: Final = tuple((mask & -mask).bit_length() - 1 for mask in VALUE_MASKS)
"""A card id of each capture value (index 0 unused)."""


def unseen_mask(view: View) -> int:
    """Cards this seat has not seen this round: in other hands or in the stock.

    Every card played this round is on the table or in a captured pile, so what
    is neither there nor in the seat's own hand is exactly what is still hidden.
    """
    seen = mask_of(view.hand) | mask_of(view.table)
    for pile in view.piles:
        seen |= mask_of(pile)
    return ALL_CARDS_MASK & ~seen


def last_capturer(view: View) -> int:
    """The side that captured last this round (-1: nobody yet): it takes the leftovers.
    The dealer's bonus counts as a capture by the dealer's side."""
    for play in reversed(view.plays):
        if play.move.captured_mask:
            return view.rules.side_of(play.seat)
    if view.dealer_bonus:
        return view.rules.side_of(view.dealer)
    return -1


def is_last_play(view: View) -> bool:
    """Whether the seat to move is about to make the round's very last play."""
    return view.stock_size == 0 and sum(view.hand_sizes) == 1


def ruled_out(view: View) -> list[int]:
    """By seat, the cards its trails this deal show it does not hold (0 for every seat
    unless ``must_capture="hand"``). The table before each trail is rebuilt by undoing
    the plays of this deal from the current table."""
    rules = view.rules
    out = [0] * rules.players
    if rules.must_capture != "hand":
        return out
    played = sum(rules.hand_size - size for size in view.hand_sizes)
    if not played:
        return out
    table = mask_of(view.table)
    for play in reversed(view.plays[max(0, len(view.plays) - played) :]):
        move = play.move
        if move.captured_mask:
            table |= move.captured_mask
            continue
        table ^= move.card_bit
        for value in range(1, 11):
            if not out[play.seat] & VALUE_MASKS[value] and capture_masks(
                rules, table, _ONE_OF_VALUE[value]
            ):
                out[play.seat] |= VALUE_MASKS[value]
    return out
