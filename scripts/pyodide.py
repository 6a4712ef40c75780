"""Fetch the pinned Pyodide and build the pure scopa wheel beside it, for offline play (issue 37).

    python scripts/pyodide.py [--dest DIR]

Pyodide comes from the npm registry with the npm client (``npm pack``), and its tarball is
checked here against the pinned sha512 (npm's ``integrity`` string), not only by npm. The files
a page or Node needs to run it are unpacked into ``DIR/pyodide/``; the tarball stays beside
them, so that every run checks it and the unpacked files against it. The wheel is built by pip
from the core and ``players/`` (what ``scopa`` and ``scopa.players`` import, nothing of the
server), pure (``SCOPA_COMPILE=0``: no mypyc), into ``DIR/``. ``DIR/manifest.json`` lists every
file served with its size and sha256, and the size of its gzipped copy in ``DIR/gzip/`` where
one is kept.

``DIR`` is ``$SCOPA_OFFLINE_DIR`` if set, else ``<sys.prefix>/share/scopa/offline``: the
environment scopa is installed in (``.venv`` for a working copy; data files live under
``share/`` there, as Jupyter's do), so ``scopa serve`` from that environment finds it with no
setting, and it is never in git.

Idempotent: with everything in place and matching, a run only checks (about a second). A
corrupt or partial tarball fails its hash and is fetched again; a changed unpacked file is
unpacked again; the wheel is built again only when its sources changed.
"""

from __future__ import annotations

import argparse
import ast
import base64
import fcntl
import gzip
import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from pathlib import Path
from typing import Final

VERSION = "314.0.8"
"""Pyodide's release on the npm registry (CPython 3.14)."""

INTEGRITY = (
    "sha512-74Wq1kXOC+CCEzAfxuRAO701nAcCMLjf8NrwvWpu8S41dVMXwXmLQ05dYB+F4e46AdnGo0oq7YHSVUpHsoarLQ=="
)
"""``npm view pyodide@314.0.8 dist.integrity``: the sha512 of the tarball, base64."""

RUNTIME_FILES = (
    "pyodide.mjs",  # loadPyodide, as an ES module (Node, a module worker)
    "pyodide.js",  # the same for a classic worker (importScripts)
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",  # loadPyodide reads it at start
    "package.json",  # the version and the licence (MPL-2.0)
)
"""The files of the npm package that running the core needs; the rest (source maps, type
declarations, the demo consoles) is left in the tarball."""

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "src" / "scopa"
ENTRY_POINTS = ("scopa", "scopa.players", "scopa.local_table")
"""The wheel holds these packages and every scopa module they import, nothing else."""


def offline_dir() -> Path:
    """Where the runtime and the wheel go (and where ``scopa serve`` may look)."""
    chosen = os.environ.get("SCOPA_OFFLINE_DIR")
    return Path(chosen) if chosen else Path(sys.prefix) / "share" / "scopa" / "offline"


def say(message: str) -> None:
    print(f"scripts/pyodide.py: {message}", file=sys.stderr)


# -- the runtime ----------------------------------------------------------------------------


def integrity_of(data: bytes) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


def tarball_ok(path: Path) -> bool:
    return path.is_file() and integrity_of(path.read_bytes()) == INTEGRITY


def fetch_tarball(path: Path) -> None:
    """``npm pack`` into a temporary folder, checked, then moved into place. npm's cache
    answers a second fetch; when what it gives fails the hash, it is asked once more, online."""
    for attempt in ("", "--prefer-online"):
        with tempfile.TemporaryDirectory(dir=path.parent) as folder:
            command = ["npm", "pack", f"pyodide@{VERSION}", "--silent"]
            command += ["--pack-destination", folder, *([attempt] if attempt else [])]
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL, cwd=folder)
            (packed,) = Path(folder).glob("*.tgz")
            got = integrity_of(packed.read_bytes())
            if got == INTEGRITY:
                os.replace(packed, path)
                return
            say(f"npm gave a tarball of pyodide@{VERSION} with the wrong hash ({got})")
    raise SystemExit(f"scripts/pyodide.py: pyodide@{VERSION} does not match {INTEGRITY}")


