"""Which captures a card may make, and which moves a hand may play: the turn's rules.

This is the hot path of every search and playout, so it works on masks and
remembers its answers: the moves of a card onto a table are computed once per
(table, card) and then looked up. The memos are keyed by everything the answer
depends on, so they never go stale; they are cleared when large. Compiled, the
moves onto a few deciding cards come by arithmetic instead, and random rollouts,
which rarely see a table twice, skip the memos (see :meth:`_CardMoves.by_search`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from .cards import ALL_CARDS_MASK, CAPTURE_VALUES, VALUE_MASKS, Card, Mask, ids_of, mask_of
from .moves import Move, move_of
from .rules import Rules

_COMPILED: Final = not __file__.endswith(".py")
"""Whether this module runs compiled (see :func:`_subsets_worth`)."""
_CARD_MEMO_LIMIT: Final = 1 << 14
_MEMO_LIMIT: Final = 1 << 16
"""Entries per memo (per card, ``_CARD_MEMO_LIMIT``) before it is emptied: memory stays
bounded (tens of MB at most) in long-running servers and tournaments."""
_VALUES: Final = tuple(CAPTURE_VALUES[i % 10] for i in range(40))
_TRAILS: Final = tuple(move_of(i, 0) for i in range(40))
_BELOW: Final = tuple(sum(VALUE_MASKS[w] for w in range(1, min(v, 11))) for v in range(16))
"""``_BELOW[v]``: every card worth less than ``v``."""


def _subsets_worth(cards: Mask, total: int) -> tuple[Mask, ...]:
    """Every subset of ``cards`` whose values add up to ``total``, in increasing mask order
    (so by their highest card first: move lists keep a stable order).

    Two ways to the same subsets, the faster in the form running: compiled, a depth-first
    walk on machine ints (:func:`_collect`); pure, partial sums kept in lists, which the
    interpreter runs in fewer steps (:func:`_grow_subsets`)."""
    if not _COMPILED:
        return _grow_subsets(cards, total)
    found: list[int] = []
    _collect(cards, total, 0, found)
    return tuple(found)


def _grow_subsets(cards: Mask, total: int) -> tuple[Mask, ...]:
    """:func:`_subsets_worth` by partial subsets grown one card at a time (lowest first)
    and dropped once they reach the total; those reaching it exactly come out by their
    highest card, each group in the order its partial subsets were made."""
    found: list[int] = []
    masks = [0]
    sums = [0]
    rest = cards
    while rest:
        bit = rest & -rest
        rest ^= bit
        value = _VALUES[bit.bit_length() - 1]
        for k in range(len(masks)):
            worth = sums[k] + value
            if worth < total:
                masks.append(masks[k] | bit)
                sums.append(worth)
            elif worth == total:
                found.append(masks[k] | bit)
    return tuple(found)


def _collect(cards: Mask, total: int, chosen: Mask, found: list[Mask]) -> None:
    """Append ``chosen | subset`` to ``found`` for each subset of ``cards`` worth ``total``,
    in increasing mask order: for each highest card, lowest first, that card alone and
    then the subsets of the cards below it worth the rest. A branch stops as soon as the
    cards below cannot make up the rest, so a crowded table costs little; compiled, it is
    all machine arithmetic but for the subsets found."""
    below = 0  # the capture values of the cards of ``cards`` below ``bit``, added up
    rest = cards
    while rest:
        bit = rest & -rest
        rest ^= bit
        value = _VALUES[bit.bit_length() - 1]
        need = total - value
        if need == 0:
            found.append(chosen | bit)
        elif 0 < need <= below:
            _collect(cards & (bit - 1), need, chosen | bit, found)
        below += value


def _singles(mask: Mask) -> tuple[Mask, ...]:
    singles = []
    while mask:
        bit = mask & -mask
        singles.append(bit)
        mask ^= bit
    return tuple(singles)


def capture_masks(rules: Rules, table: Mask, card_id: int) -> tuple[Mask, ...]:
    """Every legal capture (as a mask) for playing card ``card_id`` onto ``table``."""
    return _capture_masks(
        table, card_id, rules.capture == "sum", rules.fewest_cards, rules.ace_takes_all
    )


def _capture_masks(
    table: Mask, card_id: int, sum_capture: bool, fewest_cards: bool, ace_takes_all: bool
) -> tuple[Mask, ...]:
    """:func:`capture_masks` with the rules' fields read once (by the move generator)."""
    if not table:
        return ()
    if ace_takes_all and card_id % 10 == 0:
        return (table,)
    value = _VALUES[card_id]
    if sum_capture:
        equal = table & VALUE_MASKS[value]
        if equal:
            # Equal-card priority: a table card of the same value must be taken alone.
            return _singles(equal)
        small = table & _BELOW[value]
        if not small & (small - 1):
            return ()  # one smaller card alone cannot make the value
        options = _subsets_worth(small, value)
    else:
        target = 15 - value
        options = _subsets_worth(table & _BELOW[target + 1], target)
    if fewest_cards and len(options) > 1:
        fewest = min(mask.bit_count() for mask in options)
        options = tuple(mask for mask in options if mask.bit_count() == fewest)
    return options


