"""``scopa serve``: its bad arguments, and a command line that stays light without it."""

from __future__ import annotations

import subprocess
import sys

import pytest

from scopa.cli import main


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--bot-delay", "-1"], "--bot-delay must be 0 or more"),
        (["--turn-timeout", "0"], "--turn-timeout must be more than 0"),
        (["--port", "0", "--db", "nonsense://x"], "--db nonsense://x"),
        (["--lobby-writes", "lots"], "--lobby-writes must be limits"),
        (["--redis", "http://x"], "--redis must be a redis:// URL"),
        (["--bot-queue"], "--bot-queue needs --redis"),
    ],
)
def test_bad_arguments_are_one_line_and_status_2(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("scopa: error: ") and words in err and err.count("\n") == 1


def test_the_command_line_loads_the_server_only_to_serve() -> None:
    code = (
        "import sys, scopa.cli; "
        "print(sorted(m for m in ('fastapi', 'sqlalchemy', 'uvicorn', 'scopa.server') "
        "if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"
