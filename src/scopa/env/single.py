"""The Gymnasium environment: one seat against bots of a level, a whole match an episode.

``gymnasium.make("scopa/Scopa-v0", opponent="expert", preset="escoba")``. The
agent holds ``seat`` (0 by default); every other seat, partner included, is a
bot of ``opponent``. Observations and actions are the PettingZoo environment's
(:mod:`scopa.env.aec`), rewards too, from the agent's side.

Gymnasium's checker and most learners sample actions without the mask, so an
illegal action is not an error here: it changes nothing, gives ``illegal_reward``
(-1 by default) and says why in ``info["illegal"]`` (the core's sentence).
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ..errors import IllegalMoveError
from ..players import Player, make_player
from ..rules import Rules
from . import actions, observation
from .aec import Reward, check_reward, render_text, rules_for, side_rewards
from .engine import Match

Observation = dict[str, npt.NDArray[Any]]


class SingleSeatEnv(gymnasium.Env[Observation, np.int64]):
    """One seat of a match of Scopa or Escoba, the others played by ``opponent`` bots."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012

    def __init__(
        self,
        opponent: str = "random",
        preset: str = "scopa",
        players: int | None = None,
        *,
        rules: Rules | None = None,
        seat: int = 0,
        reward: Reward = "match",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        self.rules = rules_for(preset, players, rules)
        make_player(opponent)  # an unknown level is refused now, with the core's sentence
        self.opponent = opponent
        if not isinstance(seat, int) or not 0 <= seat < self.rules.players:
            raise ValueError(f"seat must be 0..{self.rules.players - 1}; got {seat!r}")
        self.seat = seat
        self.reward = check_reward(reward)
        self.illegal_reward = float(illegal_reward)
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi'; got {render_mode!r}")
        self.render_mode = render_mode
        actions.catalogue()
        self.action_space = spaces.Discrete(actions.SIZE)
        self.observation_space = spaces.Dict(  # type: ignore[assignment]
            {
                "observation": spaces.Box(0.0, observation.high(self.rules), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (actions.SIZE,), dtype=np.int8),
            }
        )
        self._match: Match | None = None
        self._bots: dict[int, Player] = {}

    @property
    def match(self) -> Match:
        if self._match is None:
            raise RuntimeError("call reset() before using the environment")
        return self._match

    def _observe(self) -> Observation:
        match = self.match
        if match.to_move == self.seat:
            mask = actions.action_mask(self.rules, match.legal_moves())
        else:
            mask = np.zeros(actions.SIZE, dtype=np.int8)
        return {"observation": match.observe(self.seat), "action_mask": mask}

    def _bots_play(self) -> float:
        """Let the bots play until the agent's turn or the match's end; the agent's reward."""
        match, side = self.match, self.rules.side_of(self.seat)
        total = 0.0
        while not match.is_over and match.to_move != self.seat:
            mover = match.to_move
            assert mover is not None
            match.play(self._bots[mover].choose(match.view(mover)))
            rewards = side_rewards(self.rules, match, self.reward)
            total += rewards[side] if rewards is not None else 0.0
        return total

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        rng = self.np_random
        self._match = Match(self.rules, seed=int(rng.integers(2**63)))
        self._bots = {
            seat: make_player(self.opponent, seed=int(rng.integers(2**31)))
            for seat in range(self.rules.players)
            if seat != self.seat
        }
        self._bots_play()
        return self._observe(), {}

    def step(
        self, action: np.int64 | int
    ) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        match = self.match
        if match.is_over:
            raise RuntimeError("the match is over: call reset()")
        try:
            match.play(actions.move_for(self.rules, action, match.table))
        except IllegalMoveError as error:
            return self._observe(), self.illegal_reward, False, False, {"illegal": str(error)}
        side = self.rules.side_of(self.seat)
        rewards = side_rewards(self.rules, match, self.reward)
        total = rewards[side] if rewards is not None else 0.0
        total += self._bots_play()
        return self._observe(), total, match.is_over, False, {}

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return render_text(self.match, self.seat)
