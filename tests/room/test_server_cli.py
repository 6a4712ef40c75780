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
        (["--login-per-account", "5 a day"], "--login-per-account must be limits"),
        (["--provisional-matches", "-1"], "--provisional-matches must be 0 or more"),
        (["--redis", "http://x"], "--redis must be a redis:// URL"),
        (["--bot-queue"], "--bot-queue needs --redis"),
        (["--review-workers", "0"], "--review-workers must be 1 or more"),
        (["--review-queue", "-2"], "--review-queue must be 1 or more"),
        (["--review-per-address", "many"], "--review-per-address must be limits"),
        (["--review-per-account", "1/fortnight"], "--review-per-account must be limits"),
        (["--vapid-key", "/no/such/key.pem"], "--vapid-key /no/such/key.pem: not a readable"),
        (["--vapid-key", __file__], "not a readable PEM private key"),
        (["--push-subject", "me"], "--push-subject must be a mailto: or https:// address"),
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


def test_the_players_settings_come_from_the_command_line() -> None:
    from scopa.server.run import settings_from

    chosen = settings_from(None, None, None, provisional_matches=3,
                           login_per_address="4/minute", login_per_account="2/minute",
                           register_per_address="1/minute")
    assert (chosen.provisional_matches, chosen.login_per_address, chosen.login_per_account,
            chosen.register_per_address) == (3, "4/minute", "2/minute", "1/minute")
    default = settings_from(None, None, None)
    assert (default.provisional_matches, default.login_per_address,
            default.login_per_account, default.register_per_address) == (
        5, "10/minute;60/hour", "5/minute;30/hour", "5/minute;30/hour")
    with pytest.raises(ValueError, match="--register-per-address must be limits"):
        settings_from(None, None, None, register_per_address="often")


def test_the_reviews_settings_come_from_the_command_line() -> None:
    from scopa.server.run import settings_from

    chosen = settings_from(None, None, None, review_workers=2, review_queue=9,
                           review_per_address="3/minute", review_per_account="7/hour")
    assert (chosen.review_workers, chosen.review_queue, chosen.review_per_address,
            chosen.review_per_account) == (2, 9, "3/minute", "7/hour")
    default = settings_from(None, None, None)
    assert (default.review_workers, default.review_queue, default.review_per_address,
            default.review_per_account) == (1, 4, "10/minute;60/hour", "10/minute;60/hour")
