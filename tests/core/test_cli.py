"""The ``scopa`` command: what it prints for presets, deals and replays; how it refuses input."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from scopa import Game, Rules, preset_names
from scopa.cli import main, parse_rule_value
from scopa.looks import card_label


@pytest.fixture(autouse=True)
def _plain_output(monkeypatch: pytest.MonkeyPatch) -> None:
    """No colours and a known width, whatever the terminal running the tests."""
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "160")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def lines_with(text: str, start: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip().startswith(start)]


def numbers(line: str) -> list[int]:
    """The figures of a printed row; a point is ``+1`` and no point is ``·``."""
    return [0 if n == "·" else int(n) for n in re.findall(r"\+?\d+|·", line)]


# -- presets ---------------------------------------------------------------------------


def test_presets_lists_every_preset_and_every_field(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "presets")
    assert status == 0 and err == ""
    for name in preset_names():
        assert f"{name}:" in out  # the description list names each preset in full
    for field in ("capture", "must_capture", "dealer_bonus", "primiera", "target", "teams"):
        assert lines_with(out, field)
    assert "15:1,20:2" in out  # escoba's dealer bonus, in the --rule syntax
    assert "15:1,30:2" in out


# -- deal ------------------------------------------------------------------------------


def test_deal_prints_the_seeded_hands_table_and_roles(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "deal", "--preset", "escoba", "--players", "4", "--seed", "3")
    assert status == 0 and err == ""
    game = Game.new(Rules.preset("escoba", players=4), seed=3)
    for seat in range(4):
        hand = "  ".join(card_label(card) for card in game.hand(seat))
        row = lines_with(out, f"{seat} ")
        assert row and row[0].endswith(hand), (seat, row)
    table = "  ".join(card_label(card) for card in game.table)
    assert f"Table: {table}" in out
    assert f"Dealer: seat {game.dealer}" in out
    assert f"Leader: seat {game.leader}" in out
    assert f"Stock: {game.stock_size} cards" in out
    assert "Side 0 (seats 0, 2); Side 1 (seats 1, 3)" in out
    assert "seed 3" in out


@pytest.mark.parametrize("look", ["italian", "spanish"])
def test_deal_prints_cards_in_the_chosen_look(
    capsys: pytest.CaptureFixture[str], look: str
) -> None:
    status, out, _ = run(capsys, "deal", "--seed", "11", "--deck-look", look)
    assert status == 0
    game = Game.new(Rules.preset("scopa"), seed=11)
    for card in game.hand(0) + game.hand(1) + game.table:
        assert card_label(card, look) in out
    assert "♦" not in out and "♠" not in out


def test_deal_shows_the_escoba_dealer_bonus(capsys: pytest.CaptureFixture[str]) -> None:
    rules = Rules.preset("escoba")
    # The first seed whose first table is a dealer bonus (about one deal in six).
    seed, game = next(
        (seed, game)
        for seed in range(1000)
        if (game := Game.new(rules, seed=seed)).view(None).dealer_bonus
    )
    bonus = game.view(None).dealer_bonus
    status, out, _ = run(capsys, "deal", "--preset", "escoba", "--seed", str(seed))
    assert status == 0
    [line] = lines_with(out, "Dealer bonus:")
    assert "  ".join(card_label(card) for card in bonus) in line
    assert f"scores {game.sweeps[rules.side_of(game.dealer)]} sweep" in line
    assert "Table: -" in out


def test_deal_with_teams_and_rule_overrides(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["deal", "--players", "6", "--teams", "3", "--seed", "1", "--rule", "target=21"]
    status, out, _ = run(capsys, *argv, "--rule", "napola=TRUE")
    assert status == 0
    assert "6 players, 3 sides" in out and "target 21" in out
    assert "Side 2 (seats 2, 5)" in out


def test_rule_values_are_read_by_field_type() -> None:
    assert parse_rule_value("target", " 21 ") == 21
    assert parse_rule_value("last_play_sweep", "yes") is True
    assert parse_rule_value("napola", "False") is False
    assert parse_rule_value("teams", "auto") is None
    assert parse_rule_value("teams", "3") == 3
    assert parse_rule_value("dealer_bonus", "15:1, 30:2") == ((15, 1), (30, 2))
    assert parse_rule_value("dealer_bonus", "none") == ()
    assert parse_rule_value("capture", "fifteen") == "fifteen"


# -- record and replay -----------------------------------------------------------------


@pytest.fixture
def match_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    path = tmp_path / "match.json"
    status, out, _ = run(capsys, "record", "--preset", "scopa", "--seed", "5", "-o", str(path))
    assert status == 0 and f"Wrote {path}" in out
    return path


def test_record_writes_a_record_that_replays(match_file: Path) -> None:
    data = json.loads(match_file.read_text(encoding="utf-8"))
    game = Game.replay(data)
    assert game.is_over
    assert data["seed"] == 5 and data["scores"] == game.scores and data["winner"] == game.winner


def test_record_is_deterministic_for_a_seed(capsys: pytest.CaptureFixture[str]) -> None:
    first = run(capsys, "record", "--preset", "escoba", "--players", "4", "--seed", "8")
    second = run(capsys, "record", "--preset", "escoba", "--players", "4", "--seed", "8")
    assert first[0] == 0 and first[1] == second[1]
    assert json.loads(first[1])["rules"]["players"] == 4
    assert "wins" in first[2]  # the summary goes to stderr when the record goes to stdout


def test_replay_prints_each_round_and_the_winner(
    capsys: pytest.CaptureFixture[str], match_file: Path
) -> None:
    game = Game.replay(json.loads(match_file.read_text(encoding="utf-8")))
    status, out, err = run(capsys, "replay", str(match_file))
    assert status == 0 and err == ""
    rounds = game.round_scores
    assert len(lines_with(out, "Round ")) == len(rounds)
    round_totals = lines_with(out, "round total")
    match_totals = lines_with(out, "match total")
    assert len(round_totals) == len(match_totals) == len(rounds)
    running = [0, 0]
    for number, scores in enumerate(rounds):
        running = [total + score.total for total, score in zip(running, scores, strict=True)]
        assert numbers(round_totals[number]) == [score.total for score in scores]
        assert numbers(match_totals[number]) == running
    primiera = lines_with(out, "primiera")
    assert numbers(primiera[0]) == [
        n for s in rounds[0] for n in (s.primiera_total, s.primiera_suits, s.primiera)
    ]
    cards = lines_with(out, "cards")
    assert numbers(cards[0]) == [n for s in rounds[0] for n in (s.card_count, s.cards)]
    assert game.winner is not None
    assert f"Winner: Seat {game.winner}, {game.scores[0]}-{game.scores[1]}" in out


def test_replay_shows_variant_rows_only_when_the_rules_use_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "variant.json"
    argv = ["record", "--seed", "2", "-o", str(path), "--rule", "re_bello=true"]
    assert main([*argv, "--rule", "napola=true", "--rule", "sevens=true"]) == 0
    capsys.readouterr()
    status, out, _ = run(capsys, "replay", str(path), "--deck-look", "italian")
    assert status == 0
    assert lines_with(out, "re bello R denari") and lines_with(out, "napola")
    assert lines_with(out, "sevens") and not lines_with(out, "primiera")
    plain = run(capsys, "replay", str(path.parent / "variant.json"))[1]
    assert "settebello 7♦" in plain


def test_replay_lists_moves_in_the_chosen_look(
    capsys: pytest.CaptureFixture[str], match_file: Path
) -> None:
    game = Game.replay(json.loads(match_file.read_text(encoding="utf-8")))
    status, out, _ = run(capsys, "replay", str(match_file), "--moves", "--deck-look", "spanish")
    assert status == 0
    plays = lines_with(out, "seat ")
    assert len(plays) == len(game.moves)
    first = game.moves[0]
    assert plays[0].startswith(f"seat 0: {card_label(first.card, 'spanish')}")


def test_replay_reads_standard_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, match_file: Path
) -> None:
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO(match_file.read_text(encoding="utf-8")))
    status, out, _ = run(capsys, "replay", "-")
    assert status == 0 and "Winner:" in out


def test_replay_of_an_unfinished_match(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = Game.new(Rules.preset("scopa"), seed=3)
    for _ in range(5):
        game.play(game.legal_moves()[0])
    path = tmp_path / "partial.json"
    path.write_text(json.dumps(game.record()), encoding="utf-8")
    status, out, _ = run(capsys, "replay", str(path))
    assert status == 0 and "not over" in out


def test_replay_of_a_resigned_match_says_who_resigned(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = Game.new(Rules.preset("scopa"), seed=3)
    for _ in range(5):
        game.play(game.legal_moves()[0])
    game.resign(1)
    path = tmp_path / "resigned.json"
    path.write_text(json.dumps(game.record()), encoding="utf-8")
    status, out, _ = run(capsys, "replay", str(path))
    scores = "-".join(str(score) for score in game.scores)
    assert status == 0 and f"Winner: Seat 0, {scores} (seat 1 resigned)" in out


# -- bad input -------------------------------------------------------------------------


def bad_record(tmp_path: Path, change: dict[str, object]) -> str:
    game = Game.new(Rules.preset("scopa"), seed=1)
    for _ in range(6):
        game.play(game.legal_moves()[0])
    data = game.record() | change
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["deal", "--preset", "nope"], "unknown preset 'nope'; the presets are: scopa, escoba"),
        (["deal", "--players", "5"], "players must be one of 2, 3, 4, 6; got 5"),
        (["deal", "--rule", "target=eleven"], "--rule target: expected a whole number"),
        (["deal", "--rule", "napola=maybe"], "--rule napola: expected true or false"),
        (["deal", "--rule", "colour=red"], "unknown rule 'colour'"),
        (["deal", "--rule", "target"], "--rule expects field=value"),
        (["deal", "--rule", "capture=poker"], "capture must be one of 'sum', 'fifteen'"),
        (["deal", "--rule", "hand_size=7"], "do not deal out 40 cards"),
        (["deal", "--teams", "3"], "teams must be None (automatic) or 2 for 2 players"),
        (["record", "--players", "4", "--rule", "players=2"], "'players' is given more than once"),
        (["deal", "--seed", "-4"], "seed must be a whole number"),
        (["deal", "--seed", "x"], "invalid int value: 'x'"),
        (["deal", "--deck-look", "german"], "invalid choice: 'german'"),
        (["shuffle"], "invalid choice: 'shuffle'"),
        ([], "the following arguments are required"),
        (["replay", "/no/such/file.json"], "cannot read /no/such/file.json"),
    ],
)
def test_bad_input_exits_2_with_one_clear_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert out == ""
    assert err.startswith("scopa: error: ")
    assert err.count("\n") == 1 and err.endswith("\n")
    assert message in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"moves": ["5D", "KSxQQ"]}, "move 1"),
        ({"moves": "5D"}, "'moves' must be a list"),
        ({"rules": {"players": 5}}, "players must be one of 2, 3, 4, 6"),
        ({"rules": "scopa"}, "'rules' must be an object"),
        ({"seed": "one"}, "seed must be a whole number"),
        ({"deck": 7}, "bad record"),
        ({"format": 9}, "unknown record format 9"),
        ({"scores": [11, 0]}, "it says scores [11, 0] but its moves give [0, 0]"),
    ],
)
def test_bad_records_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: dict[str, object], message: str
) -> None:
    status, out, err = run(capsys, "replay", bad_record(tmp_path, change))
    assert (status, out) == (2, "")
    assert err.startswith("scopa: error: bad record in ") and err.count("\n") == 1
    assert message in err


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "is not JSON: Expecting property name"),
        ("[1, 2]", "is not a match record"),
        ("", "is not JSON"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ],
)
def test_files_that_are_not_records_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    path = tmp_path / "record.json"
    path.write_text(text, encoding="utf-8")
    status, _, err = run(capsys, "replay", str(path))
    assert status == 2 and message in err and err.count("\n") == 1


def test_help_and_version_exit_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "--help")[0] == 0
    status, out, _ = run(capsys, "--version")
    assert status == 0 and out.startswith("scopa ")


def test_version_names_the_core_that_runs_and_the_interpreter(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Compiled or pure as the installed modules are (this runs against both forms)."""
    import scopa.round

    compiled = not (scopa.round.__file__ or "").endswith(".py")
    _, out, _ = run(capsys, "--version")
    expected = "compiled core" if compiled else "pure core"
    assert expected in out and f"{sys.implementation.name}" in out.lower()


