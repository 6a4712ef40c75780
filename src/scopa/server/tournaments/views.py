"""A tournament as its page and the lobby show it: public to everyone (the standings, every
game with its live table or its replay, the podium once over), and a player's own part (their
table and seat token) to that player alone. Nothing else a table hides is in it: a game in
play shows its table's code, which anyone may watch as a spectator."""

from __future__ import annotations

from typing import Any, Final

from ..store import fairplay_queries
from ..store.storage import Storage
from . import queries as tournament_queries
from .director import standings_of
from .queries import StoredGame, StoredTournament

MAX_GAMES_SHOWN: Final = 300
"""The latest games a page is sent; a long arena's older ones are in the standings' counts."""
PODIUM: Final = 3


def summary(tournament: StoredTournament) -> dict[str, Any]:
    """What the lobby's list shows of a tournament."""
    return {
        "id": tournament.id, "name": tournament.name, "kind": tournament.kind,
        "preset": tournament.preset, "minutes": tournament.minutes,
        "rounds": tournament.rounds, "starts_at": tournament.starts_at.isoformat(),
        "ends_at": None if tournament.ends_at is None else tournament.ends_at.isoformat(),
        "status": tournament.status, "round": tournament.round,
        "daily": tournament.created_by is None,
    }


def game_view(game: StoredGame, names: dict[int, str]) -> dict[str, Any]:
    return {
        "id": game.id, "round": game.round,
        "first": {"id": game.first, "name": names.get(game.first, "?")},
        "second": None if game.second is None
        else {"id": game.second, "name": names.get(game.second, "?")},
        "table": game.table_code, "match": game.match_id, "winner": game.winner,
        "scores": None if game.first_score is None else [game.first_score, game.second_score],
        "live": game.second is not None and game.winner is None,
        # False: given up before each side made 2 moves, so the standings leave it out.
        "counted": game.counted,
    }


def version(tournament: StoredTournament, players: int, games: list[StoredGame]) -> int:
    """A number that grows with every change of the tournament (each of its terms only
    grows: a join, a pairing, a result, its start and end), so a page that gets two views out
    of order (a push and an answer) keeps the later."""
    stage = {"open": 0, "running": 1, "finished": 2}[tournament.status]
    return stage + tournament.pairings + players + sum(1 for g in games if g.over)


async def public_view(storage: Storage, tournament: StoredTournament) -> dict[str, Any]:
    names = await tournament_queries.players(storage, tournament.id)
    games = await tournament_queries.games(storage, tournament.id)
    if tournament.status == "finished" and tournament.podium is not None:
        standings = tournament.podium
    else:
        standings = [s.public() for s in standings_of(tournament, names, games)]
    podium: list[dict[str, Any]] = []
    if tournament.status == "finished":
        # A moderator's mark takes an account off the podium, even one stored before it.
        off = await fairplay_queries.marked(storage, list(names))
        podium = [standing for standing in standings if standing["player"] not in off][:PODIUM]
    return {
        **summary(tournament),
        "version": version(tournament, len(names), games),
        "players": len(names),
        "standings": standings,
        "podium": podium,
        "withdrawn": sorted(await tournament_queries.withdrawn(storage, tournament.id)),
        "games": [game_view(g, names) for g in games[-MAX_GAMES_SHOWN:]],
    }


async def own_part(storage: Storage, tournament: StoredTournament,
                   account_id: int | None) -> dict[str, Any]:
    """The asking account's part: joined or not (or withdrawn), whether it made the
    tournament, and its table and seat token while it has a game in play."""
    if account_id is None:
        return {"account": None, "joined": False, "withdrawn": False, "creator": False,
                "table": None, "token": None}
    names = await tournament_queries.players(storage, tournament.id)
    gone = account_id in await tournament_queries.withdrawn(storage, tournament.id)
    table = token = None
    for game in await tournament_queries.games(storage, tournament.id):
        if game.over or game.table_code is None:
            continue
        if game.first == account_id:
            table, token = game.table_code, game.first_token
        elif game.second == account_id:
            table, token = game.table_code, game.second_token
    return {"account": account_id, "joined": account_id in names and not gone,
            "withdrawn": gone, "creator": tournament.created_by == account_id,
            "table": table, "token": token}
