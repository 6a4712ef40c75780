"""A finished match, frame by frame, for the replay viewer (``/#/m/ID`` in the web client).

The match is played again from its record by the core, so the browser needs no rules of its
own: each frame is the table after one move, every hand visible (the match is over, so nothing
is hidden any more), and each round ends with its breakdown, and with the chat everyone at the
table saw (the spectators' talk during play is not). A match still in play is refused (403)
exactly as its record is, and reveals nothing; so is a daily deal's match until its day is
over, but to the account that finished that day's deal (:mod:`scopa.server.daily`).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Request

from ...cards import Card
from ...game import Game
from ...moves import Move
from ...rules import Rules
from ..feature import ROOM
from ..store import chat_queries, review_queries
from .accounts import current_account, rate_limit

router = APIRouter(prefix="/api", tags=["players"], dependencies=[Depends(rate_limit)])


def _cards(cards: Any) -> list[str]:
    return [str(card) for card in cards]


def _frame(game: Game, round_number: int, seat: int | None, move: str | None,
           sweep: bool) -> dict[str, Any]:
    return {
        "round": round_number,
        "seat": seat,
        "move": move,
        "sweep": sweep,
        "hands": [_cards(hand) for hand in game.hands],
        "table": _cards(game.table),
        "piles": [len(pile) for pile in game.piles],
        "sweeps": game.sweeps,
        "stock": game.stock_size,
        "scores": game.scores,
    }


def frames(record: dict[str, Any]) -> dict[str, Any]:
    """Every frame of a finished match's record, and each round's breakdown.

    A round's last move ends it: its frame shows the table as that move left it (hands empty),
    and the next frame is the next round's deal, so a round is never skipped over.

    >>> import random
    >>> game = Game.new(Rules.preset("scopa", target=1), seed=3)
    >>> while not game.is_over:
    ...     game.play(random.Random(len(game.moves)).choice(game.legal_moves()))
    >>> shown = frames(game.record())
    >>> len(shown["frames"]) == len(game.moves) + len(shown["rounds"])
    True
    >>> [len(hand) for hand in shown["frames"][0]["hands"]], len(shown["frames"][0]["table"])
    ([3, 3], 4)
    """
    rules = Rules.from_dict(record["rules"])
    game = Game.new(rules, seed=record["seed"], deck=record.get("deck"))
    shown = [_frame(game, 0, None, None, False)]
    rounds: list[dict[str, Any]] = [{"number": 1, "start": 0}]
    for number, code in enumerate(record["moves"]):
        seat = game.to_move
        before = game.round_number
        finished = len(game.round_scores)
        table_then = game.table
        piles_then = [len(pile) for pile in game.piles]
        sweeps_then = list(game.sweeps)
        game.play(code)
        play = game.last_move
        assert play is not None
        frame = _frame(game, before, seat, code, play.sweep)
        frame["number"] = number
        if len(game.round_scores) > finished:
            # The round ended: show its last table (what this move and the last take left).
            frame["hands"] = [[] for _ in frame["hands"]]
            frame["table"] = _last_table(table_then, play.move)
            # The game has dealt the next round already: count the piles and sweeps as this
            # move left them, before the leftovers go to the last taker.
            side = rules.side_of(seat) if seat is not None else 0
            if play.move.captured:
                piles_then[side] += len(play.move.captured) + 1
            sweeps_then[side] += play.sweep
            frame["piles"], frame["sweeps"] = piles_then, sweeps_then
            frame["round_over"] = True
            shown.append(frame)
            rounds[-1]["scores"] = [score.to_dict() for score in game.round_scores[-1]]
            rounds[-1]["end"] = len(shown) - 1
            if not game.is_over:
                rounds.append({"number": game.round_number + 1, "start": len(shown)})
                shown.append(_frame(game, game.round_number, None, None, False))
        else:
            shown.append(frame)
    resigned = record.get("resigned")
    if resigned is not None:
        game.resign(resigned)  # the round it was given up in has no end and no breakdown
    return {
        "rules": rules.to_dict(),
        "frames": shown,
        "rounds": rounds,
        "scores": game.scores,
        "winner": game.winner,
        "resigned": game.resigned,
    }


def _last_table(table: list[Card], move: Move) -> list[str]:
    """The table after a round's last move, before the last taker sweeps up the rest: the
    cards the move took are gone; a trail lies down with the rest."""
    left = [str(card) for card in table if card not in move.captured]
    return left if move.captured else [*left, str(move.card)]


@router.get("/replays/{match_id}")
async def replay(
    match_id: Annotated[int, Path(ge=1, le=2**31 - 1)], request: Request
) -> dict[str, Any]:
    """A finished match frame by frame, every hand shown, with the players, the table's deck
    look, the rounds' breakdowns and the chat, but for the words the reader's blocks hide at
    the table (issue 34, item 9); 404 unknown, 403 while it is being played."""
    room = ROOM(request)
    account = await current_account(request)
    record = await room.match_record(match_id, None if account is None else account.id)
    players, look = await review_queries.players_and_look(room.storage, match_id)
    chat = await chat_queries.match_chat(
        room.storage, match_id, None if account is None else account.id)
    return {"match": match_id, "players": players, "look": look, **frames(record), "chat": chat}
