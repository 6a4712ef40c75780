"""The one module of :mod:`scopa.env` that talks to the rules core.

The environments see a match only through :class:`Match`: masks of cards, small
ints and the core's :class:`~scopa.moves.Move`. Today it drives the public
:class:`~scopa.game.Game`; when the core's round state is what the environments
should drive, only this module changes. It reads only what a seat may know
except where a method says otherwise (``hand`` of another seat is for the
environment's own bookkeeping, never for an observation).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import ALL_CARDS_MASK, mask_of
from ..game import Game
from ..moves import Move
from ..rules import Rules
from ..view import View


class Match:
    """A match being played: the core's game plus what the environments track of it.

    ``played`` (the cards played this round, a public fact) and the per-round
    bookkeeping are kept here incrementally, so an observation never has to walk
    the round's history.
    """

    __slots__ = ("_game", "_played", "_round", "round_points", "rules")

    def __init__(self, rules: Rules, seed: int, deck: Sequence[int] | None = None) -> None:
        self.rules = rules
        self._game = Game.new(rules, seed=seed, deck=deck)
        self._played = 0
        self._round = 0
        self.round_points: list[int] | None = None
        """Each side's points for the round the last move ended (``None`` when it ended none)."""

    # -- playing ---------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        return self._game.legal_moves()

    def play(self, move: Move) -> None:
        """Play ``move`` for the seat to move; an illegal move raises the core's
        :class:`~scopa.errors.IllegalMoveError` and changes nothing."""
        game = self._game
        game.play(move)
        if game.round_number != self._round or game.is_over:
            self.round_points = [score.total for score in game.round_scores[-1]]
            self._round = game.round_number
            self._played = 0
        else:
            self.round_points = None
            self._played |= move.card_bit

    # -- public facts ----------------------------------------------------------------------

    @property
    def to_move(self) -> int | None:
        return self._game.to_move

    @property
    def is_over(self) -> bool:
        return self._game.is_over

    @property
    def winner(self) -> int | None:
        return self._game.winner

    @property
    def round_number(self) -> int:
        return self._game.round_number

    @property
    def dealer(self) -> int:
        return self._game.dealer

    @property
    def table(self) -> int:
        return mask_of(self._game.table)

    @property
    def piles(self) -> list[int]:
        """Cards captured this round, by side, as masks."""
        return [mask_of(pile) for pile in self._game.piles]

    @property
    def played(self) -> int:
        """Cards played this round, by anyone (face up once played)."""
        return self._played

    @property
    def sweeps(self) -> list[int]:
        return self._game.sweeps

    @property
    def scores(self) -> list[int]:
        return self._game.scores

    @property
    def stock_size(self) -> int:
        return self._game.stock_size

    @property
    def hand_sizes(self) -> list[int]:
        return [len(hand) for hand in self._game.hands]

    def hand(self, seat: int) -> int:
        """``seat``'s own hand: only ever shown to that seat."""
        return mask_of(self._game.hand(seat))

    def unseen(self, seat: int) -> int:
        """The cards ``seat`` has not seen this round (other hands and the stock)."""
        seen = self.hand(seat) | self.table
        for pile in self.piles:
            seen |= pile
        return ALL_CARDS_MASK & ~seen

    def view(self, seat: int) -> View:
        """The core's view of ``seat``, for the bots that play in the environments."""
        return self._game.view(seat)

    @property
    def record(self) -> dict[str, object]:
        """The match record (seed and decks included): for after the match only."""
        return self._game.record()
