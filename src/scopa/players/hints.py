"""Hints: the master's move and one short reason a person understands.

The reason is read off what the move does, not off the search's numbers, which
mean nothing to a player: what it captures (a sweep, the settebello, coins,
sevens), or for a trail what it leaves, judged the way the seed's tips put it: a
table no single card can sweep, or one whose sweeping cards have all been seen.
"""

from __future__ import annotations

from typing import Final

from ..capture import is_sweep
from ..cards import CARDS, COINS_MASK, SETTEBELLO, SEVENS_MASK, VALUE_MASKS, Card, value_of
from ..moves import Move
from ..view import View
from .base import check_turn, hand_mask, table_mask, unseen_mask
from .master import MasterPlayer

_RANK_WORDS: Final = ("Ace", "2", "3", "4", "5", "6", "7", "Jack", "Queen", "King")
_SUIT_WORDS: Final = ("coins", "cups", "swords", "clubs")
_VALUE_WORDS: Final = ("", *_RANK_WORDS)
"""A card of each capture value (a Jack is worth 8, a King 10)."""


def card_words(card: Card) -> str:
    """``the 7 of coins``: a card as a hint names it (D is coins in every deck)."""
    return f"the {_RANK_WORDS[card.rank_index]} of {_SUIT_WORDS[card.suit_index]}"


def suggest(view: View, player: MasterPlayer | None = None) -> tuple[Move, str]:
    """The master's move for ``view`` and why, in a few words.

    ``player`` is the master to ask (a seeded default, so the same view always
    gets the same hint).
    """
    moves = check_turn(view)
    move = (player or MasterPlayer(seed=0)).choose(view)
    if len(moves) == 1:
        return move, _only_reason(view, move)
    return move, reason(view, move)


def _only_reason(view: View, move: Move) -> str:
    if move.is_capture:
        return "the only legal move: a card that can capture must"
    return "the only legal move"


def reason(view: View, move: Move) -> str:
    """One short sentence on what ``move`` achieves in the position of ``view``."""
    rules = view.rules
    table = table_mask(view)
    captured = move.captured_mask
    if captured:
        taken = captured | move.card_bit
        if is_sweep(rules, move, table) and (
            rules.last_play_sweep or view.stock_size or sum(view.hand_sizes) > 1
        ):
            return "sweeps the table: a point"
        if captured == table:
            return "takes the whole table"
        if taken & SETTEBELLO.bit:
            return "takes the settebello (the 7 of coins)"
        coins = (taken & COINS_MASK).bit_count()
        if coins >= 2:
            return f"takes {coins} coins"
        sevens = taken & SEVENS_MASK
        if sevens:
            return f"takes {card_words(CARDS[sevens.bit_length() - 1])}: a seven for primiera"
        safe = _safe_table(view, table ^ captured)
        if safe:
            return f"takes {taken.bit_count()} cards and {safe}"
        return f"takes {taken.bit_count()} cards"
    safe = _safe_table(view, table | move.card_bit)
    if safe:
        return safe
    if hand_mask(view) & SETTEBELLO.bit and move.card is not SETTEBELLO:
        return "keeps the 7 of coins safe in hand"
    if any(other.is_capture for other in view.legal_moves()):
        return f"keeps its captures for later and lays down {card_words(move.card)}"
    return f"nothing to capture: lays down {card_words(move.card)}, the card that costs least"


def _safe_table(view: View, left: int) -> str:
    """Why the next player cannot sweep the table ``left``, or ``""`` if it might.

    Cards in this seat's hand are not unseen, so holding the sweeping cards counts
    as safe as their having been played.
    """
    if not left:
        return ""
    total = value_of(left)
    if view.rules.capture == "sum":
        if total > 10:
            return f"leaves {total} on the table: no single card sweeps it"
        needed = total
        purpose = "sweep it"
    else:
        if total < 5:
            return f"leaves {total} on the table: no card makes 15 with it"
        if total >= 15:
            return f"leaves {total} on the table: no single card sweeps it"
        needed = 15 - total
        purpose = "make 15"
    if not unseen_mask(view) & VALUE_MASKS[needed]:
        return f"leaves {total} on the table: no {_VALUE_WORDS[needed]} is left to {purpose}"
    return ""
