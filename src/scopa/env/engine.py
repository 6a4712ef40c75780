"""The one module of :mod:`scopa.env` that drives the rules core.

The environments see a match only through :class:`Match`: card masks, small ints
and the core's :class:`~scopa.moves.Move`. It is the match loop of
:class:`~scopa.game.Game` (the same seed deals the same decks and gives the same
match) around the core's :class:`~scopa.round.Round`, read directly: the
environments observe every step, and building ``Card`` lists for each would cost
more than the move. Everything about a round (dealing, legal moves, sweeps, the
leftovers, scoring) is the core's; an illegal move is refused with ``Game``'s own
sentence.
"""

from __future__ import annotations

import random

import numpy as np
import numpy.typing as npt

from ..cards import ALL_CARDS_MASK, cards_of
from ..game import Game
from ..moves import Move
from ..round import Round, shuffled_deck
from ..rules import Rules
from ..scoring import RoundScore, match_winner
from ..view import Play, View
from . import observation


class Match:
    """A match being played, from ``seed`` as :meth:`Game.new` plays it.

    ``played`` (the cards played this round, a public fact) and the round's plays
    are kept as the match goes, so an observation never walks the history.
    """

    __slots__ = (
        "_last",
        "_legal",
        "_moves",
        "_plays",
        "_rng",
        "played",
        "round",
        "round_number",
        "round_points",
        "round_scores",
        "rules",
        "scores",
        "seed",
        "state",
        "winner",
    )

    def __init__(self, rules: Rules, seed: int) -> None:
        self.rules = rules
        self.seed = seed
        self._rng = random.Random(seed)
        self.scores = [0] * rules.sides
        """Match points by side, before the round being played."""
        self.round_scores: list[list[RoundScore]] = []
        self.winner: int | None = None
        self.round_number = 0
        self.round_points: list[int] | None = None
        """Each side's points for the round the last move ended (``None``: it ended none)."""
        self._moves: list[Move] = []
        self._last: Play | None = None
        self._start_round()

    def _start_round(self) -> None:
        rng = self._rng
        self.state = Round.deal(
            self.rules, self.round_number % self.rules.players, lambda: shuffled_deck(rng)
        )
        self.played = 0
        """Cards played this round, by anyone (every card played is seen)."""
        self._plays: list[Play] = []
        self._legal: list[Move] | None = None

    # -- playing ---------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """The moves of the seat to move (empty once the match is over)."""
        if self.winner is not None:
            return []
        legal = self._legal
        if legal is None:
            legal = self._legal = self.state.legal()
        return legal

    def play(self, move: Move) -> None:
        """Play ``move`` for the seat to move. An illegal move raises the core's
        :class:`~scopa.errors.IllegalMoveError`, with ``Game``'s sentence, and changes
        nothing."""
        if move not in self.legal_moves():
            self._refuse(move)
        state = self.state
        seat = state.to_move
        swept = state.apply(move)
        self._moves.append(move)
        self._legal = None
        self._last = Play(seat, move, swept)
        self._plays.append(self._last)
        self.played |= move.card_bit
        if not state.over:
            self.round_points = None
            return
        scores = state.scores()
        self.round_scores.append(scores)
        self.round_points = [score.total for score in scores]
        for side, points in enumerate(self.round_points):
            self.scores[side] += points
        self.winner = match_winner(self.rules, self.scores)
        if self.winner is None:
            self.round_number += 1
            self._start_round()

    def _refuse(self, move: Move) -> None:
        """Raise the sentence ``Game`` gives for ``move`` here (rare: replays the match)."""
        game = self.game()
        game.play(move)  # raises: the move is not legal
        raise AssertionError(f"Game took {move}, which the match refused")  # pragma: no cover

    def game(self) -> Game:
        """The same match as a :class:`Game`, replayed from the seed and the moves."""
        game = Game.new(self.rules, seed=self.seed)
        for move in self._moves:
            game.play(move)
        return game

    # -- public facts ----------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def to_move(self) -> int | None:
        return None if self.winner is not None else self.state.to_move

    @property
    def dealer(self) -> int:
        return (self.round_number - 1) % self.rules.players

    @property
    def table(self) -> int:
        return self.state.table

    @property
    def piles(self) -> list[int]:
        """Cards captured this round, by side, as masks."""
        return self.state.piles

    @property
    def sweeps(self) -> list[int]:
        return self.state.sweeps

    @property
    def stock_size(self) -> int:
        return self.state.stock_left

    @property
    def hand_sizes(self) -> list[int]:
        return [hand.bit_count() for hand in self.state.hands]

    def hand(self, seat: int) -> int:
        """``seat``'s own hand: only ever shown to that seat."""
        return self.state.hands[seat]

    def observe(self, seat: int) -> npt.NDArray[np.float32]:
        """``seat``'s observation (:mod:`scopa.env.observation`)."""
        return observation.observe(
            self.rules, seat, self.state, self.played, self.scores, self.dealer, self.to_move
        )

    def unseen(self, seat: int) -> int:
        """The cards ``seat`` has not seen this round (other hands and the stock)."""
        seen = self.state.hands[seat] | self.state.table
        for pile in self.state.piles:
            seen |= pile
        return ALL_CARDS_MASK & ~seen

    def view(self, seat: int) -> View:
        """The core's view of ``seat``, for the bots that play in the environments."""
        state = self.state
        plays = tuple(self._plays)
        return View(
            rules=self.rules,
            seat=seat,
            hand=tuple(cards_of(state.hands[seat])),
            table=tuple(cards_of(state.table)),
            hand_sizes=tuple(self.hand_sizes),
            stock_size=state.stock_left,
            piles=tuple(tuple(cards_of(pile)) for pile in state.piles),
            sweeps=tuple(state.sweeps),
            scores=tuple(self.scores),
            to_move=self.to_move,
            dealer=self.dealer,
            round_number=self.round_number,
            plays=plays,
            dealer_bonus=tuple(cards_of(state.bonus)),
            round_scores=tuple(tuple(scores) for scores in self.round_scores),
            winner=self.winner,
            last_move=self._last,
        )

    def record(self) -> dict[str, object]:
        """The match record (seed and decks included): for after the match only."""
        return self.game().record()

