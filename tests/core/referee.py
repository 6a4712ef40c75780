"""An independent referee: follows a game move by move and checks it against RULES.md.

It keeps its own account of the deal (from the recorded deck order), the piles, the
sweeps, the last capturer and the leftovers, written straight from the rules text,
and compares the engine's public state with it after every move.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import combinations
from typing import TypeVar

from scopa import Card, Game, Move, Rules, score_round
from scopa.cards import mask_of
from scopa.round import Round


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


def subsets_summing(table: list[Card], target: int) -> list[frozenset[Card]]:
    """Every non-empty set of ``table`` cards whose values add up to ``target``."""
    found: list[frozenset[Card]] = []

    def walk(start: int, chosen: list[Card], total: int) -> None:
        if total == target and chosen:
            found.append(frozenset(chosen))
            return
        for i in range(start, len(table)):
            value = table[i].value
            if total + value <= target:
                walk(i + 1, [*chosen, table[i]], total + value)

    walk(0, [], 0)
    return found


def expected_captures(rules: Rules, table: list[Card], played: Card) -> set[frozenset[Card]]:
    """The captures RULES.md "A turn" allows for ``played`` onto ``table``."""
    if not table:
        return set()
    if rules.ace_takes_all and played.rank == "A":
        return {frozenset(table)}
    if rules.capture == "sum":
        equal = [c for c in table if c.value == played.value]
        if equal:
            found = {frozenset([c]) for c in equal}
        else:
            found = set(subsets_summing(table, played.value))
    else:
        found = set(subsets_summing(table, 15 - played.value))
    if rules.fewest_cards and found:
        fewest = min(len(s) for s in found)
        found = {s for s in found if len(s) == fewest}
    return found


def expected_legal(rules: Rules, hand: list[Card], table: list[Card]) -> set[Move]:
    """The moves RULES.md allows, obligation to capture included."""
    captures = set()
    trails = set()
    for played in hand:
        options = expected_captures(rules, table, played)
        captures |= {Move(played, option) for option in options}
        if rules.must_capture == "none" or not options:
            trails.add(Move.trail(played))
    if rules.must_capture == "hand" and captures:
        return captures
    return captures | trails


Figure = TypeVar("Figure", int, tuple[int, int])


def best(figures: list[Figure]) -> int | None:
    """The one side with the highest figure; nobody on a tie for the best."""
    top = max(figures)
    return figures.index(top) if figures.count(top) == 1 else None


NAPOLA_RUN = ["AD", "2D", "3D", "4D", "5D", "6D", "7D", "JD", "QD", "KD"]


def rescore(rules: Rules, piles: list[set[Card]], sweeps: list[int]) -> list[dict[str, int]]:
    """Each side's points for a round, straight from RULES.md "Scoring a round"."""
    sides = range(len(piles))
    cards_side = best([len(p) for p in piles])
    coins_side = best([sum(c.suit == "D" for c in p) for p in piles])
    primiera_side = sevens_side = None
    if rules.sevens:
        sevens_side = best([sum(c.rank == "7" for c in p) for p in piles])
    else:
        figures = []
        for pile in piles:
            by_suit: dict[str, int] = {}
            for c in pile:
                by_suit[c.suit] = max(by_suit.get(c.suit, 0), c.primiera)
            figures.append((len(by_suit), sum(by_suit.values())))
        if rules.primiera == "suits-first":
            primiera_side = best(figures) if max(figures)[0] else None
        else:
            complete = [total if suits == 4 else 0 for suits, total in figures]
            primiera_side = best(list(complete)) if max(complete) else None
    result = []
    for side in sides:
        codes = {str(c) for c in piles[side]}
        run = 0
        while run < 10 and NAPOLA_RUN[run] in codes:
            run += 1
        points = {
            "cards": int(side == cards_side),
            "coins": int(side == coins_side),
            "settebello": int("7D" in codes),
            "primiera": int(side == primiera_side),
            "sweeps": sweeps[side],
            "re_bello": int(rules.re_bello and "KD" in codes),
            "napola": run if rules.napola and run >= 3 else 0,
            "sevens": int(side == sevens_side),
        }
        points["total"] = sum(points.values())
        result.append(points)
    return result


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
        legal = game.legal_moves()
        assert len(set(legal)) == len(legal)
        assert set(legal) == expected_legal(rules, game.hand(seat), game.table)
        assert move in legal
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
        points = rescore(rules, self.piles, self.sweeps)
        for side in range(self.sides):
            for name, value in points[side].items():
                assert getattr(got[side], name) == value, (side, name)
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


