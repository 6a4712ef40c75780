"""The OpenSpiel game: OpenSpiel's random simulation test, no hidden card in what a player
gets, resampling for IS-MCTS, and IS-MCTS as a tournament level."""

from __future__ import annotations

import random
import sys

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the rl extra is not installed")

from scopa import Game, Rules  # noqa: E402
from scopa.cards import CARDS, cards_of  # noqa: E402
from scopa.env import actions  # noqa: E402
from scopa.env.ismcts import ISMCTSPlayer, make  # noqa: E402
from scopa.env.openspiel import ScopaState, load_game, state_from_view  # noqa: E402
from scopa.extras import MissingExtraError  # noqa: E402
from scopa.players import LEVELS  # noqa: E402
from scopa.tournament import make_bot, run  # noqa: E402


@pytest.mark.parametrize(("preset", "players"), [
    ("scopa", 2), ("escoba", 2), ("scopa", 4), ("escoba", 4), ("scopa-classic", 2), ("scopa", 3),
    ("scopa", 6), ("scopa-assi", 2), ("scopone-scientifico", 4),
])
def test_openspiel_random_simulation_test(preset: str, players: int) -> None:
    sims = 5 if preset in ("scopa", "escoba") and players in (2, 4) else 2
    pyspiel.random_sim_test(load_game(preset, players), num_sims=sims, serialize=False,
                            verbose=False)


def dealt(game_preset: str = "scopa", players: int = 2, seed: int = 0, moves: int = 0
          ) -> ScopaState:
    game = load_game(game_preset, players)
    state = game.new_initial_state()
    rng = random.Random(seed)
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    for _ in range(moves):
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_the_deal_is_forty_chance_nodes_of_one_card_each() -> None:
    state = load_game().new_initial_state()
    first = state.chance_outcomes()
    assert [card for card, _ in first] == list(range(40))
    assert sum(chance for _, chance in first) == pytest.approx(1.0)
    state.apply_action(7)
    assert 7 not in [card for card, _ in state.chance_outcomes()]
    assert state.observation_string(0) == "p0 dealing, holding JD"
    assert state.observation_string(1) == "p1 dealing, holding "


def test_legal_actions_are_the_cores_moves() -> None:
    state = dealt(moves=6)
    assert state.round is not None
    core = sorted(actions.action_of(state.rules, m) for m in state.round.legal())
    assert state.legal_actions() == core
    for action in core:
        assert state.action_to_string(state.current_player(), action) in {
            str(m) for m in state.round.legal()}


@pytest.mark.parametrize(("preset", "players"), [("scopa", 2), ("escoba", 4)])
def test_no_hidden_card_in_strings_or_tensors(preset: str, players: int) -> None:
    state = dealt(preset, players, seed=5, moves=7)
    assert state.round is not None
    for player in range(players):
        hidden = 0
        for seat, hand in enumerate(state.round.hands):
            if seat != player:
                hidden |= hand
        for stock_card in state.round.stock[state.round.dealt:]:
            hidden |= stock_card
        codes = {str(card) for card in cards_of(hidden)}
        for text in (state.information_state_string(player), state.observation_string(player)):
            assert not codes & set(text.replace(";", " ").replace(":", " ").split())
        # The tensors' card slots: hand, table, captured piles and played cards.
        rules = state.rules
        for tensor in (state.observation_tensor(player), state.information_state_tensor(player)):
            card_slots = tensor[: 40 * (3 + rules.sides)]
            shown = {k % 40 for k, value in enumerate(card_slots) if value}
            assert not shown & {card.id for card in cards_of(hidden)}
        assert [CARDS[k] for k in range(40) if state.observation_tensor(player)[k]] == \
            cards_of(state.round.hands[player])


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    state = dealt(moves=3)
    before = (str(state), state.history(), state.legal_actions())
    illegal = next(a for a in range(actions.SIZE) if a not in state.legal_actions())
    with pytest.raises(ValueError, match=f"action {illegal} is not legal here"):
        state.apply_action(illegal)
    assert (str(state), state.history(), state.legal_actions()) == before


def test_resampling_keeps_the_information_state_and_deals_the_rest_again() -> None:
    state = dealt("escoba", 2, seed=9, moves=9)
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    seen_hands = set()
    for _ in range(30):
        guess = state.resample_from_infostate(player, sampler)
        assert guess.information_state_string(player) == state.information_state_string(player)
        assert guess.legal_actions() == state.legal_actions()
        seen_hands.add(guess.round.hands[1 - player])
        while not guess.is_terminal():  # every guess plays to the end by the rules
            guess.apply_action(guess.legal_actions()[0])
    assert len(seen_hands) > 1


def test_returns_are_the_round_points_difference() -> None:
    state = dealt(seed=2)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[-1])
    points = [score.total for score in state.round.scores()]
    assert state.returns() == [points[0] - points[1], points[1] - points[0]]


def test_a_view_becomes_a_state_with_the_same_information() -> None:
    game = Game.new(Rules.preset("scopa"), seed=4)
    for _ in range(11):
        game.play(game.legal_moves()[0])
    view = game.view(game.to_move)
    state = state_from_view(load_game(), view, random.Random(1))
    assert state.current_player() == view.seat
    assert sorted(state.round.legal(), key=str) == sorted(view.legal_moves(), key=str)
    assert cards_of(state.round.hands[view.seat]) == list(view.hand)


def test_ismcts_level_plays_legal_moves_and_is_not_offered_to_people() -> None:
    assert not any(level.startswith("openspiel") for level in LEVELS)
    bot = make_bot("openspiel-ismcts:20", seed=3)
    assert isinstance(bot, ISMCTSPlayer) and bot.simulations == 20
    game = Game.new(Rules.preset("escoba"), seed=6)
    for _ in range(12):
        view = game.view(game.to_move)
        move = bot.choose(view)
        assert move in game.legal_moves()
        game.play(move)
    timed = make("openspiel-ismcts:0.01s", seed=1)
    assert timed.seconds == 0.01 and timed.name == "openspiel-ismcts:0.01s"
    view = game.view(game.to_move)
    assert timed.choose(view) in view.legal_moves()
    for bad in ("openspiel-ismcts:0", "openspiel-ismcts:-1s", "openspiel-ismcts:fast"):
        with pytest.raises(ValueError, match="number of simulations of 1 or more"):
            make(bad)
    with pytest.raises(ValueError, match="unknown level 'openspiel'"):
        make_bot("openspiel")


def test_a_tournament_runs_master_against_ismcts() -> None:
    # One-round matches keep it short; the command line takes the same levels.
    result = run("master", "openspiel-ismcts:3", Rules.preset("scopa", target=1), seeds=1, seed=3)
    assert result.games == 2
    assert all(r.first_won in (True, False) for r in result.results)


def test_without_the_rl_extra_the_level_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # As if OpenSpiel were not installed (the module that imports it must load anew).
    for name in [*sys.modules]:
        if name.startswith(("open_spiel", "pyspiel", "scopa.env.ismcts")):
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "open_spiel", None)
    with pytest.raises(MissingExtraError, match=r"openspiel-ismcts bot needs .*'scopa\[rl\]'"):
        make_bot("openspiel-ismcts:10")
