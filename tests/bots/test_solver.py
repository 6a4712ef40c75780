"""The exact endgame solver: hand-made endings with a known best line, and agreement with
the referee's plain minimax on random small endings."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from scopa import CARDS, Card, Rules
from scopa.cards import cards_of
from scopa.players.solver import Solver
from scopa.round import Round

from ..core.referee import referee_minimax


def mask(codes: str) -> int:
    return sum(Card.parse(code).bit for code in codes.split())


def difference(points: Sequence[int]) -> float:
    """Side 0's round points minus the best other side's: easy to check by hand."""
    return points[0] - max(points[1:])


def values(rules: Rules, deal: Round) -> dict[str, float]:
    return {str(move): value for move, value in Solver(rules, 0, difference).move_values(deal)}


def test_sweeps_with_the_settebello_rather_than_the_other_seven() -> None:
    # Either seven sweeps 3+4. Sweeping with 7C keeps 7D in hand; the opponent then
    # trails 2S, 7D cannot take it and must be trailed, and 7H takes it with the
    # round's last play (no sweep), the 2S with it.
    rules = Rules.preset("scopa")
    deal = Round.position(
        rules, [mask("7D 7C"), mask("7H 2S")], mask("3H 4S"), [0, 0], [0, 0], [], 0, -1
    )
    found = values(rules, deal)
    assert found == {"7Dx3H+4S": 2, "7Cx3H+4S": -2}


def test_holds_a_capture_back_to_make_the_last_one() -> None:
    # Any card may be trailed (must_capture="none"). Taking AH now leaves 7S: the
    # opponent trails 3S and keeps 5H, so my 5S cannot capture and is trailed, and
    # 5H takes it with the last capture and the leftovers. Trailing AS instead lets
    # 5S take A+A+3 (or the 5H) whatever the opponent does, and then the last
    # capture, with everything left, is mine.
    rules = Rules.preset("scopa", must_capture="none")
    deal = Round.position(
        rules, [mask("AS 5S"), mask("3S 5H")], mask("AH 7S"), [0, 0], [0, 0], [], 0, 1
    )
    found = values(rules, deal)
    assert max(found, key=lambda move: found[move]) == "AS"
    assert found["AS"] > found["ASxAH"]
    assert found["AS"] > found["5S"]


def test_last_play_sweep_does_not_score_but_the_leftovers_do() -> None:
    # One card each, mine last. Taking the table with the round's last play is no
    # sweep in the scopa preset; it still takes the cards.
    rules = Rules.preset("scopa")
    deal = Round.position(
        rules, [mask("5D"), mask("")], mask("5C"), [mask("KD"), 0], [0, 0], [], 0, 0
    )
    solver = Solver(rules, 0, lambda points: points[0] * 10 - points[1])
    ((move, value),) = solver.move_values(deal)
    assert str(move) == "5Dx5C"
    # cards, coins (KD 5D), primiera: three points, no sweep.
    assert value == 30


def brute_force(rules: Rules, state: Round) -> float:
    """The referee's minimax from the same position, on cards."""
    return referee_minimax(
        rules,
        [set(cards_of(hand)) for hand in state.hands],
        set(cards_of(state.table)),
        [set(cards_of(pile)) for pile in state.piles],
        list(state.sweeps),
        [CARDS[bit.bit_length() - 1] for bit in state.stock[state.dealt :]],
        state.to_move,
        None if state.last < 0 else state.last,
        difference,
    )


def random_ending(rules: Rules, rng: random.Random, cards_each: int, stock_deals: int) -> Round:
    """A random ending: ``cards_each`` cards in every hand, a table, some captured cards,
    and ``stock_deals`` more deals in the stock (all known)."""
    players = rules.players
    deck = [1 << i for i in range(40)]
    rng.shuffle(deck)
    hands = [sum(deck[k * cards_each : (k + 1) * cards_each]) for k in range(players)]
    used = players * cards_each
    stock_size = stock_deals * players * rules.hand_size
    stock = deck[used : used + stock_size]
    used += stock_size
    table = sum(deck[used : used + rng.randrange(0, 4)])
    used += table.bit_count()
    piles = [0] * rules.sides
    for bit in deck[used:]:
        piles[rng.randrange(rules.sides)] |= bit
    sweeps = [rng.randrange(2) for _ in range(rules.sides)]
    last = rng.randrange(-1, rules.sides)
    return Round.position(rules, hands, table, piles, sweeps, stock, 0, last)


@pytest.mark.parametrize(
    ("rules", "cards_each", "stock_deals"),
    [
        (Rules.preset("scopa"), 3, 0),
        (Rules.preset("escoba"), 3, 0),
        (Rules.preset("scopa-classic"), 3, 0),
        (Rules.preset("escoba-classic"), 2, 0),
        (Rules.preset("scopa-assi"), 3, 0),
        (Rules.preset("scopa", hand_size=1, table_size=0), 1, 2),
        (Rules.preset("escoba"), 2, 1),
        (Rules.preset("scopa", players=4), 2, 0),
        (Rules.preset("escoba", players=3), 2, 0),
        (Rules.preset("scopa", players=6, teams=3), 1, 0),
    ],
    ids=lambda value: value.name if isinstance(value, Rules) else str(value),
)
def test_solver_agrees_with_brute_force(rules: Rules, cards_each: int, stock_deals: int) -> None:
    rng = random.Random(f"{rules.name}{rules.players}{cards_each}")
    for _ in range(20):
        deal = random_ending(rules, rng, cards_each, stock_deals)
        solver = Solver(rules, 0, difference)
        solved = max(value for _, value in solver.move_values(deal))
        assert solved == brute_force(rules, deal)
