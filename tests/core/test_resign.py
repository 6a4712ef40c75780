"""Resigning: a seat gives the match up at any moment, its side loses, and the record keeps it so
that a replay ends the same way (issue 22, item 3)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scopa import Game, IllegalMoveError, Rules

from ..conftest import play_random, rules_variants, state

SCOPA = Rules.preset("scopa")


def test_resigning_ends_the_match_and_the_other_side_wins() -> None:
    game = Game.new(SCOPA, seed=3)
    game.play(game.legal_moves()[0])
    game.resign(1)
    assert game.is_over and game.winner == 0 and game.resigned == 1
    assert game.to_move is None and game.legal_moves() == []
    assert game.view(0).resigned == 1 and game.view(None).to_dict()["resigned"] == 1
    assert game.view(1).to_dict()["legal_moves"] == []
    with pytest.raises(IllegalMoveError, match="the match is over"):
        game.play("5D")


def test_a_seat_may_resign_when_it_is_not_its_turn() -> None:
    game = Game.new(SCOPA, seed=3)
    assert game.to_move == 0
    game.resign(1)
    assert game.winner == 0


def test_in_a_team_game_the_resigning_seats_side_loses() -> None:
    for seat in range(4):
        game = Game.new(Rules.preset("scopone"), seed=seat)
        game.resign(seat)
        assert game.winner == 1 - game.side_of(seat)


def test_with_three_sides_the_best_of_the_others_wins() -> None:
    rules = Rules.preset("scopa", players=3, target=1000)
    game = Game.new(rules, seed=11)
    rng = random.Random(11)
    while game.round_number == 0:
        game.play(rng.choice(game.legal_moves()))
    scores = game.scores
    others = [side for side in range(3) if side != 0]
    best = max(scores[side] for side in others)
    leaders = [side for side in others if scores[side] == best]
    game.resign(0)
    assert game.winner == leaders[0]  # seat 1 plays first after seat 0: its side wins a tie


def test_a_tie_among_the_others_goes_to_the_next_to_play() -> None:
    game = Game.new(Rules.preset("scopa", players=3), seed=2)  # nobody has a point yet
    game.resign(1)
    assert game.winner == 2
    again = Game.new(Rules.preset("scopa", players=3), seed=2)
    again.resign(2)
    assert again.winner == 0


def test_the_record_keeps_the_resignation_and_replays_to_the_same_end() -> None:
    game = Game.new(SCOPA, seed=5)
    rng = random.Random(5)
    for _ in range(9):
        game.play(rng.choice(game.legal_moves()))
    game.resign(0)
    record = game.record()
    assert record["resigned"] == 0 and record["winner"] == 1
    again = Game.replay(record)
    assert again.is_over and again.winner == 1 and again.resigned == 0
    assert again.record() == record
    assert state(again) == state(game)


def test_a_record_played_out_names_nobody_resigned() -> None:
    game = Game.new(SCOPA, seed=4)
    play_random(game, random.Random(4))
    assert "resigned" not in game.record() and game.resigned is None
    assert game.view(0).to_dict()["resigned"] is None


def test_resigning_an_over_match_is_refused_and_changes_nothing() -> None:
    played = Game.new(SCOPA, seed=4)
    play_random(played, random.Random(4))
    resigned = Game.new(SCOPA, seed=4)
    resigned.resign(0)
    for game in (played, resigned):
        before = state(game)
        for seat in (0, 1):
            with pytest.raises(IllegalMoveError, match="the match is over"):
                game.resign(seat)
        assert state(game) == before


@pytest.mark.parametrize("seat", [-1, 2, True, "0", None, 1.0])
def test_a_seat_not_at_the_table_cannot_resign(seat: object) -> None:
    game = Game.new(SCOPA, seed=1)
    before = state(game)
    with pytest.raises(ValueError, match=r"seat must be 0\.\.1"):
        game.resign(seat)
    assert state(game) == before


@pytest.mark.parametrize("resigned", [2, -1, True, "0"])
def test_a_record_with_a_bad_resignation_is_refused(resigned: object) -> None:
    record = Game.new(SCOPA, seed=1).record()
    with pytest.raises(ValueError, match="record: resigned"):
        Game.replay({**record, "resigned": resigned})


def test_a_record_resigned_after_the_match_was_over_is_refused() -> None:
    game = Game.new(SCOPA, seed=4)
    play_random(game, random.Random(4))
    with pytest.raises(ValueError, match=r"record: resigned .*the match is over"):
        Game.replay({**game.record(), "resigned": 0})


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(rules_variants()), st.integers(0, 2**32), st.integers(0, 200),
       st.integers(0, 5))
def test_any_resignation_ends_the_match_and_replays(
    rules: Rules, seed: int, moves: int, who: int
) -> None:
    """Whatever the game, the moment and the seat: the resigner's side loses, the winner is
    another side, and the record replays to the very same game."""
    game = Game.new(rules, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.is_over:
            break
        game.play(rng.choice(game.legal_moves()))
    if game.is_over:  # the last of the moves may have ended it: nothing is left to resign
        return
    seat = who % rules.players
    game.resign(seat)
    assert game.winner is not None and game.winner != game.side_of(seat)
    assert game.to_move is None and game.legal_moves() == []
    again = Game.replay(game.record())
    assert state(again) == state(game) and again.resigned == seat
