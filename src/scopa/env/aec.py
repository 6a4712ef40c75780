"""The PettingZoo AEC environment: a whole match, one agent per seat.

Agents are ``player_0`` .. ``player_{N-1}`` by seat; the agent to act is the seat
to play. Each observation is PettingZoo's classic dict: ``observation`` (see
:mod:`scopa.env.observation`) and ``action_mask`` (1 for each legal action of
:mod:`scopa.env.actions`; all 0 when it is not that agent's turn).

Rewards, ``reward="match"`` (the default): at the end of the match +1 for the
seats of the winning side, -1 for the others. ``reward="round"``: at the end of
each round, a seat's side's points for the round minus the mean of the other
sides' points (zero-sum in two-sided games).

An action that is not legal raises :class:`~scopa.errors.IllegalMoveError` (a
``ValueError``) with the core's sentence, and changes nothing. ``reset(seed=s)``
replays the same match for the same actions.
"""

from __future__ import annotations

from typing import Any, Final, Literal

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from ..cards import cards_of
from ..errors import IllegalMoveError
from ..rules import Rules
from . import actions, observation
from .engine import Match

Reward = Literal["match", "round"]
REWARDS: Final = ("match", "round")


def rules_for(preset: str, players: int | None, rules: Rules | None) -> Rules:
    """The rules an environment plays: ``rules`` as given, or the preset for ``players``.

    A wrong preset or player count gets the core's own sentence (a ``ValueError``).
    """
    if rules is not None:
        if not isinstance(rules, Rules):
            raise ValueError(f"rules must be a scopa.Rules value; got {rules!r}")
        return rules
    return Rules.preset(preset) if players is None else Rules.preset(preset, players=players)


def check_reward(reward: object) -> Reward:
    if reward == "match":
        return "match"
    if reward == "round":
        return "round"
    raise ValueError(f"reward must be one of {', '.join(map(repr, REWARDS))}; got {reward!r}")


def side_rewards(rules: Rules, match: Match, reward: Reward) -> list[float] | None:
    """Each side's reward for the move just played (``None``: nothing to hand out)."""
    if reward == "match":
        if not match.is_over:
            return None
        return [1.0 if side == match.winner else -1.0 for side in range(rules.sides)]
    points = match.round_points
    if points is None:
        return None
    total, others = sum(points), rules.sides - 1
    return [point - (total - point) / others for point in points]


def render_text(match: Match, seat: int | None) -> str:
    """The public table and ``seat``'s hand (the seat to play), as text."""

    def text(mask: int) -> str:
        return " ".join(str(card) for card in cards_of(mask)) or "-"

    rules = match.rules
    lines = [
        f"{rules.name}, {rules.players} players, round {match.round_number + 1}, "
        f"scores {match.scores}, stock {match.stock_size}",
        f"table: {text(match.table)}",
    ]
    for side, pile in enumerate(match.piles):
        lines.append(f"side {side}: {pile.bit_count()} cards, {match.sweeps[side]} sweeps")
    if match.is_over:
        lines.append(f"side {match.winner} wins")
    elif seat is not None:
        lines.append(f"seat {seat} to play, holding {text(match.hand(seat))}")
    return "\n".join(lines)


class ScopaEnv(AECEnv):  # type: ignore[misc]  # PettingZoo ships no type information
    """Scopa or Escoba for PettingZoo: ``ScopaEnv(preset="escoba", players=4)``."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo reads it off the class)
        "render_modes": ["ansi"],
        "name": "scopa_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        preset: str = "scopa",
        players: int | None = None,
        *,
        rules: Rules | None = None,
        reward: Reward = "match",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.rules = rules_for(preset, players, rules)
        self.reward = check_reward(reward)
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi'; got {render_mode!r}")
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(self.rules.players)]
        self.agents = self.possible_agents[:]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        actions.catalogue()  # built now, not during the first step
        self.action_spaces = {agent: spaces.Discrete(actions.SIZE) for agent in self.agents}
        box = spaces.Box(0.0, observation.high(self.rules), dtype=np.float32)
        mask = spaces.Box(0, 1, (actions.SIZE,), dtype=np.int8)
        self.observation_spaces = {
            agent: spaces.Dict({"observation": box, "action_mask": mask}) for agent in self.agents
        }
        self._rng = np.random.default_rng()
        self._match: Match | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def match(self) -> Match:
        if self._match is None:
            raise RuntimeError("call reset() before using the environment")
        return self._match

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self._match = Match(self.rules, seed=int(self._rng.integers(2**63)))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self._match.to_move or 0]

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        match, seat = self.match, self._seat[agent]
        if match.to_move == seat:
            mask = actions.action_mask(self.rules, match.legal_moves())
        else:
            mask = np.zeros(actions.SIZE, dtype=np.int8)
        return {"observation": match.observe(seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        match = self.match
        if action is None:
            raise IllegalMoveError(f"{agent} must act: the match is not over")
        match.play(actions.move_for(self.rules, action, match.table))
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        rewards = side_rewards(self.rules, match, self.reward)
        if rewards is not None:
            for name, seat in self._seat.items():
                self.rewards[name] = rewards[self.rules.side_of(seat)]
        if match.is_over:
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[match.to_move or 0]
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return render_text(self.match, self.match.to_move)

    def close(self) -> None:
        pass
