"""The web client ships with the package: every file under src/scopa/web is matched by a
package-data pattern in pyproject.toml, so an installed `scopa serve` serves all of it."""

from __future__ import annotations

import tomllib
from fnmatch import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_web_file_is_package_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["scopa"]
    package = ROOT / "src" / "scopa"
    files = [p.relative_to(package).as_posix() for p in (package / "web").rglob("*") if p.is_file()]
    assert "web/index.html" in files
    # setuptools' "*" stays within one folder; fnmatch's does not, so the depths must agree.
    missing = [
        f for f in files
        if not any(fnmatch(f, p) and f.count("/") == p.count("/") for p in patterns)
    ]
    assert missing == [], "add these to [tool.setuptools.package-data] in pyproject.toml"
