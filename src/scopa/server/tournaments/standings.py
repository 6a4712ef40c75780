"""A tournament's points and order, worked out again from its games every time: the games
are what is stored, so a director that takes over, or any process showing the page, reads
the same standings.

* **Arena** (lichess's scoring): a win is 2 points and a loss 0 (a scopa match has no draw);
  after two wins in a row a player is *on fire* and each further win is worth double, 4, until
  a loss. Ties: the points margin (match points scored minus conceded, over every game).
* **Swiss**: a win or a bye is 1 point. Ties: Buchholz (the sum of the points of every
  opponent met), then the points margin.

>>> games = [Result(1, 1, 2, 11, 5), Result(2, 1, 3, 11, 9), Result(3, 1, 2, 11, 2)]
>>> [(s.player, s.points, s.fire) for s in arena_standings({1: "Ada", 2: "Bo", 3: "Cy"}, games)]
[(1, 8, True), (3, 0, False), (2, 0, False)]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

WIN: Final = 2
ON_FIRE: Final = 2
"""Wins in a row after which each win counts double."""


@dataclass(frozen=True)
class Result:
    """A finished game as the standings count it (in the order the games ended)."""

    round: int
    first: int
    second: int | None
    """None: ``first`` had the round's bye."""
    first_score: int = 0
    second_score: int = 0
    winner: int | None = None
    """The player who won; the first unless said."""

    def __post_init__(self) -> None:
        if self.winner is None:
            object.__setattr__(self, "winner", self.first)


@dataclass
class Standing:
    player: int
    name: str
    points: int = 0
    wins: int = 0
    losses: int = 0
    byes: int = 0
    margin: int = 0
    buchholz: int = 0
    fire: bool = False
    """Arena: the next win counts double."""
    opponents: list[int] = field(default_factory=list)
    rank: int = 0
    """Place, 1 first; equal standings share a place."""

    def public(self) -> dict[str, object]:
        return {
            "rank": self.rank, "player": self.player, "name": self.name, "points": self.points,
            "wins": self.wins, "losses": self.losses, "byes": self.byes,
            "margin": self.margin, "buchholz": self.buchholz, "fire": self.fire,
        }


def _tally(names: Mapping[int, str], games: Sequence[Result], arena: bool) -> dict[int, Standing]:
    table = {player: Standing(player, name) for player, name in names.items()}
    streak = dict.fromkeys(names, 0)
    for game in games:
        if game.second is None:
            bye = table[game.first]
            bye.byes += 1
            bye.points += 1
            continue
        for player, opponent, mine, theirs in (
            (game.first, game.second, game.first_score, game.second_score),
            (game.second, game.first, game.second_score, game.first_score),
        ):
            standing = table[player]
            standing.opponents.append(opponent)
            standing.margin += mine - theirs
            if game.winner == player:
                standing.wins += 1
                standing.points += (
                    (WIN * 2 if streak[player] >= ON_FIRE else WIN) if arena else 1
                )
                streak[player] += 1
            else:
                standing.losses += 1
                streak[player] = 0
    for player, standing in table.items():
        standing.fire = arena and streak[player] >= ON_FIRE
    return table


def _ranked(standings: list[Standing], key: Callable[[Standing], object]) -> list[Standing]:
    previous = None
    for place, standing in enumerate(standings, 1):
        mine = key(standing)
        standing.rank = previous[1] if previous is not None and previous[0] == mine else place
        previous = (mine, standing.rank)
    return standings


def arena_standings(names: Mapping[int, str], games: Sequence[Result]) -> list[Standing]:
    """An arena's standings: points, then margin (then name, for a steady order)."""
    table = _tally(names, games, arena=True)
    order = sorted(table.values(), key=lambda s: (-s.points, -s.margin, s.name, s.player))
    return _ranked(order, lambda s: (s.points, s.margin))


def swiss_standings(names: Mapping[int, str], games: Sequence[Result]) -> list[Standing]:
    """A Swiss's standings: points, then Buchholz, then margin."""
    table = _tally(names, games, arena=False)
    for standing in table.values():
        standing.buchholz = sum(table[opponent].points for opponent in standing.opponents)
    order = sorted(
        table.values(), key=lambda s: (-s.points, -s.buchholz, -s.margin, s.name, s.player)
    )
    return _ranked(order, lambda s: (s.points, s.buchholz, s.margin))
