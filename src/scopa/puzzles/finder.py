"""Finding puzzles: play bots' matches and keep the last-deal positions where one move is best.

A position qualifies when the exact solver, valuing each move by the round's point difference
it leads to (both sides playing their best after it), puts one move at least a point clear of
every other; or when one move alone keeps or takes the match at the target. The matches are
the room's bots against each other and the master against itself, each from a seed drawn from
the set's own seed, so the same command makes the same set again.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Final

from ..cards import cards_of
from ..game import Game
from ..moves import Move
from ..players import LEVELS, Player, make_player
from ..players.outlook import Utility
from ..players.sampling import Knowledge
from ..players.solver import Solver
from ..round import Round
from ..rules import Rules
from ..scoring import RoundScore
from ..view import View
from .puzzle import THEMES, Position, Puzzle

PAIRINGS: Final = (
    ("expert", "greedy"),
    ("greedy", "expert"),
    ("expert", "expert"),
    ("master", "master"),
)
"""Who plays the matches the positions come from, in turn: the room's bots, and the master
against itself (every fourth match)."""
TRIES: Final = 3
"""How many times each level below the master is asked (with a different seed each time)."""
CATEGORIES: Final = (("settebello", "settebello"), ("coins", "coins"), ("cards", "cards"),
                     ("primiera", "primiera"), ("sevens", "sevens"), ("sweeps", "sweep"))
"""The round's point categories a best move can win over the next best, and their themes."""


def point_difference(side: int) -> Utility:
    """The solver's utility for puzzles: the side's round points less the other side's."""
    other = 1 - side

    def difference(points: Sequence[int]) -> float:
        return float(points[side] - points[other])

    return difference


def match_result(side: int, scores: Sequence[int], target: int) -> Utility:
    """1 when the round's points take ``side`` past the target ahead, -1 when the other side,
    0 when the match goes on."""
    other = 1 - side

    def result(points: Sequence[int]) -> float:
        mine, theirs = scores[side] + points[side], scores[other] + points[other]
        if max(mine, theirs) < target or mine == theirs:
            return 0.0
        return 1.0 if mine > theirs else -1.0

    return result


def solve(state: Round, side: int, utility: Utility) -> list[tuple[Move, float]]:
    """Every legal move of ``state`` with its exact value for ``side``."""
    return Solver(state.rules, side, utility).move_values(state)


def line_after(state: Round, move: Move, side: int) -> tuple[list[Move], Round]:
    """The solver's play after ``move`` to the round's end (each side at its best for the point
    difference; the first of equal moves), and the round once over."""
    state = state.copy()
    state.apply(move)
    played: list[Move] = []
    utility = point_difference(side)
    while not state.over:
        values = solve(state, side, utility)
        mine = state.to_move % state.sides == side
        chosen = max(values, key=lambda mv: mv[1] if mine else -mv[1])[0]
        played.append(chosen)
        state.apply(chosen)
    return played, state


def themes_of(state: Round, side: int, best: Move, runner_up: Move, best_value: int,
              match: bool) -> tuple[str, ...]:
    """What the best move does better than the next best, read off both moves' lines."""
    found: set[str] = set()
    best_line, best_end = line_after(state, best, side)
    other_line, other_end = line_after(state, runner_up, side)
    after = state.copy()
    after.apply(best)
    if after.sweeps[side] > state.sweeps[side]:
        found.add("sweep")
    elif _sweeps_next(state, runner_up, other_line, side) and not _sweeps_next(
        state, best, best_line, side
    ):
        found.add("deny_sweep")
    mine, theirs = _margins(best_end.scores(), side), _margins(other_end.scores(), side)
    for category, theme in CATEGORIES:
        if mine[category] > theirs[category] and theme not in found:
            found.add(theme)
    if _leftovers_to(state, best, best_line) == side != _leftovers_to(state, runner_up, other_line):
        found.add("last_capture")
    if match:
        found.add("match")
    if best_value < 0:
        found.add("lose_least")
    return tuple(theme for theme in THEMES if theme in found)


def _margins(scores: list[RoundScore], side: int) -> dict[str, int]:
    """Each category's points for ``side`` less the other side's."""
    mine, theirs = scores[side], scores[1 - side]
    return {category: getattr(mine, category) - getattr(theirs, category)
            for category, _ in CATEGORIES}


def _sweeps_next(state: Round, move: Move, line: list[Move], side: int) -> bool:
    """Whether the other side's reply in ``move``'s line is a sweep that scores."""
    if not line:
        return False
    after = state.copy()
    after.apply(move)
    other = 1 - side
    before = after.sweeps[other]
    after.apply(line[0])
    return after.sweeps[other] > before


def _leftovers_to(state: Round, move: Move, line: list[Move]) -> int | None:
    """The side that takes the cards left on the table at the end of ``move``'s line (the
    last to capture), or None when the last play leaves none."""
    before_last = state.copy()
    moves = [move, *line]
    for played in moves[:-1]:
        before_last.apply(played)
    final = moves[-1]
    if final.captured_mask:
        left = before_last.table & ~final.captured_mask
    else:
        left = before_last.table | final.card_bit
    if not left:
        return None
    before_last.apply(final)
    return before_last.last


