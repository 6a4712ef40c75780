"""The exact endgame solver: hand-made endings with a known best line, and agreement with
a plain minimax written independently on random small endings."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from scopa import Card, Rules
from scopa.capture import legal_moves_of
from scopa.players.simulation import Deal
from scopa.players.solver import Solver
from scopa.scoring import score_piles


def mask(codes: str) -> int:
    return sum(Card.parse(code).bit for code in codes.split())


def difference(points: Sequence[int]) -> float:
    """Side 0's round points minus the best other side's: easy to check by hand."""
    return points[0] - max(points[1:])


def values(rules: Rules, deal: Deal) -> dict[str, float]:
    return {str(move): value for move, value in Solver(rules, 0, difference).move_values(deal)}


def test_sweeps_with_the_settebello_rather_than_the_other_seven() -> None:
    # Either seven sweeps 3+4. Sweeping with 7C keeps 7D in hand; the opponent then
    # trails 2S, 7D cannot take it and must be trailed, and 7H takes it with the
    # round's last play (no sweep), the 2S with it.
    rules = Rules.preset("scopa")
    deal = Deal([mask("7D 7C"), mask("7H 2S")], mask("3H 4S"), [0, 0], [0, 0], [], 0, -1)
    found = values(rules, deal)
    assert found == {"7Dx3H+4S": 2, "7Cx3H+4S": -2}


def test_holds_a_capture_back_to_make_the_last_one() -> None:
    # Any card may be trailed (must_capture="none"). Taking AH now leaves 7S: the
    # opponent trails 3S and keeps 5H, so my 5S cannot capture and is trailed, and
    # 5H takes it with the last capture and the leftovers. Trailing AS instead lets
    # 5S take A+A+3 (or the 5H) whatever the opponent does, and then the last
    # capture, with everything left, is mine.
    rules = Rules.preset("scopa", must_capture="none")
    deal = Deal([mask("AS 5S"), mask("3S 5H")], mask("AH 7S"), [0, 0], [0, 0], [], 0, 1)
    found = values(rules, deal)
    assert max(found, key=lambda move: found[move]) == "AS"
    assert found["AS"] > found["ASxAH"]
    assert found["AS"] > found["5S"]


def test_last_play_sweep_does_not_score_but_the_leftovers_do() -> None:
    # One card each, mine last. Taking the table with the round's last play is no
    # sweep in the scopa preset; it still takes the cards.
    rules = Rules.preset("scopa")
    deal = Deal([mask("5D"), mask("")], mask("5C"), [mask("KD"), 0], [0, 0], [], 0, 0)
    solver = Solver(rules, 0, lambda points: points[0] * 10 - points[1])
    ((move, value),) = solver.move_values(deal)
    assert str(move) == "5Dx5C"
    # cards, coins (KD 5D), primiera: three points, no sweep.
    assert value == 30


def brute_force(rules: Rules, deal: Deal) -> float:
    """Side 0's plain minimax over every line to the round's end: no pruning, no memory."""
    hands, table, piles, sweeps = list(deal.hands), deal.table, list(deal.piles), list(deal.sweeps)
    stock, seat, last = list(deal.stock), deal.seat, deal.last
    if not hands[seat]:
        if not stock:
            if last >= 0:
                piles[last] |= table
            points = [score.total for score in score_piles(rules, piles, sweeps)]
            return difference(points)
        size = rules.hand_size
        for k in range(rules.players):
            hands[(seat + k) % rules.players] = sum(stock[k * size : (k + 1) * size])
        stock = stock[rules.players * size :]
    outcomes = []
    for move in legal_moves_of(rules, hands[seat], table):
        after_hands = list(hands)
        after_hands[seat] ^= move.card_bit
        after_piles, after_sweeps, after_last = list(piles), list(sweeps), last
        if move.is_capture:
            mover = rules.side_of(seat)
            after_piles[mover] |= move.captured_mask | move.card_bit
            after_last = mover
            empties = move.captured_mask == table
            ace_all = rules.ace_takes_all and move.card.rank_index == 0
            last_play = not stock and not any(after_hands)
            if empties and not ace_all and (rules.last_play_sweep or not last_play):
                after_sweeps[mover] += 1
            after_table = table ^ move.captured_mask
        else:
            after_table = table | move.card_bit
        child = Deal(
            after_hands,
            after_table,
            after_piles,
            after_sweeps,
            stock,
            (seat + 1) % rules.players,
            after_last,
        )
        outcomes.append(brute_force(rules, child))
    mine = rules.side_of(seat) == 0
    return max(outcomes) if mine else min(outcomes)


def random_ending(rules: Rules, rng: random.Random, cards_each: int, stock_deals: int) -> Deal:
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
    return Deal(hands, table, piles, sweeps, stock, 0, last)


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
