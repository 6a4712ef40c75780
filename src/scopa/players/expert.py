"""The ``expert`` level: a card-counting heuristic that follows the seed's tips.

For each legal move it weighs what the move takes now against what the next
player (always an opponent: seats alternate sides) can expect to take from the
table it leaves, and then what the player after that (this seat again in
two-player games, the partner in team games) can expect to take in turn.

Hidden hands are modelled as random draws from the unseen cards (those in no
pile, not on the table and not in this hand), so the chance that a hand holds
some card of a value is exact hypergeometric arithmetic, and a value whose four
cards have all been seen is known to be safe. That one rule is the seed's
advice in both games: in scopa a table worth more than 10, or a sum no unseen
card matches, cannot be swept; in escoba a table that no unseen card completes
to 15 cannot be. The rules tell more: where a player may trail only when no
card captures, each of their trails rules out the values that would have
captured then. Near the end of the round it counts who gets the cards left on
the table, and it weighs cards by what is still undecided (see ``worth``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from math import comb
from typing import Final

from ..capture import capture_masks
from ..cards import VALUE_MASKS, ids_of, mask_of
from ..moves import Move, move_of
from ..round import sweep_scores
from ..view import View
from .base import check_turn, hand_mask, table_mask
from .inference import is_last_play, last_capturer, ruled_out, unseen_mask
from .worth import Weights, card_worths


@dataclass(frozen=True)
class ExpertWeights(Weights):
    """The card weights, plus how much the expert counts the next two turns."""

    reply: float = 1.0
    """How much the next player's expected take counts against a move."""
    follow: float = 1.0
    """How much this seat's own best capture after the reply counts, when it knows its hand."""
    follow_hidden: float = 0.7
    """How much the expected take of the player after the reply counts when its hand is
    hidden: a partner's (for this side), another opponent's (against it), or this seat's
    after a new deal."""


WEIGHTS: Final = ExpertWeights()

_ONE_OF_VALUE: Final = tuple((mask & -mask).bit_length() - 1 for mask in VALUE_MASKS)
"""A card id of each capture value: what a card captures depends on its value alone."""


class ExpertPlayer:
    """Plays the move with the best immediate gain minus the opponent's expected reply."""

    name = "expert"

    def __init__(self, seed: int | None = None, weights: ExpertWeights = WEIGHTS) -> None:
        self._rng = random.Random(seed)
        self._weights = weights

    def choose(self, view: View) -> Move:
        moves = check_turn(view)
        if len(moves) == 1:
            return moves[0]
        position = _Position(view, self._weights)
        scored = [(position.score(move), move) for move in moves]
        top = max(score for score, _ in scored)
        return self._rng.choice([move for score, move in scored if score >= top - 1e-9])


class _Hidden:
    """A hidden hand of ``size`` cards drawn at random from ``pool``, value by value."""

    def __init__(self, pool: int, size: int, worths: tuple[float, ...]) -> None:
        count = pool.bit_count()
        # A view built by hand may claim more hidden cards than it leaves unseen: clamp.
        size = min(size, count)
        whole = comb(count, size)
        self.none_held = [comb(count - k, size) / whole for k in range(count + 1)]
        """``none_held[k]``: the chance the hand holds none of ``k`` given pool cards."""
        self.values: list[tuple[int, int, float]] = []
        """Per value in the pool: how many, the least valuable card of it, their mean worth."""
        for mask in VALUE_MASKS[1:]:
            ids = list(ids_of(pool & mask))
            if ids:
                cheapest = min(ids, key=lambda i: worths[i])
                self.values.append((len(ids), cheapest, sum(worths[i] for i in ids) / len(ids)))