# -- as a process ----------------------------------------------------------------------


def test_python_dash_m_scopa_records_and_replays_through_a_pipe(tmp_path: Path) -> None:
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "160", "PYTHONIOENCODING": "utf-8"}
    record = subprocess.run(
        [sys.executable, "-m", "scopa", "record", "--preset", "escoba", "--seed", "9"],
        capture_output=True, text=True, env=env, check=False, encoding="utf-8",
    )  # fmt: skip
    assert record.returncode == 0, record.stderr
    replay = subprocess.run(
        [sys.executable, "-m", "scopa", "replay", "-", "--deck-look", "spanish"],
        input=record.stdout, capture_output=True, text=True, env=env, check=False,
        encoding="utf-8",
    )  # fmt: skip
    assert replay.returncode == 0, replay.stderr
    game = Game.replay(json.loads(record.stdout))
    assert len(lines_with(replay.stdout, "round total")) == len(game.round_scores)
    assert "Winner:" in replay.stdout

    bad = subprocess.run(
        [sys.executable, "-m", "scopa", "deal", "--preset", "briscola"],
        capture_output=True, text=True, env=env, check=False, encoding="utf-8",
    )  # fmt: skip
    assert bad.returncode == 2
    assert bad.stdout == ""
    assert bad.stderr.strip().splitlines() == [
        "scopa: error: unknown preset 'briscola'; the presets are: " + ", ".join(preset_names())
    ]


def test_learned_level_without_weights_for_the_rules_exits_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # No weights ship for scopa-classic: the tournament refuses before any match, naming the
    # file, instead of failing at the learned bot's first move with a traceback.
    status, out, err = run(
        capsys, "tournament", "learned", "expert", "--preset", "scopa-classic", "--matches", "1"
    )
    assert (status, out) == (2, "")
    assert err.startswith("scopa: error: ") and err.count("\n") == 1
    assert "scopa-classic-2p.npz" in err
