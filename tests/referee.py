"""An independent referee: follows a game move by move and checks it against RULES.md.

It keeps its own account of the deal (from the recorded deck order), the piles, the
sweeps, the last capturer and the leftovers, written straight from the rules text,
and compares the engine's public state with it after every move.
"""

from __future__ import annotations

import random
from itertools import combinations

from scopa import Card, Game, Move, Rules, score_round


def expected_bonus(rules: Rules, table: list[Card]) -> int:
    """Sweeps the dealer scores for this first table, read from RULES.md."""
    total = sum(c.value for c in table)
    for bonus_total, sweeps in rules.dealer_bonus:
        if total != bonus_total:
            continue
        if total % 15 == 0 and total > 15:
            return sweeps if splits_into_fifteens(table, total // 15) else 0
        return sweeps
    return 0


def splits_into_fifteens(table: list[Card], groups: int) -> bool:
    if groups == 1:
        return sum(c.value for c in table) == 15
    first, rest = table[0], table[1:]
    for k in range(len(rest) + 1):
        for others in combinations(rest, k):
            group = [first, *others]
            if sum(c.value for c in group) == 15:
                remaining = [c for c in rest if c not in others]
                if splits_into_fifteens(remaining, groups - 1):
                    return True
    return False


class Referee:
    """Watches one game from its first deal; call :meth:`play` instead of ``game.play``."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.rules = game.rules
        self.n = self.rules.players
        self.sides = self.rules.sides
        self.rounds_checked = 0
        self.sweep_plays = 0
        self.last_play_sweeps = 0
        self.bonuses = 0
        self.ties_played_on = 0
        self._start_round()

    # -- a round begins ------------------------------------------------------------------

    def _start_round(self) -> None:
        game, rules, n = self.game, self.rules, self.n
        record = game.record()
        deck = [Card.parse(code) for code in record["decks"][-1]]
        self.deck = deck
        self.round = game.round_number
        assert self.round == len(game.round_scores)
        leader = self.round % n
        assert game.to_move == leader
        assert game.leader == leader
        assert game.dealer == (leader - 1) % n
        h, t = rules.hand_size, rules.table_size
        for k in range(n):
            seat = (leader + k) % n
            assert game.hand(seat) == sorted(deck[k * h : (k + 1) * h]), (seat, k)
        first_table = deck[n * h : n * h + t]
        self.pos = n * h + t
        self.deals = 1
        assert game.stock_size == 40 - self.pos
        if rules.kings_redeal:
            assert sum(c.rank == "K" for c in first_table) < 3
        self.piles: list[set[Card]] = [set() for _ in range(self.sides)]
        self.sweeps = [0] * self.sides
        self.last_capturer: int | None = None
        bonus = expected_bonus(rules, first_table) if rules.dealer_bonus else 0
        dealer_side = game.dealer % self.sides
        view = game.view(None)
        if bonus:
            self.bonuses += 1
            assert game.table == []
            assert list(view.dealer_bonus) == sorted(first_table)
            self.piles[dealer_side] |= set(first_table)
            self.sweeps[dealer_side] += bonus
            self.last_capturer = dealer_side
        else:
            assert game.table == sorted(first_table)
            assert view.dealer_bonus == ()
        self._check_round_state()

    def _check_round_state(self) -> None:
        game = self.game
        assert [set(p) for p in game.piles] == self.piles
        assert game.sweeps == self.sweeps

    # -- a move --------------------------------------------------------------------------

    def play(self, move: Move) -> None:
        game, rules = self.game, self.rules
        seat = game.to_move
        assert seat is not None
        side = seat % self.sides
        assert game.side_of(seat) == side
        table_before = set(game.table)
        assert move in game.legal_moves()
        assert move.card in game.hand(seat)
        hand_sizes = [len(h) for h in game.hands]
        last_of_deal = sum(hand_sizes) == 1
        last_play = last_of_deal and game.stock_size == 0
        rounds_before = len(game.round_scores)

        game.play(move)

        assert game.last_move is not None
        assert game.last_move.seat == seat and game.last_move.move is move
        sweep = False
        if move.is_capture:
            assert move.captured <= table_before
            self.piles[side] |= set(move.captured) | {move.card}
            self.last_capturer = side
            table_after = table_before - move.captured
            ace_all = rules.ace_takes_all and move.card.rank == "A"
            if not table_after and not ace_all and (not last_play or rules.last_play_sweep):
                sweep = True
                self.sweeps[side] += 1
                self.sweep_plays += 1
                self.last_play_sweeps += last_play
        else:
            table_after = table_before | {move.card}
        assert game.last_move.sweep == sweep

        if last_play:
            assert len(game.round_scores) == rounds_before + 1
            self._end_round(table_after)
            return
        assert len(game.round_scores) == rounds_before
        assert set(game.table) == table_after
        if last_of_deal:
            self._check_new_deal()
        else:
            hand_sizes[seat] -= 1
            assert [len(h) for h in game.hands] == hand_sizes
            assert game.stock_size == 40 - self.pos
            assert game.to_move == (seat + 1) % self.n
        self._check_round_state()

    def _check_new_deal(self) -> None:
        """The hands are empty and the stock is not: each seat gets hand_size more, leader
        first, and no card goes to the table."""
        game, rules, n = self.game, self.rules, self.n
        leader = self.round % n
        assert game.to_move == leader
        h = rules.hand_size
        for k in range(n):
            seat = (leader + k) % n
            start = self.pos + k * h
            assert game.hand(seat) == sorted(self.deck[start : start + h]), (seat, k)
        self.pos += n * h
        self.deals += 1
        assert game.stock_size == 40 - self.pos

    def _end_round(self, leftovers: set[Card]) -> None:
        game, rules = self.game, self.rules
        if self.last_capturer is not None:
            self.piles[self.last_capturer] |= leftovers
            assert sum(len(p) for p in self.piles) == 40
        else:
            assert all(not p for p in self.piles)
        expected = score_round(rules, [sorted(p) for p in self.piles], self.sweeps)
        got = game.round_scores[-1]
        assert got == expected
        for side in range(self.sides):
            assert got[side].card_count == len(self.piles[side])
            assert got[side].sweep_count == self.sweeps[side]
        assert self.deals == (40 - rules.table_size) // (self.n * rules.hand_size)
        self.rounds_checked += 1
        totals = [
            sum(scores[side].total for scores in game.round_scores) for side in range(self.sides)
        ]
        assert game.scores == totals
        best = max(totals)
        decided = best >= rules.target and totals.count(best) == 1
        assert game.is_over == decided
        if decided:
            assert game.winner == totals.index(best)
        else:
            assert game.winner is None
            self.ties_played_on += best >= rules.target
        if game.is_over:
            assert game.to_move is None
            assert game.legal_moves() == []
            return
        self._start_round()


def referee_match(game: Game, rng: random.Random, max_moves: int = 20_000) -> Referee:
    """Play a whole match with random legal moves under the referee's eye."""
    referee = Referee(game)
    for _ in range(max_moves):
        if game.is_over:
            return referee
        referee.play(rng.choice(game.legal_moves()))
    raise AssertionError("the match did not end")
