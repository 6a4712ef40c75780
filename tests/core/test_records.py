"""Recorded matches replay to the same breakdowns, totals and winner (tests/data).

The data was made once by seeded random play, checked move by move by tests/referee.py
(which reads the rules independently of the engine) and by hand for several rounds.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from scopa import Game, Rules

from .referee import Referee

DATA = json.loads((Path(__file__).parent / "data" / "recorded_games.json").read_text())
GAMES: list[dict[str, Any]] = DATA["games"]


def test_the_data_covers_every_preset_and_player_count() -> None:
    assert len(GAMES) >= 30
    seen = {(g["record"]["rules"]["name"], g["record"]["rules"]["players"]) for g in GAMES}
    for name in ["scopa", "escoba", "scopa-classic", "escoba-classic", "scopa-assi"]:
        for players in (2, 3, 4, 6):
            assert (name, players) in seen
    assert ("scopone", 4) in seen and ("scopone-scientifico", 4) in seen
    assert any(g["record"]["rules"]["teams"] == 3 for g in GAMES)
    assert any(g["record"]["deck"] is not None for g in GAMES)


@pytest.mark.parametrize("recorded", GAMES, ids=[g["name"] for g in GAMES])
def test_recorded_game_replays_to_the_same_scores(recorded: dict[str, Any]) -> None:
    """The whole record through Game.replay: this also pins how a seed shuffles, so that
    stored records keep replaying."""
    record = recorded["record"]
    game = Game.replay(record)
    assert game.is_over
    assert game.record() == record
    assert [[s.to_dict() for s in sides] for sides in game.round_scores] == recorded["rounds"]
    assert game.scores == recorded["scores"] == record["scores"]
    assert game.winner == recorded["winner"] == record["winner"]
    totals = [sum(r[side]["total"] for r in recorded["rounds"]) for side in range(len(game.scores))]
    assert totals == recorded["scores"]


def standing_decks(rules: Rules, decks: list[list[str]]) -> list[list[str]]:
    """The deck each round was played with (a deck redealt for kings did not stand)."""
    if not rules.kings_redeal:
        return decks
    start = rules.players * rules.hand_size
    return [d for d in decks if sum(c[0] == "K" for c in d[start : start + rules.table_size]) < 3]


@pytest.mark.parametrize("recorded", GAMES, ids=[g["name"] for g in GAMES])
def test_each_recorded_round_from_its_deck(recorded: dict[str, Any]) -> None:
    """Round by round from the recorded decks: the rules, whatever the shuffle.

    Round r of a match is round 0 of a fresh game dealt from the same deck, with seats
    turned by r (the leader of round r is seat r mod n), so side s of the fresh game is
    side (s + r) mod sides of the match.
    """
    record = recorded["record"]
    rules = Rules.from_dict(record["rules"])
    decks = standing_decks(rules, record["decks"])
    rounds = recorded["rounds"]
    assert len(decks) == len(rounds)
    plays = 40 - rules.table_size
    assert len(record["moves"]) == plays * len(rounds)
    for r, deck in enumerate(decks):
        game = Game.new(rules, seed=0, deck=deck)
        for code in record["moves"][r * plays : (r + 1) * plays]:
            game.play(code)
        assert len(game.round_scores) == 1
        for side, score in enumerate(game.round_scores[0]):
            assert score.to_dict() == rounds[r][(side + r) % rules.sides], (r, side)


@pytest.mark.parametrize("recorded", GAMES[::4], ids=[g["name"] for g in GAMES[::4]])
def test_recorded_game_under_the_referee(recorded: dict[str, Any]) -> None:
    record = recorded["record"]
    rules = Rules.from_dict(record["rules"])
    game = Game.new(rules, seed=record["seed"], deck=record["deck"])
    referee = Referee(game)
    for code in record["moves"]:
        move = next(m for m in game.legal_moves() if str(m) == code)
        referee.play(move)
    assert referee.rounds_checked == len(recorded["rounds"])
    assert game.scores == recorded["scores"]


# -- bad records -----------------------------------------------------------------------


def a_record() -> dict[str, Any]:
    return copy.deepcopy(GAMES[0]["record"])


def test_replay_refuses_a_tampered_move() -> None:
    record = a_record()
    game = Game.replay(record)
    # replace the 5th move by one the rules do not allow there
    probe = Game.replay({**record, "moves": record["moves"][:4], "decks": None})
    hand = probe.hand(probe.to_move)
    legal = {str(m) for m in probe.legal_moves()}
    other = next(str(c) for c in game.table + [c for p in game.piles for c in p] if c not in hand)
    assert other not in legal
    record["moves"][4] = other
    with pytest.raises(ValueError, match=r"move 5 \("):
        Game.replay(record)


def test_replay_refuses_tampered_decks() -> None:
    record = a_record()
    record["decks"][0] = list(reversed(record["decks"][0]))
    with pytest.raises(ValueError):
        Game.replay(record)


@pytest.mark.parametrize(
    "change",
    [
        {"format": 99},
        {"rules": "scopa"},
        {"rules": {"players": 5}},
        {"moves": "5D"},
        {"seed": -3},
    ],
)
def test_replay_refuses_malformed_records(change: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        Game.replay({**a_record(), **change})


def test_replay_refuses_non_records() -> None:
    with pytest.raises(ValueError):
        Game.replay([])  # type: ignore[arg-type]


def test_a_partial_record_replays_to_the_middle_of_the_match() -> None:
    record = a_record()
    cut = {**record, "moves": record["moves"][:50], "decks": None}
    game = Game.replay(cut)
    assert len(game.moves) == 50
    assert not game.is_over
