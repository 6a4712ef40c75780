"""How likely a guess at the hidden cards makes the plays the opponent was seen to make.

A determinized search deals the unseen cards out uniformly among the deals that fit the
counts and the trails (:mod:`.sampling`). But a play says more than a trail does: an
opponent who took a five while a seven was on the table probably held no seven. This
module turns the learned evaluation into a model of the opponents' play and weighs each
guess by how likely it makes what they did this deal (Bayes' rule, with the uniform
guess as the prior).

The model: a player picks among its legal moves with probability proportional to
``exp(sharpness * value)``, the value of a move being the round points its side is
expected to gain over ours in the position it leaves, as the evaluation sees it from our
seat (we move next). Only the plays of the seat just before ours count, in the deal under
way: after each of them we were to move, so the position left is one the evaluation
reads as the records it was trained on, and what we held then is known.

The position a play leaves does not depend on the rest of the player's hand, so the
values are worked out once per decision for every card it could have played, and a guess
only sums, over the cards it gives that player, the weights of their moves.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

from ..capture import move_generator
from ..cards import ids_of
from ..players.sampling import Knowledge
from ..round import Round, sweep_scores
from ..view import View
from .evaluation import Evaluation
from .features import Record

DEFAULT_SHARPNESS: Final = 2.0
"""Per round point of value: how much likelier the model makes a better move."""


@dataclass(frozen=True)
class _Seen:
    """One observed play, with what each card the player could have held offered."""

    later: int
    """The cards the player is known to have held then: this play's and those it played
    after it this deal."""
    card_weight: dict[int, float]
    """By card bit: the summed ``exp(sharpness * value)`` of the moves that card allowed."""
    captures: int
    """The cards (bits) that could capture at that moment."""


class PlayLikelihood:
    """The likelihood of the seen plays under each guess, up to a constant factor."""

    def __init__(self, seat: int, hand_trails: bool, seen: list[_Seen]) -> None:
        self.seat = seat
        """The seat whose plays are weighed (the one before ours)."""
        self.hand_trails = hand_trails
        """Whether a card may be trailed only when no card in hand captures (``hand``)."""
        self.seen = seen

    @classmethod
    def of(cls, view: View, knowledge: Knowledge, evaluation: Evaluation,
           sharpness: float = DEFAULT_SHARPNESS) -> PlayLikelihood | None:
        """The model of the plays of the seat before ours this deal; ``None`` if there are
        none to weigh (or that seat is a partner)."""
        rules = view.rules
        seat = knowledge.seat
        players = rules.players
        other = (seat - 1) % players
        if rules.side_of(other) == knowledge.side:
            return None
        played = sum(rules.hand_size - size for size in view.hand_sizes)
        plays = view.plays[len(view.plays) - played:] if played else ()
        if not any(play.seat == other for play in plays):
            return None
        sides = rules.sides
        side = knowledge.side
        generator = move_generator(rules)
        # Walk back from now to the deal's start, undoing each play to get the position
        # before it; the plays by ``other`` are weighed from there.
        table = knowledge.table
        piles = list(knowledge.piles)
        sweeps = list(knowledge.sweeps)
        sizes = list(knowledge.hand_sizes)
        hand = knowledge.hand
        later = 0
        # The side that captured last before each play of this deal, from the whole round.
        last_before = _last_capturers(view, len(view.plays) - len(plays))
        leaves: list[Record] = []
        slots: list[tuple[int, int, int]] = []  # (which seen play, card bit, leaf index)
        pending: list[tuple[int, int]] = []  # (later, captures) by seen play
        for back, play in enumerate(reversed(plays)):
            move = play.move
            bit = move.card_bit
            player_side = rules.side_of(play.seat)
            captured = move.captured_mask
            if captured:
                table |= captured
                piles[player_side] ^= captured | bit
                sweeps[player_side] -= play.sweep
            else:
                table ^= bit
            sizes[play.seat] += 1
            if play.seat == seat:
                hand |= bit
                continue
            if play.seat != other:
                continue
            # The position before this play; every card it could have held is weighed.
            last = last_before[len(plays) - 1 - back]
            held = sum(size for s, size in enumerate(sizes) if s != seat) - 1
            candidates = (knowledge.unseen | later | bit)
            captures = 0
            for card in ids_of(candidates):
                card_bit = 1 << card
                for option in generator.moves(card_bit, table):
                    taken = option.captured_mask
                    if taken:
                        captures |= card_bit
                    swept = taken == table and sweep_scores(rules, option, False)
                    leaves.append(_record_after(
                        hand, table, piles, sweeps, side, sides, player_side, option.card_bit,
                        taken, bool(taken) and swept, knowledge.stock_size, last, held,
                    ))
                    slots.append((len(pending), card_bit, len(leaves) - 1))
            pending.append((later | bit, captures))
            later |= bit
        values = evaluation.points(leaves).tolist()
        weights: list[dict[int, float]] = [{} for _ in pending]
        for index, card_bit, leaf in slots:
            ours, theirs = values[leaf]
            weight = math.exp(sharpness * (theirs - ours))
            weights[index][card_bit] = weights[index].get(card_bit, 0.0) + weight
        seen = [_Seen(played_later, weight, captures)
                for (played_later, captures), weight in zip(pending, weights, strict=True)]
        return cls(other, rules.must_capture == "hand", seen)

    def weight(self, deal: Round) -> float:
        """The likelihood of the seen plays if ``deal`` (a guess) is the truth, up to a
        factor the same for every guess: the product over the plays of one over the summed
        weights of the moves the hand then held allowed (the chosen move's own weight is
        the same under every guess)."""
        held = deal.hands[self.seat]
        likelihood = 1.0
        for seen in self.seen:
            hand = held | seen.later
            card_weight = seen.card_weight
            if self.hand_trails and hand & seen.captures:
                hand &= seen.captures
            total = 0.0
            while hand:
                low = hand & -hand
                total += card_weight[low]
                hand ^= low
            likelihood /= total
        return likelihood


def _record_after(hand: int, table: int, piles: list[int], sweeps: list[int], side: int,
                  sides: int, player_side: int, card_bit: int, taken: int, swept: bool,
                  stock_left: int, last: int, held: int) -> Record:
    """The :func:`~.features.record` of our seat to move after a play of ``card_bit``
    taking ``taken`` from ``table``, by a seat of ``player_side``."""
    others = 0
    other_sweeps = 0
    for s in range(sides):
        pile = piles[s]
        if s == player_side and taken:
            pile |= taken | card_bit
        if s != side:
            others |= pile
            other_sweeps += sweeps[s] + (swept and s == player_side)
    if taken:
        last = player_side
    own_pile = piles[side] | (taken | card_bit if taken and player_side == side else 0)
    return (
        hand,
        table ^ taken if taken else table | card_bit,
        own_pile,
        others,
        sweeps[side] + (swept and player_side == side),
        other_sweeps,
        stock_left,
        0 if last < 0 else 1 if last == side else 2,
        held,
    )


def _last_capturers(view: View, start: int) -> list[int]:
    """For each play from index ``start`` on, the side that had captured last before it
    (-1: nobody; the dealer's bonus counts as the dealer's side's capture)."""
    rules = view.rules
    last = rules.side_of(view.dealer) if view.dealer_bonus else -1
    out = []
    for index, play in enumerate(view.plays):
        if index >= start:
            out.append(last)
        if play.move.captured_mask:
            last = rules.side_of(play.seat)
    return out
