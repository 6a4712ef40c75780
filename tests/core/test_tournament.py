"""Tournaments: paired deals, reproducible results whatever the number of processes, the
interval arithmetic, and the ``scopa tournament`` command."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest

from scopa import Move, Rules, View
from scopa.cli import main
from scopa.players import _FACTORIES, RandomPlayer
from scopa.tournament import (
    Tournament,
    make_bot,
    match_seeds,
    paired_interval,
    play_game,
    run,
    wilson_interval,
)


def _figures(result: Tournament) -> list[tuple[object, ...]]:
    """Everything about the games but the move times, which vary from run to run."""
    return [
        (r.seed_index, r.seed, r.first_side, r.first_won, r.rounds, r.points, r.sweeps, r.moves)
        for r in result.results
    ]


# -- pairing ---------------------------------------------------------------------------


def test_each_seed_is_played_once_per_side() -> None:
    result = run("greedy", "random", Rules.preset("scopa"), seeds=3, seed=5)
    assert result.games == 6
    seeds = match_seeds(5, 3)
    assert [(r.seed, r.first_side) for r in result.results] == [
        (seed, side) for seed in seeds for side in (0, 1)
    ]
    assert len(set(seeds)) == 3


class _SeatLog:
    """A random player that notes every (seat, hand) it is asked about."""

    def __init__(self, level: str, log: list[tuple[str, int, str]]) -> None:
        self.name = level
        self._log = log
        self._random = RandomPlayer(seed=0)

    def choose(self, view: View) -> Move:
        assert view.seat is not None
        if view.round_number == 0 and not view.plays:
            self._log.append((self.name, view.seat, " ".join(str(c) for c in view.hand)))
        return self._random.choose(view)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_swapped_games_deal_the_same_cards_to_the_other_level(
    monkeypatch: pytest.MonkeyPatch, players: int
) -> None:
    log: list[tuple[str, int, str]] = []
    for level in ("one", "two"):
        monkeypatch.setitem(_FACTORIES, level, lambda seed, level=level: _SeatLog(level, log))
    rules = Rules.preset("scopa", players=players)
    play_game("one", "two", rules, match_seed=77, first_side=0)
    first_game = list(log)
    log.clear()
    play_game("one", "two", rules, match_seed=77, first_side=1)
    second_game = list(log)
    # Only the leader is logged (at the round's first turn): seat 0, with the same hand in
    # both games, played by the first level and then by the second.
    assert first_game == [("one", 0, first_game[0][2])]
    assert second_game == [("two", 0, first_game[0][2])]


def test_the_first_level_holds_every_seat_of_its_side(monkeypatch: pytest.MonkeyPatch) -> None:
    seats: dict[str, set[int]] = {"one": set(), "two": set()}

    class Noting(RandomPlayer):
        def __init__(self, level: str) -> None:
            super().__init__(seed=1)
            self.name = level

        def choose(self, view: View) -> Move:
            assert view.seat is not None
            seats[self.name].add(view.seat)
            return super().choose(view)

    monkeypatch.setitem(_FACTORIES, "one", lambda seed: Noting("one"))
    monkeypatch.setitem(_FACTORIES, "two", lambda seed: Noting("two"))
    rules = Rules.preset("escoba", players=4)
    play_game("one", "two", rules, match_seed=3, first_side=1)
    assert seats == {"one": {1, 3}, "two": {0, 2}}
    seats = {"one": set(), "two": set()}
    three = Rules.preset("scopa", players=3)
    result = play_game("one", "two", three, match_seed=3, first_side=2)
    assert seats == {"one": {2}, "two": {0, 1}}
    assert result.first_side == 2


def test_three_sides_play_each_seed_three_times() -> None:
    result = run("greedy", "random", Rules.preset("scopa", players=3), seeds=2, seed=1)
    assert result.games == 6
    assert [r.first_side for r in result.results] == [0, 1, 2, 0, 1, 2]
    assert result.expected_win_rate == pytest.approx(1 / 3)
    first, second = result.level_stats()
    assert (first.sides, second.sides) == (1, 2)
    assert first.wins + second.wins == 6


# -- reproducibility -------------------------------------------------------------------


def test_results_are_the_same_on_one_or_two_processes() -> None:
    rules = Rules.preset("escoba")
    one = run("expert", "greedy", rules, seeds=4, seed=11, jobs=1)
    two = run("expert", "greedy", rules, seeds=4, seed=11, jobs=2)
    assert _figures(one) == _figures(two)
    assert one.win_rate == two.win_rate
    assert _figures(run("expert", "greedy", rules, seeds=4, seed=12)) != _figures(one)


def test_progress_counts_every_game() -> None:
    done: list[int] = []
    run("greedy", "random", Rules.preset("scopa"), seeds=3, seed=2, progress=done.append)
    assert sum(done) == 6


def test_bad_arguments_are_refused_before_playing() -> None:
    rules = Rules.preset("scopa")
    with pytest.raises(ValueError, match="unknown level"):
        run("greedy", "grandmaster", rules, seeds=1)
    with pytest.raises(ValueError, match="seeds"):
        run("greedy", "random", rules, seeds=0)
    with pytest.raises(ValueError, match="jobs"):
        run("greedy", "random", rules, seeds=1, jobs=0)


# -- statistics ------------------------------------------------------------------------


def test_wilson_interval_matches_known_values() -> None:
    # Values from the closed form (Wilson 1927), as tabulated by Newcombe (1998).
    low, high = wilson_interval(81, 263)
    assert (round(low, 4), round(high, 4)) == (0.2553, 0.3662)
    low, high = wilson_interval(15, 148)
    assert (round(low, 4), round(high, 4)) == (0.0624, 0.1605)
    low, high = wilson_interval(0, 20)
    assert low == 0 and round(high, 4) == 0.1611
    low, high = wilson_interval(20, 20)
    assert round(low, 4) == 0.8389 and high == 1
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_paired_interval_is_the_normal_interval_of_seed_means() -> None:
    # Eight seeds: mean 0.5, sample variance 2/14 (squares 0.25 * 4 + 1 * 0 + ... over 7).
    scores = [1.0, 0.5, 0.5, 0.0, 1.0, 0.5, 0.0, 0.5]
    variance = sum((x - 0.5) ** 2 for x in scores) / 7
    assert variance == pytest.approx(statistics.variance(scores))
    half = 1.959963984540054 * (variance / 8) ** 0.5
    low, high = paired_interval(scores)
    assert low == pytest.approx(0.5 - half) and high == pytest.approx(0.5 + half)
    assert (round(low, 4), round(high, 4)) == (0.2381, 0.7619)
    assert paired_interval([1.0, 1.0, 1.0]) == (1.0, 1.0)
    assert paired_interval([0.5]) == (0.0, 1.0)
    assert paired_interval([0.0, 1.0]) == (0.0, 1.0)  # clipped to [0, 1]


def test_a_tournament_reports_its_figures() -> None:
    result = run("expert", "random", Rules.preset("scopa"), seeds=6, seed=3)
    scores = result.seed_scores()
    assert len(scores) == 6 and all(s in (0.0, 0.5, 1.0) for s in scores)
    assert result.win_rate == pytest.approx(sum(scores) / 6)
    low, high = result.paired_interval
    assert low <= result.win_rate <= high
    first, second = result.level_stats()
    assert first.wins + second.wins == result.games
    assert first.moves > 0 and 0 < first.mean_time <= first.worst_time
    rounds = sum(r.rounds for r in result.results)
    points = sum(r.points[0] for r in result.results)
    assert first.points_per_round == pytest.approx(points / rounds)
    data = json.loads(json.dumps(result.to_dict()))
    assert data["games"] == 12 and data["seeds"] == 6
    assert data["ci95_paired"] == [low, high]
    assert len(data["results"]) == 12 and data["levels"][0]["level"] == "expert"


# -- the command -----------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _plain_output(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "160")


def test_the_command_prints_the_table_and_writes_json_and_plot(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out_json, out_png = tmp_path / "out.json", tmp_path / "out.png"
    status = main(
        [
            "tournament", "greedy", "random", "--preset", "escoba", "--matches", "3",
            "--seed", "4", "--json", str(out_json), "--plot", str(out_png),
        ]
    )  # fmt: skip
    out, err = capsys.readouterr()
    assert status == 0, err
    assert "3 seeds x 2 = 6 matches" in out
    for heading in ("win rate", "95% CI (paired)", "points/round", "sweeps/round", "ms/move"):
        assert heading in out
    assert "Wilson" in out
    data = json.loads(out_json.read_text())
    assert data["games"] == 6 and data["first"] == "greedy"
    wins = round(data["win_rate"] * 6)
    assert f"greedy wins {data['win_rate']:.1%} of 6 matches" in out
    assert f"{wins} / 6" in out
    assert out_png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["tournament", "greedy", "grandmaster"], "unknown level 'grandmaster'"),
        (["tournament", "greedy", "random", "--matches", "0"], "--matches must be 1 or more"),
        (["tournament", "greedy", "random", "--jobs", "0"], "--jobs must be 1 or more"),
        (["tournament", "greedy", "random", "--players", "5"], "players must be one of"),
    ],
)
def test_the_command_refuses_bad_input_in_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert message in err and err.count("\n") == 1 and out == ""


def test_a_bot_file_runs_once_however_many_bots_it_makes(tmp_path: Path) -> None:
    """A tournament makes a bot for every seat of every match; the file's own start-up
    (loading weights, building tables) is paid once a process."""
    runs = tmp_path / "runs.txt"
    bot_file = tmp_path / "my_bot.py"
    bot_file.write_text(
        "from pathlib import Path\n"
        "from scopa.players import RandomPlayer\n"
        f"with Path({str(runs)!r}).open('a') as runs:\n"
        "    runs.write('ran\\n')\n"
        "def player(argument, seed):\n"
        "    return RandomPlayer(seed)\n"
    )
    bots = [make_bot(f"{bot_file}:player", seed=seed) for seed in range(5)]
    assert all(isinstance(bot, RandomPlayer) for bot in bots)
    assert runs.read_text() == "ran\n"
    assert main(["tournament", f"{bot_file}:player", "random", "--matches", "2"]) == 0
    assert runs.read_text() == "ran\n"