def found_by_levels(view: View, best: Move, seed: int) -> dict[str, float]:
    """By level, the share of tries whose move is ``best`` (the master is asked once: on an
    open position it solves exactly, and the same view always gets the same move)."""
    found = {}
    for level in LEVELS:
        tries = 1 if level == "master" else TRIES
        hits = sum(make_player(level, seed=seed * 7 + k).choose(view) == best for k in range(tries))
        found[level] = round(hits / tries, 2)
    return found


def rating_of(legal: int, found: dict[str, float]) -> int:
    """A puzzle's rating: 800, plus 100 for each legal move past two (up to six), plus up to
    800 for the share of the levels' tries that missed it."""
    missed = 1 - sum(found.values()) / len(found)
    return round(800 + 100 * min(max(legal - 2, 0), 6) + 800 * missed)


@dataclass
class Tally:
    """What a making looked at, for a benchmark to say how much of it is kept: the positions
    met once that could be a puzzle (the last deal of two players, two or more legal moves),
    and the matches played."""

    candidates: int = 0
    matches: int = 0


def is_candidate(view: View, rules: Rules) -> bool:
    """Whether the position could be a puzzle: the last deal of two players, with a choice."""
    return (not view.stock_size and view.seat is not None and rules.players == 2
            and len(view.legal_moves()) >= 2)


def puzzle_at(game: Game, view: View, number: int, source: dict[str, object]) -> Puzzle | None:
    """The puzzle at the seat to move's turn in ``game``, or None when the position is not
    one: the stock not empty, a single legal move, or no move strictly best."""
    if view.stock_size or view.seat is None or game.rules.players != 2:
        return None
    knowledge = Knowledge(view)
    if not knowledge.open:
        return None
    state = knowledge.sample(random.Random(0))  # open: the one deal there is
    legal = state.legal()
    if len(legal) < 2:
        return None
    side = knowledge.side
    values = {move: round(value) for move, value in solve(state, side, point_difference(side))}
    ranked = sorted(values, key=lambda move: -values[move])
    best, runner_up = ranked[0], ranked[1]
    outcome = dict(solve(state, side, match_result(side, knowledge.scores, game.rules.target)))
    if values[best] - values[runner_up] >= 1:
        # Best by the points; it is a match puzzle too when it alone keeps or takes the match.
        match = outcome[best] > max(outcome[move] for move in legal if move != best)
    else:
        top = max(outcome.values())
        winners = [move for move in legal if outcome[move] == top]
        if len(winners) != 1:
            return None
        best, match = winners[0], True
        runner_up = max((move for move in legal if move != best),
                        key=lambda move: (outcome[move], values[move]))
    position = Position(
        rules=game.rules,
        seat=view.seat,
        hand=view.hand,
        other_hand=tuple(cards_of(state.hands[1 - view.seat])),
        table=view.table,
        piles=tuple(view.piles),
        sweeps=tuple(view.sweeps),
        scores=tuple(view.scores),
        last=knowledge.last,
    )
    line, _ = line_after(state, best, side)
    found = found_by_levels(view, best, number)
    return Puzzle(
        id=f"{source['preset']}-{number:05d}",
        position=position,
        best=best,
        values={str(move): values[move] for move in ranked},
        line=tuple(line),
        themes=themes_of(state, side, best, runner_up, values[best], match),
        found=found,
        rating=rating_of(len(legal), found),
        source=source,
    )


def matches(preset: str, seed: int) -> Iterator[tuple[int, tuple[str, str]]]:
    """The matches to look in: each one's seed, drawn from ``seed``, and its two levels."""
    rng = random.Random(f"puzzles/{preset}/{seed}")
    for number in range(10**9):
        yield rng.getrandbits(32), PAIRINGS[number % len(PAIRINGS)]


def make(
    preset: str, count: int, seed: int, found: Callable[[Puzzle], None] | None = None,
    tally: Tally | None = None,
) -> list[Puzzle]:
    """``count`` puzzles of ``preset`` (two players), found in the matches ``seed`` draws; the
    same arguments always give the same puzzles. A position met twice is kept once. ``found``
    is told of each puzzle as it is found (a progress bar); ``tally`` counts what was looked at
    (benchmarks/puzzles.py)."""
    rules = Rules.preset(preset)
    if rules.players != 2:
        raise ValueError(f"puzzles need two players; the preset {preset!r} has {rules.players}")
    if count < 1:
        raise ValueError(f"the count must be 1 or more; got {count}")
    puzzles: list[Puzzle] = []
    seen: set[tuple[object, ...]] = set()
    for match_seed, levels in matches(preset, seed):
        if tally is not None:
            tally.matches += 1
        game = Game.new(rules, seed=match_seed)
        players: list[Player] = [
            make_player(level, seed=match_seed + k) for k, level in enumerate(levels)
        ]
        while not game.is_over:
            seat = game.to_move
            assert seat is not None
            view = game.view(seat)
            key = (view.hand, view.table, view.piles, view.scores, view.sweeps)
            if key not in seen:
                seen.add(key)
                if tally is not None and is_candidate(view, rules):
                    tally.candidates += 1
                source = {"preset": preset, "match_seed": match_seed, "players": list(levels),
                          "round": game.round_number, "play": len(view.plays)}
                puzzle = puzzle_at(game, view, len(puzzles) + 1, source)
                if puzzle is not None:
                    puzzles.append(puzzle)
                    if found is not None:
                        found(puzzle)
                    if len(puzzles) == count:
                        return puzzles
            game.play(players[seat].choose(view))
    raise AssertionError("unreachable: the matches never run out")