def members(tarball: Path) -> dict[str, bytes]:
    """The runtime's files, read from the (checked) tarball."""
    found: dict[str, bytes] = {}
    with tarfile.open(tarball, "r:gz") as archive:
        for member in archive.getmembers():
            name = member.name.removeprefix("package/")
            if name in RUNTIME_FILES and member.isfile():
                extracted = archive.extractfile(member)
                assert extracted is not None
                found[name] = extracted.read()
    missing = set(RUNTIME_FILES) - set(found)
    if missing:
        raise SystemExit(f"scripts/pyodide.py: the tarball lacks {sorted(missing)}")
    return found


def runtime(dest: Path) -> None:
    tarball = dest / f"pyodide-{VERSION}.tgz"
    if tarball_ok(tarball):
        say(f"{tarball.name} matches its pinned hash")
    else:
        if tarball.exists():
            say(f"{tarball.name} fails its pinned hash (corrupt or partial): fetching it again")
            tarball.unlink()
        fetch_tarball(tarball)
        say(f"fetched {tarball.name} ({tarball.stat().st_size} bytes), hash checked")
    folder = dest / "pyodide"
    wanted = members(tarball)
    present = {path.name for path in folder.iterdir()} if folder.is_dir() else set()
    if present == set(wanted) and all(
        (folder / name).read_bytes() == body for name, body in wanted.items()
    ):
        say(f"{folder} holds the tarball's files")
        return
    staging = Path(tempfile.mkdtemp(dir=dest, prefix=".pyodide."))
    staging.chmod(0o755)  # mkdtemp's is 0700; a server run by another user reads these
    for name, body in wanted.items():
        (staging / name).write_bytes(body)
    if folder.exists():
        shutil.rmtree(folder)
    os.replace(staging, folder)
    say(f"unpacked {len(wanted)} files into {folder}")


# -- the wheel ------------------------------------------------------------------------------


def module_file(module: str) -> Path:
    parts = module.split(".")[1:]
    package = SOURCES.joinpath(*parts, "__init__.py")
    return package if package.is_file() else SOURCES.joinpath(*parts).with_suffix(".py")


def imported(module: str, path: Path) -> set[str]:
    """The scopa modules ``module``'s source imports, anywhere in it (functions included)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            found.add(base)
            # ``from . import x`` may name a module.
            found |= {f"{base}.{alias.name}" for alias in node.names}
    closure = set()
    for name in found:
        if name == "scopa" or name.startswith("scopa."):
            while name and not module_file(name).is_file():
                name = name.rpartition(".")[0]
            if name:
                closure.add(name)
    return closure


def wheel_modules() -> list[Path]:
    """The source files of ENTRY_POINTS and of every scopa module they import, with their
    packages' ``__init__``: the import closure, so the server can never slip in."""
    seen: set[str] = set()
    todo = list(ENTRY_POINTS)
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        parts = module.split(".")
        todo += [".".join(parts[:n]) for n in range(1, len(parts))]
        todo += imported(module, module_file(module))
    return sorted(module_file(module) for module in seen)


