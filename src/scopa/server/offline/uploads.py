"""A match played offline comes home (issue 37, item 4): the checks an upload passes before
it is stored, none of which writes anything.

The browser played the match with the same core and bots, but the room trusts nothing of what
it sends: the record is played again here by the core (:meth:`scopa.game.Game.replay`), which
refuses an illegal move, a deck the seed does not deal and a malformed record; the match must
be over; its rules must be ones the lobby deals (a preset with the lobby's house rules); the
person's seat and the bots' levels must fill its seats. What is stored is the record the core
gives back, so two uploads of one match are the same bytes whatever the browser's spacing or
key order, and its hash (:func:`record_hash`) finds the second.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any, Final

from ...game import Game
from ...rules import Rules
from ..common.errors import LobbyError
from ..table.room import build_rules, check_level, check_look

MAX_UPLOAD_BYTES: Final = 32 * 1024
"""The longest upload read. A real record is far below it: over 200 seeded matches of each
preset, bots against bots at the presets' targets, the longest (Escoba for three, 11 rounds)
is 5.6 KB; an Escoba for two played to 101, a house rule of hours, is 29 rounds and 16 KB.
Twice that is room for a longer match and any spacing, and a record this long plays again in
milliseconds, so the limit also bounds what one upload costs."""
UPLOADS_PER_ACCOUNT: Final = "30/hour"
"""Uploads one account may make. A match against the computer takes 5 to 20 minutes, so even a
day's play kept offline comes home in a few hours of retries; each upload plays a record again
and may store up to :data:`MAX_UPLOAD_BYTES`, so an account cannot keep a process busy or
fill the database with them."""


@dataclass(frozen=True)
class Checked:
    """An upload that passed: the record as the core gives it back, its hash, and the
    person's result."""

    record: dict[str, Any]
    hash: str
    result: str


def record_hash(record: dict[str, Any]) -> str:
    """The SHA-256 of a record as canonical JSON (sorted keys, no spaces).

    >>> record_hash({"b": 1, "a": [2]}) == record_hash({"a": [2], "b": 1})
    True
    """
    text = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()


def played_again(record: dict[str, Any]) -> Game:
    """The match ``record`` is, played again by the core; refused (422) if it is not legal or
    not over."""
    try:
        game = Game.replay(record)
    except (ValueError, TypeError) as error:
        raise LobbyError(422, f"the record is not a legal match: {error}",
                         code="illegal_offline_record") from None
    if not game.is_over:
        raise LobbyError(422, f"the record is not of a finished match: after its "
                         f"{len(game.moves)} moves nobody has won",
                         code="unfinished_offline_record", params={"moves": len(game.moves)})
    return game


def check_rules(rules: Rules) -> None:
    """Refuse (422) rules the lobby would not deal: offline play offers the lobby's presets
    and house rules, no others (so a replay shows a game the room knows)."""
    offered = build_rules(rules.name, rules.players, rules.teams, rules.target)
    if offered != rules:
        raise LobbyError(422, f"the record's rules are not ones the lobby deals: the preset "
                         f"{rules.name!r} with its players, teams and target only",
                         code="offline_rules_not_dealt", params={"preset": rules.name})


def check_seats(rules: Rules, seat: int, opponents: list[str]) -> None:
    """Refuse (422) a seat or bots that do not fill the match's seats."""
    if not 0 <= seat < rules.players or len(opponents) != rules.players - 1:
        raise LobbyError(
            422, f"the match has {rules.players} seats: give your seat (0 to "
            f"{rules.players - 1}) and one bot level for each of the {rules.players - 1} others",
            code="offline_seats_mismatch", params={"players": rules.players})


def check(record: dict[str, Any], seat: int, opponents: list[str], look: str) -> Checked:
    """Every check of an upload, the names first (the look, the bots' levels), then the game
    played again, its rules and its seats; what to store if it passes."""
    check_look(look)
    for level in opponents:
        check_level(level)
    game = played_again(record)
    check_rules(game.rules)
    check_seats(game.rules, seat, opponents)
    canonical = game.record()
    won = game.winner == game.rules.side_of(seat)
    return Checked(canonical, record_hash(canonical), "win" if won else "loss")


def players(seat: int, opponents: list[str], name: str) -> list[dict[str, Any]]:
    """The match's seats as the room's matches list them: the person, named as the account is,
    and a bot of its level in each other seat (named as the room names its bots).

    >>> [(p["kind"], p["name"], p["level"]) for p in players(1, ["expert", "master"], "Ada")]
    [('bot', 'Bot 1', 'expert'), ('human', 'Ada', None), ('bot', 'Bot 3', 'master')]
    """
    levels = iter(opponents)
    return [
        {"seat": at, "name": name, "kind": "human", "level": None} if at == seat
        else {"seat": at, "name": f"Bot {at + 1}", "kind": "bot", "level": next(levels)}
        for at in range(len(opponents) + 1)
    ]
