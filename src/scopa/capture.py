"""Which captures a card may make, and which moves a hand may play: the turn's rules.

This is the hot path of every search and playout, so it works on masks and
remembers, for each table it has seen, the subsets of the table grouped by the
sum of their values: every card and every hand played onto the same table is
then answered by a lookup instead of a new enumeration.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from .cards import CAPTURE_VALUES, VALUE_MASKS, Card, mask_of
from .moves import Move, move_of
from .rules import Rules

_MAX_USEFUL_SUM: Final = 14
"""No capture ever needs table cards worth more than 14 (escoba: 15 minus an Ace)."""

_CACHE_LIMIT: Final = 1 << 18
_SUMS: dict[int, dict[int, tuple[int, ...]]] = {}


def _sums_of(table: int) -> dict[int, tuple[int, ...]]:
    """Non-empty subsets of ``table`` worth at most 14, grouped by their value."""
    sums = _SUMS.get(table)
    if sums is not None:
        return sums
    subsets = [(0, 0)]
    rest = table
    while rest:
        bit = rest & -rest
        rest ^= bit
        value = CAPTURE_VALUES[(bit.bit_length() - 1) % 10]
        subsets += [(m | bit, s + value) for m, s in subsets if s + value <= _MAX_USEFUL_SUM]
    grouped: dict[int, list[int]] = {}
    for mask, total in subsets[1:]:
        grouped.setdefault(total, []).append(mask)
    sums = {total: tuple(masks) for total, masks in grouped.items()}
    if len(_SUMS) >= _CACHE_LIMIT:
        _SUMS.clear()
    _SUMS[table] = sums
    return sums


def capture_masks(rules: Rules, table: int, card_id: int) -> tuple[int, ...]:
    """Every legal capture (as a mask) for playing card ``card_id`` onto ``table``."""
    if not table:
        return ()
    rank_index = card_id % 10
    if rules.ace_takes_all and rank_index == 0:
        return (table,)
    value = CAPTURE_VALUES[rank_index]
    if rules.capture == "sum":
        equal = table & VALUE_MASKS[value]
        if equal:
            # Equal-card priority: a table card of the same value must be taken alone.
            singles = []
            while equal:
                bit = equal & -equal
                singles.append(bit)
                equal ^= bit
            return tuple(singles)
        options = _sums_of(table).get(value, ())
    else:
        options = _sums_of(table).get(15 - value, ())
    if rules.fewest_cards and len(options) > 1:
        fewest = min(mask.bit_count() for mask in options)
        options = tuple(mask for mask in options if mask.bit_count() == fewest)
    return options


def legal_moves_of(rules: Rules, hand: int, table: int) -> list[Move]:
    """The moves a player holding ``hand`` may make onto ``table`` (both masks)."""
    captures: list[Move] = []
    trails: list[Move] = []
    free_trails = rules.must_capture == "none"
    rest = hand
    while rest:
        bit = rest & -rest
        rest ^= bit
        card_id = bit.bit_length() - 1
        options = capture_masks(rules, table, card_id)
        for mask in options:
            captures.append(move_of(card_id, mask))
        if free_trails or not options:
            trails.append(move_of(card_id, 0))
    if rules.must_capture == "hand" and captures:
        return captures
    return captures + trails


def is_sweep(rules: Rules, move: Move, table: int) -> bool:
    """Whether ``move`` empties ``table`` in a way that can score a sweep."""
    if not move.captured_mask or move.captured_mask != table:
        return False
    return not (rules.ace_takes_all and move.card.rank_index == 0)


def capture_options(rules: Rules, table: Iterable[Card], card: Card) -> list[frozenset[Card]]:
    """Every legal capture for playing ``card`` onto ``table``; empty if it cannot capture.

    Captures are listed fewest cards first, then by their cards in canonical order.

    >>> from scopa import Card, Rules
    >>> table = [Card.parse(code) for code in ("AD", "2H", "3S", "4C", "6D")]
    >>> options = capture_options(Rules.preset("scopa"), table, Card.parse("7C"))
    >>> [" ".join(str(c) for c in sorted(option)) for option in options]
    ['3S 4C', 'AD 6D', 'AD 2H 4C']
    """
    cards = list(table)
    table_mask = mask_of(cards)
    if len(cards) != table_mask.bit_count():
        raise ValueError("the table holds the same card twice")
    if table_mask & card.bit:
        raise ValueError(f"{card} is on the table already")
    options = [move_of(card.id, mask).captured for mask in capture_masks(rules, table_mask, card.id)]
    options.sort(key=lambda option: (len(option), sorted(option)))
    return options
