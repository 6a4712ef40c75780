"""Play the same jobs under Pyodide in Node and natively, at once, and compare them.

The runtime and the wheel are the ones ``scripts/pyodide.py`` puts in its folder (it is run
again here, which only checks them, and builds the wheel again when the sources changed, so
Pyodide always runs the sources under test). One Node process runs every job (Pyodide starts
once, in about 2.5 s); this process plays them natively meanwhile, on the other core.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from . import same_game

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
DRIVER = HERE / "pyodide_driver.mjs"
FETCH = ROOT / "scripts" / "pyodide.py"


def fetch_script() -> ModuleType:
    """scripts/pyodide.py as a module: where it puts the files, and its checks."""
    spec = importlib.util.spec_from_file_location("scopa_fetch_pyodide", FETCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class RuntimeMissing(Exception):
    """The runtime is not where scripts/pyodide.py puts it (or fails its hash)."""


def runtime() -> tuple[Path, Path]:
    """The Pyodide folder and the wheel, checked; the wheel rebuilt if the sources changed."""
    fetch = fetch_script()
    dest: Path = fetch.offline_dir()
    tarball = dest / f"pyodide-{fetch.VERSION}.tgz"
    folder = dest / "pyodide"
    if not fetch.tarball_ok(tarball) or not folder.is_dir():
        raise RuntimeMissing(
            f"Pyodide {fetch.VERSION} is not in {dest} (or fails its pinned hash): "
            f"run `python scripts/pyodide.py` (scripts/test.sh does)"
        )
    wanted = fetch.members(tarball)
    for name, body in wanted.items():
        if not (folder / name).is_file() or (folder / name).read_bytes() != body:
            raise RuntimeMissing(f"{folder / name} is not the tarball's: run scripts/pyodide.py")
    wheel: Path = fetch.build_wheel(dest)
    return folder, wheel


@dataclass
class Runs:
    native: dict[str, Any]
    pyodide: dict[str, Any]


def run_both(
    node: str, jobs: list[dict[str, Any]], timeout: float = 600, together: bool = True
) -> Runs:
    """``jobs`` played by Pyodide in one Node process and natively here, at the same time
    (``together=False``: natively first, then Pyodide, so each has a core to itself)."""
    folder, wheel = runtime()
    native = None if together else same_game.play_all(jobs)
    with tempfile.TemporaryDirectory(prefix="scopa-pyodide.") as scratch:
        order = Path(scratch) / "job.json"
        order.write_text(
            json.dumps(
                {
                    "indexURL": str(folder),
                    "wheel": str(wheel),
                    "harness": str(HERE / "same_game.py"),
                    "jobs": jobs,
                }
            )
        )
        answer, errors = Path(scratch) / "answer.json", Path(scratch) / "errors.txt"
        with order.open("rb") as stdin, answer.open("wb") as stdout, errors.open("wb") as stderr:
            command = [node, str(DRIVER)]
            process = subprocess.Popen(command, stdin=stdin, stdout=stdout, stderr=stderr)
            try:
                if native is None:
                    native = same_game.play_all(jobs)
                status = process.wait(timeout)
            finally:
                if process.poll() is None:
                    process.kill()
                    process.wait()
        if status != 0:
            # Emscripten's errors quote the whole one-line module: the end says what failed.
            tail = errors.read_text(errors="replace")[-3000:]
            raise AssertionError(f"Pyodide's run failed with status {status}:\n{tail}")
        pyodide: dict[str, Any] = json.loads(answer.read_text())
    assert native is not None
    return Runs(native, pyodide)


def first_difference(node: str, job: dict[str, Any]) -> str:
    """Where the two transcripts of ``job`` part, with the lines before."""
    runs = run_both(node, [{**job, "verbose": True}])
    mine: list[str] = runs.native["results"][0]["lines"]
    theirs: list[str] = runs.pyodide["results"][0]["lines"]
    for number, (a, b) in enumerate(zip(mine, theirs, strict=False)):
        if a != b:
            before = "\n".join(mine[max(0, number - 3) : number])
            return (
                f"{job}: transcript line {number} differs, after\n{before}\n"
                f"native:  {a[:1500]}\npyodide: {b[:1500]}"
            )
    return f"{job}: transcripts of {len(mine)} and {len(theirs)} lines, one a prefix of the other"


def mismatches(runs: Runs, jobs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    native, pyodide = runs.native["results"], runs.pyodide["results"]
    assert len(native) == len(pyodide) == len(jobs)
    return [
        job
        for job, a, b in zip(jobs, native, pyodide, strict=True)
        if (a["digest"], a["moves"], a["rounds"]) != (b["digest"], b["moves"], b["rounds"])
    ]
