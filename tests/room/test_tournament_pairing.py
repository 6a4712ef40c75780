"""The tournaments' pairing and scoring: properties of every Swiss round and arena pairing
(hypothesis), checked against a brute force over every possible pairing of small fields, and
the standings' points and tie-breaks."""

from __future__ import annotations

from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from scopa.server.tournaments.pairing import Entrant, arena_pairs, meeting, swiss_round
from scopa.server.tournaments.standings import Result, arena_standings, swiss_standings


def pairings(players: list[int]) -> Iterator[list[tuple[int, int | None]]]:
    """Every way to pair ``players`` (one of them left with the bye when odd)."""
    if not players:
        yield []
        return
    if len(players) % 2:
        for index, bye in enumerate(players):
            rest = players[:index] + players[index + 1:]
            for found in pairings(rest):
                yield [(bye, None), *found]
        return
    first, rest = players[0], players[1:]
    for index, other in enumerate(rest):
        for found in pairings(rest[:index] + rest[index + 1:]):
            yield [(first, other), *found]


def mismatch(pairs: list[tuple[int, int | None]], score: dict[int, int]) -> int:
    """How far a pairing is from pairing inside score groups: the squared score differences,
    the bye counted as a game against a player one point below everyone."""
    lowest = min(score.values()) - 1
    return sum((score[a] - (lowest if b is None else score[b])) ** 2 for a, b in pairs)


@st.composite
def fields(draw: st.DrawFn) -> tuple[list[Entrant], set[frozenset[int]]]:
    count = draw(st.integers(2, 8))
    players = list(range(1, count + 1))
    scores = draw(st.lists(st.integers(0, 3), min_size=count, max_size=count))
    byes = draw(st.lists(st.booleans(), min_size=count, max_size=count))
    order = sorted(players, key=lambda p: (-scores[p - 1], p))
    entrants = [Entrant(p, scores[p - 1], order.index(p), byes[p - 1]) for p in players]
    every = [meeting(a, b) for a in players for b in players if a < b]
    played = set(draw(st.lists(st.sampled_from(every), max_size=len(every))))
    return entrants, played


@settings(max_examples=300, deadline=None)
@given(fields())
def test_a_swiss_round_pairs_everyone_once_with_no_repeat_and_inside_score_groups(
    field: tuple[list[Entrant], set[frozenset[int]]],
) -> None:
    entrants, played = field
    score = {e.player: e.score for e in entrants}
    had_bye = {e.player for e in entrants if e.had_bye}
    valid = [
        pairing for pairing in pairings(sorted(score))
        if all((a not in had_bye) if b is None else (meeting(a, b) not in played)
               for a, b in pairing)
    ]
    found = swiss_round(entrants, played)
    if not valid:
        assert found is None
        return
    assert found is not None
    seated = [p for pair in found.pairs for p in pair] + ([found.bye] if found.bye else [])
    assert sorted(seated) == sorted(score), "everyone plays or has the bye, once"
    assert not any(meeting(a, b) in played for a, b in found.pairs), "no pair meets twice"
    assert (found.bye is not None) == (len(score) % 2 == 1), "a bye only when odd"
    assert found.bye not in had_bye, "no second bye for anyone"
    ours: list[tuple[int, int | None]] = [*found.pairs, *([(found.bye, None)] if found.bye else [])]
    assert mismatch(ours, score) == min(mismatch(p, score) for p in valid)


@settings(max_examples=100, deadline=None)
@given(st.integers(2, 12), st.randoms(use_true_random=False))
def test_a_whole_swiss_never_repeats_a_pairing_nor_a_bye(count: int, rng: object) -> None:
    import random

    assert isinstance(rng, random.Random)
    points = dict.fromkeys(range(1, count + 1), 0)
    played: set[frozenset[int]] = set()
    byes: set[int] = set()
    rounds = count - 1 if count % 2 == 0 else count
    for _ in range(rounds):
        order = sorted(points, key=lambda p: (-points[p], p))
        entrants = [Entrant(p, points[p], order.index(p), p in byes) for p in points]
        found = swiss_round(entrants, played)
        if found is None:
            break
        for a, b in found.pairs:
            assert meeting(a, b) not in played
            played.add(meeting(a, b))
            points[rng.choice((a, b))] += 1
        if found.bye is not None:
            assert found.bye not in byes
            byes.add(found.bye)
            points[found.bye] += 1
    assert len(byes) <= count


