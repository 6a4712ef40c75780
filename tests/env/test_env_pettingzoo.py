"""The PettingZoo environment: PettingZoo's own API and seed tests, the action space, the
observation (never a hidden card) and bad input."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("pettingzoo", reason="the rl extra is not installed: pip install -e '.[rl]'")

from pettingzoo.test import api_test, seed_test

from scopa import Card, Game, IllegalMoveError, Rules, preset_names
from scopa.cards import mask_of
from scopa.env import ScopaEnv, actions, env, observation
from scopa.env.engine import Match
from scopa.moves import Move
from scopa.rules import PLAYER_COUNTS

SETTINGS = [(preset, players) for preset in preset_names() for players in PLAYER_COUNTS
            if not preset.startswith("scopone") or players == 4]


def play_out(environment: ScopaEnv, seed: int, rewards: dict[str, float] | None = None
             ) -> list[int]:
    """Random legal actions from ``reset(seed=seed)`` to the end; the actions taken. Each
    agent's rewards, as ``last()`` hands them out, are added up in ``rewards``."""
    environment.reset(seed=seed)
    rng = np.random.default_rng(seed)
    taken = []
    for agent in environment.agent_iter(10_000):
        obs, reward, terminated, truncated, _ = environment.last()
        if rewards is not None:
            rewards[agent] = rewards.get(agent, 0.0) + float(reward)
        if terminated or truncated:
            environment.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        taken.append(action)
        environment.step(action)
        assert agent in environment.possible_agents
    return taken


def test_the_catalogue_has_the_documented_size_and_order() -> None:
    catalogue = actions.catalogue()
    assert catalogue.size == actions.SIZE
    assert catalogue.fifteen_start == actions.FIFTEEN_START
    seven = Card.parse("7C")
    first = actions.action_of(Rules.preset("scopa"), Move.parse("7CxAD+6D"))
    second = actions.action_of(Rules.preset("scopa"), Move.parse("7Cx3S+4C"))
    assert actions.SUM_START <= first < actions.FIFTEEN_START
    assert actions.SUM_START <= second < actions.FIFTEEN_START
    assert first != second
    escoba = Rules.preset("escoba")
    assert actions.action_of(escoba, Move.parse("7CxAD+7D")) >= actions.FIFTEEN_START
    assert actions.action_of(Rules.preset("scopa"), Move.trail(seven)) == seven.id
    assert actions.action_of(Rules.preset("scopa-assi"), Move.parse("ADx5C+KS")) == 40
    for preset, numbers in (("scopa", (0, 39, 44, 5000, actions.FIFTEEN_START - 1)),
                            ("escoba", (actions.FIFTEEN_START, actions.SIZE - 1))):
        rules = Rules.preset(preset)
        for number in numbers:
            assert actions.action_of(rules, actions.move_for(rules, number, 0)) == number
    assi = Rules.preset("scopa-assi")
    table = Card.parse("AH").bit
    assert str(actions.move_for(assi, 40, table)) == "ADxAH"
    with pytest.raises(IllegalMoveError, match="not a legal move now"):
        actions.move_for(Rules.preset("scopa"), 40, table)
    with pytest.raises(IllegalMoveError, match="not a legal move now"):
        actions.move_for(assi, actions.action_of(Rules.preset("scopa"), Move.parse("ADxAH")), table)


