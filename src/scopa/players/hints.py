"""Hints: the master's move and one short reason a person understands.

The reason is read off what the move does, not off the search's numbers, which
mean nothing to a player: what it captures (a sweep, the settebello, coins,
sevens), or for a trail what it leaves, judged the way the seed's tips put it: a
table no single card can sweep, or one whose sweeping cards have all been seen.

A reason is a key and its parameters (:class:`Reason`), so that a client can say it
in its own language and name cards in its own deck look; ``str(reason)`` is English.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

from ..cards import CARDS, COINS_MASK, RANKS, SETTEBELLO, SEVENS_MASK, Card, value_of
from ..moves import Move
from ..round import sweep_scores, sweepers
from ..view import View
from .base import check_turn, hand_mask, table_mask
from .inference import is_last_play, unseen_mask
from .master import MasterPlayer

_RANK_WORDS: Final = ("Ace", "2", "3", "4", "5", "6", "7", "Jack", "Queen", "King")
_SUIT_WORDS: Final = ("coins", "cups", "swords", "clubs")

_SAFE_TABLES: Final = {
    "high": "leaves {total} on the table: no single card sweeps it",
    "low": "leaves {total} on the table: no card makes 15 with it",
    "gone_sweep": "leaves {total} on the table: no {rank} is left to sweep it",
    "gone_fifteen": "leaves {total} on the table: no {rank} is left to make 15",
}
"""Why the next player cannot sweep what a move leaves on the table."""

REASONS: Final[Mapping[str, str]] = {
    "only": "the only legal move",
    "only_capture": "the only legal move: a card that can capture must",
    "sweep": "sweeps the table: a point",
    "whole_table": "takes the whole table",
    "settebello": "takes the settebello (the 7 of coins)",
    "coins": "takes {count} coins",
    "seven": "takes {card}: a seven for primiera",
    "cards": "takes {count} cards",
    **{f"cards_{key}": f"takes {{count}} cards and {text}" for key, text in _SAFE_TABLES.items()},
    **_SAFE_TABLES,
    "keep_settebello": "keeps the 7 of coins safe in hand",
    "hold_back": "keeps its captures for later and lays down {card}",
    "cheapest": "nothing to capture: lays down {card}, the card that costs least",
}
"""Every reason's English by key: a client that translates hints needs a text for each.
``{count}`` and ``{total}`` are numbers, ``{card}`` a card and ``{rank}`` a rank."""


def card_words(card: Card) -> str:
    """``the 7 of coins``: a card as a hint names it (D is coins in every deck)."""
    return f"the {_RANK_WORDS[card.rank_index]} of {_SUIT_WORDS[card.suit_index]}"


@dataclass(frozen=True)
class Reason:
    """Why a move is good: one of :data:`REASONS` and its parameters.

    Parameters are numbers (``count``, ``total``), a card code (``card``) or a rank code
    (``rank``, such as ``J``), never words, so a client can say them in its own language.

    >>> str(Reason("seven", {"card": "7H"}))
    'takes the 7 of cups: a seven for primiera'
    """

    key: str
    params: Mapping[str, int | str] = field(default_factory=dict)

    def __str__(self) -> str:
        words = {name: _english(name, value) for name, value in self.params.items()}
        return REASONS[self.key].format(**words)


def _english(name: str, value: int | str) -> str:
    if name == "card":
        return card_words(Card.parse(value))
    if name == "rank":
        return _RANK_WORDS[RANKS.index(str(value))]
    return str(value)


def suggest(view: View, player: MasterPlayer | None = None) -> tuple[Move, str]:
    """The master's move for ``view`` and why, in a few words.

    ``player`` is the master to ask (a seeded default, so the same view always
    gets the same hint).
    """
    move, why = hint(view, player)
    return move, str(why)


def hint(view: View, player: MasterPlayer | None = None) -> tuple[Move, Reason]:
    """Like :func:`suggest`, with the reason as a :class:`Reason` to translate."""
    moves = check_turn(view)
    move = (player or MasterPlayer(seed=0)).choose(view)
    if len(moves) == 1:
        return move, Reason("only_capture" if move.is_capture else "only")
    return move, explain(view, move)


def reason(view: View, move: Move) -> str:
    """One short sentence on what ``move`` achieves in the position of ``view``."""
    return str(explain(view, move))


def explain(view: View, move: Move) -> Reason:
    """What ``move`` achieves in the position of ``view``, as a :class:`Reason`."""
    rules = view.rules
    table = table_mask(view)
    captured = move.captured_mask
    if captured:
        taken = captured | move.card_bit
        if captured == table and sweep_scores(rules, move, is_last_play(view)):
            return Reason("sweep")
        if captured == table:
            return Reason("whole_table")
        if taken & SETTEBELLO.bit:
            return Reason("settebello")
        coins = (taken & COINS_MASK).bit_count()
        if coins >= 2:
            return Reason("coins", {"count": coins})
        sevens = taken & SEVENS_MASK
        if sevens:
            return Reason("seven", {"card": str(CARDS[sevens.bit_length() - 1])})
        count = taken.bit_count()
        safe = _safe_table(view, table ^ captured)
        if safe:
            return Reason(f"cards_{safe.key}", {"count": count, **safe.params})
        return Reason("cards", {"count": count})
    safe = _safe_table(view, table | move.card_bit)
    if safe:
        return safe
    if hand_mask(view) & SETTEBELLO.bit and move.card is not SETTEBELLO:
        return Reason("keep_settebello")
    if any(other.is_capture for other in view.legal_moves()):
        return Reason("hold_back", {"card": str(move.card)})
    return Reason("cheapest", {"card": str(move.card)})


def _safe_table(view: View, left: int) -> Reason | None:
    """Why the next player cannot sweep the table ``left``, or ``None`` if it might.

    Cards in this seat's hand are not unseen, so holding the sweeping cards counts
    as safe as their having been played.
    """
    if not left:
        return None
    total = value_of(left)
    if view.rules.capture == "sum":
        if total > 10:
            return Reason("high", {"total": total})
        needed = total
        gone = "gone_sweep"
    else:
        if total < 5:
            return Reason("low", {"total": total})
        if total >= 15:
            return Reason("high", {"total": total})
        needed = 15 - total
        gone = "gone_fifteen"
    if not unseen_mask(view) & sweepers(view.rules, total):
        return Reason(gone, {"total": total, "rank": RANKS[needed - 1]})
    return None
