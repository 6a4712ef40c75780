"""Where offline play's files are: the section of the room's settings
(``Settings.section(OfflineSettings)``) and the ``scopa serve`` option that sets it."""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path


def default_folder() -> Path:
    """Where ``scripts/pyodide.py`` puts them: ``$SCOPA_OFFLINE_DIR`` if set, else
    ``<sys.prefix>/share/scopa/offline``, the environment scopa runs from."""
    chosen = os.environ.get("SCOPA_OFFLINE_DIR")
    return Path(chosen) if chosen else Path(sys.prefix) / "share" / "scopa" / "offline"


@dataclass(frozen=True)
class OfflineSettings:
    folder: Path = field(default_factory=default_folder)
    """The folder with ``manifest.json``, ``pyodide/`` and the wheel."""


def add_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--offline-dir", metavar="DIR", type=Path,
        help="offline play's files, made by scripts/pyodide.py (default: $SCOPA_OFFLINE_DIR, "
        "else share/scopa/offline in the Python environment)",
    )


def from_flags(args: argparse.Namespace) -> OfflineSettings:
    folder: Path | None = args.offline_dir
    return OfflineSettings() if folder is None else OfflineSettings(folder=folder)
