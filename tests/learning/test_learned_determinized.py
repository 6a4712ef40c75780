"""The determinized leaf: self-play data with the other hands, a search whose leaf reads the
guess's hands (never the real ones), and the minimax reply before the leaf."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from scopa import Game, Rules
from scopa.learning.__main__ import main
from scopa.learning.evaluation import OUTPUTS, Evaluation
from scopa.learning.features import FEATURES, RECORD_FIELDS
from scopa.learning.learned import LearnedPlayer
from scopa.learning.levels import level
from scopa.learning.selfplay import LearnedPolicy, generate, play_matches
from scopa.tournament import make_bot
from scopa.view import View

from ..conftest import deal, play_match
from .positions import hidden_reshuffled, midgame


def _net(hands: int = 1, seed: int = 0) -> Evaluation:
    rng = np.random.default_rng(seed)
    return Evaluation(
        rng.normal(size=(FEATURES + 40 * hands, 8)).astype(np.float32),
        rng.normal(size=8).astype(np.float32),
        rng.normal(size=(8, OUTPUTS)).astype(np.float32),
        rng.normal(size=OUTPUTS).astype(np.float32),
        meta={"features": "determinized"},
    )


def test_determinized_data_is_the_seat_data_with_the_other_hands() -> None:
    rules = Rules.preset("scopa")
    seat = play_matches(rules, 2, seed=7)
    full = play_matches(rules, 2, seed=7, features="determinized")
    assert full.records.shape == (len(seat), len(RECORD_FIELDS) + 1)
    # The same matches and targets: only the records grow by the other hand.
    assert np.array_equal(full.records[:, : len(RECORD_FIELDS)], seat.records)
    assert np.array_equal(full.targets, seat.targets)
    hand, other, held = full.records[:, 0], full.records[:, -1], full.records[:, 8]
    assert not np.any(hand & other)
    assert [int(mask).bit_count() for mask in other] == held.tolist()
    again = generate(rules, 2, seed=7, features="determinized").positions
    assert generate(rules, 2, seed=7, jobs=1, features="determinized").positions.digest() == (
        again.digest())
    with pytest.raises(ValueError, match="unknown feature set 'open'"):
        play_matches(rules, 1, seed=1, features="open")


def test_the_policys_leaf_reads_the_guess_not_the_real_hands() -> None:
    # The determinized leaf sees hands, but a guess's: dealing the real hidden cards anew
    # changes no choice, with either reply.
    rules = Rules.preset("scopa")
    for reply in ("policy", "minimax"):
        policy = LearnedPolicy(rules, _net(), guesses=4, reply=reply)
        for seed in range(8):
            state = midgame(rules, seed)
            other = hidden_reshuffled(state, seed + 100)
            moves = state.legal()
            chosen = policy.choose(state, moves, random.Random(seed))
            assert chosen in moves
            assert policy.choose(other, moves, random.Random(seed)) == chosen


def test_the_players_leaf_reads_the_guess_not_the_real_hands() -> None:
    # Two deals that seat 0 cannot tell apart: the same hand and table, the other hand
    # and the stock different. The determinized leaf reads guesses, so the values agree.
    rules = Rules.preset("scopa")
    views = [
        Game.new(rules, deck=deal(rules, ["7D 3S QC", other], "AH 2S 3C AS")).view(0)
        for other in ("2H 4H 5C", "7C 7H 7S")
    ]
    for reply in ("policy", "minimax"):
        player = LearnedPlayer(seed=3, samples=6, time_budget=None, evaluation=_net(),
                               reply=reply)
        assert player.evaluate(views[0]) == player.evaluate(views[1])


def _view_after(rules: Rules, seed: int, moves: int) -> View:
    game = Game.new(rules, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        game.play(rng.choice(game.legal_moves()))
    return game.view(game.to_move)


def test_the_minimax_reply_is_the_worst_for_us_of_every_reply() -> None:
    # On the same guesses (same seed), a move's value after the worst reply can be no better
    # than after the playout policy's reply, one of the replies; and it is lower somewhere.
    rules = Rules.preset("scopa")
    lower = 0
    for seed in range(6):
        view = _view_after(rules, seed, 5)
        values = []
        for reply in ("policy", "minimax"):
            player = LearnedPlayer(seed=5, samples=8, time_budget=None, evaluation=_net(seed=2),
                                   reply=reply)
            values.append({str(move): value for move, value in player.evaluate(view)})
        policy, minimax = values
        assert policy.keys() == minimax.keys()
        assert all(minimax[move] <= policy[move] + 1e-9 for move in policy)
        lower += any(minimax[move] < policy[move] - 1e-9 for move in policy)
    assert lower >= 3


def test_a_determinized_match_is_legal_in_two_and_four_players() -> None:
    for players in (2, 4):
        rules = Rules.preset("scopa", players=players)
        game = Game.new(rules, seed=players)
        bots = [LearnedPlayer(seed=seat, samples=4, time_budget=None,
                              evaluation=_net(players - 1, seed=seat), reply="minimax")
                for seat in range(players)]
        play_match(game, bots)
        assert game.winner is not None


def test_mismatched_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="weighted guesses need an evaluation of the 'seat'"):
        LearnedPlayer(evaluation=_net(), weighting=2.0)
    with pytest.raises(ValueError, match="weighted guesses need an evaluation of the 'seat'"):
        LearnedPlayer(features="determinized", weighting=2.0)
    with pytest.raises(ValueError, match="reads the 'determinized' feature set, not 'seat'"):
        LearnedPlayer(evaluation=_net(), features="seat")
    with pytest.raises(ValueError, match="the minimax reply is one ply: plies must be 1; got 2"):
        LearnedPlayer(plies=2, reply="minimax")
    with pytest.raises(ValueError, match=r"unknown reply 'best'; the replies are"):
        LearnedPlayer(reply="best")
    rules = Rules.preset("scopa", players=4)
    with pytest.raises(ValueError, match="reads 1 other hands; 4 players have 3"):
        LearnedPolicy(rules, _net())
    game = Game.new(rules, seed=1)
    with pytest.raises(ValueError, match="reads 1 other hands; 4 players have 3"):
        LearnedPlayer(seed=1, evaluation=_net()).evaluate(game.view(game.to_move))


def test_a_determinized_file_plays_in_tournaments_with_its_leaf(tmp_path: Path) -> None:
    path = tmp_path / "determinized.npz"
    _net().save(path)
    bot = make_bot(level(path, samples=8, reply="minimax"), seed=2)
    assert isinstance(bot, LearnedPlayer)
    assert bot.features == "determinized" and bot.reply == "minimax" and bot.samples == 8
    with pytest.raises(ValueError, match="unknown reply 'best'"):
        make_bot(level(path) + ",reply=best")


def test_the_pipeline_trains_a_determinized_leaf(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("torch")
    out = tmp_path / "shipped.npz"
    assert main(["--matches", "4", "--seed", "4", "--hidden", "4", "--epochs", "1",
                 "--generations", "2", "--guesses", "2", "--reply", "minimax",
                 "--features", "determinized", "--seeds", "0", "--run", str(tmp_path),
                 "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    second = Evaluation.load(tmp_path / "scopa-2p-determinized-gen1.npz", "determinized")
    assert second.w1.shape == (FEATURES + 40, 4)
    meta = second.meta
    assert meta["features"] == "determinized" and meta["rules"] == "scopa-2p"
    assert meta["reply"] == "minimax"
    assert meta["policy"] == "learned generation 0, 2 guesses, the minimax reply"
    assert f"data sha256 {meta['data_sha256']}" in printed
    data = generate(Rules.preset("scopa"), 4, 4, features="determinized").positions
    first = Evaluation.load(tmp_path / "scopa-2p-determinized-gen0.npz", "determinized")
    assert first.meta["data_sha256"] == data.digest()
    assert out.read_bytes() == (tmp_path / "scopa-2p-determinized-gen1.npz").read_bytes()



def test_open_play_changes_the_play_not_the_records_of_a_position() -> None:
    # The playout policy that sees the next hand plays other matches from the same seed
    # (so other targets), repeats from its seed, and records positions the same way.
    rules = Rules.preset("scopa")
    blind = play_matches(rules, 3, seed=2, features="determinized")
    open_ = play_matches(rules, 3, seed=2, features="determinized", open_play=True)
    assert open_.digest() != blind.digest()
    assert open_.records.shape[1] == blind.records.shape[1]
    runs = [generate(rules, 60, seed=2, jobs=jobs, features="determinized",
                     open_play=True).positions.digest() for jobs in (1, 2)]
    assert runs[0] == runs[1]
    assert runs[0] != generate(rules, 60, seed=2, features="determinized").positions.digest()
