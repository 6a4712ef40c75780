"""The systemd units in deploy/systemd/, as systemd itself reads them: ``systemd-analyze
verify`` (Debian's systemd package) checks their sections, keys, values and the program they
start, in a root of its own, with no systemd running. And what they start is a command line
that ``scopa`` accepts, so a renamed option cannot leave the units behind."""

from __future__ import annotations

import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from scopa.cli import build_parser

UNITS = Path(__file__).resolve().parents[2] / "deploy" / "systemd"
INSTANCES = {"scopa@.service": "8001", "scopa-bots@.service": "1"}
"""Each template unit and the instance the test names (a port, a worker number)."""
ANALYZE = shutil.which("systemd-analyze")
NO_ANALYZE = "systemd-analyze not found: Debian's systemd package gives it"


def _root(tmp: Path, units: dict[str, str]) -> Path:
    """A file-system root holding ``units`` (name -> text) where systemd looks for them, the
    environment file they read, and a program where they expect ``scopa``."""
    (tmp / "etc" / "systemd" / "system").mkdir(parents=True)
    for name, text in units.items():
        (tmp / "etc" / "systemd" / "system" / name).write_text(text)
    (tmp / "etc" / "scopa").mkdir()
    shutil.copy(UNITS / "scopa.env", tmp / "etc" / "scopa" / "scopa.env")
    program = tmp / "opt" / "scopa" / ".venv" / "bin" / "scopa"
    program.parent.mkdir(parents=True)
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    return tmp


def _verify(root: Path) -> subprocess.CompletedProcess[str]:
    assert ANALYZE is not None
    names = [name.replace("@.", f"@{number}.") for name, number in INSTANCES.items()]
    return subprocess.run(
        [ANALYZE, "verify", "--man=no", "--recursive-errors=no", f"--root={root}", *names],
        capture_output=True, text=True, timeout=60, check=False,
    )


def _repository_units() -> dict[str, str]:
    return {name: (UNITS / name).read_text() for name in INSTANCES}


@pytest.mark.skipif(ANALYZE is None, reason=NO_ANALYZE)
def test_systemd_reads_the_units_without_a_complaint(tmp_path: Path) -> None:
    checked = _verify(_root(tmp_path, _repository_units()))
    assert (checked.returncode, checked.stderr) == (0, "")


@pytest.mark.skipif(ANALYZE is None, reason=NO_ANALYZE)
@pytest.mark.parametrize(
    ("old", "new", "complaint"),
    [
        ("Restart=always", "Restart=sometimes", "Failed to parse service restart specifier"),
        ("Restart=always", "Restrt=always", "Unknown key 'Restrt'"),
        ("/opt/scopa/.venv/bin/scopa", "/opt/scopa/bin/scopa", "is not executable"),
    ],
)
def test_a_broken_unit_is_caught(tmp_path: Path, old: str, new: str, complaint: str) -> None:
    units = _repository_units()
    units["scopa@.service"] = units["scopa@.service"].replace(old, new)
    checked = _verify(_root(tmp_path, units))
    assert checked.returncode != 0 and complaint in checked.stderr


@pytest.mark.parametrize("name", sorted(INSTANCES))
def test_the_units_start_a_command_scopa_accepts(name: str) -> None:
    text = (UNITS / name).read_text().replace("\\\n", " ")
    (line,) = [line for line in text.splitlines() if line.startswith("ExecStart=")]
    env = dict(
        line.split("=", 1)
        for line in (UNITS / "scopa.env").read_text().splitlines()
        if line and not line.startswith("#")
    )
    for key, value in env.items():
        line = line.replace(f"${{{key}}}", value)
    line = line.replace("%i", INSTANCES[name]).replace("%H", "host")
    program, *args = shlex.split(line.removeprefix("ExecStart="))
    assert program == "/opt/scopa/.venv/bin/scopa" and "$" not in line
    parsed = build_parser().parse_args(args)
    assert parsed.command == args[0] and parsed.redis == env["SCOPA_REDIS"]
