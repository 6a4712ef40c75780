"""The Gymnasium environment: Gymnasium's own checker, a seat against bots, bad input."""

from __future__ import annotations

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium", reason="the rl extra is not installed")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import scopa.env  # noqa: E402, F401 (registers scopa/Scopa-v0)
from scopa.env import actions  # noqa: E402


@pytest.mark.parametrize(("opponent", "preset", "players"),
                         [("expert", "escoba", 2), ("greedy", "scopa", 4), ("random", "scopa", 3)])
def test_gymnasium_check_env(opponent: str, preset: str, players: int) -> None:
    environment = gymnasium.make("scopa/Scopa-v0", opponent=opponent, preset=preset,
                                 players=players)
    check_env(environment.unwrapped, skip_render_check=False)


def test_the_module_form_of_the_name_registers_it() -> None:
    environment = gymnasium.make("scopa.env:scopa/Scopa-v0", opponent="random")
    observation, _ = environment.reset(seed=0)
    assert observation["action_mask"].sum() >= 1


def play(seed: int) -> tuple[list[int], float, dict[str, object]]:
    environment = gymnasium.make("scopa/Scopa-v0", opponent="greedy", preset="scopa")
    observation, _ = environment.reset(seed=seed)
    rng = np.random.default_rng(seed)
    taken, total, done = [], 0.0, False
    while not done:
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        taken.append(action)
        observation, reward, done, truncated, _ = environment.step(action)
        total += float(reward)
        assert not truncated
    return taken, total, environment.unwrapped.match.record()


def test_a_match_against_bots_ends_with_the_agents_result_and_replays_by_seed() -> None:
    taken, total, record = play(21)
    assert (taken, total, record) == play(21)
    assert total == (1.0 if record["winner"] == 0 else -1.0)


def test_an_illegal_action_changes_nothing_and_says_why() -> None:
    environment = gymnasium.make("scopa/Scopa-v0", opponent="random", preset="scopa")
    observation, _ = environment.reset(seed=3)
    mask = observation["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    again, reward, done, _, info = environment.step(illegal)
    assert reward == -1.0 and not done
    assert "not in your hand" in str(info["illegal"]) or "capture" in str(info["illegal"])
    assert np.array_equal(again["observation"], observation["observation"])
    assert np.array_equal(again["action_mask"], mask)
    _, _, _, _, info = environment.step(actions.SIZE + 5)
    assert "out of range" in str(info["illegal"])


def test_bad_settings_are_refused_with_the_cores_sentence() -> None:
    with pytest.raises(ValueError, match="unknown level 'grandmaster'; the levels are"):
        gymnasium.make("scopa/Scopa-v0", opponent="grandmaster")
    with pytest.raises(ValueError, match="unknown preset 'tute'"):
        gymnasium.make("scopa/Scopa-v0", preset="tute")
    with pytest.raises(ValueError, match="players must be one of 2, 3, 4, 6; got 7"):
        gymnasium.make("scopa/Scopa-v0", players=7)


def test_round_rewards_add_up_to_the_match_points_difference() -> None:
    environment = gymnasium.make("scopa/Scopa-v0", opponent="expert", preset="escoba",
                                 reward="round", seat=1)
    observation, _ = environment.reset(seed=5)
    total, done = 0.0, False
    while not done:
        action = int(np.flatnonzero(observation["action_mask"])[0])
        observation, reward, done, _, _ = environment.step(action)
        total += float(reward)
    scores = environment.unwrapped.match.scores
    assert total == scores[1] - scores[0]
