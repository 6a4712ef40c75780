"""A round of play on masks, fast enough to be played out thousands of times a move.

The master's search plays the rest of a round many times per decision, once per
guess at the hidden cards and candidate move. Going through :class:`~scopa.Game`
would build views and check moves it does not need, so playouts drive the core's
:class:`~scopa.round.Round` directly: the rules (sweeps, dealing, the leftovers,
the scoring) are the core's, and this module only chooses the moves.

Playouts follow a policy, not random moves: random play throws away the cards a
real player would take and makes every move look alike. The quick policy takes
what is worth most (sweeps, the settebello, coins, sevens, sixes, cards) and
shuns tables that a card still out could sweep, which is the seed's advice. The
foresight looks one turn further, the way the expert does: what the next player
can expect to take back (its hand a random draw from the cards it may hold) and
what this seat can take after that. It costs a few times more, so playouts use it
for their first moves only, and the master also uses it on the moves it weighs.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from math import comb
from typing import Final

from ..capture import move_generator
from ..cards import (
    CAPTURE_VALUES,
    COINS_MASK,
    SETTEBELLO,
    SEVENS_MASK,
    VALUE_MASKS,
    value_of,
)
from ..moves import Move, move_of
from ..round import Round, sweep_scores, sweepers
from ..rules import Rules

_VALUES: Final = tuple(CAPTURE_VALUES[i % 10] for i in range(40))
_SIXES: Final = VALUE_MASKS[6]
_ACES: Final = VALUE_MASKS[1]
_KING_OF_COINS: Final = 1 << 9
_NAPOLA_CARDS: Final = 0b111  # A, 2 and 3 of coins
_MAX_TOTAL: Final = sum(_VALUES)

# Playout policy weights, in round points: a card's share of the points it helps win
# (most cards, most coins, primiera through sevens, sixes and aces, the settebello)
# and a sweep, which is a point outright. The shares are those the expert uses.
_CARD: Final = 0.08
_COIN: Final = 0.22
_SEVEN: Final = 0.3
_SIX: Final = 0.15
_ACE: Final = 0.07
_SETTEBELLO: Final = 1.0
_SWEEP: Final = 1.0
_TRAIL_SHARE: Final = 0.5
"""A trailed card is worth this share of its value to whoever may take it next."""
_REPLY: Final = 1.0
"""Weight of the next player's expected take in the foresight."""
_FOLLOW: Final = 1.0
"""Weight of this seat's own best take after that, in the foresight."""
_FORESIGHT_PLIES: Final = 2
"""Playouts play their first moves (the reply to the move searched, and the answer to
it) with the foresight, the rest with the quick policy."""


@cache
def none_held(unseen: int, hand: int) -> tuple[float, ...]:
    """By ``k``: the chance that a hand of ``hand`` cards drawn from ``unseen`` cards holds
    none of ``k`` given ones (a hand as big as the unseen cards holds them all)."""
    if hand >= unseen:
        return (1.0,) + (0.0,) * unseen
    whole = comb(unseen, hand)
    return tuple(comb(unseen - k, hand) / whole for k in range(unseen + 1))


