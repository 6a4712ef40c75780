"""OpenSpiel's information-set MCTS as a bot level: ``openspiel-ismcts[:SIMULATIONS]``.

An outside opponent for the master, written by no one here: OpenSpiel's
``ISMCTSBot`` (Cowling, Powley and Whitehouse's IS-MCTS) with random rollouts,
searching the round under way in :mod:`scopa.env.openspiel` (its returns are the
round's points difference, as the master's playouts score a round). Each
simulation deals the hidden cards again with ``resample_from_infostate``.

It is a tournament level (``scopa tournament master openspiel-ismcts:1000``), not
one of :data:`scopa.players.LEVELS` offered to people, and needs the ``rl`` extra.
"""

from __future__ import annotations

import functools
import random
from typing import Final

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

from ..moves import Move
from ..players.base import check_turn
from ..rules import Rules
from ..view import View
from . import actions
from .openspiel import ScopaGame, state_from_view

LEVEL: Final = "openspiel-ismcts"
DEFAULT_SIMULATIONS: Final = 100
UCT_C: Final = 2.0
"""OpenSpiel's own default exploration constant for IS-MCTS on small games."""


@functools.cache
def _game(rules: Rules) -> ScopaGame:
    return ScopaGame(rules=rules)


class ISMCTSPlayer:
    """Picks a move by ``simulations`` IS-MCTS simulations, each with one random rollout."""

    def __init__(self, simulations: int = DEFAULT_SIMULATIONS, seed: int | None = None) -> None:
        self.name = f"{LEVEL}:{simulations}"
        self.simulations = simulations
        self._rng = random.Random(seed)
        self._np_rng = np.random.RandomState(self._rng.getrandbits(32))
        actions.catalogue()  # built now, not in the first move's time

    def choose(self, view: View) -> Move:
        legal = check_turn(view)
        if len(legal) == 1:
            return legal[0]
        game = _game(view.rules)
        state = state_from_view(game, view, self._rng)
        evaluator = mcts.RandomRolloutEvaluator(1, self._np_rng)
        bot = ismcts.ISMCTSBot(
            game, evaluator, UCT_C, self.simulations, random_state=self._np_rng
        )
        action = int(bot.step(state))
        move = actions.move_for(view.rules, action, state.round.table if state.round else 0)
        if move not in legal:  # pragma: no cover - the search only plays legal actions
            raise AssertionError(f"IS-MCTS chose {move}, not a legal move")
        return move


def make(level: str, seed: int | None = None) -> ISMCTSPlayer:
    """The player for ``openspiel-ismcts`` or ``openspiel-ismcts:SIMULATIONS``."""
    name, _, count = level.partition(":")
    if name != LEVEL:
        raise ValueError(f"not an {LEVEL} level: {level!r}")
    if not count:
        return ISMCTSPlayer(seed=seed)
    if not count.isdigit() or int(count) < 1:
        raise ValueError(
            f"{LEVEL} takes a number of simulations of 1 or more, as {LEVEL}:1000; got {level!r}"
        )
    return ISMCTSPlayer(int(count), seed=seed)
