"""One round of play on card masks: the only place a round's mechanics are decided.

Everything that plays a round goes through :class:`Round`: :class:`~scopa.Game`
around it for matches, the bots for their playouts and searches. So when a sweep
scores, how cards are dealt (the redeal on kings included), the escoba dealer
bonus and who takes the leftovers are written once, here, and what the bots
optimise is the game people play.

The state is a handful of ints and lists of ints, so it copies cheaply and the
module compiles with mypyc (``setup.py``) to a native class.

API (positions are trusted: ``Game`` checks moves before they get here)

- ``Round.deal(rules, leader, next_deck)``: a new round. ``next_deck()`` returns a
  deck as 40 single-card masks, top first; it is called again for each redeal
  (``kings_redeal``). The leader gets ``hand_size`` cards, then each next seat, then
  ``table_size`` go to the table; the dealer is the seat before the leader and takes
  the first table as a bonus when ``dealer_bonus`` says so (:func:`bonus_sweeps`).
- ``Round.position(rules, hands, table, piles, sweeps, stock, to_move, last)``: a
  round already under way, such as a bot's guess at the hidden cards; ``stock`` is
  the undealt cards as single-card masks, top first (shared, never changed).
- ``legal()``: the moves of the seat to move (``Move`` objects, from
  :func:`~scopa.capture.move_generator`, under every ``Rules`` field).
- ``apply(move) -> swept``: plays a legal move of ``to_move``. When the next seat's
  hand is empty it deals (the seat to move first) or, with the stock gone, ends the
  round: the table goes to the side that captured last and ``over`` turns true.
- ``play_randomly(rng)``: random legal moves to the round's end (rollouts).
- ``copy()``, ``key()`` (a tuple of ints naming the position within one stock, for
  transposition tables), ``scores()`` (the round's :class:`~scopa.scoring.RoundScore`
  by side, once ``over``) and ``points()`` (their totals alone, faster).
- Fields: ``hands`` (by seat), ``table``, ``piles`` and ``sweeps`` (by side),
  ``stock`` and ``dealt`` (cards of it dealt so far), ``to_move``, ``last`` (the side
  that captured last, -1: nobody), ``bonus`` (the table the dealer took, 0: none),
  ``over``; ``players``, ``sides`` and ``rules``. Read them freely; change them only
  through the methods.

Module helpers: :func:`core` (``"compiled"`` or ``"pure"``), :func:`shuffled_deck` (the
shuffle ``Game`` deals from a seed), :func:`random_deck` (a cheaper uniform shuffle for
rollouts that need no seed compatibility), :func:`bonus_sweeps`, :func:`sweep_scores` (whether
emptying the table scores) and :func:`sweepers` (the cards that could empty a table of a
given total).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final, cast

from .capture import MoveGenerator, move_generator
from .cards import CARDS, VALUE_MASKS, Mask, value_of
from .moves import Move
from .rules import Rules
from .scoring import RoundPoints, RoundScore, score_piles

_BITS: Final = tuple(card.bit for card in CARDS)
_BIT_OBJECTS: Final[tuple[object, ...]] = _BITS
"""``_BITS`` seen as objects: compiled, a deck built from it shares the ints as they are
instead of unboxing each 40-bit mask and boxing it again (an allocation per card)."""
_COMPILED: Final = not __file__.endswith(".py")
"""Whether this module runs compiled: a few hot loops take the form that is fastest in
each (the tests run both forms, and check the two forms of each loop agree)."""
_VALUES: Final = tuple(card.value for card in CARDS)
_KINGS: Final = VALUE_MASKS[10]
_ACES: Final = VALUE_MASKS[1]


def core() -> str:
    """Which form of the core is running: ``"compiled"`` (native code built by mypyc,
    see ``setup.py``) or ``"pure"`` (the Python sources). The compiled modules are
    loaded from a shared library, so this module's own file tells them apart."""
    return "compiled" if _COMPILED else "pure"


def shuffled_deck(rng: random.Random) -> list[int]:
    """A uniformly shuffled deck of single-card masks, top first.

    The deck is the 40 cards sorted by a key ``rng.random()`` each, drawn in card order
    (a uniform shuffle, twice as fast as ``random.shuffle``), as it always was: a seed
    deals the same decks. It takes one of two ways to that order, the faster in the form
    running (the tests check both against the keys).
    """
    return _deck_by_bytes(rng) if _COMPILED else _deck_by_floats(rng)


