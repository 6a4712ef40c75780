"""Generations of the self-play loop: the learned policy reads only what its seat knows, its
data repeats from a seed, and the pipeline keeps every generation with its figures."""

from __future__ import annotations

import hashlib
import random
from pathlib import Path

import numpy as np
import pytest

from scopa import Rules
from scopa.cards import ALL_CARDS_MASK, ids_of
from scopa.learning.__main__ import main
from scopa.learning.evaluation import Evaluation, WeightsError, evaluation_for
from scopa.learning.learned import LearnedPlayer
from scopa.learning.levels import level
from scopa.learning.selfplay import LearnedPolicy, generate, play_matches
from scopa.round import Round
from scopa.tournament import make_bot

from .positions import hidden_reshuffled, midgame


@pytest.mark.parametrize("players", [2, 4])
def test_the_learned_policy_reads_only_what_its_seat_knows(players: int) -> None:
    rules = Rules.preset("scopa", players=players)
    policy = LearnedPolicy(rules, _net(), guesses=6)
    differs = 0
    for seed in range(12):
        state = midgame(rules, seed)
        other = hidden_reshuffled(state, seed + 100)
        differs += other.hands != state.hands
        moves = state.legal()
        chosen = policy.choose(state, moves, random.Random(seed))
        assert chosen in moves
        assert policy.choose(other, moves, random.Random(seed)) == chosen
    assert differs >= 10


def _net(seed: int = 0) -> Evaluation:
    from scopa.learning.evaluation import OUTPUTS
    from scopa.learning.features import FEATURES

    rng = np.random.default_rng(seed)
    return Evaluation(
        rng.normal(size=(FEATURES, 8)).astype(np.float32),
        rng.normal(size=8).astype(np.float32),
        rng.normal(size=(8, OUTPUTS)).astype(np.float32),
        rng.normal(size=OUTPUTS).astype(np.float32),
        meta={},
    )


def test_the_learned_policy_takes_a_sweep_with_the_settebello() -> None:
    # The seven of coins (card 6) takes A + 2 + 4 (the whole table): the settebello and a
    # sweep. The hand's 3 and 6 take part of the table; the other cards are in the piles.
    rules = Rules.preset("scopa")
    hand, table, other = (1 << 6) | (1 << 12) | (1 << 25), (1 << 10) | (1 << 21) | (1 << 33), \
        (1 << 13) | (1 << 23)
    stock = [1 << card for card in range(34, 40)]
    rest = [1 << card for card in ids_of(ALL_CARDS_MASK & ~(hand | table | other | sum(stock)))]
    state = Round.position(rules, [hand, other], table, [sum(rest[:13]), sum(rest[13:])],
                           [0, 0], stock, 0, 1)
    moves = state.legal()
    assert len(moves) > 1
    chosen = LearnedPolicy(rules, evaluation_for(rules)).choose(state, moves, random.Random(1))
    assert chosen.card_bit == 1 << 6 and chosen.captured_mask == table


def test_a_later_generation_plays_differently_and_repeats_from_its_seed() -> None:
    rules = Rules.preset("scopa")
    policy = LearnedPolicy(rules, evaluation_for(rules), guesses=2)
    alone = generate(rules, 60, seed=3, jobs=1, policy=policy).positions
    assert generate(rules, 60, seed=3, jobs=2, policy=policy).positions.digest() == alone.digest()
    # The first chunk of the run is its first 50 matches, played from the chunk's seed.
    chunk = play_matches(rules, 50, 3 * 1_000_003, policy=policy)
    assert np.array_equal(chunk.records, alone.records[: len(chunk)])
    assert alone.digest() != generate(rules, 60, seed=3, jobs=1).positions.digest()


def test_bad_guesses_are_refused() -> None:
    rules = Rules.preset("scopa")
    with pytest.raises(ValueError, match="guesses must be 1 or more; got 0"):
        LearnedPolicy(rules, evaluation_for(rules), guesses=0)
    with pytest.raises(ValueError, match="plies must be 0 or more; got -1"):
        LearnedPolicy(rules, evaluation_for(rules), plies=-1)


def test_a_generation_plays_in_tournaments_by_its_weights_file(tmp_path: Path) -> None:
    path = tmp_path / "gen.npz"
    _net(3).save(path)
    bot = make_bot(level(path, samples=8, plies=0), seed=2)
    assert isinstance(bot, LearnedPlayer)
    assert bot.samples == 8 and bot.plies == 0 and bot.seed == 2
    assert bot.evaluation is not None and np.array_equal(bot.evaluation.w1, _net(3).w1)
    with pytest.raises(WeightsError, match=f"the learned weights file {tmp_path / 'no.npz'}"):
        make_bot(level(tmp_path / "no.npz"))
    with pytest.raises(ValueError, match="'depth=3' is no setting of the learned level"):
        make_bot(level(path) + ",depth=3")
    with pytest.raises(ValueError, match=r"unknown settings \['depth'\]"):
        level(path, depth=3)


@pytest.mark.parametrize(
    ("arguments", "sentence"),
    [
        (["--generations", "0"], "generations must be 1 or more; got 0"),
        (["--generations", "2", "--ship", "2"], "--ship must name a generation from 0 to 1; got 2"),
        (["--seeds", "-1"], "seeds must be 0 or more; got -1"),
    ],
)
def test_the_pipeline_refuses_bad_counts(
    arguments: list[str], sentence: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main([*arguments, "--run", str(tmp_path), "--out", str(tmp_path / "x.npz")]) == 2
    assert sentence in capsys.readouterr().err
    assert not list(tmp_path.iterdir())


def test_the_pipeline_keeps_each_generation_and_prints_its_figures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("torch")
    out = tmp_path / "shipped.npz"
    assert main(["--matches", "6", "--seed", "4", "--hidden", "4", "--epochs", "1",
                 "--generations", "2", "--guesses", "2", "--seeds", "1", "--against", "greedy",
                 "--ship", "0", "--run", str(tmp_path), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    first = Evaluation.load(tmp_path / "scopa-2p-gen0.npz").meta
    second = Evaluation.load(tmp_path / "scopa-2p-gen1.npz").meta
    assert first["generation"] == 0 and first["policy"] == "playout policy"
    assert second["generation"] == 1 and second["data_seed"] == 5
    assert second["policy"] == "learned generation 0, 2 guesses, 1 plies"
    assert second["guesses"] == 2 and second["plies"] == 1
    gen0 = (tmp_path / "scopa-2p-gen0.npz").read_bytes()
    assert second["parent_sha256"] == hashlib.sha256(gen0).hexdigest()
    assert out.read_bytes() == gen0
    for meta in (first, second):
        assert f"data sha256 {meta['data_sha256']}" in printed
    # One figure line per generation after its training, and again in the summary.
    for number in (0, 1):
        lines = [line for line in printed.splitlines()
                 if line.startswith(f"generation {number} vs greedy: ")]
        assert len(lines) == 2 and "won" in lines[0] and "paired 95% CI" in lines[0]
