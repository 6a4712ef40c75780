"""examples/selfplay_agent.py, briefly: it trains on scopa.env, then plays in tournaments as a
bot loaded from its file (``FILE.py:FACTORY:ARGUMENT`` levels)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo", reason="the rl extra is not installed")

from scopa.cli import main as scopa_main
from scopa.tournament import make_bot

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "selfplay_agent.py"


def load_example():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("selfplay_agent", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_example_trains_then_plays_random_and_greedy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    example = load_example()
    agent = tmp_path / "agent.json"
    assert example.main(["--seconds", "2", "--matches", "1", "--out", str(agent)]) == 0
    out = capsys.readouterr().out
    table = json.loads(agent.read_text())
    assert table and all(count >= 1 for _, count in table.values())
    assert "vs random: wins" in out and "vs greedy: wins" in out
    assert "of 2 matches" in out
    # The saved agent is a level of the command line's tournament too.
    level = f"{EXAMPLE}:player:{agent}"
    assert scopa_main(["tournament", level, "random", "--matches", "1"]) == 0
    assert "wins" in capsys.readouterr().out


def test_a_bot_from_a_file_is_checked(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no Python file"):
        make_bot(f"{tmp_path}/missing.py:player")
    with pytest.raises(ValueError, match="has no function 'nobody'"):
        make_bot(f"{EXAMPLE}:nobody")
    with pytest.raises(ValueError, match=r"unknown level 'missing\.py'"):
        make_bot("missing.py")