def build_wheel(dest: Path) -> Path:
    files = [*wheel_modules(), SOURCES / "py.typed"]
    if any(part in {"server", "web", "env", "learning"} for f in files for part in f.parts):
        raise SystemExit(f"scripts/pyodide.py: the wheel would hold more than the core: {files}")
    build = [ROOT / "setup.py", ROOT / "pyproject.toml", ROOT / "README.md", *files]
    digest = hashlib.sha256(sys.version.encode())
    for path in build:
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    # The stamp: the sources' digest, then the wheel's own sha256 (a changed wheel is rebuilt).
    stamp = dest / "scopa-wheel.sha256"
    wheels = sorted(dest.glob("scopa-*.whl"))
    if len(wheels) == 1 and stamp.is_file() and stamp.read_text().split() == [
        digest.hexdigest(),
        hashlib.sha256(wheels[0].read_bytes()).hexdigest(),
    ]:
        say(f"{wheels[0].name} is up to date with its {len(files)} source files")
        return wheels[0]
    with tempfile.TemporaryDirectory(prefix="scopa-wheel.") as folder:
        tree = Path(folder) / "tree"
        for path in build:
            target = tree / path.relative_to(ROOT)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
        # The build backend, when this environment has it: pip then downloads nothing.
        have_backend = importlib.util.find_spec("setuptools") is not None
        isolation = ["--no-build-isolation"] if have_backend else []
        subprocess.run(
            [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", *isolation,
             "--wheel-dir", str(Path(folder) / "dist"), str(tree)],
            check=True,
            env={**os.environ, "SCOPA_COMPILE": "0"},
        )
        (built,) = (Path(folder) / "dist").glob("scopa-*-py3-none-any.whl")
        with zipfile.ZipFile(built) as wheel:
            names = [name for name in wheel.namelist() if name.startswith("scopa/")]
        expected = sorted(str(f.relative_to(SOURCES.parent)) for f in files)
        if sorted(names) != expected:
            raise SystemExit(f"scripts/pyodide.py: the wheel holds {names}, not {expected}")
        for old in wheels:
            old.unlink()
        shutil.copyfile(built, dest / built.name)
    wheel_sha = hashlib.sha256((dest / built.name).read_bytes()).hexdigest()
    stamp.write_text(f"{digest.hexdigest()}\n{wheel_sha}\n")
    say(f"built {built.name} ({(dest / built.name).stat().st_size} bytes, {len(files)} files)")
    return dest / built.name


GZIP_GAIN: Final = 0.9
"""A file is also kept gzipped when that makes it at most this much of its size: the wasm and
the JavaScript shrink to a third or less, the standard library's zip and the wheel (compressed
already) by 2-3%, not worth a second copy."""


def gzipped(dest: Path, path: Path) -> int | None:
    """Keep ``path`` gzipped in ``DIR/gzip/`` (``NAME.gz`` at the same place under it, level
    9, made again only when the file is newer) when that is worth it: the size of the copy, or
    None. The room sends the copy to a browser that accepts gzip, so the first download is
    6.4 MB on the wire, not 13.6 MB, and compressing costs the room nothing at its start."""
    packed_path = dest / "gzip" / f"{path.relative_to(dest)}.gz"
    if packed_path.is_file() and packed_path.stat().st_mtime >= path.stat().st_mtime:
        return packed_path.stat().st_size
    packed = gzip.compress(path.read_bytes(), compresslevel=9, mtime=0)
    if len(packed) > GZIP_GAIN * path.stat().st_size:
        packed_path.unlink(missing_ok=True)
        return None
    packed_path.parent.mkdir(parents=True, exist_ok=True)
    partial = packed_path.with_name(packed_path.name + ".part")
    partial.write_bytes(packed)
    partial.replace(packed_path)  # never a half-written copy under the served name
    return len(packed)


def manifest(dest: Path, wheel: Path) -> None:
    """``manifest.json``: what to serve, with sizes and hashes (for a page's own checks), and
    the size of each file's gzipped copy where one is kept."""
    served = [*sorted((dest / "pyodide").iterdir()), wheel]
    entries: dict[str, dict[str, object]] = {}
    for path in served:
        facts: dict[str, object] = {
            "size": path.stat().st_size,
            "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
        }
        packed = gzipped(dest, path)
        if packed is not None:
            facts["gzip"] = packed
        entries[str(path.relative_to(dest))] = facts
    body = json.dumps(
        {"pyodide": VERSION, "integrity": INTEGRITY, "wheel": wheel.name, "files": entries},
        indent=1,
    ) + "\n"
    target = dest / "manifest.json"
    if not target.is_file() or target.read_text() != body:
        target.write_text(body)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dest", type=Path, default=None, help="default: %(prog)s's docstring")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    dest: Path = args.dest or offline_dir()
    dest.mkdir(parents=True, exist_ok=True)
    # One run at a time in a folder (two test runs at once): the second waits, then checks.
    with (dest / ".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        runtime(dest)
        wheel = build_wheel(dest)
        manifest(dest, wheel)
    say(f"offline play's files are in {dest} ({time.perf_counter() - start:.1f} s)")


if __name__ == "__main__":
    main()
