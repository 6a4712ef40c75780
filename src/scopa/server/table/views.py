"""A table's views as JSON text, written once per version and per seat, not per listener.

Every listener of a table is sent its seat's view (``Game.view(seat).to_dict()``) at each
version: under load that was a fifth of a web process's CPU. All of a view but the seat, its
hand and its legal moves is the same for every seat, so that part is written once a version,
and a seat's text is it with those three put at its end. Within it, what only grows is kept
written as it grows: the rules (one per match), the round's plays (one more a move) and the
finished rounds' scores (one more a round), which ``View.to_dict`` built again at every version.

The text must stay exactly the core's view: ``tests/room/test_server_leaks.py`` compares every
state message of many whole matches, in both games, with ``Game.view(seat).to_dict()``.
"""

from __future__ import annotations

from collections.abc import Iterable

import orjson

from ...cards import Card
from ...game import Game


def _codes(cards: Iterable[Card]) -> list[str]:
    return [str(card) for card in cards]


class ViewTexts:
    """The views of one table's game, as JSON."""

    def __init__(self) -> None:
        self._made_for: tuple[object, ...] | None = None
        self._head = ""
        """What every seat's view says alike, written without its closing brace."""
        self._match: tuple[object, ...] | None = None
        self._rules = orjson.Fragment(b"null")
        self._plays_round = -1
        self._plays: list[str] = []
        """The round's plays so far, each written."""
        self._rounds_scored = -1
        self._round_scores = orjson.Fragment(b"[]")

    def of(self, game: Game, match: object, version: int, seat: int | None) -> orjson.Fragment:
        """``seat``'s view of ``game``, at ``version`` of ``match`` (any value that changes
        when the table's match does): the public part is written again only when one of them,
        or the winner (a resignation plays no move), changed since the last call."""
        made_for = (id(game), match, version, game.winner)
        if made_for != self._made_for:
            self._head = self._public(game, (id(game), match))
            self._made_for = made_for
        if seat is None:
            return orjson.Fragment(f'{self._head},"seat":null,"hand":[],"legal_moves":[]}}')
        hand = orjson.dumps(_codes(game.hand(seat))).decode()
        legal = orjson.dumps(
            [str(move) for move in game.legal_moves()] if seat == game.to_move else []
        ).decode()
        return orjson.Fragment(f'{self._head},"seat":{seat},"hand":{hand},"legal_moves":{legal}}}')

    def _public(self, game: Game, match: tuple[object, ...]) -> str:
        view = game.view(None)
        if match != self._match:
            self._match = match
            self._rules = orjson.Fragment(orjson.dumps(view.rules.to_dict()))
            self._plays_round = -1
            self._rounds_scored = -1
        if view.round_number != self._plays_round or len(view.plays) < len(self._plays):
            self._plays_round = view.round_number
            self._plays = []
        for play in view.plays[len(self._plays) :]:
            self._plays.append(orjson.dumps(play.to_dict()).decode())
        if len(view.round_scores) != self._rounds_scored:
            self._rounds_scored = len(view.round_scores)
            self._round_scores = orjson.Fragment(
                orjson.dumps([[score.to_dict() for score in sides] for sides in view.round_scores])
            )
        public = {
            "rules": self._rules,
            "table": _codes(view.table),
            "hand_sizes": view.hand_sizes,
            "stock_size": view.stock_size,
            "piles": [_codes(pile) for pile in view.piles],
            "sweeps": view.sweeps,
            "scores": view.scores,
            "to_move": view.to_move,
            "dealer": view.dealer,
            "round_number": view.round_number,
            "plays": orjson.Fragment(f"[{','.join(self._plays)}]"),
            "dealer_bonus": _codes(view.dealer_bonus),
            "round_scores": self._round_scores,
            "winner": view.winner,
            "last_move": None if view.last_move is None else view.last_move.to_dict(),
            "resigned": view.resigned,
        }
        return orjson.dumps(public).decode()[:-1]
