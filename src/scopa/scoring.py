"""Scoring a round with a full breakdown, and deciding the match.

Each category goes to one side only; a tie for the best gives nobody the point.
The breakdown keeps the figures behind every point (counts, primiera totals and
the cards that made them) so a client can show why a side scored.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final, NamedTuple

from .cards import (
    CARDS,
    COINS_MASK,
    PRIMIERA_VALUES,
    RE_BELLO,
    SETTEBELLO,
    SEVENS_MASK,
    Card,
    Mask,
    mask_of,
)
from .rules import Rules

_COMPILED: Final = not __file__.endswith(".py")
"""Whether this module runs compiled: :meth:`RoundPoints.points` then counts cards with
:func:`_count_bits` (native arithmetic) instead of ``int.bit_count`` (a method call on a
boxed int there; the faster one in the interpreter)."""
_SETTEBELLO: Final = SETTEBELLO.bit
_RE_BELLO: Final = RE_BELLO.bit


class RoundScore(NamedTuple):
    """One side's points for one round, category by category, and the figures behind them.

    A named tuple rather than a dataclass: rounds are scored in every playout, and
    a tuple is built several times faster while being just as immutable.
    """

    cards: int
    coins: int
    settebello: int
    primiera: int
    sweeps: int
    re_bello: int
    napola: int
    sevens: int
    total: int
    card_count: int
    coin_count: int
    seven_count: int
    sweep_count: int
    primiera_total: int
    """Sum of the best primiera value in each suit held."""
    primiera_suits: int
    """How many suits the side holds (primiera needs them)."""
    primiera_cards: tuple[Card, ...]
    """The best card of each suit held, in suit order."""
    napola_length: int
    """Length of the coins run from the Ace (3 or more scores)."""

    def to_dict(self) -> dict[str, object]:
        """Plain JSON-able data for display."""
        data: dict[str, object] = self._asdict()
        data["primiera_cards"] = [str(card) for card in self.primiera_cards]
        return data


def _best_side(figures: Sequence[int]) -> int | None:
    """The side with the strictly highest figure, or ``None`` on a tie for the best."""
    best = max(figures)
    if figures.count(best) != 1:
        return None
    return figures.index(best)


def _best_of_suit(pattern: int) -> int:
    """Rank index of the best primiera card among the ranks set in a 10-bit ``pattern``."""
    ranks = [r for r in range(10) if pattern >> r & 1]
    return max(ranks, key=lambda r: PRIMIERA_VALUES[r])


_BEST_RANK: Final = (-1, *(_best_of_suit(pattern) for pattern in range(1, 1024)))
"""Best primiera rank index for every set of ranks of one suit (-1: none held)."""
_BEST_VALUE: Final = tuple(PRIMIERA_VALUES[rank] if rank >= 0 else 0 for rank in _BEST_RANK)
"""Best primiera value for every set of ranks of one suit (0: none held)."""


def _primiera(pile: Mask) -> tuple[int, int, tuple[Card, ...]]:
    """(primiera total, suits held, best card of each suit held) of a pile."""
    total = 0
    cards: list[Card] = []
    for suit in range(4):
        rank = _BEST_RANK[pile >> (10 * suit) & 1023]
        if rank >= 0:
            total += PRIMIERA_VALUES[rank]
            cards.append(CARDS[suit * 10 + rank])
    return total, len(cards), tuple(cards)


def _count_bits(mask: Mask) -> int:
    """``mask.bit_count()`` for a mask of the 40 cards, by adding bits in parallel."""
    mask -= mask >> 1 & 0x5555555555
    mask = (mask & 0x3333333333) + (mask >> 2 & 0x3333333333)
    mask = (mask + (mask >> 4)) & 0x0F0F0F0F0F
    mask += mask >> 8
    mask += mask >> 16
    mask += mask >> 32
    return mask & 0x7F


def _napola_length(pile: Mask) -> int:
    """Length of the unbroken run of coins from the Ace: the trailing ones of the coin bits."""
    coins = pile & 1023
    return (coins ^ (coins + 1)).bit_length() - 1


def _category_sides(
    rules: Rules, piles: Sequence[int], primieras: Sequence[tuple[int, int]]
) -> tuple[int | None, int | None, int | None, int | None]:
    """The side winning cards, coins, primiera and sevens (``None``: nobody), the figures
    of primiera given as (total, suits held) by side."""
    cards_side = _best_side([pile.bit_count() for pile in piles])
    coins_side = _best_side([(pile & COINS_MASK).bit_count() for pile in piles])
    primiera_side: int | None = None
    sevens_side: int | None = None
    if rules.sevens:
        sevens_side = _best_side([(pile & SEVENS_MASK).bit_count() for pile in piles])
    elif rules.primiera == "suits-first":
        keys = [total + 1000 * suits for total, suits in primieras]
        primiera_side = _best_side(keys) if max(keys) else None
    else:
        keys = [total if suits == 4 else 0 for total, suits in primieras]
        primiera_side = _best_side(keys) if max(keys) else None
    return cards_side, coins_side, primiera_side, sevens_side


def _award(points: list[int], figures: list[int]) -> None:
    """One point to the side with the strictly highest figure (none on a tie)."""
    if len(figures) == 2:  # most games: two comparisons, fast both pure and compiled
        first, second = figures[0], figures[1]
        if first != second:
            points[0 if first > second else 1] += 1
        return
    best = max(figures)
    if figures.count(best) == 1:
        points[figures.index(best)] += 1


class RoundPoints:
    """:func:`round_points` for one rule set, its fields read once: playouts score every
    round they finish (``Round.points``), and compiled this is a native class."""

    def __init__(self, rules: Rules) -> None:
        self.sevens = rules.sevens
        self.suits_first = rules.primiera == "suits-first"
        self.re_bello = rules.re_bello
        self.napola = rules.napola

    def points(self, piles: list[Mask], sweeps: list[int]) -> list[int]:
        """Each side's round total for these piles and sweeps (by side)."""
        points: list[int] = []
        cards: list[int] = []
        coins: list[int] = []
        keys: list[int] = []
        best = _BEST_VALUE
        keyed = False  # whether any side has a primiera (``max(keys)``, without the call)
        for side in range(len(piles)):
            pile = piles[side]
            extra = sweeps[side]
            if pile & _SETTEBELLO:
                extra += 1
            if self.re_bello and pile & _RE_BELLO:
                extra += 1
            if self.napola:
                run = _napola_length(pile)
                if run >= 3:
                    extra += run
            points.append(extra)
            if _COMPILED:
                cards.append(_count_bits(pile))
                coins.append(_count_bits(pile & COINS_MASK))
            else:
                cards.append(pile.bit_count())
                coins.append((pile & COINS_MASK).bit_count())
            if self.sevens:
                keys.append((pile & SEVENS_MASK).bit_count())
                continue
            # Primiera: the best card of each suit, by the 10-bit pattern of the suit held.
            a = best[pile & 1023]
            b = best[pile >> 10 & 1023]
            c = best[pile >> 20 & 1023]
            d = best[pile >> 30]
            if self.suits_first:
                suits = (a > 0) + (b > 0) + (c > 0) + (d > 0)
                key = a + b + c + d + 1000 * suits
            else:
                key = a + b + c + d if a and b and c and d else 0
            keys.append(key)
            if key:
                keyed = True
        _award(points, cards)
        _award(points, coins)
        if self.sevens or keyed:
            _award(points, keys)
        return points


