"""The match state machine: deal, play, round end, match end, records and views.

A game is its rules, its seed (and optional first deck) and its moves; all the
rest is derived by playing the moves, which is what :meth:`Game.replay` does.
The round itself is a :class:`~scopa.round.Round`, the one implementation of a
round's mechanics; ``Game`` adds the checks, the match and the record around it,
and builds ``Card`` lists only when asked for.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Sequence
from typing import Any, Final

from .capture import capture_masks, move_generator
from .cards import CARDS, VALUE_MASKS, Card, cards_of, value_of
from .errors import IllegalMoveError, InvalidMoveError
from .moves import Move, move_of
from .round import Round, shuffled_deck
from .rules import Rules
from .scoring import RoundScore, match_winner, score_piles
from .view import Play, View

RECORD_FORMAT: Final = 1
_BITS: Final = tuple(card.bit for card in CARDS)


def _deck_codes(deck: Iterable[int]) -> list[str]:
    """Card codes of a deck kept as card bits."""
    return [str(CARDS[bit.bit_length() - 1]) for bit in deck]


def _read_deck(deck: Iterable[Card | str | int]) -> list[int]:
    if isinstance(deck, str | bytes) or not isinstance(deck, Iterable):
        raise ValueError(f"deck must be a list of the 40 cards, top first; got {deck!r}")
    ids = []
    for item in deck:
        if isinstance(item, Card):
            ids.append(item.id)
        elif isinstance(item, str):
            ids.append(Card.parse(item).id)
        elif isinstance(item, int) and not isinstance(item, bool) and 0 <= item < 40:
            ids.append(item)
        else:
            raise ValueError(f"deck: not a card: {item!r}")
    if sorted(ids) != list(range(40)):
        raise ValueError("deck must hold each of the 40 cards exactly once")
    return ids


class Game:
    """A match of Scopa or Escoba from the first deal to the winner.

    >>> game = Game.new(Rules.preset("scopa"), seed=7)
    >>> len(game.hand(0)), len(game.table), game.stock_size
    (3, 4, 30)
    >>> move = game.legal_moves()[0]
    >>> game.play(move)
    >>> game.to_move
    1
    >>> Game.replay(game.record()).table == game.table
    True
    """

    __slots__ = (
        "_decks",
        "_first_deck",
        "_history",
        "_legal",
        "_moves",
        "_n",
        "_resigned",
        "_rng",
        "_round",
        "_round_scores",
        "_round_start",
        "_scores",
        "_seed",
        "_sides",
        "_state",
        "_to_move",
        "_winner",
        "rules",
    )

    rules: Rules

    def __init__(self, rules: Rules, seed: int, deck: Sequence[int] | None = None) -> None:
        """Prefer :meth:`new`; this takes an already checked seed and deck of ids."""
        self.rules = rules
        self._seed = seed
        self._rng = random.Random(seed)
        self._first_deck = list(deck) if deck is not None else None
        self._decks: list[list[int]] = []
        self._n = rules.players
        self._sides = rules.sides
        self._scores = [0] * self._sides
        self._round_scores: list[list[RoundScore]] = []
        self._moves = move_generator(rules).moves
        """The round's move generator, called directly on the hot path (``Round.legal``)."""
        self._history: list[Play] = []
        """Every play of the match, made once as the views show it (not again for each view)."""
        self._winner: int | None = None
        self._resigned: int | None = None
        """The seat that gave the match up, if one did: the record keeps it, since no move
        shows it."""
        self._round = 0
        self._start_round()

    @classmethod
    def new(
        cls,
        rules: Rules | None = None,
        seed: object = None,
        deck: Iterable[Card | str | int] | None = None,
    ) -> Game:
        """Start a match. ``deck`` orders the first round (top first); ``seed`` (a whole
        number) drives every shuffle; with neither, the seed comes from :mod:`secrets`."""
        if rules is None:
            rules = Rules.preset("scopa")
        if seed is None:
            seed = secrets.randbits(64)
        elif not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise ValueError(f"seed must be a whole number of 0 or more; got {seed!r}")
        return cls(rules, seed, _read_deck(deck) if deck is not None else None)

    # -- dealing -------------------------------------------------------------------------

    def _next_deck(self) -> list[int]:
        """The next deck to deal, as card bits, top first; kept for the record."""
        if self._round == 0 and not self._decks and self._first_deck is not None:
            deck = [_BITS[i] for i in self._first_deck]
        else:
            deck = shuffled_deck(self._rng)
        self._decks.append(deck)
        return deck

    def _start_round(self) -> None:
        self._round_start = len(self._history)
        self._legal: list[Move] | None = None
        self._state = Round.deal(self.rules, self._round % self._n, self._next_deck)
        self._to_move: int | None = self._state.to_move

    def _end_round(self) -> None:
        state = self._state
        scores = score_piles(self.rules, state.piles, state.sweeps)
        self._round_scores.append(scores)
        for side, score in enumerate(scores):
            self._scores[side] += score.total
        self._winner = match_winner(self.rules, self._scores)
        if self._winner is None:
            self._round += 1
            self._start_round()
        else:
            self._to_move = None
            self._legal = []

    # -- playing -------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every move the seat to move may make (empty once the match is over)."""
        legal = self._legal
        if legal is None:
            state = self._state
            legal = self._legal = self._moves(state.hands[state.to_move], state.table)
        return list(legal)

    def is_legal(self, move: Move) -> bool:
        return move in (self._legal if self._legal is not None else self.legal_moves())

    def play(self, move: object, seat: object = None) -> None:
        """Play ``move`` (a :class:`Move` or its code) for the seat to move.

        With ``seat``, the move is refused unless it is that seat's turn. A refused
        move raises :class:`IllegalMoveError` (or :class:`InvalidMoveError` for a code
        that cannot be read) and leaves the game unchanged.
        """
        if not isinstance(move, Move):
            if not isinstance(move, str):
                kind = type(move).__name__
                raise InvalidMoveError(f"a move must be a Move or a code, not {kind}")
            move = Move.parse(move)
        state = self._state
        legal = self._legal
        if legal is None:
            legal = self._legal = self._moves(state.hands[state.to_move], state.table)
        if move not in legal or (seat is not None and seat != self._to_move):
            raise IllegalMoveError(self._why_illegal(move, seat))
        # Apply it: nothing below can fail, so a move is applied whole or not at all.
        mover = state.to_move
        sweep = state.apply(move)
        self._history.append(Play(mover, move, sweep))
        self._legal = None
        if state.over:
            self._end_round()
        else:
            self._to_move = state.to_move

    def resign(self, seat: object) -> None:
        """``seat`` gives the match up: its side loses and the match is over at once.

        The round being played is not scored: the totals stay as they were, and the winner
        is the other side (with more than two sides, the one of the others with the most
        points, the first to play after the resigning seat on a tie), since a person who
        leaves a lost match must not cost the others their win. Once the match is over it
        raises :class:`IllegalMoveError`, and a seat not at the table a ``ValueError``;
        either leaves the game unchanged.

        >>> game = Game.new(Rules.preset("scopa"), seed=7)
        >>> game.resign(0)
        >>> game.winner, game.resigned, game.to_move, Game.replay(game.record()).winner
        (1, 0, None, 1)
        """
        checked = self._check_seat(seat)
        if self._winner is not None:
            raise IllegalMoveError("the match is over: there is nothing left to resign")
        side_of = self.rules.side_of
        loser = side_of(checked)
        others: list[int] = []
        for step in range(1, self._n):
            side = side_of((checked + step) % self._n)
            if side != loser and side not in others:
                others.append(side)
        self._winner = max(others, key=lambda side: self._scores[side])
        self._resigned = checked
        self._to_move = None
        self._legal = []

    def _why_illegal(self, move: Move, seat: object) -> str:
        """A sentence saying why ``move`` is refused, without revealing hidden cards."""
        if self._to_move is None:
            return "the match is over"
        if seat is not None and seat != self._to_move:
            return f"not your turn: seat {self._to_move} is to play"
        rules = self.rules
        card = move.card
        hand = self._state.hands[self._to_move]
        table = self._state.table
        if not hand & card.bit:
            return f"{card} is not in your hand"
        missing = [str(c) for c in cards_of(move.captured_mask & ~table)]
        if missing:
            return f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} not on the table"
        options = capture_masks(rules, table, card.id)
        legal = self._legal or []
        if move.is_trail:
            if options:
                return f"{card} can capture, so it must: {self._options_text(card, options)}"
            return f"a capture is compulsory: play one of {', '.join(str(m) for m in legal)}"
        taken = " + ".join(str(c) for c in cards_of(move.captured_mask))
        if rules.ace_takes_all and card.rank_index == 0:
            return f"an Ace takes the whole table: {self._options_text(card, options)}"
        if rules.capture == "sum":
            equal = table & VALUE_MASKS[card.value]
            if equal:
                return (
                    f"a card of the same value is on the table, so {card} must take it alone: "
                    f"{self._options_text(card, options)}"
                )
            worth = value_of(move.captured_mask)
            if worth != card.value:
                return f"{taken} add up to {worth}, not {card.value}: {card} cannot take them"
        else:
            worth = value_of(move.captured_mask) + card.value
            if worth != 15:
                return f"{card} and {taken} make {worth}, not 15"
        if rules.fewest_cards:
            return f"take the fewest cards: {self._options_text(card, options)}"
        return f"illegal move; the legal moves are {', '.join(str(m) for m in legal)}"

    @staticmethod
    def _options_text(card: Card, options: Iterable[int]) -> str:
        return " or ".join(str(move_of(card.id, mask)) for mask in options)

    # -- state ---------------------------------------------------------------------------

    @property
    def to_move(self) -> int | None:
        """The seat to play, or ``None`` once the match is over."""
        return self._to_move

    @property
    def dealer(self) -> int:
        return (self._round - 1) % self._n

    @property
    def leader(self) -> int:
        return self._round % self._n

    @property
    def round_number(self) -> int:
        """The round being played, from 0 (the last round once the match is over)."""
        return self._round

    @property
    def table(self) -> list[Card]:
        return cards_of(self._state.table)

    @property
    def hands(self) -> list[list[Card]]:
        """Every hand, by seat: the whole truth, never to be shown to players."""
        return [cards_of(hand) for hand in self._state.hands]

    def hand(self, seat: object) -> list[Card]:
        return cards_of(self._state.hands[self._check_seat(seat)])

    @property
    def piles(self) -> list[list[Card]]:
        """Cards captured this round, by side."""
        return [cards_of(pile) for pile in self._state.piles]

    @property
    def sweeps(self) -> list[int]:
        """Sweeps scored this round, by side."""
        return list(self._state.sweeps)

    @property
    def stock_size(self) -> int:
        return self._state.stock_left

    @property
    def scores(self) -> list[int]:
        """Match totals, by side."""
        return list(self._scores)

    @property
    def round_scores(self) -> list[list[RoundScore]]:
        """One list of :class:`RoundScore` (by side) per finished round."""
        return [list(scores) for scores in self._round_scores]

    @property
    def is_over(self) -> bool:
        return self._winner is not None

    @property
    def winner(self) -> int | None:
        """The winning side, once the match is over."""
        return self._winner

    @property
    def resigned(self) -> int | None:
        """The seat that resigned the match, if it ended so."""
        return self._resigned

    @property
    def seed(self) -> int:
        """The seed of every shuffle: secret while the match is in progress."""
        return self._seed

    @property
    def moves(self) -> list[Move]:
        """Every move of the match, in order."""
        return [play.move for play in self._history]

    @property
    def last_move(self) -> Play | None:
        """The most recent play of the match (perhaps of the round before this one)."""
        return self._history[-1] if self._history else None

    def side_of(self, seat: object) -> int:
        return self.rules.side_of(self._check_seat(seat))

    def _check_seat(self, seat: object) -> int:
        """``seat`` as a seat number, or a ``ValueError`` (not a TypeError: seats often come
        from outside data, and the compiled core checks annotated types itself)."""
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self._n:
            raise ValueError(f"seat must be 0..{self._n - 1}; got {seat!r}")
        return seat

    def view(self, seat: object) -> View:
        """What ``seat`` may know (``None``: a spectator, who sees no hand)."""
        checked = None if seat is None else self._check_seat(seat)
        return View(
            rules=self.rules,
            seat=checked,
            hand=tuple(cards_of(self._state.hands[checked])) if checked is not None else (),
            table=tuple(cards_of(self._state.table)),
            hand_sizes=tuple(hand.bit_count() for hand in self._state.hands),
            stock_size=self.stock_size,
            piles=tuple(tuple(cards_of(pile)) for pile in self._state.piles),
            sweeps=tuple(self._state.sweeps),
            scores=tuple(self._scores),
            to_move=self._to_move,
            dealer=self.dealer,
            round_number=self._round,
            plays=tuple(self._history[self._round_start :]),
            dealer_bonus=tuple(cards_of(self._state.bonus)),
            round_scores=tuple(tuple(scores) for scores in self._round_scores),
            winner=self._winner,
            last_move=self.last_move,
            resigned=self._resigned,
        )

    # -- records -------------------------------------------------------------------------

    def record(self) -> dict[str, Any]:
        """The match as plain JSON-able data: rules, seed, decks dealt and moves.

        It holds the seed and every deck order, so it is for the end of the match
        (or for storage), never for a player while the match goes on. ``resigned``, the
        seat that gave the match up, is there only when one did, so the records of matches
        played out are what they always were.
        """
        record: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "rules": self.rules.to_dict(),
            "seed": self._seed,
            "deck": None
            if self._first_deck is None
            else [str(CARDS[i]) for i in self._first_deck],
            "decks": [_deck_codes(deck) for deck in self._decks],
            "moves": [str(play.move) for play in self._history],
            "scores": list(self._scores),
            "winner": self._winner,
        }
        if self._resigned is not None:
            record["resigned"] = self._resigned
        return record

    @classmethod
    def replay(cls, record: object) -> Game:
        """Rebuild a game from :meth:`record` data by playing its moves again.

        Raises ``ValueError`` if the record is malformed, a move is illegal, the resigning
        seat is not at the table, or the recorded decks are not the ones the seed deals.
        """
        if not isinstance(record, dict):
            raise ValueError("a record must be a JSON object")
        record_format = record.get("format", RECORD_FORMAT)
        if type(record_format) is not int or record_format != RECORD_FORMAT:
            raise ValueError(f"unknown record format {record_format!r}")
        seed = record.get("seed")
        if type(seed) is not int or seed < 0:
            raise ValueError(f"record: seed must be a whole number of 0 or more; got {seed!r}")
        rules_data = record.get("rules")
        if not isinstance(rules_data, dict):
            raise ValueError("record: 'rules' must be an object of rule fields")
        rules = Rules.from_dict(rules_data)
        moves = record.get("moves", [])
        if not isinstance(moves, list):
            raise ValueError("record: 'moves' must be a list of move codes")
        game = cls.new(rules, seed=seed, deck=record.get("deck"))
        for number, code in enumerate(moves, 1):
            try:
                game.play(code)
            except ValueError as error:
                raise ValueError(f"record: move {number} ({code!r}): {error}") from None
        resigned = record.get("resigned")
        if resigned is not None:
            try:
                game.resign(resigned)
            except ValueError as error:
                raise ValueError(f"record: resigned ({resigned!r}): {error}") from None
        decks = record.get("decks")
        if decks is not None and decks != [_deck_codes(deck) for deck in game._decks]:
            raise ValueError("record: the recorded decks are not the ones this seed deals")
        return game

    def __repr__(self) -> str:
        state = f"winner side {self._winner}" if self._winner is not None else (
            f"round {self._round}, seat {self._to_move} to move"
        )
        return f"<Game {self.rules.name} {self._n} players, {state}, scores {self._scores}>"

