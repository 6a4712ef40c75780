"""Shared helpers: decks that put chosen cards in chosen places, and random play."""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

import pytest

from scopa import CARDS, Card, Game, Rules, preset_names
from scopa.players import Player


def card(code: str) -> Card:
    return Card.parse(code)


def cards(codes: str) -> list[Card]:
    """``"2D 3H"`` -> the two cards, in the order given."""
    return [Card.parse(code) for code in codes.split()]


def codes(items: Iterable[object]) -> list[str]:
    return [str(item) for item in items]


def deck_starting(first: Iterable[Card | str]) -> list[Card]:
    """A full 40-card deck (top first): ``first`` in order, then the rest in canonical order."""
    top = [item if isinstance(item, Card) else Card.parse(item) for item in first]
    if len(set(top)) != len(top):
        raise AssertionError(f"deck_starting: a card is named twice in {codes(top)}")
    rest = [c for c in CARDS if c not in top]
    return top + rest


def deal(
    rules: Rules,
    hands: Sequence[str],
    table: str = "",
    then: str = "",
) -> list[Card]:
    """The deck for round 0 that gives seat k ``hands[k]`` (seat 0 leads) and the table ``table``.

    Each hand and the table are space-separated codes of exactly the right length;
    ``then`` orders the next cards of the stock; the rest follow in canonical order.
    """
    assert len(hands) == rules.players
    top: list[Card] = []
    for hand in hands:
        got = cards(hand)
        assert len(got) == rules.hand_size, hand
        top += got
    on_table = cards(table)
    assert len(on_table) == rules.table_size, table
    return deck_starting(top + on_table + cards(then))


def state(game: Game) -> dict[str, object]:
    """Everything observable about a game, for before/after comparisons."""
    return {
        "record": game.record(),
        "hands": game.hands,
        "table": game.table,
        "piles": game.piles,
        "sweeps": game.sweeps,
        "scores": game.scores,
        "stock_size": game.stock_size,
        "to_move": game.to_move,
        "round_number": game.round_number,
        "winner": game.winner,
        "views": [game.view(seat) for seat in [None, *range(game.rules.players)]],
    }


def play_random(game: Game, rng: random.Random, max_moves: int = 100_000) -> None:
    """Play random legal moves until the match is over."""
    for _ in range(max_moves):
        if game.is_over:
            return
        game.play(rng.choice(game.legal_moves()))
    raise AssertionError("the match did not end")


def play_match(game: Game, players: Sequence[Player]) -> None:
    """Let ``players`` (by seat) play the match out, checking every move they choose is legal."""
    while not game.is_over:
        seat = game.to_move
        assert seat is not None
        move = players[seat].choose(game.view(seat))
        assert move in game.legal_moves()
        game.play(move)


def play_until_round_ends(game: Game, rng: random.Random) -> None:
    """Play random legal moves until the current round has been scored."""
    rounds = len(game.round_scores)
    while len(game.round_scores) == rounds:
        game.play(rng.choice(game.legal_moves()))


def rules_variants() -> list[Rules]:
    """Every preset with every player count (and ``teams=3`` for six) that it allows."""
    variants = []
    for name in preset_names():
        for players, teams in ((2, None), (3, None), (4, None), (6, None), (6, 3)):
            try:
                variants.append(Rules.preset(name, players=players, teams=teams))
            except ValueError:
                continue
    return variants


def variant_id(rules: Rules) -> str:
    teams = "" if rules.teams is None else f"-teams{rules.teams}"
    return f"{rules.name}-{rules.players}p{teams}"


@pytest.fixture
def rng() -> random.Random:
    return random.Random(20240601)



# -- the two pytest processes' balance, printed at the end of a run of several ---------------

_began = 0.0
_finished: dict[str, float] = {}


def pytest_sessionstart(session: pytest.Session) -> None:
    global _began
    _began = time.monotonic()


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: object, error: object) -> None:
    """pytest-xdist's: a worker process is done (scripts/test.sh runs two)."""
    name = getattr(node, "gateway", None)
    _finished[getattr(name, "id", "?")] = time.monotonic() - _began


_by_file: dict[str, float] = {}
"""Seconds spent in each test file, its fixtures' setup and teardown included."""
FILES_SHOWN = 25


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Count each step's time to its file (in the run's main process, which every pytest
    process reports to)."""
    path = report.nodeid.split("::", 1)[0]
    _by_file[path] = _by_file.get(path, 0.0) + report.duration


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """The files that took the most time (a file runs whole in one process, so this is what
    the processes' shares are made of), and when each pytest process finished its share, in
    seconds from the run's start: the two should end close together (test files are dealt to
    whichever is free, --dist loadfile)."""
    if _by_file:
        total = sum(_by_file.values())
        terminalreporter.write_sep("=", f"slowest {FILES_SHOWN} test files, of {total:.0f} s")
        for path, seconds in sorted(_by_file.items(), key=lambda item: -item[1])[:FILES_SHOWN]:
            terminalreporter.write_line(f"{seconds:8.2f}s {path}")
    if len(_finished) > 1:
        ends = ", ".join(f"{name} at {seconds:.0f} s"
                         for name, seconds in sorted(_finished.items()))
        terminalreporter.write_line(f"pytest processes finished: {ends}")


# -- the browser tests' one Chromium per process -------------------------------------------

WEB_TESTS = Path(__file__).parent / "web"


class ChromiumCloser:
    """Closes this process's Chromium (tests/web/web_support.ProcessChromium) before a test
    outside tests/web: an anyio test, or a doctest that runs ``asyncio.run``, cannot run while
    Playwright's sync API is open. A plugin of the whole run rather than hooks of this
    conftest, whose hooks would not see the doctests of src/scopa and README.md (which the
    pytest processes run after tests/web)."""

    def pytest_runtest_setup(self, item: pytest.Item) -> None:
        if not item.path.is_relative_to(WEB_TESTS):
            self.close()

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        self.close()

    @staticmethod
    def close() -> None:
        web = sys.modules.get(f"{__package__}.web.web_support")  # loaded only if a web test ran
        if web is not None:
            web.PROCESS_CHROMIUM.close()


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(ChromiumCloser(), "scopa-chromium-closer")