class _Position:
    """One decision: what every candidate move is scored against."""

    def __init__(self, view: View, weights: ExpertWeights) -> None:
        assert view.seat is not None
        rules = self.rules = view.rules
        self.weights = weights
        self.side = rules.side_of(view.seat)
        self.hand = hand_mask(view)
        self.table = table_mask(view)
        self.worths = card_worths(rules, [mask_of(pile) for pile in view.piles], weights)
        last = last_capturer(view)
        self.last_capturer = None if last < 0 else last
        self.my_last_play = is_last_play(view)
        self.reply_is_last = view.stock_size == 0 and sum(view.hand_sizes) == 2
        unseen = unseen_mask(view)
        seat, players = view.seat, rules.players
        # The next player: cards still from this deal, or a fresh hand after the deal.
        following = (seat + 1) % players
        held = view.hand_sizes[following]
        if held:
            self.reply = _Hidden(unseen & ~ruled_out(view)[following], held, self.worths)
        else:
            self.reply = _Hidden(unseen, rules.hand_size if view.stock_size else 0, self.worths)
        # The player after: this seat (two players), a partner, or another opponent.
        after = (seat + 2) % players
        self.follow_sign = 1.0 if rules.side_of(after) == self.side else -1.0
        self.follow_is_me = after == seat
        held = view.hand_sizes[after] - (after == seat)
        size = held or (rules.hand_size if view.stock_size else 0)
        self.follower = _Hidden(unseen, size, self.worths) if size else None
        self.follow_memo: dict[tuple[int, int], float] = {}

    def worth(self, mask: int) -> float:
        worths = self.worths
        return sum(worths[i] for i in ids_of(mask))

    def score(self, move: Move) -> float:
        """What ``move`` is worth to this side, in expected round points."""
        weights = self.weights
        table = self.table
        if move.is_capture:
            gain = self.worth(move.captured_mask | move.card_bit)
            left = table & ~move.captured_mask
            if not left and self.sweep_counts(move.card_bit.bit_length() - 1, self.my_last_play):
                gain += weights.sweep
            capturer: int | None = self.side
        else:
            gain = 0.0
            left = table | move.card_bit
            capturer = self.last_capturer
        if self.my_last_play:
            # The round ends now: the cards left go to whoever captured last.
            if capturer is not None:
                gain += self.worth(left) if capturer == self.side else -self.worth(left)
            return gain
        outcomes = self.replies(left, capturer)
        score = gain - weights.reply * sum(chance * take for chance, take, _ in outcomes)
        if not self.reply_is_last and self.follower is not None:
            hand = self.hand & ~move.card_bit if self.follow_is_me else 0
            weight = weights.follow if hand else weights.follow_hidden
            score += weight * sum(
                chance * self.follow_value(hand, after) for chance, _, after in outcomes
            )
        return score

    def sweep_counts(self, card_id: int, last_play: bool) -> bool:
        """Whether emptying the table with ``card_id`` scores a sweep (the core decides)."""
        return sweep_scores(self.rules, move_of(card_id, 0), last_play)

    def replies(self, left: int, capturer: int | None) -> list[tuple[float, float, int]]:
        """The next player's likely replies to ``left``: (chance, what it takes, table after).

        The next player is taken to play its best capture (worth plus sweep); with none,
        it trails some card of a value that captures nothing.
        """
        rules = self.rules
        hidden = self.reply
        last = self.reply_is_last
        left_worth = self.worth(left) if last else 0.0
        takes: list[tuple[float, int, int]] = []
        trails: list[tuple[int, int, float]] = []
        for count, card_id, card_worth in hidden.values:
            options = capture_masks(rules, left, card_id)
            if not options:
                trails.append((count, card_id, card_worth))
            elif last:
                # Their last capture takes the rest of the table too.
                takes.append((left_worth + card_worth, count, 0))
            else:
                best, taken = max((self.worth(option), option) for option in options)
                if left in options and self.sweep_counts(card_id, last):
                    best, taken = self.worth(left) + self.weights.sweep, left
                takes.append((best + card_worth, count, left & ~taken))
        takes.sort(reverse=True)
        outcomes = []
        excluded = 0
        none_held = hidden.none_held
        for take, count, after in takes:
            # The chance it holds this value and none of the better ones.
            chance = none_held[excluded] - none_held[excluded + count]
            outcomes.append((chance, take, after))
            excluded += count
        no_capture = none_held[excluded]
        total = sum(count for count, _, _ in trails)
        for count, card_id, card_worth in trails:
            chance = no_capture * count / total
            take = 0.0
            if last and capturer is not None:
                # The round ends on their trail: the table goes to the last capturer.
                take = left_worth + card_worth
                take = -take if capturer == self.side else take
            outcomes.append((chance, take, left | 1 << card_id))
        return outcomes

    def follow_value(self, hand: int, table: int) -> float:
        """What the player after the reply takes from ``table``, signed for this side."""
        key = (hand, table)
        value = self.follow_memo.get(key)
        if value is None:
            if hand:
                value = self.best_capture(hand, table)
            else:
                value = self.follow_sign * self.expected_take(table)
            self.follow_memo[key] = value
        return value

    def best_capture(self, hand: int, table: int) -> float:
        """The worth of the best capture from ``table`` with a known ``hand``, sweep included."""
        best = 0.0
        rules = self.rules
        for card_id in ids_of(hand):
            for option in capture_masks(rules, table, card_id):
                worth = self.worth(option | 1 << card_id)
                if option == table and self.sweep_counts(card_id, False):
                    worth += self.weights.sweep
                best = max(best, worth)
        return best

    def expected_take(self, table: int) -> float:
        """The expected worth of the follower's best capture from ``table`` (hidden hand)."""
        hidden = self.follower
        assert hidden is not None
        takes = []
        for count, card_id, card_worth in hidden.values:
            options = capture_masks(self.rules, table, card_id)
            if options:
                best = max(self.worth(option) for option in options)
                if table in options and self.sweep_counts(card_id, False):
                    best = max(best, self.worth(table) + self.weights.sweep)
                takes.append((best + card_worth, count))
        takes.sort(reverse=True)
        expected = 0.0
        excluded = 0
        none_held = hidden.none_held
        for take, count in takes:
            expected += take * (none_held[excluded] - none_held[excluded + count])
            excluded += count
        return expected

