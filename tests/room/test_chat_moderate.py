"""``scopa moderate`` on the room's SQLite file while the room runs (issue 23, item 3): it
lists the reports with their context, and silences and bans accounts by name, each with a
reason the account is shown; an unknown name or no reason is one line and exit status 2."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from scopa.cli import main
from scopa.server.client import Lobby, TableConnection

from .server_support import TIMEOUT, Server, anyio_backend

pytestmark = pytest.mark.anyio
__all__ = ["anyio_backend"]

PASSWORD = "a good password"



async def moderate(tmp_path: Path, *args: str) -> int:
    """``scopa moderate ARGS --db`` the server's file, in a thread (it runs its own loop)."""
    argv = ["moderate", *args, "--db", f"sqlite:///{tmp_path / 'room.db'}"]
    return await anyio.to_thread.run_sync(main, argv)


async def test_moderate_lists_reports_and_silences_and_bans_by_name(
    server: Server, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async with Lobby(server.url) as anna:
        answer = await anna.http.post(
            "/api/account/register", json={"name": "Anna", "password": PASSWORD})
        assert answer.status_code == 201
        grant = await anna.play_computer(name="Anna", level="random")
        connection = await TableConnection.open(server.url, grant["table"]["code"],
                                                grant["token"])
        for phrase in ("good_luck", "thanks"):
            await connection.say(phrase)
        said = [await connection.wait_for(lambda m: m["type"] == "said", TIMEOUT)
                for _ in range(2)]
        await connection.report(said[1]["id"])
        await connection.wait_for(lambda m: m["type"] == "reported", TIMEOUT)

        capsys.readouterr()
        assert await moderate(tmp_path, "reports") == 0
        out = capsys.readouterr().out
        assert "report 1 at" in out and f"table {grant['table']['code']}" in out
        assert "    Anna: [good_luck]\n  > Anna: [thanks]\n  reported: Anna: [thanks]" in out

        assert await moderate(tmp_path, "silence", "anna", "--reason", "spam") == 0
        assert "Anna is silenced (quick phrases only): spam" in capsys.readouterr().out
        await connection.say(text="hello")
        error = await connection.wait_for(lambda m: m["type"] == "error", TIMEOUT)
        assert error["code"] == "phrases_only" and "(spam)" in error["message"]
        await connection.close()

        assert await moderate(tmp_path, "ban", "Anna", "--reason", "cheating") == 0
        answer = await anna.http.post(
            "/api/account/login", json={"name": "Anna", "password": PASSWORD})
        assert answer.status_code == 403
        assert answer.json()["detail"] == "a moderator banned this account: cheating"

        capsys.readouterr()
        assert await moderate(tmp_path, "ban", "Nobody", "--reason", "x") == 2
        assert "no account is called 'Nobody'" in capsys.readouterr().err
        assert await moderate(tmp_path, "silence", "Anna", "--reason", "  ") == 2
        assert "--reason must say why" in capsys.readouterr().err
