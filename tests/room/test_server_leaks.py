"""Nothing leaked: every message of whole matches, checked against the true hidden state.

Matches of every size are played to the end over real sockets, by clients playing random legal
moves and by bots, with a spectator at every table; every message each connection receives is
kept. After the end, the stored record (seed and decks) is replayed move by move to know the
truth at each version, and each message is checked against what its reader could not know then:
the other hands and the stock (for a spectator, every hand), the seed and the deck order.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from scopa import CARDS, Game, Rules
from scopa.players import LEVELS
from scopa.server.client import Lobby, TableConnection

from .server_support import TIMEOUT, anyio_backend, running_server, settings_for

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]

CARD_CODE = re.compile(r"\b([A2-7JQK][DHSC])\b")
ALL_CARDS = frozenset(str(card) for card in CARDS)
STATE_KEYS = {"type", "table", "match", "version", "play", "view", "missed", "clock",
              "stand_in_played"}
"""What a state may carry beside the seat's view: where it is, the last play (public), the
plays missed, the seconds left on the turn's clock and whether a stand-in played: no card."""
FAST_LEVELS = [level for level in ("random", "greedy") if level in LEVELS]


@dataclass
class Transcript:
    """Every message one connection received, each with the version its reader had then."""

    seat: int | None
    messages: list[tuple[int, str]] = field(default_factory=list)


async def listen(connection: TableConnection, transcript: Transcript, rng: random.Random) -> None:
    """Read until the match is over; a seated reader plays a random legal move on its turn."""
    sent_for = -1
    while connection.over is None:
        if transcript.seat is not None and connection.my_turn and connection.version != sent_for:
            assert connection.view is not None and connection.version is not None
            sent_for = connection.version
            await connection.move(rng.choice(connection.view["legal_moves"]))
        text = await asyncio.wait_for(connection.socket.recv(), TIMEOUT)
        assert isinstance(text, str)
        message = json.loads(text)
        connection._note(message)
        transcript.messages.append((connection.version or 0, text))


async def play_table(
    url: str, lobby: Lobby, choices: dict[str, Any], people: int, seed: int
) -> tuple[dict[str, Any], list[Transcript]]:
    """Create a table with ``people`` guests (bots in the other seats), play it out; return the
    record and every transcript."""
    rng = random.Random(seed)
    players = choices.get("players", 2)
    bots = {seat: rng.choice(FAST_LEVELS) for seat in range(people, players)}
    created = await lobby.create_table(name="Guest 0", bots=bots, **choices)
    code = created["table"]["code"]
    tokens = [created["token"]]
    for k in range(1, people):
        tokens.append((await lobby.join(code, f"Guest {k}"))["token"])
    seated = [await TableConnection.open(url, code, token) for token in tokens]
    watcher = await TableConnection.open(url, code)
    transcripts = [Transcript(c.seat) for c in seated] + [Transcript(None)]
    await lobby.start(code, tokens[0])
    await asyncio.gather(
        *(
            listen(connection, transcript, random.Random(rng.random()))
            for connection, transcript in zip([*seated, watcher], transcripts, strict=True)
        )
    )
    for connection in [*seated, watcher]:
        await connection.close()
    assert watcher.match is not None
    return await lobby.match_record(watcher.match), transcripts


@dataclass
class Truth:
    """What the replayed record says at one version: each seat's view and what it cannot see."""

    views: dict[int | None, dict[str, Any]]
    hidden: dict[int | None, frozenset[str]]


def truths(record: dict[str, Any]) -> list[Truth]:
    """The truth at every version of the match, from its record."""
    game = Game.new(Rules.from_dict(record["rules"]), seed=record["seed"], deck=record["deck"])
    seats: list[int | None] = [None, *range(game.rules.players)]
    found = []
    for number in range(len(record["moves"]) + 1):
        if number:
            game.play(record["moves"][number - 1])
        public = {str(c) for c in game.table}
        for pile in game.piles:
            public |= {str(c) for c in pile}
        hidden = {}
        for seat in seats:
            own = {str(c) for c in game.hand(seat)} if seat is not None else set()
            hidden[seat] = frozenset(ALL_CARDS - public - own)
        found.append(Truth({seat: game.view(seat).to_dict() for seat in seats}, hidden))
    return found


def check_transcript(record: dict[str, Any], truth: list[Truth], transcript: Transcript) -> int:
    """Assert that no message gave its reader anything hidden; returns messages checked."""
    seat = transcript.seat
    seed = str(record["seed"])
    final = len(record["moves"])
    checked = 0
    for version, text in transcript.messages:
        assert seed not in text, f"the seed reached seat {seat}: {text[:200]}"
        message = json.loads(text)
        if message["type"] == "over":
            break
        if message["type"] == "state":
            # Exactly the core's view for this seat at this version, and nothing else beside it.
            assert set(message) <= STATE_KEYS, message.keys()
            assert message["view"] == truth[version].views[seat]
            if version == final:
                continue
            # Earlier rounds are public history: leave out the fields that may show them.
            message = {**message, "play": None, "missed": None}
            message["view"] = {**message["view"], "round_scores": None, "last_move": None}
        cards = set(CARD_CODE.findall(json.dumps(message)))
        leaked = cards & truth[version].hidden[seat]
        assert not leaked, f"seat {seat} saw hidden {sorted(leaked)} at version {version}"
        checked += 1
    return checked


TABLES: list[tuple[dict[str, Any], int]] = [
    ({"preset": "scopa", "players": 2}, 2),
    ({"preset": "escoba", "players": 2}, 2),
    ({"preset": "scopa", "players": 2}, 1),
    ({"preset": "escoba", "players": 3}, 3),
    ({"preset": "scopa-classic", "players": 4}, 2),
    ({"preset": "scopone-scientifico", "players": 4}, 4),
    ({"preset": "escoba-classic", "players": 6, "teams": 3}, 3),
    ({"preset": "scopa-assi", "players": 6}, 1),
    ({"preset": "scopa", "players": 3, "target": 21}, 1),
]


async def test_no_message_holds_a_hidden_card_the_seed_or_the_deck(tmp_path: Path) -> None:
    async with running_server(settings_for(tmp_path)) as server, Lobby(server.url) as lobby:
        results = await asyncio.gather(
            *(
                play_table(server.url, lobby, choices, people, seed)
                for seed, (choices, people) in enumerate(TABLES)
            )
        )
    checked = 0
    for record, transcripts in results:
        truth = truths(record)
        for transcript in transcripts:
            checked += check_transcript(record, truth, transcript)
    assert checked > 2000


def test_the_leak_check_catches_a_leak() -> None:
    """The checker itself: a message with another seat's card in it fails."""
    game = Game.new(seed=3)
    record = game.record()
    truth = truths(record)
    other_card = str(game.hand(1)[0])
    bad = Transcript(0, [(0, json.dumps({"type": "table", "note": f"seat 1 holds {other_card}"}))])
    with pytest.raises(AssertionError, match="hidden"):
        check_transcript(record, truth, bad)
    seed = Transcript(None, [(0, json.dumps({"type": "table", "x": record["seed"]}))])
    with pytest.raises(AssertionError, match="seed"):
        check_transcript(record, truth, seed)