def _deck_by_floats(rng: random.Random) -> list[int]:
    """Pure: the cards sorted by a key drawn for each as the sort asks (in card order)."""
    random_key = rng.random
    return sorted(_BITS, key=lambda _: random_key())


def _deck_by_bytes(rng: random.Random) -> list[int]:
    """Compiled: the same order from one ``getrandbits`` call and machine arithmetic.

    ``rng.random()`` draws two 32-bit words ``a`` then ``b`` and is ``(a >> 5) * 2**26 +
    (b >> 6)`` over ``2**53``; ``getrandbits(2560)`` draws the same 80 words, the first
    lowest. The cards are sorted by the top 24 bits of ``a`` with the card's index
    below them, which orders them as the keys do unless two cards share those bits (about
    one deck in 20,000): then the full keys, ties to the lower index as a stable sort.
    """
    data = rng.getrandbits(2560).to_bytes(320, "little")
    keys: list[int] = []
    for i in range(40):
        j = 8 * i
        keys.append((data[j + 1] | data[j + 2] << 8 | data[j + 3] << 16) << 6 | i)
    keys.sort()
    previous = -1
    for key in keys:
        if key >> 6 == previous:
            return _deck_by_full_keys(data)
        previous = key >> 6
    bits = _BIT_OBJECTS
    return cast(list[int], [bits[key & 63] for key in keys])


def _deck_by_full_keys(data: bytes) -> list[int]:
    """:func:`_deck_by_bytes` when two cards share the top bits of their keys."""
    keys: list[int] = []
    for i in range(40):
        j = 8 * i
        a = data[j] | data[j + 1] << 8 | data[j + 2] << 16 | data[j + 3] << 24
        b = data[j + 4] | data[j + 5] << 8 | data[j + 6] << 16 | data[j + 7] << 24
        keys.append(((a >> 5) << 26 | b >> 6) << 6 | i)
    keys.sort()
    bits = _BIT_OBJECTS
    return cast(list[int], [bits[key & 63] for key in keys])


