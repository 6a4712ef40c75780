"""Who plays whom: one wave of a pool's pairing, as pure functions of who waits and when.

lichess's pools are the model (lila's ``lila.pool.MatchMaking``): the pool is paired in
**waves**, and in each wave a maximum weight matching of everyone waiting chooses the couples,
each couple's weight higher the closer their ratings and the longer they have waited. A couple
may be paired only if their ratings are within the **window** of both, and a person's window
widens as they wait: close games for who can wait, a game for everyone soon.

A rating here is openskill's ``mu`` in the pool (:mod:`..accounts.ratings`), what the room
believes of a player's skill; a guest, and an account new to the pool, is a newcomer at the
model's 25. The window starts at :data:`FIRST_WINDOW` (100 of the shown rating's points, which
are 40 a ``mu``) and grows by :data:`WIDEN_PER_SECOND` for every second waited, until after
:data:`OPEN_AFTER` seconds anyone may be paired with anyone.

The four-player pool (scopone) seats two teams: friends who queue as a pair are one team; four
people alone are split strongest and weakest against the two between.

Nothing here does I/O: :mod:`.matchmaker` reads the pool, calls :func:`couples` or
:func:`foursomes`, and takes each group out of the pool atomically (:mod:`.store`).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Final

import networkx as nx  # type: ignore[import-untyped]

FIRST_WINDOW: Final = 2.5
"""The window a person has on joining: ratings 2.5 ``mu`` apart (100 shown points) may play."""
WIDEN_PER_SECOND: Final = 0.25
"""How much the window widens for each second waited (10 shown points a second)."""
OPEN_AFTER: Final = 60.0
"""Seconds after which a person's window has no edge: anyone in the pool may be their match."""
RUN: Final = 32
"""People one matching looks at, at most: 32 cost about 25 ms, 256 about 700 ms."""
NEWCOMER: Final = 25.0
"""The rating of a guest or of an account with no rating in the pool: openskill's default."""

Blocked = Collection[frozenset[int]]
"""Pairs of accounts that must never be paired (one blocked the other)."""


@dataclass(frozen=True)
class Person:
    """One person in a waiting party: their key (``account:12``, ``guest:...``), the name their
    seat shows, and their account, if any."""

    key: str
    name: str
    account: int | None = None


