"""Offline play's table (scopa.local_table, issue 37): the room's messages from the core alone.
Every state's view is the core's view of the same match replayed apart, a refused move is an
error that changes nothing, a round's end is held for the person, a rematch deals a new match,
and one seed plays the same match again, the master's moves included."""

from __future__ import annotations

import random
from typing import Any

import pytest

from scopa import Game, Rules
from scopa.local_table import CODE, LocalTable
from scopa.players.outlook import outlook

Message = dict[str, Any]


def replayed(table: LocalTable) -> Game:
    """The table's match played again from its seed and moves, apart from the table."""
    game = Game.new(table.rules, seed=table.game.seed)
    for move in table.game.moves:
        game.play(move)
    return game


def check_states(table: LocalTable, messages: list[Message]) -> None:
    """Each state says the version it is at and the core's own view of the person's seat."""
    for message in messages:
        if message["type"] == "state":
            assert message["table"] == CODE and message["match"] == table.match
            assert message["version"] == len(table.game.moves)
            assert message["view"] == replayed(table).view(table.seat).to_dict()


def person_move(table: LocalTable, rng: random.Random) -> Message:
    move = rng.choice(table.game.legal_moves())
    return {"type": "move", "move": str(move), "version": table.version, "ref": 1}


def play_out(table: LocalTable, rng: random.Random) -> list[Message]:
    """The match to its end, the person choosing at random and continuing each round's end:
    every message the table sent, in order."""
    sent = table.receive({"type": "hello", "continues": True})
    check_states(table, sent)
    while not table.game.is_over:
        if table.bot_to_move():
            out = table.play_bot()
        elif table.hold is not None:
            assert not table.bot_to_move()
            out = table.receive({"type": "continue", "round": table.hold, "ref": "continue"})
        else:
            out = table.receive(person_move(table, rng))
        assert out and not [m for m in out if m["type"] == "error"], out
        check_states(table, out)
        sent += out
    return sent


def test_the_hello_is_answered_as_a_tables_socket_answers_it() -> None:
    table = LocalTable(Rules.preset("escoba"), levels=["expert"], seed=5, name="Ada")
    welcome, shown, state = table.receive({"type": "hello"})
    assert welcome == {"type": "welcome", "table": CODE, "seat": 0, "side": 0, "name": "Ada",
                       "hints": True, "rated": False, "casual": None}
    assert shown["type"] == "table"
    info = shown["table"]
    assert info["status"] == "playing" and info["rules"] == Rules.preset("escoba").to_dict()
    assert [(seat["kind"], seat["name"], seat["level"]) for seat in info["seats"]] == [
        ("human", "Ada", None), ("bot", "Bot 2", "expert")]
    assert state["version"] == 0 and state["play"] is None and state["clock"] is None
    assert state["view"] == table.game.view(0).to_dict()


@pytest.mark.parametrize("level", ["random", "greedy", "expert", "master"])
def test_a_match_against_each_level_sends_the_cores_views(level: str) -> None:
    table = LocalTable(Rules.preset("scopa", target=1), levels=[level], seed=11)
    sent = play_out(table, random.Random(1))
    kinds = [message["type"] for message in sent]
    assert kinds[-2:] == ["over", "record"]
    over, record = sent[-2:]
    assert over["winner"] == table.game.winner and over["scores"] == table.game.scores
    assert record["record"] == table.game.record() and record["opponents"] == [level]
    assert record["look"] == "french" and record["seat"] == 0
    assert Game.replay(record["record"]).scores == table.game.scores


def test_a_refused_move_is_an_error_and_changes_nothing() -> None:
    table = LocalTable(Rules.preset("scopa"), levels=["greedy"], seed=2)
    table.receive({"type": "hello"})
    while table.bot_to_move():
        table.play_bot()
    before = (table.version, table.game.view(0).to_dict())
    legal = {str(move) for move in table.game.legal_moves()}
    not_held = next(card for card in ("AD", "2D", "3D", "AC", "2C", "3C")
                    if card not in {str(c) for c in table.game.hand(0)})
    for message, code in [
        ({"type": "move", "move": "nonsense", "version": table.version}, "invalid_move"),
        ({"type": "move", "move": not_held, "version": table.version}, "illegal_move"),
        ({"type": "move", "move": sorted(legal)[0], "version": table.version + 3},
         "stale_version"),
        ({"type": "move", "move": sorted(legal)[0]}, "bad_message"),
        ({"type": "rematch"}, "match_on"),
        ({"type": "continue", "round": 1}, "not_held"),
        ({"type": "dance"}, "unknown_type"),
    ]:
        (answer,) = table.receive({**message, "ref": 9})
        assert answer["type"] == "error" and answer["code"] == code, answer
        assert answer["ref"] == 9 and answer["message"]
        assert (table.version, table.game.view(0).to_dict()) == before
    table.receive({"type": "move", "move": sorted(legal)[0], "version": table.version})
    if table.bot_to_move():
        (answer,) = table.receive({"type": "move", "move": sorted(legal)[0], "version": 1})
        assert answer["code"] == "not_your_turn"
        (answer,) = table.receive({"type": "hint"})
        assert answer["code"] == "not_your_turn"


