"""``scopa play``: a whole match through standard input, and bad input that changes nothing."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator

import pytest
from rich.console import Console

from scopa import Game, Move, Rules
from scopa.cli import main
from scopa.looks import card_label
from scopa.terminal import TerminalGame


class Answers(io.StringIO):
    """Standard input that gives ``first`` lines, then ``then`` for ever (``""``: end of input)."""

    def __init__(self, first: list[str], then: str = "1") -> None:
        super().__init__()
        self._lines: Iterator[str] = iter(first)
        self._then = then
        self.read_count = 0

    def readline(self, size: int | None = -1) -> str:
        self.read_count += 1
        line = next(self._lines, None)
        if line is None:
            return self._then + "\n" if self._then else ""
        return line + "\n"


def terminal(preset: str = "scopa", players: int = 2, answers: Answers | None = None,
             opponents: str = "greedy", look: str = "french",
             seed: int = 5) -> tuple[TerminalGame, io.StringIO]:  # fmt: skip
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None, highlight=False)
    stdin = answers if answers is not None else Answers([])
    match = Game.new(Rules.preset(preset, players=players), seed=seed)
    game = TerminalGame(match, opponents, look, stdin, console)
    return game, out


@pytest.mark.parametrize(
    ("preset", "players", "look"),
    [("scopa", 2, "french"), ("escoba", 4, "italian"), ("scopa", 3, "spanish")],
)
def test_a_whole_match_answering_one_every_time(preset: str, players: int, look: str) -> None:
    game, out = terminal(preset, players, look=look)
    assert game.run() == 0
    text = out.getvalue()
    assert game.game.is_over
    rounds = len(game.game.round_scores)
    for number in range(1, rounds + 1):
        assert f"End of round {number}" in text
    assert text.count("round total") == rounds and text.count("match total") == rounds
    assert re.search(r"Winner: (You|Bot).*, [\d-]+: you (win|lose)\.", text)
    assert "Seat 0" not in text and "seat 0" not in text
    # Cards are shown in the deck's look; every seat's plays are reported.
    assert card_label(game.game.moves[0].card, look) in text
    if players == 2:
        assert "Bot (greedy): " in text and "You: " in text
    else:
        for seat in range(1, players):
            assert f"Bot {seat} (greedy, " in text
    if players == 4:
        assert "Bot 2 (greedy, partner)" in text and "Teams: You & Bot 2; Bot 1 & Bot 3" in text


def test_the_play_command_reads_standard_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setattr("sys.stdin", Answers([]))
    status = main(["play", "--preset", "escoba", "--players", "4", "--opponents", "expert",
                   "--deck", "italian", "--seed", "3", "--name", "Ada"])  # fmt: skip
    out, _ = capsys.readouterr()
    assert status == 0
    assert "Ada against expert bots" in out and "denari" in out and "Winner:" in out
    assert "End of round 1" in out


def test_the_play_command_refuses_an_unknown_level(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--opponents", "grandmaster"]) == 2
    assert "unknown level 'grandmaster'" in capsys.readouterr().err


def _prompts(text: str) -> int:
    return text.count("Your move> ")


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        ("zz", "cannot read move 'zz'"),
        ("xyz", "not a card: 'xyz'"),
        ("99", "no move 99: choose 1 to"),
        ("0", "no move 0: choose 1 to"),
        ("5Dx5D", "cannot capture itself"),
    ],
)
def test_bad_input_gets_a_message_and_a_new_prompt(answer: str, message: str) -> None:
    game, out = terminal(answers=Answers([answer, "quit"]))
    before = game.game.record()
    assert game.run() == 0
    text = out.getvalue()
    assert message in text
    assert _prompts(text) == 2  # asked again after the bad answer
    assert "You left the match." in text
    assert game.game.record() == before  # seat 0 leads: no move was made


def test_an_illegal_capture_with_a_card_in_hand_is_explained() -> None:
    game, out = terminal(answers=Answers([], then=""))
    hand, table = game.game.hand(0), game.game.table
    illegal = next(
        Move(card, table[:size])
        for card in hand
        for size in range(1, len(table) + 1)
        if Move(card, table[:size]) not in game.game.legal_moves()
    )
    game.stdin = Answers([str(illegal), "quit"])
    game.run()
    text = out.getvalue()
    assert "Illegal: " in text and _prompts(text) == 2
    assert game.game.moves == []


def test_a_card_with_several_captures_asks_which() -> None:
    # Look for a first deal where one card of seat 0 can capture in several ways.
    for seed in range(200):
        game, out = terminal("escoba", seed=seed)
        cards = [move.card for move in game.game.legal_moves()]
        several = [card for card in cards if cards.count(card) > 1]
        if several:
            break
    else:
        pytest.fail("no seed deals a card with several captures")
    card = several[0]
    game.stdin = Answers([str(card), "hint", "help", "", "quit"])
    game.run()
    text = out.getvalue()
    assert f"{card_label(card)} can be played {cards.count(card)} ways" in text
    assert "Hint: " in text
    assert "Commands: hint" in text
    assert _prompts(text) == 5
    assert game.game.moves == []


def test_a_move_by_code_or_by_card_is_played() -> None:
    game, out = terminal(answers=Answers([], then=""))
    first = game.game.legal_moves()
    only = next(m for m in first if [n.card for n in first].count(m.card) == 1)
    game.stdin = Answers([str(only.card).lower()], then="")
    game.run()
    assert game.game.moves[0] == only
    game, out = terminal(answers=Answers([str(first[-1])], then=""))
    game.run()
    assert game.game.moves[0] == first[-1]
    assert out.getvalue().rstrip().endswith("You left the match.")  # end of input


def test_end_of_input_leaves_cleanly(capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", "--seed", "1"]) == 0
    out, err = capsys.readouterr()
    assert "You left the match." in out and err == ""
