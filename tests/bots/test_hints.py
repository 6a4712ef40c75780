"""Hints: the master's move with a reason read off what the move does."""

from __future__ import annotations

import dataclasses
import re

from scopa import Game, Move, Rules, View
from scopa.players import suggest
from scopa.players.hints import REASONS, Reason, explain, hint, reason

from ..conftest import cards, deal


def view_of(rules: Rules, hand: str, table: str, mine: str = "", theirs: str = "") -> View:
    """Seat 0's view, to move, in a two-player round; ``mine``/``theirs`` are the piles
    and the opponent holds three cards."""
    seen = sum(len(cards(codes)) for codes in (hand, table, mine, theirs))
    return View(
        rules=rules,
        seat=0,
        hand=tuple(cards(hand)),
        table=tuple(cards(table)),
        hand_sizes=(len(cards(hand)), 3),
        stock_size=40 - seen - 3,
        piles=(tuple(cards(mine)), tuple(cards(theirs))),
        sweeps=(0, 0),
        scores=(0, 0),
        to_move=0,
        dealer=1,
        round_number=0,
    )


def test_hint_sweeps_the_table() -> None:
    move, why = suggest(view_of(Rules.preset("scopa"), "7C 4H", "3H 4S"))
    assert str(move) == "7Cx3H+4S"
    assert why == "sweeps the table: a point"


def test_hint_takes_the_settebello() -> None:
    rules = Rules.preset("scopa")
    game = Game.new(rules, seed=1, deck=deal(rules, ["7C 3C KS", "QS JS 2D"], "7D 3S 4H QD"))
    move, why = suggest(game.view(0))
    assert "7D" in {str(card) for card in move.captured}
    assert why == "takes the settebello (the 7 of coins)"


def test_hint_for_the_only_move() -> None:
    rules = Rules.preset("scopa")
    move, why = suggest(view_of(rules, "5C", "5H KS"))
    assert str(move) == "5Cx5H"
    assert why.startswith("the only legal move")


def test_no_sweep_point_on_the_round_s_last_play() -> None:
    view = dataclasses.replace(
        view_of(Rules.preset("scopa"), "7C", "3H 4S"), hand_sizes=(1, 0), stock_size=0
    )
    assert reason(view, Move.parse("7Cx3H+4S")) == "takes the whole table"


def test_reason_for_coins_and_sevens() -> None:
    rules = Rules.preset("escoba")
    view = view_of(rules, "5D 6C", "4D 6D KS 2H")
    assert reason(view, Move.parse("5Dx4D+6D")) == "takes 3 coins"
    view = view_of(rules, "AC 6C", "7H KS 2H")
    assert reason(view, Move.parse("6Cx2H+7H")) == "takes the 7 of cups: a seven for primiera"


def test_reason_for_a_safe_trail_in_scopa() -> None:
    view = view_of(Rules.preset("scopa"), "2C 3H", "KS QH")
    assert reason(view, Move.parse("2C")) == "leaves 21 on the table: no single card sweeps it"


def test_reason_when_every_sweeping_card_is_gone() -> None:
    # The table will hold 6, and all four sixes are in the piles.
    view = view_of(Rules.preset("scopa"), "2C KH", "AS 3H", mine="6D 6H", theirs="6S 6C")
    assert reason(view, Move.parse("2C")) == "leaves 6 on the table: no 6 is left to sweep it"


def test_reason_when_no_card_makes_fifteen() -> None:
    rules = Rules.preset("escoba")
    # 12 on the table needs a 3: two are on the table, two in this hand.
    view = view_of(rules, "3D 3H 6C", "3S 3C")
    assert reason(view, Move.parse("6C")) == "leaves 12 on the table: no 3 is left to make 15"
    view = view_of(rules, "AD KH", "AS")
    assert reason(view, Move.parse("AD")) == "leaves 2 on the table: no card makes 15 with it"


def test_reason_keeps_the_settebello() -> None:
    view = view_of(Rules.preset("scopa"), "7D 2C", "AS")
    assert reason(view, Move.parse("2C")) == "keeps the 7 of coins safe in hand"


def test_reason_for_a_plain_trail() -> None:
    view = view_of(Rules.preset("scopa"), "2C 3H", "AS")
    assert reason(view, Move.parse("3H")) == (
        "nothing to capture: lays down the 3 of cups, the card that costs least"
    )
    view = view_of(Rules.preset("scopa", must_capture="none"), "2C 3H", "2S 4S")
    assert reason(view, Move.parse("3H")) == (
        "keeps its captures for later and lays down the 3 of cups"
    )


def test_reasons_are_keys_and_parameters_a_client_can_translate() -> None:
    # Numbers stay numbers, cards and ranks stay codes: the client names them in its language.
    view = view_of(Rules.preset("scopa"), "2C KH", "AS 3H", mine="6D 6H", theirs="6S 6C")
    assert explain(view, Move.parse("2C")) == Reason("gone_sweep", {"total": 6, "rank": "6"})
    view = view_of(Rules.preset("escoba"), "AC 6C", "7H KS 2H")
    assert explain(view, Move.parse("6Cx2H+7H")) == Reason("seven", {"card": "7H"})
    move, why = hint(view_of(Rules.preset("scopa"), "7C 4H", "3H 4S"))
    assert (str(move), why) == ("7Cx3H+4S", Reason("sweep"))
    assert suggest(view_of(Rules.preset("scopa"), "7C 4H", "3H 4S"))[1] == str(why)


def test_every_reason_names_only_known_parameters() -> None:
    for key, text in REASONS.items():
        assert set(re.findall(r"\{(\w+)\}", text)) <= {"count", "total", "card", "rank"}, key
    assert str(Reason("cards_gone_fifteen", {"count": 3, "total": 7, "rank": "J"})) == (
        "takes 3 cards and leaves 7 on the table: no Jack is left to make 15"
    )