_GENERATORS: dict[tuple[object, ...], MoveGenerator] = {}


def move_generator(rules: Rules) -> MoveGenerator:
    """The move generator for ``rules``: one per distinct capture rule, memo included."""
    key = (rules.capture, rules.must_capture, rules.fewest_cards, rules.ace_takes_all)
    generator = _GENERATORS.get(key)
    if generator is None:
        generator = _GENERATORS[key] = MoveGenerator(rules)
    return generator


def _memo_reach(rules: Rules, card_id: int) -> tuple[int, int]:
    """Two masks that pick out the table cards deciding what ``card_id`` captures.

    The memo key is ``table & first or table & second``: in scopa, cards of equal
    value when there are any (they alone decide), else the smaller cards; in
    escoba, the cards small enough to make 15 with it; with asso piglia tutto,
    the whole table for an Ace. Tables that differ elsewhere share one entry.
    """
    if rules.ace_takes_all and card_id % 10 == 0:
        return ALL_CARDS_MASK, 0
    value = _VALUES[card_id]
    if rules.capture == "sum":
        return VALUE_MASKS[value], _BELOW[value]
    return 0, _BELOW[16 - value]


class _CardMoves:
    """One card as :meth:`MoveGenerator.moves` reads it: the two masks that pick out the
    table cards deciding its captures (see :func:`_memo_reach`), its memo of moves keyed
    by that part of the table, its id and its trail. A native class when compiled, so the
    masks are read as machine ints, not unboxed from a tuple on every move."""

    __slots__ = (
        "card_id", "equal_moves", "few", "fewest", "first", "memo", "need", "pairs", "rank",
        "second", "singles", "trail",
    )

    def __init__(self, rules: Rules, card_id: int) -> None:
        self.first, self.second = _memo_reach(rules, card_id)
        self.memo: dict[int, tuple[Move, ...]] = {}
        self.card_id = card_id
        self.trail = _TRAILS[card_id]
        # Scopa's equal-card rule (``first`` holds the cards of equal value): the moves for
        # each set of them on the table, by the 4-bit pattern of their suits, so that
        # :meth:`MoveGenerator.pick` finds them by arithmetic instead of a memo look-up.
        self.rank = -1
        value = _VALUES[card_id]
        self.equal_moves: tuple[tuple[Move, ...], ...] = ()
        # ``few``: the moves onto two deciding cards or fewer come by arithmetic (``by_few``):
        # in scopa those cards are the smaller ones and must make ``need``, the card's value;
        # in escoba they make 15 with it (``need``: 15 less its value), alone or both.
        self.few = False
        self.need = 0
        self.fewest = rules.fewest_cards
        self.pairs: tuple[tuple[Move, ...], ...] = ()
        self.singles: tuple[tuple[Move, ...], ...] = ()
        if rules.capture == "sum" and self.first == VALUE_MASKS[value]:
            self.few = True
            self.need = value
        elif rules.capture != "sum" and not self.first:  # not an Ace that takes all
            self.few = True
            self.need = 15 - value
        if rules.capture == "sum" and self.first == VALUE_MASKS[value]:
            self.rank = rank = card_id % 10
            self.equal_moves = tuple(
                tuple(
                    move_of(card_id, 1 << (suit * 10 + rank))
                    for suit in range(4)
                    if pattern >> suit & 1 and suit * 10 + rank != card_id
                )
                for pattern in range(16)
            )
        if self.few:
            # Two deciding cards, ``low`` below ``high``, by ``low * 4 + high's suit``: the
            # move taking both when they make ``need``; and one card alone, by its id.
            need = self.need
            self.pairs = tuple(
                (move_of(card_id, 1 << low | 1 << high),)
                if 1 <= need - _VALUES[low] <= 10 and high > low and card_id not in (low, high)
                else ()
                for low in range(40)
                for suit in range(4)
                for high in (suit * 10 + need - _VALUES[low] - 1,)
            )
            if rules.capture != "sum":
                self.singles = tuple(
                    (move_of(card_id, 1 << other),)
                    if _VALUES[other] == need and other != card_id
                    else ()
                    for other in range(40)
                )

    def by_few(self, seen: Mask) -> tuple[Move, ...] | None:
        """The moves when ``few`` and ``seen`` (the deciding table cards: in scopa, with no
        card of equal value there, the smaller ones) holds two cards at most, by arithmetic;
        ``None`` (the memo decides) for more. The order is the memo's: by capture mask."""
        rest = seen & (seen - 1)
        if not rest:  # in scopa no smaller card alone makes the value: no ``singles``
            return self.singles[seen.bit_length() - 1] if seen and self.singles else ()
        if rest & (rest - 1):
            return None
        low = (seen ^ rest).bit_length() - 1
        high = rest.bit_length() - 1
        need = self.need
        low_value = _VALUES[low]
        high_value = _VALUES[high]
        if low_value + high_value == need:
            return self.pairs[low * 4 + high // 10]
        singles = self.singles
        if not singles:
            return ()
        if low_value == need:
            return singles[low] + singles[high] if high_value == need else singles[low]
        return singles[high] if high_value == need else ()

    def by_search(self, seen: Mask) -> tuple[Move, ...]:
        """The moves when ``few`` and ``seen`` holds more cards than :meth:`by_few` takes:
        the subsets of ``seen`` worth ``need``, found afresh. Compiled, it answers a memo
        miss (:meth:`MoveGenerator._card_moves`), and :meth:`MoveGenerator.pick` asks it
        without a memo: random rollouts rarely see a table twice, escoba's least of all
        (every card worth up to ``need`` decides), and a memo of such tables misses most
        of the time and outgrows the CPU's caches. Three to six cards, nearly always the
        case, are weighed subset by subset in machine arithmetic (:meth:`_by_sums`); more
        go to the search (:func:`_collect`). The order is the memo's: by capture mask."""
        if not self.fewest:  # (the fewest cards rule goes to the search, which sorts it out)
            # The lowest three cards, ``low < second < third``, and the rest, ``highs``.
            low = seen & -seen
            rest = seen ^ low
            second = rest & -rest
            rest ^= second
            third = rest & -rest
            highs = rest ^ third
            fewer = highs & (highs - 1)  # ``highs`` less its lowest card, then two
            fewer &= fewer - 1
            if third and not fewer & (fewer - 1):  # three to six cards
                need = self.need
                low_value = _VALUES[low.bit_length() - 1]
                second_value = _VALUES[second.bit_length() - 1]
                third_value = _VALUES[third.bit_length() - 1]
                found = self._by_sums(
                    low, second, third, low_value, second_value, third_value, need, 0, ()
                )
                # Then each set of the higher cards, in increasing mask order (the next
                # subset of ``highs`` is ``(chosen - highs) & highs``), alone and with the
                # subsets of the lowest three that make up the rest of the need.
                chosen = (0 - highs) & highs
                while chosen:
                    left = need  # what the lowest three must make up under ``chosen``
                    cards = chosen
                    while cards:
                        card = cards & -cards
                        cards ^= card
                        left -= _VALUES[card.bit_length() - 1]
                    if left == 0:
                        found += (move_of(self.card_id, chosen),)
                    elif left > 0:
                        found = self._by_sums(
                            low, second, third, low_value, second_value, third_value, left,
                            chosen, found,
                        )
                    chosen = (chosen - highs) & highs
                return found
        masks: list[int] = []
        _collect(seen, self.need, 0, masks)
        if not masks:
            return ()
        if self.fewest and len(masks) > 1:
            fewest = min([mask.bit_count() for mask in masks])
            masks = [mask for mask in masks if mask.bit_count() == fewest]
        card_id = self.card_id
        return tuple(move_of(card_id, mask) for mask in masks)

    def _by_sums(
        self, low: Mask, second: Mask, third: Mask, low_value: int, second_value: int,
        third_value: int, need: int, extra: Mask, found: tuple[Move, ...],
    ) -> tuple[Move, ...]:
        """``found`` and then the moves capturing ``extra`` (0 or a card above the three)
        with each subset of the three cards ``low < second < third`` worth ``need``, in
        increasing mask order: one sum and one comparison a subset, a move only made (or
        looked up) for a subset that is worth it, which is rarely more than one."""
        pair = low_value + second_value
        if low_value == need:
            found += self._single(extra, low)
        if second_value == need:
            found += self._single(extra, second)
        if pair == need:
            found += self._pair(extra, low, second)
        if third_value == need:
            found += self._single(extra, third)
        if low_value + third_value == need:
            found += self._pair(extra, low, third)
        if second_value + third_value == need:
            found += self._pair(extra, second, third)
        if pair + third_value == need:
            found += (move_of(self.card_id, extra | low | second | third),)
        return found

    def _single(self, extra: Mask, bit: Mask) -> tuple[Move, ...]:
        """The move taking ``extra`` and the card ``bit``: with nothing else, made
        beforehand (``singles``), so that usually no move is looked up at all."""
        if extra or not self.singles:
            return (move_of(self.card_id, extra | bit),)
        return self.singles[bit.bit_length() - 1]

    def _pair(self, extra: Mask, low: Mask, high: Mask) -> tuple[Move, ...]:
        """The move taking ``extra`` and the cards ``low < high``: with nothing else (then
        they are worth ``need``), made beforehand (``pairs``)."""
        if extra:
            return (move_of(self.card_id, extra | low | high),)
        return self.pairs[(low.bit_length() - 1) * 4 + (high.bit_length() - 1) // 10]


class MoveGenerator:
    """The legal moves of one rule set: :meth:`moves`.

    A native class when compiled, so the round state calls :meth:`moves` directly.
    The moves of a card onto the part of the table that decides them (see
    :func:`_memo_reach`) are remembered in a memo per card keyed by that part; the
    captures themselves (masks) depend on the card's value alone, so a shared memo
    keyed ``seen << 4 | value`` lets the four cards of a value share one search. A
    hand's cards, with their memos at hand, are remembered per hand.
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self._cards = [_CardMoves(rules, card_id) for card_id in range(40)]
        self._captures: dict[int, tuple[int, ...]] = {}
        self._hands: dict[int, tuple[_CardMoves, ...]] = {}
        self._sum_capture = rules.capture == "sum"
        self._fewest_cards = rules.fewest_cards
        self._ace_takes_all = rules.ace_takes_all
        self._free_trails = rules.must_capture == "none"
        self._trail_only_without_capture = rules.must_capture == "hand"

    def moves(self, hand: Mask, table: Mask) -> list[Move]:
        """Every move a player holding ``hand`` may make onto ``table`` (both masks),
        captures first, each card's in the order of the card ids."""
        cards = self._hands.get(hand)
        if cards is None:
            cards = self._cards_of(hand)
        captures: list[Move] = []
        trailed: list[Move] = []
        for card in cards:
            seen = table & card.first or table & card.second
            # No table card that could decide a capture: a trail, without a memo look-up.
            if seen:
                found = None
                # Compiled, two deciding cards or fewer come by arithmetic; pure, the memo
                # look-up wins. More go to the memo: a search revisits its tables.
                if _COMPILED and card.few and not seen & card.first:
                    found = card.by_few(seen)
                if found is None:
                    found = card.memo.get(seen)
                    if found is None:
                        found = self._card_moves(card, seen)
                if found:
                    captures += found
                    if self._free_trails:
                        trailed.append(card.trail)
                    continue
            trailed.append(card.trail)
        if self._trail_only_without_capture:
            return captures or trailed
        if trailed:
            captures += trailed
        return captures

    def pick(self, hand: Mask, table: Mask, fraction: float) -> Move:
        """``moves(hand, table)[int(fraction * len(moves))]`` for ``0 <= fraction < 1``,
        without building the list: the random rollout's step (``Round.play_randomly``).

        Compiled, a hand's cards come from its bits (native arithmetic) rather than from
        the memo of hands (a dictionary look-up that boxes the 40-bit key), cards of equal
        value on the table give the moves by their pattern (scopa), more deciding cards
        than two by a fresh search (no memo: see :meth:`_CardMoves.by_search`), and the
        trails are counted on a mask; the moves and their order are :meth:`moves`'."""
        every = self._cards
        # The captures, in order: usually one card's (``first``), a list only for more.
        first: tuple[Move, ...] = ()
        more: list[Move] | None = None
        trails = 0
        trail_count = 0
        rest = hand
        while rest:
            low = rest & -rest
            rest ^= low
            card = every[low.bit_length() - 1]
            rank = card.rank
            equal = table & card.first if rank >= 0 else 0
            found: tuple[Move, ...] | None
            if equal:  # cards of equal value on the table: each alone, by suit
                found = card.equal_moves[
                    (equal >> rank & 1)
                    | (equal >> (rank + 9) & 2)
                    | (equal >> (rank + 18) & 4)
                    | (equal >> (rank + 27) & 8)
                ]
            else:
                seen = table & card.first or table & card.second
                found = card.by_few(seen) if card.few else None
                if found is None:
                    found = card.by_search(seen) if card.few and _COMPILED else None
                if found is None:
                    found = card.memo.get(seen) if seen else ()
                    if found is None:
                        found = self._card_moves(card, seen)
            if found:
                if not first:
                    first = found
                elif more is None:
                    more = [*first, *found]
                else:
                    more.extend(found)
                if self._free_trails:
                    trails |= low
                    trail_count += 1
                continue
            trails |= low
            trail_count += 1
        capture_count = len(first) if more is None else len(more)
        if capture_count and self._trail_only_without_capture:
            trail_count = 0
        index = int(fraction * (capture_count + trail_count))
        if index < capture_count:
            return first[index] if more is None else more[index]
        for _ in range(index - capture_count):
            trails &= trails - 1
        return every[(trails & -trails).bit_length() - 1].trail

    def _cards_of(self, hand: Mask) -> tuple[_CardMoves, ...]:
        """The cards of ``hand`` as :meth:`moves` reads them, lowest id first."""
        hands = self._hands
        if len(hands) >= _MEMO_LIMIT:
            hands.clear()
        every = self._cards
        cards = hands[hand] = tuple([every[card_id] for card_id in ids_of(hand)])
        return cards

    def _card_moves(self, card: _CardMoves, seen: Mask) -> tuple[Move, ...]:
        memo = card.memo
        card_id = card.card_id
        captures = self._captures
        if len(memo) >= _CARD_MEMO_LIMIT:
            memo.clear()
        if _COMPILED and card.few and not seen & card.first:  # no search shared by value
            found = memo[seen] = card.by_search(seen)
            return found
        if len(captures) >= _MEMO_LIMIT:
            captures.clear()
        key = seen << 4 | _VALUES[card_id]
        masks = captures.get(key)
        if masks is None:
            masks = captures[key] = _capture_masks(
                seen, card_id, self._sum_capture, self._fewest_cards, self._ace_takes_all
            )
        moves = memo[seen] = tuple([move_of(card_id, mask) for mask in masks])
        return moves


def legal_moves_of(rules: Rules, hand: Mask, table: Mask) -> list[Move]:
    """The moves a player holding ``hand`` may make onto ``table`` (both masks)."""
    return move_generator(rules).moves(hand, table)


def capture_options(rules: Rules, table: Iterable[Card], card: Card) -> list[frozenset[Card]]:
    """Every legal capture for playing ``card`` onto ``table``; empty if it cannot capture.

    Captures are listed fewest cards first, then by their cards in canonical order.

    >>> from scopa import Card, Rules
    >>> table = [Card.parse(code) for code in ("AD", "2H", "3S", "4C", "6D")]
    >>> options = capture_options(Rules.preset("scopa"), table, Card.parse("7C"))
    >>> [" ".join(str(c) for c in sorted(option)) for option in options]
    ['AD 6D', '3S 4C', 'AD 2H 4C']
    """
    cards = list(table)
    table_mask = mask_of(cards)
    if len(cards) != table_mask.bit_count():
        raise ValueError("the table holds the same card twice")
    if table_mask & card.bit:
        raise ValueError(f"{card} is on the table already")
    masks = capture_masks(rules, table_mask, card.id)
    options = [move_of(card.id, mask).captured for mask in masks]
    options.sort(key=lambda option: (len(option), sorted(option)))
    return options