def round_points(rules: Rules, piles: Sequence[int], sweeps: Sequence[int]) -> list[int]:
    """Each side's round total, as :func:`score_piles` gives it, without the breakdown:
    what playouts and searches need, several times faster."""
    return RoundPoints(rules).points(list(piles), list(sweeps))


def score_piles(rules: Rules, piles: Sequence[int], sweeps: Sequence[int]) -> list[RoundScore]:
    """:func:`score_round` on masks: the engine's form."""
    if len(piles) != len(sweeps) or not piles:
        raise ValueError("piles and sweeps must both give one entry per side")
    card_counts = [pile.bit_count() for pile in piles]
    coin_counts = [(pile & COINS_MASK).bit_count() for pile in piles]
    seven_counts = [(pile & SEVENS_MASK).bit_count() for pile in piles]
    primieras = [_primiera(pile) for pile in piles]
    napolas = [_napola_length(pile) for pile in piles]
    cards_side, coins_side, primiera_side, sevens_side = _category_sides(
        rules, piles, [(total, suits) for total, suits, _ in primieras]
    )
    scores = []
    for side, pile in enumerate(piles):
        cards = int(side == cards_side)
        coins = int(side == coins_side)
        settebello = 1 if pile & _SETTEBELLO else 0
        primiera = int(side == primiera_side)
        re_bello = 1 if rules.re_bello and pile & _RE_BELLO else 0
        napola = napolas[side] if rules.napola and napolas[side] >= 3 else 0
        sevens = int(side == sevens_side)
        total, suits, best_cards = primieras[side]
        scores.append(
            RoundScore(
                cards,
                coins,
                settebello,
                primiera,
                sweeps[side],
                re_bello,
                napola,
                sevens,
                cards + coins + settebello + primiera + sweeps[side] + re_bello + napola + sevens,
                card_counts[side],
                coin_counts[side],
                seven_counts[side],
                sweeps[side],
                total,
                suits,
                best_cards,
                napolas[side],
            )
        )
    return scores


def score_round(
    rules: Rules, piles: Sequence[Iterable[Card]], sweeps: Sequence[int]
) -> list[RoundScore]:
    """Score one round: ``piles`` (captured cards) and ``sweeps`` per side, in side order.

    >>> from scopa import Card, Rules
    >>> piles = [[Card.parse(c) for c in ("7D", "7H", "7C", "KS")],
    ...          [Card.parse(c) for c in ("7S", "6D", "6H", "6C")]]
    >>> a, b = score_round(Rules.preset("scopa"), piles, [0, 1])
    >>> (a.primiera_total, b.primiera_total, a.primiera, b.primiera)
    (73, 75, 0, 1)
    >>> (a.total, b.total)  # cards and coins tie: nobody scores them
    (1, 2)
    """
    masks = [mask_of(pile) for pile in piles]
    seen = 0
    for mask in masks:
        if mask & seen:
            raise ValueError("a card appears in two piles")
        seen |= mask
    return score_piles(rules, masks, sweeps)


def match_winner(rules: Rules, totals: Sequence[int]) -> int | None:
    """The side that has won the match on these totals, or ``None`` while play goes on.

    Once a side has reached the target, the strictly highest total wins; a tie for
    the highest means another round.

    >>> from scopa import Rules
    >>> match_winner(Rules.preset("scopa"), [12, 11]), match_winner(Rules.preset("scopa"), [11, 11])
    (0, None)
    """
    if max(totals) < rules.target:
        return None
    return _best_side(list(totals))

