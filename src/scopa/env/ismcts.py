"""OpenSpiel's information-set MCTS as a bot level: ``openspiel-ismcts[:SIMULATIONS|SECONDSs]``.

An outside opponent for the master, written by no one here: OpenSpiel's
``ISMCTSBot`` (Cowling, Powley and Whitehouse's IS-MCTS) with random rollouts,
searching the round under way in :mod:`scopa.env.openspiel` (its returns are the
round's points difference, as the master's playouts score a round). Each
simulation deals the hidden cards again with ``resample_from_infostate``. The
search runs a number of simulations (``openspiel-ismcts:1000``; 100 by default) or
for a time a move (``openspiel-ismcts:0.5s``), for matches at equal time per move.

It is a tournament level (``scopa tournament master openspiel-ismcts:1000``), not
one of :data:`scopa.players.LEVELS` offered to people, and needs the ``rl`` extra.
"""

from __future__ import annotations

import functools
import random
import time
from typing import Any, Final

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


class _TimedISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]  # OpenSpiel ships no types
    """OpenSpiel's IS-MCTS searching for ``seconds`` instead of a number of simulations:
    its own search loop, with the clock as the only change."""

    def __init__(self, seconds: float, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seconds = seconds

    def run_search(self, state: Any) -> Any:
        self.reset()
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        self._root_node = self.create_new_node(state)
        deadline = time.perf_counter() + self.seconds
        root = self._root_node
        # However short the time, the root is expanded and one of its moves visited.
        while root.total_visits <= 0 or time.perf_counter() < deadline:
            self.run_simulation(self.sample_root_state(state))
        return self.get_final_policy(state, self._root_node)


class ISMCTSPlayer:
    """Picks a move by IS-MCTS: ``simulations`` of them, or as many as ``seconds`` allow,
    each with one random rollout to the end of the round."""

    def __init__(
        self,
        simulations: int = DEFAULT_SIMULATIONS,
        seed: int | None = None,
        seconds: float | None = None,
    ) -> None:
        self.name = f"{LEVEL}:{simulations}" if seconds is None else f"{LEVEL}:{seconds:g}s"
        self.simulations = simulations
        self.seconds = seconds
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
        if self.seconds is None:
            bot = ismcts.ISMCTSBot(
                game, evaluator, UCT_C, self.simulations, random_state=self._np_rng
            )
        else:
            bot = _TimedISMCTSBot(
                self.seconds, game, evaluator, UCT_C, 1, random_state=self._np_rng
            )
        action = int(bot.step(state))
        move = actions.move_for(view.rules, action, state.round.table if state.round else 0)
        if move not in legal:  # pragma: no cover - the search only plays legal actions
            raise AssertionError(f"IS-MCTS chose {move}, not a legal move")
        return move


def make(level: str, seed: int | None = None, rules: Rules | None = None) -> ISMCTSPlayer:
    """The player for ``openspiel-ismcts``, ``openspiel-ismcts:SIMULATIONS`` or
    ``openspiel-ismcts:SECONDSs`` (:func:`scopa.tournament.make_bot`); it plays any
    ``rules``, so they are not needed here."""
    name, _, option = level.partition(":")
    if name != LEVEL:
        raise ValueError(f"not an {LEVEL} level: {level!r}")
    if not option:
        return ISMCTSPlayer(seed=seed)
    if option.isdigit() and int(option) >= 1:
        return ISMCTSPlayer(int(option), seed=seed)
    if option.endswith("s"):
        try:
            seconds = float(option[:-1])
        except ValueError:
            seconds = 0.0
        if 0 < seconds < 3600:
            return ISMCTSPlayer(seed=seed, seconds=seconds)
    raise ValueError(
        f"{LEVEL} takes a number of simulations of 1 or more ({LEVEL}:1000) or seconds a move "
        f"({LEVEL}:0.5s); got {level!r}"
    )