class RoundModel:
    """The rules of one variant turned into what playouts need, built once per ``Rules``."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.legal = move_generator(rules).moves
        self.players = rules.players
        self.sides = rules.sides
        self.hand_size = rules.hand_size
        self.sum_capture = rules.capture == "sum"
        # By card id: whether emptying the table with it scores a sweep (not on the last play).
        self.sweeps_with: tuple[bool, ...] = tuple(
            sweep_scores(rules, move_of(card_id, 0), False) for card_id in range(40)
        )
        # The cards that could sweep a table of each total: in scopa the cards of that
        # value, in escoba the cards that make 15 with it.
        self.sweepers: tuple[int, ...] = tuple(
            sweepers(rules, total) if total else 0 for total in range(_MAX_TOTAL + 1)
        )
        self.card_worth: tuple[float, ...] = tuple(self.worth(1 << i) for i in range(40))
        self._captures: dict[Move, tuple[float, int]] = {}

    def worth(self, mask: int) -> float:
        """What taking the cards of ``mask`` is roughly worth, in round points."""
        rules = self.rules
        worth = _CARD * mask.bit_count() + _COIN * (mask & COINS_MASK).bit_count()
        if rules.sevens:
            worth += 2 * _SEVEN * (mask & SEVENS_MASK).bit_count()
        else:
            worth += _SEVEN * (mask & SEVENS_MASK).bit_count()
            worth += _SIX * (mask & _SIXES).bit_count() + _ACE * (mask & _ACES).bit_count()
        if mask & SETTEBELLO.bit:
            worth += _SETTEBELLO
        if rules.re_bello and mask & _KING_OF_COINS:
            worth += _SETTEBELLO
        if rules.napola:
            worth += 0.4 * (mask & _NAPOLA_CARDS).bit_count()
        return worth

    def capture_facts(self, move: Move) -> tuple[float, int]:
        """(worth of the cards the capture wins, value it removes from the table), memoised."""
        facts = self._captures.get(move)
        if facts is None:
            facts = self._captures[move] = (
                self.worth(move.captured_mask | move.card_bit),
                value_of(move.captured_mask),
            )
        return facts

    def choose(
        self, moves: Sequence[Move], table: int, total: int, threats: int, reply_hand: int
    ) -> Move:
        """The playout policy's move: most worth won, least sweep risk left behind.

        ``total`` is the table's capture value, ``threats`` the cards the other seats
        may hold (everything still out that is not in the mover's hand) and
        ``reply_hand`` the size of the next hand: the chance that it holds a card that
        sweeps the table left is exact draw arithmetic over those.
        """
        best = moves[0]
        best_score = -1e9
        sweepers = self.sweepers
        missing = none_held(threats.bit_count(), reply_hand)
        for move in moves:
            captured = move.captured_mask
            if captured:
                score, taken = self.capture_facts(move)
                if captured == table:
                    if self.sweeps_with[move.card.id]:
                        score += _SWEEP
                    if score > best_score:
                        best, best_score = move, score
                    continue
                after = table ^ captured
                left = total - taken
            else:
                score = -_TRAIL_SHARE * self.card_worth[move.card.id]
                after = table | move.card_bit
                left = total + _VALUES[move.card.id]
            danger = sweepers[left] & threats
            if danger:
                score -= (1 - missing[danger.bit_count()]) * (_SWEEP + self.worth(after))
            if score > best_score:
                best, best_score = move, score
        return best

    def best_take(self, hand: int, table: int) -> float:
        """The worth of the best capture ``hand`` can make on ``table`` (0: none)."""
        best = 0.0
        for move in self.legal(hand, table):
            captured = move.captured_mask
            if captured:
                worth = self.capture_facts(move)[0]
                if captured == table and self.sweeps_with[move.card.id]:
                    worth += _SWEEP
                if worth > best:
                    best = worth
        return best

    def foresight_scores(
        self, moves: Sequence[Move], hand: int, table: int, threats: int, reply_hand: int
    ) -> list[float]:
        """Worth won, minus the next player's expected best take, plus this seat's best
        take after it (two players): the expert's two-turn look, on masks."""
        missing = none_held(threats.bit_count(), reply_hand)
        spares = []
        for value in range(1, 11):
            of_value = threats & VALUE_MASKS[value]
            if of_value:
                spares.append((of_value & -of_value, of_value.bit_count()))
        follows = self.players == 2
        scores = []
        for move in moves:
            captured = move.captured_mask
            kept = hand ^ move.card_bit
            if captured:
                score = self.capture_facts(move)[0]
                after = table ^ captured
                if not after and self.sweeps_with[move.card.id]:
                    score += _SWEEP
            else:
                score = 0.0
                after = table | move.card_bit
            if reply_hand:
                takes = []
                trails = []
                for bit, count in spares:
                    best = 0.0
                    rest = after
                    for reply in self.legal(bit, after):
                        taken = reply.captured_mask
                        if taken:
                            worth = self.capture_facts(reply)[0]
                            if taken == after and self.sweeps_with[reply.card.id]:
                                worth += _SWEEP
                            if worth > best:
                                best, rest = worth, after ^ taken
                    if best:
                        takes.append((best, count, rest))
                    else:
                        trails.append((count, after | bit))
                takes.sort(reverse=True)
                excluded = 0
                expected = follow = 0.0
                for take, count, rest in takes:
                    chance = missing[excluded] - missing[excluded + count]
                    expected += take * chance
                    if follows and kept:
                        follow += chance * self.best_take(kept, rest)
                    excluded += count
                if follows and kept and trails:
                    chance = missing[excluded] / sum(count for count, _ in trails)
                    for count, rest in trails:
                        follow += chance * count * self.best_take(kept, rest)
                score += _FOLLOW * follow - _REPLY * expected
            scores.append(score)
        return scores

    def play_out(self, state: Round, trace: list[Move] | None = None) -> None:
        """Play ``state`` to the end of the round with the policy (the core deals, scores
        sweeps and gives the leftovers). The moves played are appended to ``trace`` when
        one is given."""
        legal = self.legal
        choose = self.choose
        apply = state.apply
        hands = state.hands  # changed in place by the round
        stock = state.stock
        players = self.players
        size = self.hand_size
        total = value_of(state.table)
        out = 0
        for hand in hands:
            out |= hand
        for bit in stock[state.dealt :]:
            out |= bit
        foreseen = _FORESIGHT_PLIES
        while not state.over:
            seat = state.to_move
            hand = hands[seat]
            table = state.table
            moves = legal(hand, table)
            if len(moves) == 1:
                move = moves[0]
            else:
                following = hands[seat + 1 if seat + 1 < players else 0]
                reply_hand = (
                    following.bit_count() if following else min(len(stock) - state.dealt, size)
                )
                if foreseen > 0:
                    scores = self.foresight_scores(moves, hand, table, out & ~hand, reply_hand)
                    move = moves[scores.index(max(scores))]
                else:
                    move = choose(moves, table, total, out & ~hand, reply_hand)
            if trace is not None:
                trace.append(move)
            apply(move)
            out ^= move.card_bit
            if move.captured_mask:
                # A capture that empties the table may be an Ace taking all: no value to subtract.
                total = total - _capture_value(move, self.sum_capture) if state.table else 0
            else:
                total += _VALUES[move.card.id]
            foreseen -= 1


def _capture_value(move: Move, sum_capture: bool) -> int:
    """The capture value a capture removes from the table (not an Ace taking all)."""
    value = _VALUES[move.card.id]
    return value if sum_capture else 15 - value


@cache
def round_model(rules: Rules) -> RoundModel:
    """The shared :class:`RoundModel` of ``rules`` (its capture memo grows with use)."""
    return RoundModel(rules)
