"""The pools' wave, as properties over any pool: nobody is in two groups, every group is within
the windows of all its people and holds no blocked pair, a team of friends sits together, and
(in a pool of one matching's run) two people who may play are never both left waiting."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from scopa.server.pools.matching import (
    OPEN_AFTER,
    Person,
    Waiting,
    couples,
    foursomes,
    window,
    within,
)

NOW = 1000.0


@st.composite
def pools(draw: st.DrawFn, pairs: bool = False) -> list[Waiting]:
    count = draw(st.integers(0, 24))
    parties = []
    for k in range(count):
        size = 2 if pairs and draw(st.booleans()) else 1
        people = tuple(Person(f"guest:{k}-{j}", f"P{k}{j}", account=2 * k + j)
                       for j in range(size))
        parties.append(Waiting(
            str(k), people, draw(st.floats(10, 40)), NOW - draw(st.floats(0, 90))))
    return parties


blocks = st.sets(st.tuples(st.integers(0, 48), st.integers(0, 48)).map(frozenset), max_size=30)


@settings(max_examples=150, deadline=None)
@given(pools(), blocks)
def test_a_wave_of_two_seats_each_once_within_both_windows(
    waiting: list[Waiting], blocked: set[frozenset[int]]
) -> None:
    found = couples(waiting, NOW, blocked)
    tickets = [party.ticket for pair in found for party in pair]
    assert len(tickets) == len(set(tickets))
    for first, second in found:
        assert abs(first.rating - second.rating) <= min(
            window(NOW - first.since), window(NOW - second.since))
        assert within((first, second), NOW, blocked)
        assert first.since <= second.since
    # Maximal: no two left waiting could have played each other.
    left = [party for party in waiting if party.ticket not in set(tickets)]
    for a, b in itertools.combinations(left, 2):
        assert not within((a, b), NOW, blocked)


@settings(max_examples=150, deadline=None)
@given(pools(pairs=True), blocks)
def test_a_wave_of_four_seats_two_teams_with_friends_together(
    waiting: list[Waiting], blocked: set[frozenset[int]]
) -> None:
    found = foursomes(waiting, NOW, blocked)
    tickets = [party.ticket for group in found for party in group.parties]
    assert len(tickets) == len(set(tickets))
    for group in found:
        assert sum(len(party.people) for party in group.parties) == 4
        assert sorted(p.key for p in group.seats) == sorted(
            p.key for party in group.parties for p in party.people)
        assert within(group.parties, NOW, blocked)
        for party in group.parties:
            if len(party.people) == 2:
                seats = [group.seats.index(person) for person in party.people]
                assert seats[0] % 2 == seats[1] % 2  # partners sit opposite, one side


@settings(max_examples=30, deadline=None)
@given(st.integers(33, 200), st.integers(0, 100))
def test_a_crowded_pool_is_matched_in_runs_and_seats_nearly_everyone(
    count: int, shift: int
) -> None:
    waiting = [Waiting(str(k), (Person(f"guest:{k}", str(k)),), 25.0 + k / 100, NOW)
               for k in range(count)]
    found = couples(waiting, NOW, shift=shift)
    tickets = [party.ticket for pair in found for party in pair]
    assert len(tickets) == len(set(tickets))
    assert count - len(tickets) <= count // 32 + 2  # at most one left over a run


def test_after_the_open_wait_anyone_plays_anyone() -> None:
    far = [Waiting("a", (Person("guest:a", "A"),), 10.0, NOW - OPEN_AFTER),
           Waiting("b", (Person("guest:b", "B"),), 40.0, NOW - OPEN_AFTER)]
    assert couples(far, NOW) != [] and couples(far, NOW - 1) == []