class RoundReferee:
    """Follows a :class:`~scopa.round.Round` from its deal, with its own account from RULES.md.

    ``decks`` are the decks the round's ``next_deck`` handed out, in order: the round
    must deal the first one whose first table is allowed (no redeal on kings), and
    this referee deals it again its own way.
    """

    def __init__(self, state: Round, leader: int, decks: list[list[Card]]) -> None:
        self.state = state
        rules = self.rules = state.rules
        n, h, t = rules.players, rules.hand_size, rules.table_size
        self.n = n
        # Every deck but the last was refused for its kings; the last one is dealt.
        deck = decks[-1]
        for refused in decks[:-1]:
            assert rules.kings_redeal
            assert sum(c.rank == "K" for c in refused[n * h : n * h + t]) >= 3
        first_table = deck[n * h : n * h + t]
        assert not (rules.kings_redeal and sum(c.rank == "K" for c in first_table) >= 3)
        self.leader = leader
        self.deck = deck
        self.hands: list[set[Card]] = [set() for _ in range(n)]
        for k in range(n):
            self.hands[(leader + k) % n] = set(deck[k * h : (k + 1) * h])
        self.table = set(first_table)
        self.pos = n * h + t
        self.piles: list[set[Card]] = [set() for _ in range(rules.sides)]
        self.sweeps = [0] * rules.sides
        self.last: int | None = None
        self.to_move = leader
        self.over = False
        bonus = expected_bonus(rules, first_table) if rules.dealer_bonus else 0
        if bonus:
            dealer_side = rules.side_of((leader - 1) % n)
            self.piles[dealer_side] |= self.table
            self.sweeps[dealer_side] += bonus
            self.last = dealer_side
            self.table = set()
        self.check()

    def check(self) -> None:
        """The round's state is this referee's, field by field."""
        state = self.state
        assert state.hands == [mask_of(hand) for hand in self.hands]
        assert state.table == mask_of(self.table)
        assert state.piles == [mask_of(pile) for pile in self.piles]
        assert state.sweeps == self.sweeps
        assert state.stock_left == 40 - self.pos
        assert state.last == (-1 if self.last is None else self.last)
        assert state.over == self.over
        if not self.over:
            assert state.to_move == self.to_move
            hand = sorted(self.hands[self.to_move])
            assert set(state.legal()) == expected_legal(self.rules, hand, sorted(self.table))

    def play(self, move: Move) -> bool:
        """Play ``move`` on the round and on this account; check they agree. Returns the
        sweep the referee expects (the round's answer is checked against it)."""
        rules, n = self.rules, self.n
        seat = self.to_move
        side = rules.side_of(seat)
        assert move.card in self.hands[seat]
        last_play = self.pos == 40 and sum(len(hand) for hand in self.hands) == 1
        swept = self.state.apply(move)
        self.hands[seat].discard(move.card)
        sweep = False
        if move.is_capture:
            assert move.captured <= self.table
            self.piles[side] |= set(move.captured) | {move.card}
            self.last = side
            self.table -= move.captured
            ace_all = rules.ace_takes_all and move.card.rank == "A"
            if not self.table and not ace_all and (not last_play or rules.last_play_sweep):
                sweep = True
                self.sweeps[side] += 1
        else:
            self.table.add(move.card)
        assert swept == sweep
        self.to_move = (seat + 1) % n
        if last_play:
            if self.last is not None:
                self.piles[self.last] |= self.table
            self.table = set()
            self.over = True
            self.check()
            expected = rescore(rules, self.piles, self.sweeps)
            got = self.state.scores()
            for points, score in zip(expected, got, strict=True):
                for name, value in points.items():
                    assert getattr(score, name) == value, name
            assert sum(len(p) for p in self.piles) in (0, 40)
        else:
            if not any(self.hands):
                # The next deal: hand_size each, the leader first, nothing to the table.
                h = rules.hand_size
                for k in range(n):
                    start = self.pos + k * h
                    self.hands[(self.leader + k) % n] = set(self.deck[start : start + h])
                self.pos += n * h
                assert self.to_move == self.leader
            self.check()
        return sweep


def referee_minimax(
    rules: Rules,
    hands: list[set[Card]],
    table: set[Card],
    piles: list[set[Card]],
    sweeps: list[int],
    stock: list[Card],
    seat: int,
    last: int | None,
    utility: Callable[[list[int]], float],
) -> float:
    """Side 0's plain minimax over every line to the round's end (every other side plays
    against side 0), each step read from RULES.md: no pruning, no memory. ``stock`` is the
    cards still to deal, top first; ``last`` the side that captured last."""
    if not hands[seat]:
        if not stock:
            final = [set(pile) for pile in piles]
            if last is not None:
                final[last] |= table
            return utility([points["total"] for points in rescore(rules, final, sweeps)])
        # The next deal: hand_size each, the seat to move (the leader) first.
        hands = [set(hand) for hand in hands]
        size = rules.hand_size
        for k in range(rules.players):
            hands[(seat + k) % rules.players] = set(stock[k * size : (k + 1) * size])
        stock = stock[rules.players * size :]
    side = rules.side_of(seat)
    outcomes = []
    for move in expected_legal(rules, sorted(hands[seat]), sorted(table)):
        after_hands = [set(hand) for hand in hands]
        after_hands[seat].discard(move.card)
        after_piles, after_sweeps, after_last = [set(p) for p in piles], list(sweeps), last
        after_table = set(table)
        if move.is_capture:
            after_piles[side] |= set(move.captured) | {move.card}
            after_last = side
            after_table -= move.captured
            ace_all = rules.ace_takes_all and move.card.rank == "A"
            last_play = not stock and not any(after_hands)
            if not after_table and not ace_all and (rules.last_play_sweep or not last_play):
                after_sweeps[side] += 1
        else:
            after_table.add(move.card)
        outcomes.append(
            referee_minimax(
                rules,
                after_hands,
                after_table,
                after_piles,
                after_sweeps,
                stock,
                (seat + 1) % rules.players,
                after_last,
                utility,
            )
        )
    return max(outcomes) if side == 0 else min(outcomes)
