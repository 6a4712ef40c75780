"""Sets of puzzles as files: one gzipped JSON file per game, the rules written once.

The shipped sets are in ``sets/`` beside this module (``scopa puzzles make`` wrote them, with
the seed each file records). A file's bytes depend only on its puzzles: gzip is told no name
and no time, so making a set again gives the same file.
"""

from __future__ import annotations

import gzip
import json
from importlib import resources
from pathlib import Path
from typing import Any, Final

from ..rules import Rules
from .puzzle import Puzzle

FORMAT: Final = 1
"""The version of the file's layout; a reader refuses another."""


def write(path: Path, preset: str, seed: int, puzzles: list[Puzzle]) -> None:
    """Write ``puzzles`` (all of one preset) to ``path``, gzipped."""
    rules = Rules.preset(preset)
    document: dict[str, Any] = {
        "format": FORMAT,
        "preset": preset,
        "seed": seed,
        "command": f"scopa puzzles make --preset {preset} --count {len(puzzles)} --seed {seed}",
        "rules": rules.to_dict(),
        "puzzles": [puzzle.to_dict() for puzzle in puzzles],
    }
    text = json.dumps(document, separators=(",", ":"), ensure_ascii=False)
    with open(path, "wb") as file, gzip.GzipFile(
        filename="", mode="wb", fileobj=file, mtime=0, compresslevel=9
    ) as packed:
        packed.write(text.encode())


def read(path: Path) -> tuple[int, list[Puzzle]]:
    """The seed and the puzzles of the set at ``path``."""
    return _parse(gzip.decompress(path.read_bytes()), str(path))


def shipped(preset: str) -> list[Puzzle]:
    """The puzzles that come with the package for ``preset`` (scopa or escoba)."""
    if preset not in PRESETS:
        raise ValueError(f"no puzzles ship for {preset!r}; they do for: {', '.join(PRESETS)}")
    found = resources.files(__package__).joinpath("sets", f"{preset}.json.gz")
    return _parse(gzip.decompress(found.read_bytes()), preset)[1]


PRESETS: Final = ("scopa", "escoba")
"""The games whose puzzles ship."""


def _parse(data: bytes, where: str) -> tuple[int, list[Puzzle]]:
    document = json.loads(data)
    if document.get("format") != FORMAT:
        raise ValueError(f"{where}: not a set of puzzles of format {FORMAT}")
    rules = Rules.from_dict(document["rules"])
    return document["seed"], [Puzzle.from_dict(item, rules) for item in document["puzzles"]]
