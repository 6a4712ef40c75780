"""Who plays whom next: a Swiss round's pairings and an arena's, each as a maximum-weight
matching (networkx's Edmonds blossom algorithm) on a graph of the pairs that may meet.

A pairing is a matching: every player in at most one pair. Pairs that may not meet (a Swiss
pair that met before, an arena pair that just met) have no edge, so no weight can bring them
together; among the matchings of the most pairs, the one of least cost is chosen. A pair's cost
is first the square of its score difference, so players meet inside their score group whenever
the whole round allows it, and only then how far the pair is from the Dutch system's order
(top half of a group against its bottom half). The scale between the two terms is larger than
any sum of the second, so the order never buys a worse score fit.

The chess pairing libraries on PyPI were looked at and not taken (docs/tournaments.md says why):
the FIDE Dutch system's rules are mostly about colours, which a scopa table has not.

>>> round_one = swiss_round([Entrant(n, 0, n) for n in range(1, 6)], set())
>>> round_one.pairs, round_one.bye
([(1, 3), (2, 4)], 5)
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

import networkx as nx  # type: ignore[import-untyped]

BYE = -1
"""The graph's node for the bye: the player matched to it sits the round out."""


@dataclass(frozen=True)
class Entrant:
    """A player as the pairing sees them."""

    player: int
    score: int
    """Tournament points so far."""
    rank: int
    """Place in the standings now (0 is first): the order inside a score group."""
    had_bye: bool = False


@dataclass(frozen=True)
class SwissRound:
    pairs: list[tuple[int, int]]
    """Each pair, the better placed first."""
    bye: int | None
    """Who sits out (and scores a win), when the number of players is odd."""


def meeting(a: int, b: int) -> frozenset[int]:
    """A pair of players as the set of games already played holds it."""
    return frozenset((a, b))


def swiss_round(
    entrants: Sequence[Entrant], played: Collection[frozenset[int]]
) -> SwissRound | None:
    """The next round: no pair that met before, everyone paired within their score group as
    far as the round allows, and with an odd number of players one bye, to the lowest placed
    player of the lowest score group who has not had one. None when no such round exists (more
    rounds than the players can play without meeting twice, or every player has had a bye)."""
    people = sorted(entrants, key=lambda e: e.rank)
    count = len(people)
    if count < 2:
        return None
    order = {e.player: place for place, e in enumerate(people)}
    groups: dict[int, list[int]] = {}
    for entrant in people:
        groups.setdefault(entrant.score, []).append(entrant.player)
    place_in_group = {
        player: (index, len(members))
        for members in groups.values()
        for index, player in enumerate(members)
    }
    lowest = min(e.score for e in people) - 1
    scale = count**3 + 1

    def order_cost(a: int, b: int) -> int:
        (index_a, size), (index_b, _) = place_in_group[a], place_in_group[b]
        return (abs(index_a - index_b) - size // 2) ** 2

    graph = nx.Graph()
    for a, b in combinations(people, 2):
        if meeting(a.player, b.player) in played:
            continue
        cost = scale * (a.score - b.score) ** 2 + order_cost(a.player, b.player)
        graph.add_edge(a.player, b.player, cost=cost)
    if count % 2:
        for entrant in people:
            if not entrant.had_bye:
                # As if paired with a player one point below everyone: the lowest group's
                # last player first.
                cost = scale * (entrant.score - lowest) ** 2 + (count - order[entrant.player])
                graph.add_edge(entrant.player, BYE, cost=cost)
    matched = _cheapest(graph)
    if len(matched) * 2 < count + count % 2:
        return None
    pairs: list[tuple[int, int]] = []
    bye = None
    for one, other in matched:
        if BYE in (one, other):
            bye = one if other == BYE else other
        else:
            pairs.append((one, other) if order[one] < order[other] else (other, one))
    pairs.sort(key=lambda pair: order[pair[0]])
    return SwissRound(pairs, bye)


def arena_pairs(
    free: Sequence[Entrant], last_opponent: Mapping[int, int], others_playing: bool
) -> list[tuple[int, int]]:
    """An arena's pairs among the players free now, as many as can be made: close scores
    first (then close places), never two who have just played each other while someone else
    is still playing (lichess waits for another opponent then). With nobody else to wait for,
    two who just met meet again only if no other pairing of as many pairs avoids it."""
    graph = nx.Graph()
    scale = len(free) ** 2 + 1
    top = max((e.score for e in free), default=0) - min((e.score for e in free), default=0)
    again = len(free) * (scale * top**2 + len(free)) + 1
    """Dearer than every other cost of a pairing together."""
    for a, b in combinations(free, 2):
        rematch = (last_opponent.get(a.player) == b.player
                   or last_opponent.get(b.player) == a.player)
        if rematch and others_playing:
            continue
        cost = scale * (a.score - b.score) ** 2 + abs(a.rank - b.rank) + (again if rematch else 0)
        graph.add_edge(a.player, b.player, cost=cost)
    rank = {e.player: e.rank for e in free}
    pairs = [(a, b) if rank[a] < rank[b] else (b, a) for a, b in _cheapest(graph)]
    return sorted(pairs, key=lambda pair: rank[pair[0]])


def _cheapest(graph: nx.Graph) -> list[tuple[int, int]]:
    """The matching of the most edges, and among those of least total cost (as the greatest
    weight with every weight its cost taken from a bound above every cost)."""
    if not graph.edges:
        return []
    ceiling = max(cost for _, _, cost in graph.edges.data("cost")) + 1
    for _, _, data in graph.edges(data=True):
        data["weight"] = ceiling - data["cost"]
    found: set[tuple[int, int]] = nx.max_weight_matching(graph, maxcardinality=True)
    return [(int(a), int(b)) for a, b in found]