def test_a_hint_is_a_legal_move_of_the_version() -> None:
    table = LocalTable(Rules.preset("scopa"), levels=["random"], seed=4)
    table.receive({"type": "hello"})
    while table.bot_to_move():
        table.play_bot()
    (answer,) = table.receive({"type": "hint", "ref": "hint"})
    assert answer["type"] == "hint" and answer["ref"] == "hint"
    assert answer["version"] == table.version and answer["match"] == table.match
    assert answer["move"] in {str(move) for move in table.game.legal_moves()}
    assert answer["reason"]["key"] and answer["reason"]["text"]


def test_a_rounds_end_is_held_until_the_person_continues() -> None:
    table = LocalTable(Rules.preset("scopa", target=21), levels=["greedy"], seed=8)
    table.receive({"type": "hello", "continues": True})
    rng = random.Random(3)
    while not table.game.round_scores:
        out = table.play_bot() if table.bot_to_move() else table.receive(person_move(table, rng))
    assert table.hold == 1 and not table.bot_to_move()
    assert out[-1] == table.table_message() and out[-1]["table"]["continuing"] == [0]
    assert table.play_bot() == []
    (shown,) = table.receive({"type": "continue", "round": 1})
    assert shown["table"]["continuing"] == [] and table.hold is None


def test_a_sync_lists_the_plays_missed() -> None:
    table = LocalTable(Rules.preset("scopa"), levels=["expert"], seed=9)
    table.receive({"type": "hello"})
    rng = random.Random(2)
    for _ in range(5):
        if table.bot_to_move():
            table.play_bot()
        else:
            table.receive(person_move(table, rng))
    (state,) = table.receive({"type": "sync", "match": 1, "version": 2})
    assert state["missed"] == [play.to_dict() for play in replayed(table).view(None).plays][2:]


def test_a_resignation_ends_the_match_with_its_record() -> None:
    table = LocalTable(Rules.preset("scopa", players=3), levels=["random", "greedy"], seed=6,
                       seat=1)
    table.receive({"type": "hello"})
    assert [seat["level"] for seat in table.info()["seats"]] == ["random", None, "greedy"]
    kinds = [message["type"] for message in table.receive({"type": "resign", "ref": "resign"})]
    assert kinds == ["state", "table", "over", "record"]
    assert table.game.resigned == 1 and table.status == "over"
    assert Game.replay(table.record()).resigned == 1


def test_a_rematch_deals_a_new_match() -> None:
    table = LocalTable(Rules.preset("scopa", target=1), levels=["greedy"], seed=12)
    first = play_out(table, random.Random(5))[-1]["record"]
    shown, state = table.receive({"type": "rematch"})
    assert table.match == 2 and shown["table"]["match"] == 2
    assert shown["table"]["status"] == "playing"
    assert state["match"] == 2 and state["version"] == 0 and state["view"]["winner"] is None
    second = play_out(table, random.Random(5))[-1]["record"]
    assert second["seed"] != first["seed"]
    # Seeds JavaScript holds exactly: the page keeps and uploads the record as its numbers.
    assert max(first["seed"], second["seed"]) < 2**53


def test_one_seed_plays_the_same_match_again() -> None:
    def transcript() -> list[Message]:
        table = LocalTable(Rules.preset("escoba", target=1), levels=["master"], seed=21)
        return play_out(table, random.Random(7))

    assert transcript() == transcript()


def test_prepare_does_the_masters_one_time_work_and_changes_no_choice() -> None:
    """The worker calls prepare while the person looks at the first deal: afterwards the
    master finds its outlook of these rules made, and plays what an unprepared table plays."""
    rules = Rules.preset("scopa", target=5)  # a rule set no other test of this file calibrates

    def transcript(prepared: bool) -> list[Message]:
        table = LocalTable(rules, levels=["master"], seed=33)
        if prepared:
            outlook.cache_clear()
            table.prepare()
            made = outlook.cache_info()
            assert made.currsize == 1
            sent = play_out(table, random.Random(4))
            assert outlook.cache_info().misses == made.misses  # never made again
            return sent
        return play_out(table, random.Random(4))

    assert transcript(prepared=True) == transcript(prepared=False)


def test_impossible_tables_are_refused() -> None:
    with pytest.raises(ValueError, match="bot levels"):
        LocalTable(Rules.preset("scopone"), levels=["random", "greedy"], seed=1)
    with pytest.raises(ValueError, match="unknown bot level"):
        LocalTable(Rules.preset("scopa"), levels=["grandmaster"], seed=1)
    with pytest.raises(ValueError, match="deck look"):
        LocalTable(Rules.preset("scopa"), levels=["random"], seed=1, look="tarot")
