"""The learned level's mixed leaf (``mix``): the net alone at 0, the playout alone at 1,
their weighted mean between, and refusals of what is no share."""

from __future__ import annotations

import math
import random

import pytest

from scopa import Game, Rules
from scopa.learning.evaluation import weights_path
from scopa.learning.learned import DEFAULT_SAMPLES, MIX_SAMPLES, LearnedPlayer, play_policy
from scopa.learning.levels import learned, level
from scopa.players.decision import Decision
from scopa.players.simulation import round_model
from scopa.view import View

# The choices of the learned level as it was before the mix existed (commit 527e104):
# two players of seeds 0 and 1, 16 guesses, no clock, in the match of seed 3, at each of
# the first 40 decisions with more than one legal move.
BEFORE_THE_MIX = {
    "scopa": "7DxAD+6H JC 2S 6D 3D 4S 2D 5H 7Hx2D+5H AS KHxKD 7S 3S 3Hx3S 2C JH 6Sx2S+4D 6H "
             "6Cx6H QS 6D KC 5D QDxQS JDxAC+7D 3D 4C AH 3S 5C KD AD 2H JD 4C 7Sx7C 5H 3Dx3H "
             "QHxQD 3C",
    "escoba": "2S 6DxAD+2S+6H 6S 5SxKD 3D 2H 4H 4S QHx2H+4S 2D 7Hx4D+4H QS 5Dx2D+JS AC 3S 3H "
              "KH KS 2C 6Cx2S+3C+4D 6H 6S QSx6H KC 6D AC 2Dx6D+7D 3D KH JD 4Sx3D+JD KS AH "
              "4CxAC+KS 7SxAS+7C 3H KD 2Hx3H+3S+7H AD JH",
}


def _choices(preset: str, mix: float) -> str:
    game = Game.new(Rules.preset(preset), seed=3)
    players = [LearnedPlayer(seed=seat, samples=16, time_budget=None, mix=mix)
               for seat in range(2)]
    chosen: list[str] = []
    while game.winner is None and len(chosen) < 40:
        view = game.view(game.to_move)
        move = players[game.to_move].choose(view)
        if len(view.legal_moves()) > 1:
            chosen.append(str(move))
        game.play(move)
    return " ".join(chosen)


@pytest.mark.parametrize("preset", ["scopa", "escoba"])
def test_no_mix_makes_the_choices_the_level_made_before_it(preset: str) -> None:
    assert _choices(preset, mix=0.0) == BEFORE_THE_MIX[preset]


def test_no_mix_is_the_default_with_its_guess_count() -> None:
    assert LearnedPlayer().mix == 0.0 and LearnedPlayer().samples == DEFAULT_SAMPLES
    assert LearnedPlayer(mix=0.5).samples == MIX_SAMPLES < DEFAULT_SAMPLES
    assert LearnedPlayer(mix=0.5, samples=32).samples == 32


def _mid_round_view(seed: int) -> View:
    """A view with cards still to deal (no exact ending) and several legal moves."""
    game = Game.new(Rules.preset("scopa"), seed=seed)
    rng = random.Random(seed)
    for _ in range(7):
        game.play(rng.choice(game.legal_moves()))
    view = game.view(game.to_move)
    assert len(view.legal_moves()) > 1 and view.stock_size > 0
    return view


@pytest.mark.parametrize("seed", [8, 14])
def test_a_full_mix_scores_each_move_by_the_playout_from_the_same_position(seed: int) -> None:
    view = _mid_round_view(seed)
    samples = 16
    got = dict(LearnedPlayer(seed=5, samples=samples, time_budget=None, mix=1.0).evaluate(view))
    # The same guesses from the same seed; each move, the policy's reply, then the
    # master's playout to the end of the round, plus the foresight prior.
    decision = Decision.of(view, 5)
    model = round_model(view.rules)
    prior = decision.foresight(model)
    totals = [0.0] * len(decision.moves)
    for _ in range(samples):
        deal = decision.knowledge.sample(decision.rng)
        for index, move in enumerate(decision.moves):
            line = deal.copy()
            line.apply(move)
            play_policy(model, line, 1)
            model.play_out(line)
            totals[index] += decision.utility(line.points())
    expected = {move: total / samples + score
                for move, total, score in zip(decision.moves, totals, prior, strict=True)}
    assert got == pytest.approx(expected, rel=1e-12, abs=1e-12)
    # And the net's leaf scores them otherwise.
    net = dict(LearnedPlayer(seed=5, samples=samples, time_budget=None).evaluate(view))
    assert net != pytest.approx(expected, rel=1e-6)


def test_a_mix_between_is_the_weighted_mean_of_the_two_on_the_same_guesses() -> None:
    view = _mid_round_view(8)

    def values(mix: float) -> dict[object, float]:
        return dict(LearnedPlayer(seed=2, samples=16, time_budget=None, mix=mix).evaluate(view))

    net, playout, mixed = values(0.0), values(1.0), values(0.25)
    assert mixed == pytest.approx({move: 0.75 * net[move] + 0.25 * playout[move] for move in net},
                                  rel=1e-9)


@pytest.mark.parametrize("mix", [-0.1, 1.5, math.nan, math.inf])
def test_a_share_outside_zero_to_one_is_refused(mix: float) -> None:
    with pytest.raises(ValueError, match=r"^mix must be a number from 0 to 1; got "):
        LearnedPlayer(mix=mix)


def test_the_mix_goes_with_the_policy_reply_only() -> None:
    with pytest.raises(ValueError, match="the mix goes with the policy's reply, not 'minimax'"):
        LearnedPlayer(mix=0.5, reply="minimax")


def test_tournament_levels_take_the_mix_and_refuse_a_bad_one() -> None:
    path = weights_path(Rules.preset("scopa"))
    name = level(path, mix=0.5)
    assert name.endswith(f"{path.resolve()},mix=0.5")
    player = learned(name.split(":learned:")[1], seed=4)
    assert isinstance(player, LearnedPlayer)
    assert (player.mix, player.samples, player.seed) == (0.5, MIX_SAMPLES, 4)
    with pytest.raises(ValueError, match=r"mix must be a number from 0 to 1; got 2\.0"):
        learned(f"{path},mix=2", seed=1)
    with pytest.raises(ValueError, match="'mix=half' is no setting of the learned level"):
        learned(f"{path},mix=half", seed=1)
