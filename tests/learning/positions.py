"""Positions for the learned level's tests: a round in the middle, and the same round as the
seat to move could find it, with every card it cannot see dealt anew."""

from __future__ import annotations

import random

from scopa.cards import ALL_CARDS_MASK, ids_of
from scopa.round import Round, shuffled_deck
from scopa.rules import Rules


def midgame(rules: Rules, seed: int) -> Round:
    """A round seven moves in (into the second deal of 2-player scopa), by random play."""
    rng = random.Random(seed)
    state = Round.deal(rules, 0, lambda: shuffled_deck(rng))
    for _ in range(7):
        moves = state.legal()
        state.apply(moves[int(rng.random() * len(moves))])
    return state


def hidden_reshuffled(state: Round, seed: int) -> Round:
    """The same round for the seat to move, the other hands and the stock dealt anew."""
    seat = state.to_move
    seen = state.hands[seat] | state.table
    for pile in state.piles:
        seen |= pile
    hidden = [1 << card for card in ids_of(ALL_CARDS_MASK & ~seen)]
    random.Random(seed).shuffle(hidden)
    hands = [0] * state.players
    hands[seat] = state.hands[seat]
    first = 0
    for other in range(state.players):
        if other != seat:
            size = state.hands[other].bit_count()
            hands[other] = sum(hidden[first : first + size])
            first += size
    return Round.position(state.rules, hands, state.table, state.piles, state.sweeps,
                          hidden[first:], seat, state.last)