@pytest.mark.parametrize(("preset", "players"), SETTINGS)
def test_every_legal_move_has_its_own_number(preset: str, players: int) -> None:
    rules = Rules.preset(preset, players=players)
    environment = env(rules=rules)
    environment.reset(seed=3)
    match = environment.match
    while not match.is_over:
        legal = match.legal_moves()
        numbers = [actions.action_of(rules, move) for move in legal]
        assert len(set(numbers)) == len(legal)
        for move, number in zip(legal, numbers, strict=True):
            assert actions.move_for(rules, number, match.table) == move
        match.play(legal[len(legal) // 2])


def test_pettingzoo_api_test_two_and_four_players() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the classic games' dict observations warn too
        api_test(env(preset="scopa"), num_cycles=200)
        api_test(env(preset="escoba", players=4, reward="round"), num_cycles=200)


def test_pettingzoo_seed_test() -> None:
    seed_test(lambda: env(preset="escoba"), num_cycles=300)
    seed_test(lambda: env(preset="scopa", players=3), num_cycles=300)


def test_a_seed_replays_the_same_match() -> None:
    first, second = env(preset="scopa"), env(preset="scopa")
    assert play_out(first, 11) == play_out(second, 11)
    assert first.match.record() == second.match.record()
    assert play_out(first, 12) != play_out(second, 11)


@pytest.mark.parametrize(("preset", "players"), [("scopa", 2), ("escoba", 4), ("scopone", 4)])
def test_match_rewards_go_to_the_winning_side(preset: str, players: int) -> None:
    environment = env(preset=preset, players=players)
    totals: dict[str, float] = {}
    play_out(environment, 5, totals)
    rules = environment.rules
    winner = environment.match.winner
    assert environment.agents == []
    for seat, agent in enumerate(environment.possible_agents):
        assert totals[agent] == (1.0 if rules.side_of(seat) == winner else -1.0)


def test_round_rewards_are_the_round_points_difference() -> None:
    environment = env(preset="scopa", reward="round")
    environment.reset(seed=8)
    match = environment.match
    seen = {agent: 0.0 for agent in environment.possible_agents}
    for agent in environment.agent_iter(10_000):
        obs, reward, terminated, _, _ = environment.last()
        seen[agent] += reward
        if terminated:
            environment.step(None)
            continue
        environment.step(int(np.flatnonzero(obs["action_mask"])[0]))
    rounds = match.record()["scores"]
    assert isinstance(rounds, list)
    # Zero-sum between the two seats, and the sum of differences is the match difference.
    assert seen["player_0"] == -seen["player_1"] == rounds[0] - rounds[1]


def test_the_observation_holds_only_what_the_seat_may_know() -> None:
    environment = env(preset="escoba", players=4)
    environment.reset(seed=2)
    rules = environment.rules
    parts = observation.layout(rules)
    match = environment.match
    for _ in range(30):
        for seat, agent in enumerate(environment.possible_agents):
            vector = environment.observe(agent)["observation"]
            cards = {name: vector[start : start + length] for name, (start, length) in
                     parts.items()}
            hidden = match.unseen(seat)
            shown = 0
            for name in ("hand", "table", "captured", "played"):
                for k, bit in enumerate(cards[name]):
                    if bit:
                        shown |= 1 << (k % 40)
            assert not shown & hidden
            assert [int(i) for i in np.flatnonzero(cards["hand"])] == [
                i for i in range(40) if match.hand(seat) >> i & 1
            ]
            assert [int(i) for i in np.flatnonzero(cards["table"])] == [
                i for i in range(40) if match.table >> i & 1
            ]
            assert cards["stock"][0] == match.stock_size
        agent = environment.agent_selection
        environment.step(int(np.flatnonzero(environment.observe(agent)["action_mask"])[-1]))


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    environment = env(preset="scopa")
    environment.reset(seed=4)
    agent = environment.agent_selection
    before = environment.observe(agent)
    mask = before["action_mask"]
    hand = environment.match.hand(environment.match.to_move or 0)
    not_held = next(i for i in range(40) if not hand >> i & 1)
    with pytest.raises(IllegalMoveError, match="is not in your hand"):
        environment.step(not_held)
    with pytest.raises(IllegalMoveError, match="out of range"):
        environment.step(actions.SIZE)
    with pytest.raises(IllegalMoveError, match="whole number"):
        environment.step("5D")  # type: ignore[arg-type]
    assert not mask[not_held]
    after = environment.observe(agent)
    assert environment.agent_selection == agent
    assert np.array_equal(before["observation"], after["observation"])
    assert np.array_equal(mask, after["action_mask"])


def test_bad_settings_are_refused_with_the_cores_sentence() -> None:
    with pytest.raises(ValueError, match="unknown preset 'briscola'; the presets are"):
        env(preset="briscola")
    with pytest.raises(ValueError, match="players must be one of 2, 3, 4, 6; got 5"):
        env(preset="scopa", players=5)
    with pytest.raises(ValueError, match="reward must be one of"):
        env(reward="points")


def test_ansi_render_shows_the_table_and_only_the_hand_to_play() -> None:
    environment = env(preset="scopa", render_mode="ansi")
    environment.reset(seed=1)
    text = environment.render()
    assert text is not None
    match = environment.match
    seat = match.to_move or 0
    other = 1 - seat
    held = [str(Card.from_id(i)) for i in range(40) if match.hand(seat) >> i & 1]
    hidden = [str(Card.from_id(i)) for i in range(40) if match.hand(other) >> i & 1]
    assert f"seat {seat} to play, holding" in text
    assert all(code in text for code in held)
    assert not any(code in text for code in hidden)


@pytest.mark.parametrize(("preset", "players"), SETTINGS)
def test_the_match_under_the_environments_is_games_match(preset: str, players: int) -> None:
    rules = Rules.preset(preset, players=players)
    match, game = Match(rules, seed=17), Game.new(rules, seed=17)
    rng = np.random.default_rng(17)
    while not game.is_over:
        legal = game.legal_moves()
        assert sorted(map(str, match.legal_moves())) == sorted(map(str, legal))
        assert match.to_move == game.to_move and match.scores == game.scores
        assert match.table == mask_of(game.table)
        assert match.view(game.to_move or 0) == game.view(game.to_move)
        move = legal[int(rng.integers(len(legal)))]
        match.play(move)
        game.play(move)
    assert match.is_over and match.winner == game.winner and match.scores == game.scores
    assert match.record() == game.record()


@settings(max_examples=30, deadline=None)
@given(setting=st.sampled_from(SETTINGS), seed=st.integers(0, 2**32), moves=st.integers(0, 80))
def test_any_position_shows_no_hidden_card_and_masks_exactly_the_legal_moves(
    setting: tuple[str, int], seed: int, moves: int
) -> None:
    preset, players = setting
    environment = env(preset=preset, players=players)
    environment.reset(seed=seed)
    match = environment.match
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        if match.is_over:
            break
        legal = match.legal_moves()
        environment.step(actions.action_of(match.rules, legal[int(rng.integers(len(legal)))]))
    rules = match.rules
    cards_end = 40 * (3 + rules.sides)
    for seat, agent in enumerate(environment.possible_agents):
        observed = environment.observe(agent)
        shown = 0
        for k in np.flatnonzero(observed["observation"][:cards_end]):
            shown |= 1 << (int(k) % 40)
        assert not shown & match.unseen(seat)
        masked = {int(a) for a in np.flatnonzero(observed["action_mask"])}
        expected = ({actions.action_of(rules, m) for m in match.legal_moves()}
                    if match.to_move == seat else set())
        assert masked == expected