@dataclass(frozen=True)
class Waiting:
    """A party in a pool: one person, or two friends who queued as a pair (a team)."""

    ticket: str
    people: tuple[Person, ...]
    rating: float
    """The party's rating (a pair: the mean of its two)."""
    since: float
    """When the party asked to play, in the matchmaker's clock's seconds."""

    def to_dict(self) -> dict[str, object]:
        return {
            "ticket": self.ticket,
            "people": [[p.key, p.name, p.account] for p in self.people],
            "rating": self.rating,
            "since": self.since,
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Waiting:
        people = data["people"]
        assert isinstance(people, list)
        return cls(
            str(data["ticket"]),
            tuple(Person(str(key), str(name), None if account is None else int(account))
                  for key, name, account in people),
            float(str(data["rating"])),
            float(str(data["since"])),
        )


def window(waited: float) -> float:
    """How far apart in ``mu`` a party that has waited ``waited`` seconds may be paired.

    >>> window(0), window(10), window(OPEN_AFTER)
    (2.5, 5.0, inf)
    """
    if waited >= OPEN_AFTER:
        return float("inf")
    return FIRST_WINDOW + WIDEN_PER_SECOND * max(0.0, waited)


def within(parties: Sequence[Waiting], now: float, blocked: Blocked = ()) -> bool:
    """Whether ``parties`` may play together: every two of them within the narrower of their
    windows, and no two of their accounts blocked.

    >>> a = Waiting("a", (Person("guest:a", "A"),), 25.0, since=0)
    >>> b = Waiting("b", (Person("guest:b", "B"),), 30.0, since=0)
    >>> within([a, b], now=0), within([a, b], now=10)
    (False, True)
    """
    narrowest = min(window(now - party.since) for party in parties)
    ratings = [party.rating for party in parties]
    if max(ratings) - min(ratings) > narrowest:
        return False
    if blocked:
        accounts = [p.account for party in parties for p in party.people if p.account is not None]
        for i, first in enumerate(accounts):
            for second in accounts[i + 1:]:
                if frozenset((first, second)) in blocked:
                    return False
    return True


def _weight(a: Waiting, b: Waiting, now: float) -> float:
    """Closer ratings and longer waits weigh more (every weight is positive, so the matching
    also pairs as many as it can)."""
    return 1000.0 - abs(a.rating - b.rating) + 0.1 * ((now - a.since) + (now - b.since))


def couples(
    waiting: Sequence[Waiting], now: float, blocked: Blocked = (), shift: int = 0
) -> list[tuple[Waiting, Waiting]]:
    """A wave of a two-player pool: the couples to seat now, each the longer waiter first.

    The matching's cost grows with the cube of the people it looks at, so a crowded pool is
    matched in runs of :data:`RUN` people of neighbouring ratings (those most likely to play
    each other anyway); ``shift`` moves the runs' edges from one wave to the next, so that
    nobody stays at an edge.

    >>> ann = Waiting("1", (Person("guest:1", "Ann"),), 25.0, since=0)
    >>> bea = Waiting("2", (Person("guest:2", "Bea"),), 26.0, since=1)
    >>> cid = Waiting("3", (Person("guest:3", "Cid"),), 40.0, since=0)
    >>> [(a.ticket, b.ticket) for a, b in couples([ann, bea, cid], now=2)]
    [('1', '2')]
    """
    ordered = sorted(waiting, key=lambda party: (party.rating, party.ticket))
    if len(ordered) <= RUN:
        runs = [ordered]
    else:
        start = shift % RUN // 2 * 2
        runs = [ordered[:start]] if start else []
        runs += [ordered[k:k + RUN] for k in range(start, len(ordered), RUN)]
    found = [pair for run in runs for pair in _matched(run, now, blocked)]
    return sorted(found, key=lambda pair: (pair[0].since, pair[0].ticket))


def _matched(ordered: Sequence[Waiting], now: float, blocked: Blocked) -> list[
        tuple[Waiting, Waiting]]:
    """The maximum weight matching of ``ordered`` (sorted by rating)."""
    graph = nx.Graph()
    by_ticket = {party.ticket: party for party in ordered}
    for i, a in enumerate(ordered):
        for b in ordered[i + 1:]:
            if b.rating - a.rating > window(now - a.since):
                break  # sorted by rating: everyone further is further still
            if within((a, b), now, blocked):
                graph.add_edge(a.ticket, b.ticket, weight=_weight(a, b, now))
    found = []
    for first, second in nx.max_weight_matching(graph):
        a, b = by_ticket[first], by_ticket[second]
        found.append((a, b) if (a.since, a.ticket) <= (b.since, b.ticket) else (b, a))
    return found


@dataclass(frozen=True)
class Foursome:
    """Four people of a four-player pool, as two teams: the parties taken, and the seats in
    order (seats 0 and 2 are one team, 1 and 3 the other)."""

    parties: tuple[Waiting, ...]
    seats: tuple[Person, Person, Person, Person]


def _teams(parties: Sequence[Waiting]) -> tuple[Person, Person, Person, Person]:
    """The seats of four people in ``parties``: a pair is a team; four alone are split the
    strongest and weakest against the two between."""
    pairs = [party for party in parties if len(party.people) == 2]
    alone = sorted((party for party in parties if len(party.people) == 1),
                   key=lambda party: -party.rating)
    if len(pairs) == 2:
        first, second = pairs[0].people, pairs[1].people
    elif len(pairs) == 1:
        first, second = pairs[0].people, (alone[0].people[0], alone[1].people[0])
    else:
        first = (alone[0].people[0], alone[3].people[0])
        second = (alone[1].people[0], alone[2].people[0])
    return (first[0], second[0], first[1], second[1])


def foursomes(waiting: Sequence[Waiting], now: float, blocked: Blocked = ()) -> list[Foursome]:
    """A wave of the four-player pool: the longest waiter first, each party takes the closest
    rated parties it may play with until four people are found.

    >>> people = [Waiting(str(k), (Person(f"guest:{k}", str(k)),), 25 + k / 2, since=0)
    ...           for k in range(5)]
    >>> [[p.key for p in found.seats] for found in foursomes(people, now=0)]
    [['guest:3', 'guest:2', 'guest:0', 'guest:1']]
    """
    free = sorted(waiting, key=lambda party: (party.since, party.ticket))
    found: list[Foursome] = []
    while free:
        first = free.pop(0)
        chosen = [first]
        seats = len(first.people)
        for other in sorted(free, key=lambda party: abs(party.rating - first.rating)):
            if seats + len(other.people) > 4:
                continue
            if within([*chosen, other], now, blocked):
                chosen.append(other)
                seats += len(other.people)
                if seats == 4:
                    break
        if seats == 4:
            for party in chosen[1:]:
                free.remove(party)
            found.append(Foursome(tuple(chosen), _teams(chosen)))
    return found