def test_round_one_pairs_the_top_half_against_the_bottom_half() -> None:
    found = swiss_round([Entrant(p, 0, p - 1) for p in range(1, 9)], set())
    assert found is not None
    assert found.pairs == [(1, 5), (2, 6), (3, 7), (4, 8)]
    assert found.bye is None


def test_the_bye_goes_to_the_lowest_player_who_has_not_had_one() -> None:
    entrants = [Entrant(1, 2, 0), Entrant(2, 1, 1), Entrant(3, 0, 2, had_bye=True)]
    found = swiss_round(entrants, set())
    assert found is not None and found.bye == 2 and found.pairs == [(1, 3)]


def test_no_round_when_every_pair_has_met() -> None:
    entrants = [Entrant(p, 0, p) for p in (1, 2)]
    assert swiss_round(entrants, {meeting(1, 2)}) is None


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 9), st.data())
def test_an_arena_pairs_every_free_player_it_can_and_never_the_last_pair_again(
    count: int, data: st.DataObject
) -> None:
    free = [Entrant(p, data.draw(st.integers(0, 12)), p) for p in range(count)]
    players = [e.player for e in free]
    last = {}
    for a in players:
        if data.draw(st.booleans()):
            b = data.draw(st.sampled_from(players))
            if b != a:
                last[a], last[b] = b, a
    others = data.draw(st.booleans())
    pairs = arena_pairs(free, last, others)
    seated = [p for pair in pairs for p in pair]
    assert len(seated) == len(set(seated))
    if others:
        assert not any(last.get(a) == b for a, b in pairs)
    else:
        assert len(pairs) == count // 2, "with nobody else playing, everyone is paired at once"

        def rematches(pairing: list[tuple[int, int | None]]) -> int:
            return sum(1 for a, b in pairing
                       if b is not None and (last.get(a) == b or last.get(b) == a))

        fewest = min(rematches(p) for p in pairings(players))
        assert rematches(list(pairs)) == fewest, "no rematch another pairing avoids"


def test_with_nobody_else_to_wait_for_an_arena_still_avoids_a_rematch_it_can() -> None:
    free = [Entrant(p, 0, p) for p in (1, 2, 3, 4)]
    last = {1: 2, 2: 1, 3: 4, 4: 3}
    pairs = arena_pairs(free, last, others_playing=False)
    assert len(pairs) == 2 and not any(last[a] == b for a, b in pairs)
    assert arena_pairs(free[:2], last, others_playing=False) == [(1, 2)]


def test_an_arena_pairs_close_scores() -> None:
    free = [Entrant(1, 10, 0), Entrant(2, 9, 1), Entrant(3, 1, 2), Entrant(4, 0, 3)]
    assert arena_pairs(free, {}, others_playing=True) == [(1, 2), (3, 4)]


def test_a_third_win_in_a_row_counts_double_until_a_loss() -> None:
    names = {1: "Ada", 2: "Bo"}
    games = [Result(n, 1, 2, 11, 3) for n in range(1, 5)] + [Result(5, 2, 1, 11, 8),
                                                              Result(6, 1, 2, 11, 0)]
    ada, bo = arena_standings(names, games)
    # 2 + 2 + 4 + 4, a loss (0), then 2: the streak starts again.
    assert (ada.player, ada.points, ada.fire) == (1, 14, False)
    assert (bo.player, bo.points, bo.wins) == (2, 2, 1)


def test_swiss_ties_break_on_buchholz_then_the_points_margin() -> None:
    names = {1: "A", 2: "B", 3: "C", 4: "D"}
    games = [
        Result(1, 1, 2, 11, 9), Result(1, 3, 4, 11, 2),  # A and C win
        Result(2, 3, 1, 11, 4), Result(2, 2, 4, 11, 5),  # C and B win
    ]
    table = swiss_standings(names, games)
    assert [(s.name, s.points, s.buchholz) for s in table] == [
        ("C", 2, 1), ("A", 1, 3), ("B", 1, 1), ("D", 0, 3)]
    # A and B have 1 point each: A's opponents scored 3, B's 1.
    assert [s.rank for s in table] == [1, 2, 3, 4]
    same = swiss_standings({1: "A", 2: "B"}, [Result(1, 1, 2, 11, 10), Result(2, 2, 1, 11, 1)])
    assert [(s.name, s.margin) for s in same] == [("B", 9), ("A", -9)]