def _deck_groups(size: int, cap_bits: int) -> tuple[tuple[int, int, int, int], ...]:
    """Fisher-Yates over ``size`` items, its steps ``i = size - 1`` down to ``1`` (each
    swapping item ``i`` with one of ``0..i``) cut into runs whose ``i + 1`` multiply to
    less than ``2**cap_bits``: one random word decides each run's swaps. Each run is
    ``(top, bottom, product, limit)``: steps ``top`` down to ``bottom``, ``product`` their
    choices together, ``limit`` the largest multiple of it up to ``2**62`` (words at or
    above it are drawn again, so the word mod ``product`` is exactly uniform)."""
    groups: list[tuple[int, int, int, int]] = []
    top = size - 1
    product = 1
    for i in range(size - 1, 0, -1):
        if product * (i + 1) >> cap_bits:
            groups.append((top, i + 1, product, (1 << 62) // product * product))
            top = i
            product = 1
        product *= i + 1
    if top >= 1:
        groups.append((top, 1, product, (1 << 62) // product * product))
    return tuple(groups)


_DECK_RUNS: Final = tuple(
    (top, bottom, product, limit, tuple((i, i + 1) for i in range(top, bottom - 1, -1)))
    for top, bottom, product, limit in _deck_groups(40, 42)
)
"""A deck's shuffle in four runs (choices below ``2**42`` each: a word is drawn again
less than once in a million), each with its steps as pairs ``(i, i + 1)`` for the pure
form's loop."""


def _swaps(deck: list[object], top: int, bottom: int, value: int) -> None:
    """The Fisher-Yates steps ``top`` down to ``bottom`` (``>= 1``), their choices read
    from ``value`` (below the product of their ``i + 1``) as digits of a mixed radix: each
    ``value`` gives one sequence of swaps, and each sequence comes from one ``value``."""
    for i in range(top, bottom - 1, -1):
        radix = i + 1
        j = value % radix
        value //= radix
        deck[i], deck[j] = deck[j], deck[i]


def random_deck(rng: random.Random) -> list[int]:
    """A uniformly shuffled deck of single-card masks, top first, for rollouts that only
    need a random deck: a Fisher-Yates shuffle driven by four ``getrandbits(62)`` words,
    a third of :func:`shuffled_deck`'s cost compiled (about the same pure). Not the decks
    ``Game`` deals from a seed (that stays :func:`shuffled_deck`); the same deck for an
    ``rng`` state pure or compiled. The list holds the shared card ints as objects, so
    compiled, swapping them never boxes a 40-bit mask."""
    deck = list(_BIT_OBJECTS)
    getrandbits = rng.getrandbits
    for top, bottom, product, limit, steps in _DECK_RUNS:
        word = getrandbits(62)
        while word >= limit:
            word = getrandbits(62)
        word %= product
        if _COMPILED:
            _swaps(deck, top, bottom, word)
        else:  # the same swaps; the interpreter runs them faster from a tuple than a range
            for i, radix in steps:
                j = word % radix
                word //= radix
                deck[i], deck[j] = deck[j], deck[i]
    return cast(list[int], deck)


def _union(cards: list[int], start: int, stop: int) -> int:
    """The cards ``cards[start:stop]`` (single-card masks) as one mask, compiled: a native
    loop, where ``sum(cards[start:stop])``, the pure form's one built-in call for the same
    (distinct bits: their sum is their union), would box and add them one by one."""
    stop = min(stop, len(cards))
    union = 0
    for i in range(start, stop):
        union |= cards[i]
    return union


def _splits_into_fifteens(mask: Mask, groups: int) -> bool:
    """Whether the cards of ``mask`` split into ``groups`` groups worth 15 each."""
    if groups == 1:
        return value_of(mask) == 15
    first = mask & -mask
    rest = mask ^ first
    # Every group holding the lowest card: ``first`` plus a subset of the rest.
    others = [bit for bit in _BITS if rest & bit]
    for subset in range(1 << len(others)):
        group = first
        for k, bit in enumerate(others):
            if subset >> k & 1:
                group |= bit
        if value_of(group) == 15 and _splits_into_fifteens(mask ^ group, groups - 1):
            return True
    return False


def _worth(cards: Mask) -> int:
    """``value_of(cards)`` in a plain loop: compiled, machine arithmetic, where
    ``value_of`` runs two generators (a deal asks it of each first table, for the bonus)."""
    total = 0
    while cards:
        low = cards & -cards
        cards ^= low
        total += _VALUES[low.bit_length() - 1]
    return total


def bonus_sweeps(rules: Rules, table: Mask) -> int:
    """Sweeps the dealer scores for this first table (0: no bonus).

    A total that is a multiple of 15 above 15 counts only when the cards split into
    groups of 15 each (the classic "30 in two fifteens").
    """
    total = _worth(table)
    for bonus_total, sweeps in rules.dealer_bonus:
        if total != bonus_total:
            continue
        if total % 15 == 0 and total > 15 and not _splits_into_fifteens(table, total // 15):
            return 0
        return sweeps
    return 0


def sweep_scores(rules: Rules, move: Move, last_play: bool) -> bool:
    """Whether ``move``, emptying the table, scores a sweep: never for an Ace taking all
    (``ace_takes_all``), nor on the round's very last play unless ``last_play_sweep``."""
    if rules.ace_takes_all and move.card_bit & _ACES:
        return False
    return rules.last_play_sweep or not last_play


def sweepers(rules: Rules, total: int) -> int:
    """The cards that could empty a table whose capture values add up to ``total`` (0:
    none): in scopa the cards of that value, in escoba those making 15 with it."""
    needed = total if rules.capture == "sum" else 15 - total
    return VALUE_MASKS[needed] if 1 <= needed <= 10 else 0


class _Facts:
    """What a round needs of its ``Rules``, worked out once per rule set and shared."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.generator: MoveGenerator = move_generator(rules)
        self.players = rules.players
        self.sides = rules.sides
        self.hand_size = rules.hand_size
        self.table_size = rules.table_size
        self.aces_take_all = _ACES if rules.ace_takes_all else 0
        self.last_play_sweep = rules.last_play_sweep
        self.kings_redeal = rules.kings_redeal
        self.dealer_bonus = bool(rules.dealer_bonus)
        self.round_points = RoundPoints(rules)


_FACTS: Final[dict[Rules, _Facts]] = {}
_LAST_FACTS: Final[list[_Facts]] = []
"""The facts asked for last: a deal finds them by identity, without hashing every field
of its ``Rules`` (a frozen dataclass) for the dictionary."""


def _facts_of(rules: Rules) -> _Facts:
    if _LAST_FACTS:  # never empty again once filled, so safe between threads
        last = _LAST_FACTS[0]
        if last.rules is rules:
            return last
    facts = _FACTS.get(rules)
    if facts is None:
        facts = _FACTS[rules] = _Facts(rules)
    _LAST_FACTS[:] = [facts]
    return facts


class Round:
    """The state of one round; see the module docstring for the API."""

    __slots__ = (
        "bonus",
        "dealt",
        "facts",
        "hands",
        "last",
        "over",
        "piles",
        "stock",
        "sweeps",
        "table",
        "to_move",
    )

    facts: _Facts
    hands: list[Mask]
    """By seat: the cards in hand."""
    table: Mask
    piles: list[Mask]
    """By side: the cards captured this round."""
    sweeps: list[int]
    """By side: sweeps this round, dealer bonus included."""
    stock: list[Mask]
    """The cards to deal as single-card masks, top first (for a dealt round, the whole deck)."""
    dealt: int
    """How many cards of ``stock`` have been dealt."""
    to_move: int
    last: int
    """The side that captured last (-1: nobody yet): it takes the leftovers."""
    bonus: int
    """The first table the dealer took as a bonus (0: none)."""
    over: bool

    def __init__(
        self,
        facts: _Facts,
        hands: list[Mask],
        table: Mask,
        piles: list[Mask],
        sweeps: list[int],
        stock: list[Mask],
        dealt: int,
        to_move: int,
        last: int,
        bonus: int,
        over: bool,
    ) -> None:
        """Prefer :meth:`deal` or :meth:`position`; this takes the lists as they are."""
        self.facts = facts
        self.hands = hands
        self.table = table
        self.piles = piles
        self.sweeps = sweeps
        self.stock = stock
        self.dealt = dealt
        self.to_move = to_move
        self.last = last
        self.bonus = bonus
        self.over = over

    @classmethod
    def deal(cls, rules: Rules, leader: int, next_deck: Callable[[], list[int]]) -> Round:
        """Deal a new round from ``next_deck()`` (again for each redeal), ``leader`` first."""
        facts = _LAST_FACTS[0] if _LAST_FACTS else _facts_of(rules)
        if facts.rules is not rules:
            facts = _facts_of(rules)
        players, size = facts.players, facts.hand_size
        dealt = players * size
        while True:
            deck = next_deck()
            hands = [0] * players
            # The cards are distinct bits, so their sum is their union (see ``_union``).
            for k in range(players):
                start, end = k * size, (k + 1) * size
                hands[(leader + k) % players] = (
                    _union(deck, start, end) if _COMPILED else sum(deck[start:end])
                )
            end = dealt + facts.table_size
            table = _union(deck, dealt, end) if _COMPILED else sum(deck[dealt:end])
            if not (facts.kings_redeal and (table & _KINGS).bit_count() >= 3):
                break
        sides = facts.sides
        piles = [0] * sides
        sweeps = [0] * sides
        last = -1
        bonus = 0
        if facts.dealer_bonus:
            won = bonus_sweeps(rules, table)
            if won:
                last = ((leader - 1) % players) % sides
                piles[last] = table
                sweeps[last] = won
                bonus = table
                table = 0
        # ``Round``, not ``cls``: compiled, a direct native construction instead of a call
        # through the type that parses its arguments (about 1k instructions a deal).
        return Round(
            facts, hands, table, piles, sweeps, deck, dealt + facts.table_size, leader, last,
            bonus, False,
        )

    @classmethod
    def position(
        cls,
        rules: Rules,
        hands: list[Mask],
        table: Mask,
        piles: list[Mask],
        sweeps: list[int],
        stock: list[Mask],
        to_move: int,
        last: int,
    ) -> Round:
        """A round under way: the lists are copied, ``stock`` (top first) is shared."""
        return Round(  # not ``cls``: see ``deal``
            _facts_of(rules), list(hands), table, list(piles), list(sweeps), stock, 0, to_move,
            last, 0, False,
        )

    @property
    def rules(self) -> Rules:
        return self.facts.rules

    @property
    def players(self) -> int:
        return self.facts.players

    @property
    def sides(self) -> int:
        return self.facts.sides

    @property
    def stock_left(self) -> int:
        """Cards still to deal."""
        return len(self.stock) - self.dealt

    def copy(self) -> Round:
        return Round(
            self.facts,
            self.hands[:],
            self.table,
            self.piles[:],
            self.sweeps[:],
            self.stock,
            self.dealt,
            self.to_move,
            self.last,
            self.bonus,
            self.over,
        )

    def key(self) -> tuple[int, ...]:
        """The position as a tuple of ints, for transposition tables over one stock."""
        return (
            self.table,
            self.to_move,
            self.last,
            self.dealt,
            *self.hands,
            *self.piles,
            *self.sweeps,
        )

    def legal(self) -> list[Move]:
        """The moves of the seat to move (empty once the round is over)."""
        if self.over:
            return []
        return self.facts.generator.moves(self.hands[self.to_move], self.table)

    def apply(self, move: Move) -> bool:
        """Play ``move``, a legal move of the seat to move; return whether it swept."""
        facts = self.facts
        seat = self.to_move
        bit = move.card_bit
        hands = self.hands
        # Written out, not ``^=``: compiled, an augmented assignment to a list item is a
        # generic number operation, this is native arithmetic.
        hands[seat] = hands[seat] ^ bit
        captured = move.captured_mask
        swept = False
        if captured:
            side = seat % facts.sides
            piles = self.piles
            piles[side] = piles[side] | captured | bit
            self.last = side
            table = self.table
            if captured == table and not bit & facts.aces_take_all:
                # The round's very last play scores no sweep unless the rules count it.
                swept = facts.last_play_sweep or self.dealt < len(self.stock) or any(hands)
                if swept:
                    sweeps = self.sweeps
                    sweeps[side] = sweeps[side] + 1
            self.table = table ^ captured
        else:
            self.table = self.table | bit
        seat += 1
        if seat == facts.players:
            seat = 0
        self.to_move = seat
        if not hands[seat]:
            if self.dealt < len(self.stock):
                self._deal_hands(seat)
            else:
                self._finish()
        return swept

    def play_randomly(self, rng: random.Random) -> None:
        """Play uniformly random legal moves to the end of the round: the random rollout
        of searches and learning, in the core's own loop (native code when compiled).
        Each move is ``moves[int(rng.random() * len(moves))]`` of :meth:`legal`, picked
        without building the list (:meth:`~scopa.capture.MoveGenerator.pick`)."""
        random_fraction = rng.random
        generator = self.facts.generator
        hands = self.hands
        if _COMPILED:
            while not self.over:
                self.apply(generator.pick(hands[self.to_move], self.table, random_fraction()))
        else:  # the interpreter is faster through the memo of hands (see ``pick``)
            while not self.over:
                moves = generator.moves(hands[self.to_move], self.table)
                self.apply(moves[int(random_fraction() * len(moves))])

    def _deal_hands(self, first: int) -> None:
        """Give every seat ``hand_size`` cards from the stock, ``first`` (the leader) first."""
        facts = self.facts
        size = facts.hand_size
        players = facts.players
        stock = self.stock
        pos = self.dealt
        hands = self.hands
        seat = first
        for _ in range(players):
            end = pos + size
            hands[seat] = _union(stock, pos, end) if _COMPILED else sum(stock[pos:end])
            pos += size
            seat += 1
            if seat == players:
                seat = 0
        # A guessed position may hold a stock short of a whole deal: the last hands are short.
        self.dealt = pos if pos < len(stock) else len(stock)

    def _finish(self) -> None:
        """The round's end: the cards left on the table go to the last capturer (no sweep)."""
        if self.last >= 0:
            piles = self.piles
            piles[self.last] = piles[self.last] | self.table
        self.table = 0
        self.over = True

    def scores(self) -> list[RoundScore]:
        """The round's breakdown by side (meant for a round that is ``over``)."""
        return score_piles(self.facts.rules, self.piles, self.sweeps)

    def points(self) -> list[int]:
        """The round's points by side, ``scores()`` totals without the breakdown."""
        return self.facts.round_points.points(self.piles, self.sweeps)
