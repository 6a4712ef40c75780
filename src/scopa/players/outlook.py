"""What a round's points are worth to a side: its chance of winning the match.

A point is not always worth the same. At 0-0 any point helps a little; at 10-9
in scopa, the point that reaches 11 first wins the match and nothing else
matters. So the master does not maximise the round's point difference but the
match-win chance after the round, with the difference as a small tie-breaker.

For two sides the chance comes from a table ``W[mine][theirs]`` worked out by
dynamic programming over how rounds usually end. That spread of round points is
measured, not assumed: a couple of hundred rounds of the playout policy against
itself, once per rule set (a fixed seed, so it is the same every time). With
three sides the chance is a logistic guess on the lead over the best other side.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from functools import cache
from typing import Final

from ..round import Round
from ..rules import Rules
from .simulation import round_model

_CALIBRATION_ROUNDS: Final = 160
_TIE_BREAK: Final = 0.004
"""Utility per point of round difference on top of the match-win chance."""

Utility = Callable[[Sequence[int]], float]
"""Round points by side -> one side's utility (about 0..1)."""


class Outlook:
    """Match-win chances for a rule set; :meth:`utility` turns round points into them."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.target = rules.target
        self.sides = rules.sides
        self._chances: list[list[float]] = (
            _win_table(rules.target, round_points(rules)) if self.sides == 2 else []
        )

    def utility(self, side: int, scores: Sequence[int]) -> Utility:
        """The utility for ``side`` of a round's points, the match standing at ``scores``."""
        target = self.target
        if self.sides == 2:
            chances = self._chances
            mine, theirs = scores[side], scores[1 - side]
            other = 1 - side

            def two_sides(points: Sequence[int]) -> float:
                gained, lost = points[side], points[other]
                a, b = mine + gained, theirs + lost
                if a >= target or b >= target:
                    chance = 1.0 if a > b else 0.0 if a < b else 0.5
                else:
                    chance = chances[a][b]
                return chance + _TIE_BREAK * (gained - lost)

            return two_sides

        scale = max(1.0, target / 4)

        def many_sides(points: Sequence[int]) -> float:
            totals = [score + got for score, got in zip(scores, points, strict=True)]
            mine = totals[side]
            best_other = max(total for s, total in enumerate(totals) if s != side)
            if max(totals) >= target:
                chance = 1.0 if mine > best_other else 0.0 if mine < best_other else 0.5
            else:
                chance = 1 / (1 + math.exp((best_other - mine) / scale))
            rest = (sum(points) - points[side]) / (len(points) - 1)
            return chance + _TIE_BREAK * (points[side] - rest)

        return many_sides


def round_points(rules: Rules, rounds: int = _CALIBRATION_ROUNDS) -> dict[tuple[int, int], float]:
    """How often a round ends with (side 0, side 1) points, from policy self-play.

    Made symmetric, since which side is which is an accident of seating.
    """
    model = round_model(rules)
    rng = random.Random(0)
    counts: Counter[tuple[int, int]] = Counter()
    bits = [1 << i for i in range(40)]

    def next_deck() -> list[int]:
        rng.shuffle(bits)
        return list(bits)

    for number in range(rounds):
        state = Round.deal(rules, number % rules.players, next_deck)
        model.play_out(state)
        points = state.points()
        counts[points[0], points[1]] += 1
        counts[points[1], points[0]] += 1
    whole = sum(counts.values())
    return {pair: count / whole for pair, count in counts.items()}


def _win_table(target: int, spread: dict[tuple[int, int], float]) -> list[list[float]]:
    """``W[a][b]``: the chance that the side on ``a`` beats the side on ``b`` (both short
    of ``target``), rounds ending as ``spread`` says; ties at the top count one half."""
    chances = [[0.0] * target for _ in range(target)]
    still = spread.get((0, 0), 0.0)
    moves = [(x, y, p) for (x, y), p in spread.items() if (x, y) != (0, 0)]
    for a in range(target - 1, -1, -1):
        for b in range(target - 1, -1, -1):
            chance = 0.0
            for x, y, p in moves:
                a2, b2 = a + x, b + y
                if a2 >= target or b2 >= target:
                    chance += p * (1.0 if a2 > b2 else 0.0 if a2 < b2 else 0.5)
                else:
                    chance += p * chances[a2][b2]
            chances[a][b] = chance / (1 - still) if still < 1 else 0.5
    return chances


@cache
def outlook(rules: Rules) -> Outlook:
    """The shared :class:`Outlook` of ``rules``, calibrated on first use."""
    return Outlook(rules)
